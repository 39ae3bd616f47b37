/* trace_json.c: see trace_json.h. */
#include "trace_json.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* A lane's thread id: a device's is its index; the others lie above any device index. */
static int lane_tid(const trace_lane *l) {
  switch (l->cls) {
  case TRACE_LANE_COPY_IN:
  case TRACE_LANE_COPY_OUT:
    return 100000 + 2 * NW_MAX_GPUS_PER_NODE * l->sub + 2 * l->device +
           (l->cls == TRACE_LANE_COPY_OUT);
  case TRACE_LANE_WAIT:
    return 1000000 + NW_MAX_DEVICES_PER_NODE * l->sub + l->device;
  case TRACE_LANE_NETWORK:
    return 2000000 + l->sub;
  case TRACE_LANE_MESSAGES:
    return 3000000 + l->sub;
  default:
    return l->device;
  }
}

int trace_lane_of_tid(int node, int tid, trace_lane *l) {
  /* lane_tid's ranges, top down: each class's base lies above the largest tid below it. */
  static const struct {
    int base, cls;
  } ranges[] = {{3000000, TRACE_LANE_MESSAGES},
                {2000000, TRACE_LANE_NETWORK},
                {1000000, TRACE_LANE_WAIT},
                {100000, TRACE_LANE_COPY_IN},
                {0, TRACE_LANE_DEVICE}};
  for (size_t i = 0; i < sizeof ranges / sizeof *ranges; i++) {
    if (tid < ranges[i].base)
      continue;
    int at = tid - ranges[i].base, cls = ranges[i].cls;
    *l = (trace_lane){.node = node, .cls = cls};
    if (cls == TRACE_LANE_NETWORK || cls == TRACE_LANE_MESSAGES)
      l->sub = at;
    else if (cls == TRACE_LANE_WAIT)
      l->device = at % NW_MAX_DEVICES_PER_NODE, l->sub = at / NW_MAX_DEVICES_PER_NODE;
    else if (cls == TRACE_LANE_COPY_IN) {
      int per_sub = 2 * NW_MAX_GPUS_PER_NODE;
      l->cls = at % 2 ? TRACE_LANE_COPY_OUT : TRACE_LANE_COPY_IN;
      l->device = at % per_sub / 2, l->sub = at / per_sub;
    } else
      l->device = at;
    return 0;
  }
  return -1;
}

int trace_lane_cmp(const void *a, const void *b) {
  const trace_lane *x = a, *y = b;
  int d = x->node != y->node       ? (x->node > y->node) - (x->node < y->node)
          : x->cls != y->cls       ? (x->cls > y->cls) - (x->cls < y->cls)
          : x->device != y->device ? (x->device > y->device) - (x->device < y->device)
                                   : (x->sub > y->sub) - (x->sub < y->sub);
  return d;
}

typedef struct packed_span {
  trace_lane lane;
  double start, end;
  size_t i;
} packed_span;

static int packed_cmp(const void *a, const void *b) {
  const packed_span *x = a, *y = b;
  int d = trace_lane_cmp(&x->lane, &y->lane);
  if (d)
    return d;
  if (x->start != y->start)
    return x->start < y->start ? -1 : 1;
  if (x->end != y->end)
    return x->end < y->end ? -1 : 1;
  return (x->i > y->i) - (x->i < y->i);
}

trace_lane *trace_lanes(const nw_run_result *res) {
  size_t n = res->ntrace;
  trace_lane *lanes = malloc((n ? n : 1) * sizeof *lanes);
  packed_span *spans = malloc((n ? n : 1) * sizeof *spans);
  double *ends = NULL;
  size_t nspans = 0, cap = 0;
  if (!lanes || !spans)
    goto nomem;
  for (size_t i = 0; i < n; i++) {
    const nw_trace_rec *r = &res->trace[i];
    trace_lane *l = &lanes[i];
    *l = (trace_lane){.node = r->node, .cls = TRACE_LANE_DEVICE, .device = r->device};
    switch (r->kind) {
    case NW_TRACE_DATA_WAIT:
      l->cls = TRACE_LANE_WAIT;
      break;
    case NW_TRACE_COPY_IN:
      l->cls = TRACE_LANE_COPY_IN;
      break;
    case NW_TRACE_COPY_OUT:
      l->cls = TRACE_LANE_COPY_OUT;
      break;
    case NW_TRACE_TRANSFER:
      l->cls = TRACE_LANE_NETWORK, l->device = 0;
      break;
    case NW_TRACE_MESSAGE:
      l->cls = TRACE_LANE_MESSAGES, l->device = 0;
      break;
    default:
      continue; /* executions and instants stay on their device's lane */
    }
    spans[nspans++] = (packed_span){*l, r->start_s, r->end_s, i};
  }
  qsort(spans, nspans, sizeof *spans, packed_cmp);
  /* Per lane, in start order: the first sub-lane free by then, or a new one. */
  for (size_t a = 0, b; a < nspans; a = b) {
    size_t subs = 0;
    for (b = a; b < nspans && trace_lane_cmp(&spans[a].lane, &spans[b].lane) == 0; b++) {
      size_t k = 0;
      while (k < subs && ends[k] > spans[b].start)
        k++;
      if (k == subs) {
        if (subs == cap) {
          size_t grown_cap = cap ? 2 * cap : 16;
          double *grown = realloc(ends, grown_cap * sizeof *grown);
          if (!grown)
            goto nomem;
          ends = grown, cap = grown_cap;
        }
        subs++;
      }
      ends[k] = spans[b].end;
      lanes[spans[b].i].sub = (int)k;
    }
  }
  free(spans);
  free(ends);
  return lanes;
nomem:
  free(lanes);
  free(spans);
  free(ends);
  return NULL;
}

