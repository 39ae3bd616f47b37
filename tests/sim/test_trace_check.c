/* test_trace_check.c TRACE.json RUN.json: checks a --trace file against the same run's --json.
 * The trace must be Chrome trace JSON (an object whose traceEvents is a list of events, each
 * with a string ph and name, numeric pid, tid and ts >= 0, a dur >= 0 on complete events "X",
 * metadata naming every device lane and every lane a span is on), hold at least one execution
 * span, the spans of each lane must nest (never overlap in part: the viewers refuse that), and
 * per device its execution spans must add up to its busy_s in --json and its data waits to its
 * demand_wait_s, within 1% (1 us for tiny ones); per node, its transfers' bytes must add up to
 * its bytes_received (no more when stale data was dropped: that is not traced); the messages
 * handled from other nodes (spans of cat "message" with args.from another node) must number
 * the messages_control + messages_data sent, less at most one per device (a request still in
 * flight when the run ended is dropped unhandled), and some must be task starts. */
#include <cjson/cJSON.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static cJSON *load(const char *path) {
  FILE *f = fopen(path, "rb");
  if (!f)
    return NULL;
  fseek(f, 0, SEEK_END);
  long n = ftell(f);
  fseek(f, 0, SEEK_SET);
  char *text = malloc((size_t)n + 1);
  cJSON *j = NULL;
  if (text && fread(text, 1, (size_t)n, f) == (size_t)n) {
    text[n] = '\0';
    j = cJSON_Parse(text);
  }
  free(text);
  fclose(f);
  return j;
}

static int fail(const char *what) {
  printf("trace_check: %s\ntrace_check: 0 passed, 1 failed\n", what);
  return 1;
}

typedef struct span {
  int pid, tid;
  double ts, end;
} span;

static int span_cmp(const void *a, const void *b) {
  const span *x = a, *y = b;
  if (x->pid != y->pid)
    return x->pid - y->pid;
  if (x->tid != y->tid)
    return x->tid - y->tid;
  if (x->ts != y->ts)
    return x->ts < y->ts ? -1 : 1;
  return x->end > y->end ? -1 : x->end < y->end; /* the outer one first */
}

/* Whether the spans of each lane nest: a span starting inside another ends inside it too
 * (within the writer's rounding to a nanosecond). */
static int nested(span *s, size_t n) {
  qsort(s, n, sizeof *s, span_cmp);
  double *stack = malloc((n ? n : 1) * sizeof *stack);
  size_t depth = 0;
  int ok = stack != NULL;
  for (size_t i = 0; ok && i < n; i++) {
    if (i > 0 && (s[i].pid != s[i - 1].pid || s[i].tid != s[i - 1].tid))
      depth = 0;
    while (depth > 0 && stack[depth - 1] <= s[i].ts + 0.002)
      depth--;
    if (depth > 0 && s[i].end > stack[depth - 1] + 0.002) {
      printf("node %d lane %d: the span at %.3f us to %.3f us overlaps one ending at %.3f us\n",
             s[i].pid, s[i].tid, s[i].ts, s[i].end, stack[depth - 1]);
      ok = 0;
    }
    stack[depth++] = s[i].end;
  }
  free(stack);
  return ok;
}

static double number(const cJSON *o, const char *key) {
  const cJSON *v = cJSON_GetObjectItemCaseSensitive(o, key);
  return cJSON_IsNumber(v) ? v->valuedouble : -1;
}

