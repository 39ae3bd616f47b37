/* trace_paje.c: see trace_paje.h. */
#include "trace_paje.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "trace_json.h"

/* The event definitions (Paje's header): the ids are what the body's lines start with. */
enum { DEF_CTYPE, DEF_STYPE, DEF_ETYPE, DEF_VALUE, CREATE, DESTROY, SET, PUSH, POP, EVENT };

static const char header[] = "%EventDef PajeDefineContainerType 0\n"
                             "% Alias string\n% Type string\n% Name string\n%EndEventDef\n"
                             "%EventDef PajeDefineStateType 1\n"
                             "% Alias string\n% Type string\n% Name string\n%EndEventDef\n"
                             "%EventDef PajeDefineEventType 2\n"
                             "% Alias string\n% Type string\n% Name string\n%EndEventDef\n"
                             "%EventDef PajeDefineEntityValue 3\n"
                             "% Alias string\n% Type string\n% Name string\n% Color color\n"
                             "%EndEventDef\n"
                             "%EventDef PajeCreateContainer 4\n"
                             "% Time date\n% Alias string\n% Type string\n% Container string\n"
                             "% Name string\n%EndEventDef\n"
                             "%EventDef PajeDestroyContainer 5\n"
                             "% Time date\n% Type string\n% Name string\n%EndEventDef\n"
                             "%EventDef PajeSetState 6\n"
                             "% Time date\n% Type string\n% Container string\n% Value string\n"
                             "%EndEventDef\n"
                             "%EventDef PajePushState 7\n"
                             "% Time date\n% Type string\n% Container string\n% Value string\n"
                             "%EndEventDef\n"
                             "%EventDef PajePopState 8\n"
                             "% Time date\n% Type string\n% Container string\n%EndEventDef\n"
                             "%EventDef PajeNewEvent 9\n"
                             "% Time date\n% Type string\n% Container string\n% Value string\n"
                             "%EndEventDef\n";

/* A name in double quotes; Paje strings have no escapes, so a quote becomes an apostrophe. */
static void quoted(FILE *f, const char *s) {
  fputc('"', f);
  for (; *s; s++)
    fputc(*s == '"' ? '\'' : (unsigned char)*s < 0x20 ? ' ' : *s, f);
  fputc('"', f);
}

static void alias(char *out, size_t len, const trace_lane *l) {
  if (l->cls == TRACE_LANE_DEVICE)
    snprintf(out, len, "n%d_d%d", l->node, l->device);
  else
    snprintf(out, len, "n%d_l%d_%d_%d", l->node, l->cls, l->device, l->sub);
}

/* One line of the body: a span's push or pop, or an instant. At one time, spans that end
 * there pop before anything starts, and an empty span pops right after its push. */
typedef struct point {
  double t;
  int rank; /* 0 pop, 1 instant, 2 an empty span's push then pop, 3 push */
  int pop;
  size_t rec;
} point;

static int point_cmp(const void *a, const void *b) {
  const point *x = a, *y = b;
  if (x->t != y->t)
    return x->t < y->t ? -1 : 1;
  if (x->rank != y->rank)
    return x->rank - y->rank;
  if (x->rec != y->rec)
    return x->rec < y->rec ? -1 : 1;
  return x->pop - y->pop;
}

enum { MESSAGE_TYPES = 64 }; /* message types get Paje values m1 .. m63; m0 any other */

/* The Paje value number of a message type: itself when it is known and below MESSAGE_TYPES. */
static uint64_t message_value(uint64_t type) {
  return type < MESSAGE_TYPES && strcmp(nw_trace_message_name(type), "message") ? type : 0;
}

static const char *state_type(int kind) {
  switch (kind) {
  case NW_TRACE_EXEC:
    return "EX";
  case NW_TRACE_DATA_WAIT:
    return "WT";
  case NW_TRACE_TRANSFER:
    return "NT";
  case NW_TRACE_MESSAGE:
    return "MS";
  default:
    return "CP";
  }
}

