/* trace_path.c: see trace_path.h. */
#define _POSIX_C_SOURCE 200809L
#include "trace_path.h"

#include <cjson/cJSON.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "text_file.h"
#include "trace_read.h"

#define PATH_USAGE "narwhal critical-path TRACE.json [--top N]"
#define LABEL_LEN 96
#define MAX_TRACE_NODES (1 << 20) /* node numbers past this are no trace narwhal wrote */

/* An execution or a message: it ends on node `to` and began on node `from` (the same node for
 * an execution, the sender for a message). */
typedef struct cause {
  int from, to;
  int message;       /* 0: an execution */
  double start, end; /* microseconds */
  char label[LABEL_LEN];
} cause;

/* One measured piece: a path segment or a message's flight, grouped by label. */
typedef struct piece {
  const char *label;
  double us;
} piece;

static int piece_cmp(const void *a, const void *b) {
  const piece *x = a, *y = b;
  int d = strcmp(x->label, y->label);
  return d ? d : (x->us > y->us) - (x->us < y->us);
}

typedef struct group {
  const char *label;
  size_t count;
  double total, median, p90, max;
} group;

static int group_by_total(const void *a, const void *b) {
  const group *x = a, *y = b;
  return x->total != y->total ? (x->total < y->total) - (x->total > y->total)
                              : strcmp(x->label, y->label);
}

static int group_by_label(const void *a, const void *b) {
  return strcmp(((const group *)a)->label, ((const group *)b)->label);
}

/* Groups pieces (sorted in place by label, then time) into out (room for n); returns how many. */
static size_t gather(piece *p, size_t n, group *out) {
  qsort(p, n, sizeof *p, piece_cmp);
  size_t g = 0;
  for (size_t a = 0, b; a < n; a = b) {
    double total = 0;
    for (b = a; b < n && !strcmp(p[a].label, p[b].label); b++)
      total += p[b].us;
    size_t c = b - a;
    out[g++] = (group){p[a].label, c, total, p[a + c / 2].us, p[a + (c * 9) / 10].us, p[b - 1].us};
  }
  return g;
}

/* Per node, its causes by end time; take_before finds the latest one not yet used (a
 * union-find over each node's list, so the walk stays linear). */
typedef struct node_list {
  size_t *idx, n;
  long *up; /* up[i]: i if unused, else a lower candidate; -1 none */
} node_list;

static const cause *sort_base;
static int by_end(const void *a, const void *b) {
  const cause *x = &sort_base[*(const size_t *)a], *y = &sort_base[*(const size_t *)b];
  if (x->end != y->end)
    return x->end < y->end ? -1 : 1;
  return (*(const size_t *)a > *(const size_t *)b) - (*(const size_t *)a < *(const size_t *)b);
}

static long unused_at_or_below(node_list *l, long i) {
  long r = i;
  while (r >= 0 && l->up[r] != r)
    r = l->up[r];
  while (i >= 0 && l->up[i] != i) { /* path compression */
    long next = l->up[i];
    l->up[i] = r;
    i = next;
  }
  return r;
}

/* The latest unused cause on node n that ended at or before t, marked used; -1 if none. */
static long take_before(node_list *l, const cause *c, double t) {
  long lo = 0, hi = (long)l->n; /* first position whose end is after t */
  while (lo < hi) {
    long mid = lo + (hi - lo) / 2;
    if (c[l->idx[mid]].end <= t)
      lo = mid + 1;
    else
      hi = mid;
  }
  long k = unused_at_or_below(l, lo - 1);
  if (k < 0)
    return -1;
  l->up[k] = k - 1;
  return (long)l->idx[k];
}

static int read_causes(const char *path, cause **out, size_t *count, int *nodes) {
  const cJSON *events;
  cJSON *root = trace_read("critical-path", path, &events);
  if (!root)
    return 2;
  size_t cap = (size_t)cJSON_GetArraySize(events) + 1, n = 0;
  cause *c = malloc(cap * sizeof *c);
  if (!c) {
    cJSON_Delete(root);
    tool_say("critical-path %s: out of memory", path);
    return 1;
  }
  int most = 0;
  const cJSON *e;
  cJSON_ArrayForEach(e, events) {
    trace_event f = trace_event_fields(e);
    const cJSON *ph = f.ph, *cat = f.cat, *name = f.name, *pid = f.pid, *ts = f.ts, *dur = f.dur;
    const cJSON *from = cJSON_GetObjectItemCaseSensitive(f.args, "from");
    if (!cJSON_IsString(ph) || strcmp(ph->valuestring, "X") || !cJSON_IsString(cat) ||
        !cJSON_IsString(name) || !cJSON_IsNumber(pid) || !cJSON_IsNumber(ts) ||
        !cJSON_IsNumber(dur) || pid->valueint < 0 || pid->valueint >= MAX_TRACE_NODES ||
        dur->valuedouble < 0)
      continue;
    int exec = !strcmp(cat->valuestring, "exec"), msg = !strcmp(cat->valuestring, "message");
    if (!exec &&
        !(msg && cJSON_IsNumber(from) && from->valueint >= 0 && from->valueint < MAX_TRACE_NODES))
      continue; /* transfers are the data messages' bytes; waits and copies are not causes */
    cause *k = &c[n++];
    k->to = pid->valueint;
    k->from = exec ? k->to : from->valueint;
    k->message = !exec;
    k->start = ts->valuedouble, k->end = ts->valuedouble + dur->valuedouble;
    if (exec)
      snprintf(k->label, sizeof k->label, "exec %.60s on node %d", name->valuestring, k->to);
    else
      snprintf(k->label, sizeof k->label, "%.60s %d->%d", name->valuestring, k->from, k->to);
    most = k->to > most ? k->to : most;
    most = k->from > most ? k->from : most;
  }
  cJSON_Delete(root);
  if (n == 0) {
    free(c);
    tool_say("critical-path %s: no executions or messages in the trace (a trace of narwhal "
             "run --trace records both)",
             path);
    return 2;
  }
  *out = c, *count = n, *nodes = most + 1;
  return 0;
}