int main(int argc, char **argv) {
  if (argc != 3)
    return fail("usage: test_trace_check TRACE.json RUN.json");
  cJSON *trace = load(argv[1]), *run = load(argv[2]);
  if (!trace || !run)
    return fail("a file is missing or not JSON");
  const cJSON *events = cJSON_GetObjectItemCaseSensitive(trace, "traceEvents");
  const cJSON *devices = cJSON_GetObjectItemCaseSensitive(run, "devices");
  const cJSON *per_node = cJSON_GetObjectItemCaseSensitive(run, "per_node");
  if (!cJSON_IsArray(events) || !cJSON_IsArray(devices) || !cJSON_IsArray(per_node))
    return fail("no traceEvents list in the trace, or no devices or per_node list in --json");
  int rows = cJSON_GetArraySize(devices), nodes = cJSON_GetArraySize(per_node);
  int nevents = cJSON_GetArraySize(events);
  double *busy = calloc((size_t)rows + 1, sizeof *busy),
         *wait = calloc((size_t)rows + 1, sizeof *wait);
  double *received = calloc((size_t)nodes + 1, sizeof *received);
  int *named = calloc((size_t)rows + 1, sizeof *named);
  int *row_node = calloc((size_t)rows + 1, sizeof *row_node),
      *row_dev = calloc((size_t)rows + 1, sizeof *row_dev);
  span *spans = malloc(((size_t)nevents + 1) * sizeof *spans);
  /* (pid, tid) of every thread_name, to check each span's lane has one */
  span *names = malloc(((size_t)nevents + 1) * sizeof *names);
  size_t nspans = 0, nnames = 0;
  for (int i = 0, d = 0; i < rows; i++) {
    const cJSON *row = cJSON_GetArrayItem(devices, i);
    row_node[i] = cJSON_GetObjectItemCaseSensitive(row, "node")->valueint;
    d = i > 0 && row_node[i] == row_node[i - 1] ? d + 1 : 0;
    row_dev[i] = d;
  }
  int execs = 0, waits = 0, transfers = 0, instants = 0, messages = 0, starts = 0;
  const cJSON *e;
  cJSON_ArrayForEach(e, events) {
    const cJSON *ph = cJSON_GetObjectItemCaseSensitive(e, "ph");
    const cJSON *name = cJSON_GetObjectItemCaseSensitive(e, "name");
    const cJSON *pid = cJSON_GetObjectItemCaseSensitive(e, "pid");
    const cJSON *tid = cJSON_GetObjectItemCaseSensitive(e, "tid");
    const cJSON *ts = cJSON_GetObjectItemCaseSensitive(e, "ts");
    const cJSON *dur = cJSON_GetObjectItemCaseSensitive(e, "dur");
    const cJSON *cat = cJSON_GetObjectItemCaseSensitive(e, "cat");
    const cJSON *args = cJSON_GetObjectItemCaseSensitive(e, "args");
    if (!cJSON_IsString(ph) || !cJSON_IsString(name) || !cJSON_IsNumber(pid))
      return fail("an event without a string ph, a string name or a numeric pid");
    if (!strcmp(ph->valuestring, "M")) {
      if (!strcmp(name->valuestring, "thread_name") && cJSON_IsNumber(tid)) {
        names[nnames++] = (span){pid->valueint, tid->valueint, 0, 0};
        for (int i = 0; i < rows; i++)
          named[i] |= pid->valueint == row_node[i] && tid->valueint == row_dev[i];
      }
      continue;
    }
    if (!cJSON_IsNumber(tid) || !cJSON_IsNumber(ts) || ts->valuedouble < 0)
      return fail("an event without a numeric tid, or without a ts >= 0");
    if (!strcmp(ph->valuestring, "X")) {
      if (!cJSON_IsNumber(dur) || dur->valuedouble < 0)
        return fail("a complete event (X) without a dur >= 0");
      spans[nspans++] =
          (span){pid->valueint, tid->valueint, ts->valuedouble, ts->valuedouble + dur->valuedouble};
      const char *c = cJSON_IsString(cat) ? cat->valuestring : "";
      if (!strcmp(c, "exec")) {
        execs++;
        for (int i = 0; i < rows; i++)
          if (pid->valueint == row_node[i] && tid->valueint == row_dev[i])
            busy[i] += dur->valuedouble / 1e6;
      } else if (!strcmp(c, "wait")) {
        waits++;
        int dev = (int)number(args, "device");
        if (dev < 0)
          return fail("a data wait without args.device");
        for (int i = 0; i < rows; i++)
          if (pid->valueint == row_node[i] && dev == row_dev[i])
            wait[i] += dur->valuedouble / 1e6;
      } else if (!strcmp(c, "transfer")) {
        transfers++;
        double bytes = number(args, "bytes"), from = number(args, "from");
        if (bytes <= 0 || from < 0 || from >= nodes || (int)from == pid->valueint)
          return fail("a transfer without bytes > 0 or from another node");
        if (pid->valueint >= 0 && pid->valueint < nodes)
          received[pid->valueint] += bytes;
      } else if (!strcmp(c, "message")) {
        double from = number(args, "from"), type = number(args, "type");
        if (from < 0 || from >= nodes || type <= 0)
          return fail("a message without args.from a node or args.type > 0");
        if ((int)from != pid->valueint)
          messages++;
        starts += !strcmp(name->valuestring, "task start");
      }
    } else if (!strcmp(ph->valuestring, "i"))
      instants++;
    else
      return fail("an event of a phase other than M, X and i");
  }
  if (execs == 0)
    return fail("no execution span");
  qsort(names, nnames, sizeof *names, span_cmp);
  for (size_t i = 0; i < nspans; i++) {
    span key = {spans[i].pid, spans[i].tid, 0, 0};
    if (!bsearch(&key, names, nnames, sizeof *names, span_cmp) &&
        spans[i].tid >= 100000) /* devices past the listed 64 keep a plain tid */
      return fail("a span on a lane without a thread_name");
  }
  if (!nested(spans, nspans))
    return fail("spans of one lane overlap in part");
  for (int i = 0; i < rows; i++) {
    const cJSON *row = cJSON_GetArrayItem(devices, i);
    double want = number(row, "busy_s"), want_wait = number(row, "demand_wait_s");
    printf("node %d device %d: busy_s %.9f, trace %.9f; demand_wait_s %.9f, trace %.9f\n",
           row_node[i], row_dev[i], want, busy[i], want_wait, wait[i]);
    if (!named[i])
      return fail("a device lane has no thread_name");
    if (fabs(busy[i] - want) > fmax(0.01 * want, 1e-6))
      return fail("a device's execution spans do not add up to its busy_s (1%)");
    if (fabs(wait[i] - want_wait) > fmax(0.01 * want_wait, 1e-6))
      return fail("a device's data waits do not add up to its demand_wait_s (1%)");
  }
  int stale = number(run, "stale_data_dropped") > 0;
  for (int k = 0; k < nodes; k++) {
    double want = number(cJSON_GetArrayItem(per_node, k), "bytes_received");
    printf("node %d: bytes_received %.0f, transfers %.0f\n", k, want, received[k]);
    if (stale ? received[k] > want : received[k] != want)
      return fail(stale ? "a node's transfers add up to more than its bytes_received"
                        : "a node's transfers do not add up to its bytes_received");
  }
  double sent = number(run, "messages_control") + number(run, "messages_data");
  printf("messages sent to other nodes %.0f, handled %d (%d task starts)\n", sent, messages,
         starts);
  if (messages > sent || messages < sent - rows || starts == 0)
    return fail("the messages handled do not match those sent (messages_control + "
                "messages_data, less one per device at most), or none is a task start");
  printf("trace_check: %d executions, %d data waits, %d transfers, %d messages, %d instants; 1 "
         "passed, 0 failed\n",
         execs, waits, transfers, messages, instants);
  free(busy), free(wait), free(received), free(named), free(row_node), free(row_dev);
  free(spans), free(names);
  cJSON_Delete(trace);
  cJSON_Delete(run);
  return 0;
}