static int is_span(int kind) {
  return kind == NW_TRACE_EXEC || kind == NW_TRACE_COPY_IN || kind == NW_TRACE_COPY_OUT ||
         kind == NW_TRACE_DATA_WAIT || kind == NW_TRACE_TRANSFER || kind == NW_TRACE_MESSAGE;
}

static void value(char *out, size_t len, const nw_trace_rec *r, int nkinds) {
  switch (r->kind) {
  case NW_TRACE_EXEC:
    if (r->task_kind >= 0 && r->task_kind < nkinds)
      snprintf(out, len, "k%d", r->task_kind);
    else
      snprintf(out, len, "k_");
    return;
  case NW_TRACE_COPY_IN:
    snprintf(out, len, "ci");
    return;
  case NW_TRACE_COPY_OUT:
    snprintf(out, len, "co");
    return;
  case NW_TRACE_DATA_WAIT:
    snprintf(out, len, "w");
    return;
  case NW_TRACE_TRANSFER:
    snprintf(out, len, "x");
    return;
  case NW_TRACE_MESSAGE: /* one value per type (write_body defines m1, m2, ...) */
    snprintf(out, len, "m%llu", (unsigned long long)message_value(r->subtask));
    return;
  case NW_TRACE_STEAL:
    snprintf(out, len, "st");
    return;
  case NW_TRACE_MULTI_ASSIGN:
    snprintf(out, len, "ma");
    return;
  default:
    snprintf(out, len, "ca");
  }
}

/* The containers: every node, every device --json lists and every lane a record is on,
 * sorted (node, class, device, sub) and unique; NULL when memory runs out. A lane on a node
 * outside the run has no node container to go in, so it is left out. */
static trace_lane *containers(const nw_run_result *res, const trace_lane *lanes, size_t *count) {
  size_t n;
  trace_lane *all = trace_lanes_all(res, lanes, &n);
  if (!all)
    return NULL;
  size_t u = 0;
  for (size_t i = 0; i < n; i++)
    if (all[i].node >= 0 && all[i].node < res->nodes)
      all[u++] = all[i];
  *count = u;
  return all;
}

static const char *const palette[] = {"0.12 0.47 0.71", "0.17 0.63 0.17", "0.58 0.40 0.74",
                                      "0.55 0.34 0.29", "0.89 0.47 0.76", "0.74 0.74 0.13",
                                      "0.09 0.75 0.81", "0.84 0.15 0.16"};

