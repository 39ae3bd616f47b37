/* test_trace_check.c TRACE.json RUN.json: checks a --trace file against the same run's --json.
 * The trace must be Chrome trace JSON (an object whose traceEvents is a list of events, each
 * with a string ph and name, numeric pid, tid and ts >= 0, a dur >= 0 on complete events "X",
 * metadata naming every device lane), hold at least one execution span, and its execution spans
 * per device must add up to that device's busy_s in --json within 1% (1 us for tiny ones). */
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

int main(int argc, char **argv) {
  if (argc != 3)
    return fail("usage: test_trace_check TRACE.json RUN.json");
  cJSON *trace = load(argv[1]), *run = load(argv[2]);
  if (!trace || !run)
    return fail("a file is missing or not JSON");
  const cJSON *events = cJSON_GetObjectItemCaseSensitive(trace, "traceEvents");
  const cJSON *devices = cJSON_GetObjectItemCaseSensitive(run, "devices");
  if (!cJSON_IsArray(events) || !cJSON_IsArray(devices))
    return fail("no traceEvents list in the trace, or no devices list in --json");
  int rows = cJSON_GetArraySize(devices);
  double *busy = calloc((size_t)rows + 1, sizeof *busy);
  int *named = calloc((size_t)rows + 1, sizeof *named);
  int *row_node = calloc((size_t)rows + 1, sizeof *row_node),
      *row_dev = calloc((size_t)rows + 1, sizeof *row_dev);
  for (int i = 0, d = 0; i < rows; i++) {
    const cJSON *row = cJSON_GetArrayItem(devices, i);
    row_node[i] = cJSON_GetObjectItemCaseSensitive(row, "node")->valueint;
    d = i > 0 && row_node[i] == row_node[i - 1] ? d + 1 : 0;
    row_dev[i] = d;
  }
  int spans = 0, instants = 0;
  const cJSON *e;
  cJSON_ArrayForEach(e, events) {
    const cJSON *ph = cJSON_GetObjectItemCaseSensitive(e, "ph");
    const cJSON *name = cJSON_GetObjectItemCaseSensitive(e, "name");
    const cJSON *pid = cJSON_GetObjectItemCaseSensitive(e, "pid");
    const cJSON *tid = cJSON_GetObjectItemCaseSensitive(e, "tid");
    const cJSON *ts = cJSON_GetObjectItemCaseSensitive(e, "ts");
    const cJSON *dur = cJSON_GetObjectItemCaseSensitive(e, "dur");
    const cJSON *cat = cJSON_GetObjectItemCaseSensitive(e, "cat");
    if (!cJSON_IsString(ph) || !cJSON_IsString(name) || !cJSON_IsNumber(pid))
      return fail("an event without a string ph, a string name or a numeric pid");
    if (!strcmp(ph->valuestring, "M")) {
      if (!strcmp(name->valuestring, "thread_name"))
        for (int i = 0; i < rows; i++)
          named[i] |=
              cJSON_IsNumber(tid) && pid->valueint == row_node[i] && tid->valueint == row_dev[i];
      continue;
    }
    if (!cJSON_IsNumber(tid) || !cJSON_IsNumber(ts) || ts->valuedouble < 0)
      return fail("an event without a numeric tid, or without a ts >= 0");
    if (!strcmp(ph->valuestring, "X")) {
      if (!cJSON_IsNumber(dur) || dur->valuedouble < 0)
        return fail("a complete event (X) without a dur >= 0");
      if (cJSON_IsString(cat) && !strcmp(cat->valuestring, "exec")) {
        spans++;
        for (int i = 0; i < rows; i++)
          if (pid->valueint == row_node[i] && tid->valueint == row_dev[i])
            busy[i] += dur->valuedouble / 1e6;
      }
    } else if (!strcmp(ph->valuestring, "i"))
      instants++;
    else
      return fail("an event of a phase other than M, X and i");
  }
  if (spans == 0)
    return fail("no execution span");
  for (int i = 0; i < rows; i++) {
    double want =
        cJSON_GetObjectItemCaseSensitive(cJSON_GetArrayItem(devices, i), "busy_s")->valuedouble;
    printf("node %d device %d: busy_s %.9f, trace %.9f\n", row_node[i], row_dev[i], want, busy[i]);
    if (!named[i])
      return fail("a device lane has no thread_name");
    if (fabs(busy[i] - want) > fmax(0.01 * want, 1e-6))
      return fail("a device's execution spans do not add up to its busy_s (1%)");
  }
  printf("trace_check: %d spans, %d instants; 1 passed, 0 failed\n", spans, instants);
  free(busy), free(named), free(row_node), free(row_dev);
  cJSON_Delete(trace);
  cJSON_Delete(run);
  return 0;
}
