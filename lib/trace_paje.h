/* trace_paje.h: a run's execution trace (--trace FILE --trace-format paje) as a Paje trace,
 * which ViTE opens and pj_dump (PajeNG) reads: a container per node, holding one per device
 * (its subtasks' executions as states valued by task kind, steals, multi-assigned copies and
 * cancellations as events) and one per other lane of trace_json.h (a device's data waits, a
 * GPU copy engine's copies, the node's incoming transfers, as states). Spans are pushed and
 * popped states; times in seconds from the first recorded event, in order. Containers are
 * aliased n<node> and n<node>_d<device> (device lanes) or n<node>_l<class>_<device>_<sub>
 * (trace_lane_class), which tests/sim/test_paje_check.c relies on. */
#ifndef NW_TOOL_TRACE_PAJE_H
#define NW_TOOL_TRACE_PAJE_H

#include <stddef.h>

#include "narwhal_app.h"
#include "run.h"

/* 0, or -1 with a one-line reason. */
int trace_paje_write(const char *path, const nw_run_result *res, const nw_app *app, char *why,
                     size_t why_len);

#endif
