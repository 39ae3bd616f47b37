/* trace_json.h: a run's execution trace (--trace FILE) as Chrome trace JSON, which Perfetto
 * (ui.perfetto.dev) and chrome://tracing open: a process per node, a thread per device
 * (its subtasks' executions as spans named after their task kind) and per GPU copy engine (its
 * copies as spans), steals, multi-assigned copies and cancellations as instants on the
 * device's lane. Times in microseconds from the first recorded event. */
#ifndef NW_TOOL_TRACE_JSON_H
#define NW_TOOL_TRACE_JSON_H

#include <stddef.h>

#include "narwhal_app.h"
#include "run.h"

/* 0, or -1 with a one-line reason. */
int trace_json_write(const char *path, const nw_run_result *res, const nw_app *app, char *why,
                     size_t why_len);

#endif
