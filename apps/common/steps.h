/* steps.h: running a chain of tasks, one per step, with a window of tasks submitted ahead. */
#ifndef NW_APP_STEPS_H
#define NW_APP_STEPS_H

#include "narwhal.h"

/* Tasks submitted ahead of the one waited for: the next task starts as soon as one completes,
 * without a round trip through the driver, so task ends and starts follow each other closely. */
#define NW_STEPS_WINDOW 8

/* Creates, binds and submits the task of step `step` (1-based) into *out; on failure leaves
 * *out NULL (nothing submitted, nothing to wait for). */
typedef nw_status (*nw_step_submit)(void *ctx, uint64_t step, nw_task **out);

/* Runs steps 1..steps, keeping up to NW_STEPS_WINDOW submitted, waiting for each in order.
 * Returns the first failure; after one, still waits for every task submitted (the runtime
 * fails the queued ones, so those waits return) and destroys them all. */
nw_status nw_app_run_steps(uint64_t steps, nw_step_submit submit, void *ctx);

#endif