/* The first row of res->devices for `node` (rows go by node), or -1. */
static int first_row(const nw_run_result *res, int node) {
  int lo = 0, hi = res->ndevices;
  while (lo < hi) {
    int mid = lo + (hi - lo) / 2;
    if (res->devices[mid].node < node)
      lo = mid + 1;
    else
      hi = mid;
  }
  return lo < res->ndevices && res->devices[lo].node == node ? lo : -1;
}

void trace_lane_name(const nw_run_result *res, const trace_lane *l, char *out, size_t len) {
  char sub[16] = "";
  if (l->sub > 0)
    snprintf(sub, sizeof sub, " #%d", l->sub + 1);
  switch (l->cls) {
  case TRACE_LANE_WAIT:
    snprintf(out, len, "device %d data wait%s", l->device, sub);
    return;
  case TRACE_LANE_COPY_IN:
  case TRACE_LANE_COPY_OUT:
    snprintf(out, len, "gpu%d copies %s%s", l->device, l->cls == TRACE_LANE_COPY_IN ? "in" : "out",
             sub);
    return;
  case TRACE_LANE_NETWORK:
    snprintf(out, len, "network%s", sub);
    return;
  case TRACE_LANE_MESSAGES:
    snprintf(out, len, "messages in%s", sub);
    return;
  default: {
    int row = first_row(res, l->node);
    row = row >= 0 && row + l->device < res->ndevices &&
                  res->devices[row + l->device].node == l->node && l->device >= 0
              ? row + l->device
              : -1;
    if (row < 0)
      snprintf(out, len, "device %d", l->device);
    else
      snprintf(out, len, "device %d (%s)", l->device,
               res->devices[row].kind == NW_DEVICE_GPU ? "gpu stream" : "cpu");
  }
  }
}

const char *trace_kind_name(const nw_app *app, int k) {
  for (int i = 0; app && app->kinds && app->kinds[i]; i++)
    if (i == k)
      return app->kinds[i]->name;
  return "subtask";
}

static void json_string(FILE *f, const char *s) {
  fputc('"', f);
  for (; *s; s++) {
    if (*s == '"' || *s == '\\')
      fputc('\\', f);
    if ((unsigned char)*s < 0x20)
      fprintf(f, "\\u%04x", (unsigned char)*s);
    else
      fputc(*s, f);
  }
  fputc('"', f);
}

static void thread_name(FILE *f, int *first, int pid, int tid, const char *name) {
  fprintf(f, "%s\n{\"name\":\"thread_name\",\"ph\":\"M\",\"pid\":%d,\"tid\":%d,\"args\":{\"name\":",
          *first ? "" : ",", pid, tid);
  json_string(f, name);
  fprintf(f, "}}");
  *first = 0;
}

trace_lane *trace_lanes_all(const nw_run_result *res, const trace_lane *lanes, size_t *count) {
  size_t n = res->ntrace + (size_t)res->ndevices;
  trace_lane *all = malloc((n ? n : 1) * sizeof *all);
  if (!all)
    return NULL;
  memcpy(all, lanes, res->ntrace * sizeof *all);
  for (int i = 0, d = 0; i < res->ndevices; i++) {
    d = i > 0 && res->devices[i].node == res->devices[i - 1].node ? d + 1 : 0;
    all[res->ntrace + (size_t)i] =
        (trace_lane){.node = res->devices[i].node, .cls = TRACE_LANE_DEVICE, .device = d};
  }
  qsort(all, n, sizeof *all, trace_lane_cmp);
  size_t u = 0;
  for (size_t i = 0; i < n; i++)
    if (u == 0 || trace_lane_cmp(&all[i], &all[u - 1]) != 0)
      all[u++] = all[i];
  *count = u;
  return all;
}

FILE *trace_open(const char *path, const nw_run_result *res, trace_lane **lanes, char *why,
                 size_t why_len) {
  *lanes = trace_lanes(res);
  if (!*lanes) {
    snprintf(why, why_len, "--trace %.300s: out of memory", path);
    return NULL;
  }
  FILE *f = fopen(path, "w");
  if (!f) {
    snprintf(why, why_len, "--trace %.300s: %s", path, strerror(errno));
    free(*lanes);
    *lanes = NULL;
  }
  return f;
}

