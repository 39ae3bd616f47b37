/* trace_json.c: see trace_json.h. */
#include "trace_json.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* The thread id of a GPU's copy engine: above any device index. */
#define COPY_LANE(gpu, out) (100000 + 2 * (gpu) + (out))

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

static const char *kind_name(const nw_app *app, int k) {
  for (int i = 0; app && app->kinds && app->kinds[i]; i++)
    if (i == k)
      return app->kinds[i]->name;
  return "subtask";
}

static void thread_name(FILE *f, int *first, int pid, int tid, const char *name) {
  fprintf(f, "%s\n{\"name\":\"thread_name\",\"ph\":\"M\",\"pid\":%d,\"tid\":%d,\"args\":{\"name\":",
          *first ? "" : ",", pid, tid);
  json_string(f, name);
  fprintf(f, "}}");
  *first = 0;
}

int trace_json_write(const char *path, const nw_run_result *res, const nw_app *app, char *why,
                     size_t why_len) {
  FILE *f = fopen(path, "w");
  if (!f) {
    snprintf(why, why_len, "--trace %.300s: %s", path, strerror(errno));
    return -1;
  }
  double t0 = 0;
  for (size_t i = 0; i < res->ntrace; i++)
    if (i == 0 || res->trace[i].start_s < t0)
      t0 = res->trace[i].start_s;
  fprintf(f,
          "{\"displayTimeUnit\":\"ms\",\"otherData\":{\"generator\":\"narwhal\","
          "\"complete\":%s},\n\"traceEvents\":[",
          res->trace_lost ? "false" : "true");
  int first = 1;
  /* Names: a process per node, a thread per device (as --json lists them) and copy engine. */
  for (int node = 0; node < res->nodes; node++) {
    fprintf(f,
            "%s\n{\"name\":\"process_name\",\"ph\":\"M\",\"pid\":%d,\"args\":{\"name\":"
            "\"node %d\"}}",
            first ? "" : ",", node, node);
    first = 0;
  }
  for (int i = 0, d = 0; i < res->ndevices; i++) {
    d = i > 0 && res->devices[i].node == res->devices[i - 1].node ? d + 1 : 0;
    char name[64];
    snprintf(name, sizeof name, "device %d (%s)", d,
             res->devices[i].kind == NW_DEVICE_GPU ? "gpu stream" : "cpu");
    thread_name(f, &first, res->devices[i].node, d, name);
  }
  for (size_t i = 0; i < res->ntrace; i++) {
    const nw_trace_rec *r = &res->trace[i];
    double ts = (r->start_s - t0) * 1e6, dur = (r->end_s - r->start_s) * 1e6;
    int copy = r->kind == NW_TRACE_COPY_IN || r->kind == NW_TRACE_COPY_OUT;
    int tid = copy ? COPY_LANE(r->device, r->kind == NW_TRACE_COPY_OUT) : r->device;
    fprintf(f, "%s\n{\"ph\":", first ? "" : ",");
    first = 0;
    switch (r->kind) {
    case NW_TRACE_EXEC:
      fprintf(f, "\"X\",\"cat\":\"exec\",\"name\":");
      json_string(f, kind_name(app, r->task_kind));
      break;
    case NW_TRACE_COPY_IN:
    case NW_TRACE_COPY_OUT:
      fprintf(f, "\"X\",\"cat\":\"copy\",\"name\":\"%s\"",
              r->kind == NW_TRACE_COPY_IN ? "copy in" : "copy out");
      break;
    default:
      fprintf(f, "\"i\",\"s\":\"t\",\"cat\":\"sched\",\"name\":\"%s\"",
              r->kind == NW_TRACE_STEAL          ? "steal"
              : r->kind == NW_TRACE_MULTI_ASSIGN ? "multi-assign"
                                                 : "cancel");
    }
    fprintf(f, ",\"pid\":%d,\"tid\":%d,\"ts\":%.3f", r->node, tid, ts);
    if (r->kind <= NW_TRACE_COPY_OUT)
      fprintf(f, ",\"dur\":%.3f", dur);
    fprintf(f, ",\"args\":{\"task\":%llu,\"subtask\":%llu", (unsigned long long)r->task,
            (unsigned long long)r->subtask);
    if (copy)
      fprintf(f, ",\"bytes\":%llu", (unsigned long long)r->bytes);
    fprintf(f, "}}");
  }
  /* The copy engines' names, once each. */
  unsigned char *named = calloc((size_t)NW_MAX_NODES * NW_MAX_GPUS_PER_NODE * 2, 1);
  for (size_t i = 0; named && i < res->ntrace; i++) {
    const nw_trace_rec *r = &res->trace[i];
    int out = r->kind == NW_TRACE_COPY_OUT;
    if ((r->kind != NW_TRACE_COPY_IN && !out) || r->node < 0 || r->node >= NW_MAX_NODES ||
        r->device < 0 || r->device >= NW_MAX_GPUS_PER_NODE)
      continue;
    unsigned char *seen = &named[(r->node * NW_MAX_GPUS_PER_NODE + r->device) * 2 + out];
    if (!*seen) {
      char name[64];
      snprintf(name, sizeof name, "gpu%d copies %s", r->device, out ? "out" : "in");
      thread_name(f, &first, r->node, COPY_LANE(r->device, out), name);
      *seen = 1;
    }
  }
  free(named);
  fprintf(f, "\n]}\n");
  if (fclose(f) != 0) {
    snprintf(why, why_len, "--trace %.300s: %s", path, strerror(errno));
    return -1;
  }
  return 0;
}
