/* steps.c: see steps.h. */
#include "steps.h"

nw_status nw_app_run_steps(uint64_t steps, nw_step_submit submit, void *ctx) {
  nw_task *window[NW_STEPS_WINDOW] = {NULL};
  nw_status st = NW_OK;
  uint64_t submitted = 0, waited = 0;
  while (st == NW_OK && waited < steps) {
    while (st == NW_OK && submitted < steps && submitted - waited < NW_STEPS_WINDOW) {
      submitted++;
      st = submit(ctx, submitted, &window[submitted % NW_STEPS_WINDOW]);
    }
    if (st != NW_OK)
      break;
    waited++;
    st = nw_task_wait(window[waited % NW_STEPS_WINDOW]);
    nw_task_destroy(window[waited % NW_STEPS_WINDOW]);
    window[waited % NW_STEPS_WINDOW] = NULL;
  }
  for (int k = 0; k < NW_STEPS_WINDOW; k++)
    if (window[k]) {
      nw_task_wait(window[k]);
      nw_task_destroy(window[k]);
    }
  return st;
}