static void print_groups(group *g, size_t n, size_t top, double traced) {
  qsort(g, n, sizeof *g, group_by_total);
  printf("  %6s %10s %7s %10s  %s\n", "share", "total ms", "count", "median us", "segment");
  for (size_t i = 0; i < n && i < top; i++)
    printf("  %5.1f%% %10.3f %7zu %10.2f  %s\n", traced > 0 ? 100 * g[i].total / traced : 0,
           g[i].total / 1e3, g[i].count, g[i].median, g[i].label);
  if (n > top)
    printf("  (%zu more; --top %zu shows them)\n", n - top, n);
}

int trace_path_main(int argc, char **argv) {
  const char *path = NULL;
  size_t top = 20;
  for (int i = 0; i < argc; i++) {
    if (!strcmp(argv[i], "--top") && i + 1 < argc) {
      char *end;
      long v = strtol(argv[++i], &end, 10);
      if (*end || end == argv[i] || v < 1 || v > 1000000) {
        tool_say("critical-path: --top '%.100s': want a whole number from 1 to 1000000", argv[i]);
        return 2;
      }
      top = (size_t)v;
    } else if (!strcmp(argv[i], "--help") || !strcmp(argv[i], "-h")) {
      printf("usage: %s\n", PATH_USAGE);
      return 0;
    } else if (!path && argv[i][0] != '-') {
      path = argv[i];
    } else {
      tool_say("critical-path: '%.200s' is not understood (usage: %s)", argv[i], PATH_USAGE);
      return 2;
    }
  }
  if (!path) {
    tool_say("critical-path: no trace given (usage: %s)", PATH_USAGE);
    return 2;
  }
  cause *c;
  size_t n;
  int nodes, code = read_causes(path, &c, &n, &nodes);
  if (code)
    return code;
  node_list *lists = calloc((size_t)nodes, sizeof *lists);
  size_t *idx = malloc(n * sizeof *idx);
  long *up = malloc(n * sizeof *up);
  piece *segs = malloc((2 * n + 2) * sizeof *segs), *flights = malloc(n * sizeof *flights);
  group *groups = malloc((2 * n + 2) * sizeof *groups);
  char(*gap_labels)[LABEL_LEN] = calloc((size_t)nodes + 1, LABEL_LEN);
  if (!lists || !idx || !up || !segs || !flights || !groups || !gap_labels) {
    tool_say("critical-path %s: out of memory", path);
    code = 1;
    goto done;
  }
  /* Each node's causes by end time, in one array of indices. */
  for (size_t i = 0; i < n; i++)
    lists[c[i].to].n++;
  size_t at = 0;
  for (int k = 0; k < nodes; k++) {
    lists[k].idx = idx + at;
    lists[k].up = up + at;
    at += lists[k].n;
    lists[k].n = 0;
  }
  for (size_t i = 0; i < n; i++)
    lists[c[i].to].idx[lists[c[i].to].n++] = i;
  sort_base = c;
  for (int k = 0; k < nodes; k++) {
    qsort(lists[k].idx, lists[k].n, sizeof *idx, by_end);
    for (size_t i = 0; i < lists[k].n; i++)
      lists[k].up[i] = (long)i;
    snprintf(gap_labels[k], LABEL_LEN, "on node %d, between events", k);
  }
  snprintf(gap_labels[nodes], LABEL_LEN, "before the first event on the path");
  double first = c[0].start, last = c[0].end;
  size_t latest = 0;
  for (size_t i = 0; i < n; i++) {
    first = c[i].start < first ? c[i].start : first;
    if (c[i].end > last)
      last = c[i].end, latest = i;
  }
  /* The walk: from the last cause back, each step to the latest unused one that ended before
   * the current one began on the node where it began. */
  size_t nsegs = 0;
  double t = last;
  int node = c[latest].to;
  long cur = take_before(&lists[node], c, t); /* latest, or one that ended with it */
  while (cur >= 0) {
    const cause *k = &c[cur];
    if (t > k->end)
      segs[nsegs++] = (piece){gap_labels[node], t - k->end};
    segs[nsegs++] = (piece){k->label, k->end - k->start};
    node = k->from, t = k->start;
    cur = take_before(&lists[node], c, t);
  }
  if (t > first)
    segs[nsegs++] = (piece){gap_labels[nodes], t - first};
  size_t nflights = 0;
  for (size_t i = 0; i < n; i++)
    if (c[i].message)
      flights[nflights++] = (piece){c[i].label, c[i].end - c[i].start};

  double traced = last - first;
  printf("narwhal critical-path %s: %.3f ms traced on %d nodes; the path has %zu segments\n", path,
         traced / 1e3, nodes, nsegs);
  print_groups(groups, gather(segs, nsegs, groups), top, traced);
  if (nflights) {
    size_t g = gather(flights, nflights, groups);
    qsort(groups, g, sizeof *groups, group_by_label);
    printf("messages, from sending to handling (microseconds):\n");
    printf("  %7s %9s %9s %9s  %s\n", "count", "median", "p90", "max", "message");
    for (size_t i = 0; i < g; i++)
      printf("  %7zu %9.2f %9.2f %9.2f  %s\n", groups[i].count, groups[i].median, groups[i].p90,
             groups[i].max, groups[i].label);
  } else {
    printf("messages: none in the trace\n");
  }
done:
  free(c), free(lists), free(idx), free(up), free(segs), free(flights), free(groups);
  free(gap_labels);
  return code;
}
