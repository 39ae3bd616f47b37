/* steps.h: running a chain of tasks, one per step, with a window of tasks submitted ahead. */
#ifndef NW_APP_STEPS_H
#define NW_APP_STEPS_H

#include "narwhal.h"

/* Tasks are submitted ahead in two batches of NW_STEPS_BATCH: the driver waits for the older
 * batch (its newest task first, so it sleeps through the batch instead of waking per task),
 * destroys it and submits the next, while the newer batch keeps the devices busy. A task ends
 * and the next starts without a round trip through the driver, and the driver's thread takes no
 * core from the kernels between its batches (a wait per task had it spinning for an answer in
 * every step: Task Bench at width = cores, EXPERIMENTS.md). */
#define NW_STEPS_BATCH 32

/* Creates, binds and submits the task of step `step` (1-based) into *out; on failure leaves
 * *out NULL (nothing submitted, nothing to wait for). */
typedef nw_status (*nw_step_submit)(void *ctx, uint64_t step, nw_task **out);

/* Runs steps 1..steps, keeping up to 2 x NW_STEPS_BATCH submitted.
 * Returns the first failure; after one, still waits for every task submitted (the runtime
 * fails the queued ones, so those waits return) and destroys them all. */
nw_status nw_app_run_steps(uint64_t steps, nw_step_submit submit, void *ctx);

#endif
