/* taskbench.h: the Task Bench-style app, the graph of taskbench_graph.h run by
 * Narwhal, one task per timestep.
 *
 * Narwhal has no task dependencies: a task is one timestep of --block (width) subtasks, and
 * tasks run one after another in submission order. Two spaces of `width` cells in turn: step t
 * reads space (t-1) % 2 read-only (the cells its pattern names) and writes its own cell of
 * space t % 2 write-only. --n is the number of steps; `--app-param pattern=NAME` (default
 * stencil_1d) and `--app-param iterations=N` (default 0: empty tasks) choose the rest. In
 * functional mode the final cells are compared with the serial reference (tb_reference).
 */
#ifndef NW_APP_TASKBENCH_H
#define NW_APP_TASKBENCH_H

#include "narwhal_app.h"

typedef struct taskbench_conf {
  int pattern;
  uint64_t width;
  uint64_t step; /* this task writes step `step` (into space 1), reading step - 1 (space 0) */
  uint64_t iterations;
} taskbench_conf;

extern const nw_task_kind nw_taskbench_kind;
extern const nw_app nw_taskbench_app;

#endif