int trace_close(FILE *f, const char *path, int bad, char *why, size_t why_len) {
  if (fclose(f) != 0 || bad) {
    snprintf(why, why_len, "--trace %.300s: %s", path, bad ? "out of memory" : strerror(errno));
    return -1;
  }
  return 0;
}

/* Every lane's name once: the devices --json lists, and every lane a record is on. */
static int name_lanes(FILE *f, int *first, const nw_run_result *res, const trace_lane *lanes) {
  size_t n;
  trace_lane *all = trace_lanes_all(res, lanes, &n);
  if (!all)
    return -1;
  for (size_t i = 0; i < n; i++) {
    char name[80];
    trace_lane_name(res, &all[i], name, sizeof name);
    thread_name(f, first, all[i].node, lane_tid(&all[i]), name);
  }
  free(all);
  return 0;
}

int trace_json_write(const char *path, const nw_run_result *res, const nw_app *app, char *why,
                     size_t why_len) {
  trace_lane *lanes;
  FILE *f = trace_open(path, res, &lanes, why, why_len);
  if (!f)
    return -1;
  double t0 = 0;
  for (size_t i = 0; i < res->ntrace; i++)
    if (i == 0 || res->trace[i].start_s < t0)
      t0 = res->trace[i].start_s;
  fprintf(f,
          "{\"displayTimeUnit\":\"ms\",\"otherData\":{\"generator\":\"narwhal\","
          "\"complete\":%s,\"t0_s\":%.9f},\n\"traceEvents\":[",
          res->trace_lost ? "false" : "true", t0);
  int first = 1;
  /* Names: a process per node, a thread per lane. */
  for (int node = 0; node < res->nodes; node++) {
    fprintf(f,
            "%s\n{\"name\":\"process_name\",\"ph\":\"M\",\"pid\":%d,\"args\":{\"name\":"
            "\"node %d\"}}",
            first ? "" : ",", node, node);
    first = 0;
  }
  int bad = name_lanes(f, &first, res, lanes);
  for (size_t i = 0; !bad && i < res->ntrace; i++) {
    const nw_trace_rec *r = &res->trace[i];
    double ts = (r->start_s - t0) * 1e6, dur = (r->end_s - r->start_s) * 1e6;
    int copy = r->kind == NW_TRACE_COPY_IN || r->kind == NW_TRACE_COPY_OUT, span = 1;
    fprintf(f, "%s\n{\"ph\":", first ? "" : ",");
    first = 0;
    switch (r->kind) {
    case NW_TRACE_EXEC:
      fprintf(f, "\"X\",\"cat\":\"exec\",\"name\":");
      json_string(f, trace_kind_name(app, r->task_kind));
      break;
    case NW_TRACE_COPY_IN:
    case NW_TRACE_COPY_OUT:
      fprintf(f, "\"X\",\"cat\":\"copy\",\"name\":\"%s\"",
              r->kind == NW_TRACE_COPY_IN ? "copy in" : "copy out");
      break;
    case NW_TRACE_DATA_WAIT:
      fprintf(f, "\"X\",\"cat\":\"wait\",\"name\":\"data wait\"");
      break;
    case NW_TRACE_TRANSFER:
      fprintf(f, "\"X\",\"cat\":\"transfer\",\"name\":\"transfer\"");
      break;
    case NW_TRACE_MESSAGE:
      fprintf(f, "\"X\",\"cat\":\"message\",\"name\":\"%s\"", nw_trace_message_name(r->subtask));
      break;
    default:
      span = 0;
      fprintf(f, "\"i\",\"s\":\"t\",\"cat\":\"sched\",\"name\":\"%s\"",
              r->kind == NW_TRACE_STEAL          ? "steal"
              : r->kind == NW_TRACE_MULTI_ASSIGN ? "multi-assign"
                                                 : "cancel");
    }
    fprintf(f, ",\"pid\":%d,\"tid\":%d,\"ts\":%.3f", r->node, lane_tid(&lanes[i]), ts);
    if (span)
      fprintf(f, ",\"dur\":%.3f", dur);
    if (r->kind == NW_TRACE_TRANSFER)
      fprintf(f, ",\"args\":{\"space\":%llu,\"from\":%d,\"bytes\":%llu}}",
              (unsigned long long)r->task, r->device, (unsigned long long)r->bytes);
    else if (r->kind == NW_TRACE_MESSAGE)
      fprintf(f, ",\"args\":{\"from\":%d,\"type\":%llu,\"task\":%llu,\"bytes\":%llu}}", r->device,
              (unsigned long long)r->subtask, (unsigned long long)r->task,
              (unsigned long long)r->bytes);
    else {
      fprintf(f, ",\"args\":{\"task\":%llu,\"subtask\":%llu", (unsigned long long)r->task,
              (unsigned long long)r->subtask);
      if (copy)
        fprintf(f, ",\"bytes\":%llu", (unsigned long long)r->bytes);
      if (r->kind == NW_TRACE_DATA_WAIT)
        fprintf(f, ",\"device\":%d", r->device);
      fprintf(f, "}}");
    }
  }
  free(lanes);
  fprintf(f, "\n]}\n");
  return trace_close(f, path, bad, why, why_len);
}