static int write_body(FILE *f, const nw_run_result *res, const nw_app *app,
                      const trace_lane *lanes) {
  int nkinds = 0;
  while (app && app->kinds && app->kinds[nkinds])
    nkinds++;
  size_t nc;
  trace_lane *c = containers(res, lanes, &nc);
  point *pts = malloc((2 * res->ntrace + 1) * sizeof *pts);
  if (!c || !pts) {
    free(c);
    free(pts);
    return -1;
  }
  double t0 = 0, t1 = 0;
  for (size_t i = 0; i < res->ntrace; i++) {
    const nw_trace_rec *r = &res->trace[i];
    if (i == 0 || r->start_s < t0)
      t0 = r->start_s;
    if (i == 0 || r->end_s > t1)
      t1 = r->end_s;
  }
  fprintf(f, "# Written by narwhal --trace-format paje%s\n",
          res->trace_lost ? " (incomplete: memory ran out while recording)" : "");
  fputs(header, f);
  fprintf(f, "%d N 0 \"Node\"\n%d D N \"Device\"\n%d L N \"Lane\"\n", DEF_CTYPE, DEF_CTYPE,
          DEF_CTYPE);
  fprintf(f,
          "%d EX D \"Execution\"\n%d WT L \"Data wait\"\n%d CP L \"Copy\"\n"
          "%d NT L \"Transfer\"\n%d MS L \"Message\"\n%d SC D \"Scheduling\"\n",
          DEF_STYPE, DEF_STYPE, DEF_STYPE, DEF_STYPE, DEF_STYPE, DEF_ETYPE);
  for (int m = 0; m < MESSAGE_TYPES; m++)
    if (m == 0 || message_value((uint64_t)m) != 0)
      fprintf(f, "%d m%d MS \"%s\" \"%s\"\n", DEF_VALUE, m, nw_trace_message_name((uint64_t)m),
              palette[m % (int)(sizeof palette / sizeof *palette)]);
  for (int k = 0; k < nkinds; k++) {
    fprintf(f, "%d k%d EX ", DEF_VALUE, k);
    quoted(f, app->kinds[k]->name);
    fprintf(f, " \"%s\"\n", palette[k % (int)(sizeof palette / sizeof *palette)]);
  }
  fprintf(f,
          "%d k_ EX \"subtask\" \"0.5 0.5 0.5\"\n%d w WT \"data wait\" \"1.0 0.60 0.0\"\n"
          "%d ci CP \"copy in\" \"0.2 0.6 1.0\"\n%d co CP \"copy out\" \"0.0 0.3 0.7\"\n"
          "%d x NT \"transfer\" \"0.6 0.6 0.6\"\n%d st SC \"steal\" \"1.0 0.0 0.0\"\n"
          "%d ma SC \"multi-assign\" \"1.0 0.0 1.0\"\n%d ca SC \"cancel\" \"0.0 0.0 0.0\"\n",
          DEF_VALUE, DEF_VALUE, DEF_VALUE, DEF_VALUE, DEF_VALUE, DEF_VALUE, DEF_VALUE, DEF_VALUE);
  char a[64], v[16], name[80];
  for (int node = 0; node < res->nodes; node++)
    fprintf(f, "%d 0.000000000 n%d N 0 \"node %d\"\n", CREATE, node, node);
  for (size_t i = 0; i < nc; i++) {
    alias(a, sizeof a, &c[i]);
    trace_lane_name(res, &c[i], name, sizeof name);
    fprintf(f, "%d 0.000000000 %s %s n%d ", CREATE, a, c[i].cls == TRACE_LANE_DEVICE ? "D" : "L",
            c[i].node);
    quoted(f, name);
    fputc('\n', f);
  }
  size_t np = 0;
  for (size_t i = 0; i < res->ntrace; i++) {
    const nw_trace_rec *r = &res->trace[i];
    if (r->node < 0 || r->node >= res->nodes)
      continue; /* no container to put it in */
    if (!is_span(r->kind)) {
      pts[np++] = (point){r->start_s, 1, 0, i};
      continue;
    }
    int empty = !(r->end_s > r->start_s);
    pts[np++] = (point){r->start_s, empty ? 2 : 3, 0, i};
    pts[np++] = (point){empty ? r->start_s : r->end_s, empty ? 2 : 0, 1, i};
  }
  qsort(pts, np, sizeof *pts, point_cmp);
  for (size_t i = 0; i < np; i++) {
    const nw_trace_rec *r = &res->trace[pts[i].rec];
    alias(a, sizeof a, &lanes[pts[i].rec]);
    value(v, sizeof v, r, nkinds);
    double t = pts[i].t - t0;
    if (!is_span(r->kind))
      fprintf(f, "%d %.9f SC %s %s\n", EVENT, t, a, v);
    else if (pts[i].pop)
      fprintf(f, "%d %.9f %s %s\n", POP, t, state_type(r->kind), a);
    else
      fprintf(f, "%d %.9f %s %s %s\n", PUSH, t, state_type(r->kind), a, v);
  }
  for (size_t i = 0; i < nc; i++) {
    alias(a, sizeof a, &c[i]);
    fprintf(f, "%d %.9f %s %s\n", DESTROY, t1 - t0, c[i].cls == TRACE_LANE_DEVICE ? "D" : "L", a);
  }
  for (int node = 0; node < res->nodes; node++)
    fprintf(f, "%d %.9f N n%d\n", DESTROY, t1 - t0, node);
  free(c);
  free(pts);
  return 0;
}

int trace_paje_write(const char *path, const nw_run_result *res, const nw_app *app, char *why,
                     size_t why_len) {
  trace_lane *lanes;
  FILE *f = trace_open(path, res, &lanes, why, why_len);
  if (!f)
    return -1;
  int bad = write_body(f, res, app, lanes);
  free(lanes);
  return trace_close(f, path, bad, why, why_len);
}
