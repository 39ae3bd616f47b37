/* trace_json.h: a run's execution trace (--trace FILE) as Chrome trace JSON, which Perfetto
 * (ui.perfetto.dev) and chrome://tracing open: a process per node; a thread per device (its
 * subtasks' executions as spans named after their task kind; steals, multi-assigned copies and
 * cancellations as instants), per device's data waits, per GPU copy engine and direction (its
 * copies), the node's network lane (fetched bytes arriving, a span from the request to the
 * data) and its messages lane (each protocol message it handled, from its sending to its
 * handling, named after its type, with the sender in args.from). otherData.t0_s is the run's
 * clock (the one --json's times and --fail use) at ts 0. Times in microseconds from the
 * first recorded event. The lanes are shared with the Paje writer (trace_paje.h) and `narwhal
 * plot`. */
#ifndef NW_TOOL_TRACE_JSON_H
#define NW_TOOL_TRACE_JSON_H

#include <stddef.h>
#include <stdio.h>

#include "narwhal_app.h"
#include "run.h"

/* 0, or -1 with a one-line reason. */
int trace_json_write(const char *path, const nw_run_result *res, const nw_app *app, char *why,
                     size_t why_len);

/* Where a record is drawn: executions and instants on their device's lane (sub 0); data waits,
 * copies and transfers on lanes of their own, one more (sub 1, 2, ...) wherever spans would
 * overlap, since both viewers need the spans of one lane nested. */
typedef enum {
  TRACE_LANE_DEVICE = 0,
  TRACE_LANE_WAIT = 1,     /* device: the device waiting */
  TRACE_LANE_COPY_IN = 2,  /* device: the GPU */
  TRACE_LANE_COPY_OUT = 3, /* device: the GPU */
  TRACE_LANE_NETWORK = 4,  /* device: 0 */
  TRACE_LANE_MESSAGES = 5, /* device: 0; the messages the node handled */
} trace_lane_class;

typedef struct trace_lane {
  int node, cls, device, sub;
} trace_lane;

/* Each record's lane: lanes[i] for res->trace[i]; malloc'd, NULL when memory runs out. */
trace_lane *trace_lanes(const nw_run_result *res);
/* Every lane a writer names, given each record's (trace_lanes): the devices --json lists and
 * every lane a record is on, sorted (trace_lane_cmp), each once; malloc'd, *count of them,
 * NULL when memory runs out. Both formats lay their lanes out from this one list, so a lane
 * has the same place in either. */
trace_lane *trace_lanes_all(const nw_run_result *res, const trace_lane *lanes, size_t *count);
/* The opening and closing every writer shares, so both formats fail alike ("--trace PATH:
 * why"). trace_open: the file open for writing and each record's lane in *lanes (to free), or
 * NULL with a one-line reason. trace_close: closes it; 0, or -1 with a one-line reason (bad:
 * the writer ran out of memory on the way). */
FILE *trace_open(const char *path, const nw_run_result *res, trace_lane **lanes, char *why,
                 size_t why_len);
int trace_close(FILE *f, const char *path, int bad, char *why, size_t why_len);
/* The lane whose thread id in a Chrome trace is tid (on node's process), as the writer numbers
 * them: 0, or -1 for a tid the writer never gives (negative). `narwhal plot` lays its rows out
 * from this, so the numbering lives in one place. */
int trace_lane_of_tid(int node, int tid, trace_lane *l);
/* Orders lanes by node, then class, device and sub (qsort). */
int trace_lane_cmp(const void *a, const void *b);
/* A lane's name: "device 2 (cpu)", "device 2 data wait", "gpu0 copies in", "network",
 * "messages in", with
 * " #2" and so on for the lanes beside the first. */
void trace_lane_name(const nw_run_result *res, const trace_lane *l, char *out, size_t len);
/* A record's task kind's name, or "subtask" without one. */
const char *trace_kind_name(const nw_app *app, int task_kind);

#endif
