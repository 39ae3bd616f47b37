/* steps.c: see steps.h. */
#include "steps.h"

#define WINDOW (2 * NW_STEPS_BATCH)

/* Waits for steps first..last (1-based, all submitted) in window w, the last one first, and
 * destroys them; returns the first failure in step order. */
static nw_status wait_batch(nw_task **w, uint64_t first, uint64_t last) {
  nw_status newest = nw_task_wait(w[last % WINDOW]); /* the driver sleeps through the batch */
  nw_status st = NW_OK;
  for (uint64_t k = first; k <= last; k++) {
    nw_status s = k == last ? newest : nw_task_wait(w[k % WINDOW]);
    if (st == NW_OK)
      st = s;
    nw_task_destroy(w[k % WINDOW]);
    w[k % WINDOW] = NULL;
  }
  return st;
}

nw_status nw_app_run_steps(uint64_t steps, nw_step_submit submit, void *ctx) {
  nw_task *window[WINDOW] = {NULL};
  nw_status st = NW_OK;
  uint64_t submitted = 0, waited = 0;
  while (st == NW_OK && waited < steps) {
    while (st == NW_OK && submitted < steps && submitted - waited < WINDOW) {
      submitted++;
      st = submit(ctx, submitted, &window[submitted % WINDOW]);
    }
    if (st != NW_OK)
      break;
    uint64_t last = waited + NW_STEPS_BATCH < submitted ? waited + NW_STEPS_BATCH : submitted;
    st = wait_batch(window, waited + 1, last);
    waited = last;
  }
  for (int k = 0; k < WINDOW; k++)
    if (window[k]) {
      nw_task_wait(window[k]);
      nw_task_destroy(window[k]);
    }
  return st;
}
