/* bag.h: a bag of tasks: --n tasks of --block subtasks each, every task writing a space of its
 * own, independent of each other (or, with `--app-param chain=1`, each reading the one before).
 *
 * The program a scheduling study of task graphs starts from: how a policy spreads many small
 * tasks over the devices of a cluster. A subtask does `--app-param flops=F` floating-point
 * operations (default 10^6: a millisecond on a core of 1 GFlop/s, as in platforms/small.xml)
 * as one dependent chain of multiply-adds, and writes one cell of its task's space: its task,
 * its subtask and the chain's result, which the driver checks against the same arithmetic done
 * serially (functional runs). With chain=1, subtask s of task t also reads cell s of task t-1's
 * space and folds it into its result, so a read of the wrong version shows. With
 * `--app-param inputs=K` every task also binds K input spaces read-only (shared by all tasks,
 * so they stay independent), and subtask s adds up cell s of each: a task binds K + 1 spaces
 * (K + 2 in a chain), which is how a program past the runtime's limit on them is tried. With
 * `--app-param sleep_us=U` the CPU kernel also sleeps U microseconds: on hardware, a subtask
 * that waits instead of computing, so that devices sharing a machine's cores (several ranks
 * on one host) keep one pace and a test sees the policy's decisions, not the OS's time
 * slicing. The simulator charges the cost model's flops only.
 */
#ifndef NW_APP_BAG_H
#define NW_APP_BAG_H

#include "narwhal_app.h"

typedef struct bag_conf {
  uint64_t task;  /* 0-based position in the bag */
  uint64_t flops; /* per subtask */
  uint32_t inputs;
  uint32_t chain; /* reads the previous task's space (bound after the inputs) */
  uint32_t sleep_us;
} bag_conf;

/* One cell: the task, the subtask, the result (an input's cells hold the value alone). */
typedef struct bag_cell {
  uint64_t task, subtask;
  double value;
} bag_cell;

extern const nw_task_kind nw_bag_kind;
extern const nw_app nw_bag_app;

/* The value subtask s of task t writes, given what it read (0 without inputs or chain). */
double bag_value(uint64_t task, uint64_t subtask, uint64_t flops, double read);
/* What cell s of input space k holds. */
double bag_input(uint64_t k, uint64_t s);

#endif
