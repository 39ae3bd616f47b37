/* randprog_ref.c: the serial reference: one task of a random program in plain memory, with
 * Unicorn's transactional semantics (paper section 3): every subtask reads the state as it
 * was when the task started, and the task's writes are visible only to later tasks. The
 * generator keeps different subtasks' writes disjoint, so the order they are applied in does
 * not matter. */
#include <stdlib.h>
#include <string.h>

#include "randprog_ref.h"

nw_status rp_ref_task(const rp_program *p, int k, unsigned char *const *state) {
  const rp_task_def *t = &p->task[k];
  unsigned char *start[RP_MAX_SPACES] = {0}, *out[RP_MAX_SPACES] = {0};
  nw_status st = NW_OK;
  for (int b = 0; b < t->nbind; b++) {
    uint32_t size = p->size[t->space[b]];
    out[b] = state[t->space[b]];
    if (!(start[b] = malloc(size))) {
      st = NW_ERR_NOMEM;
      break;
    }
    memcpy(start[b], out[b], size);
  }
  rp_bytes bytes = {
      .kind = RP_PLAIN, .plain_in = (const unsigned char *const *)start, .plain_out = out};
  for (uint32_t j = 0; st == NW_OK && j < t->subtasks; j++)
    rp_run_subtask(t->conf, j, &bytes);
  for (int b = 0; b < t->nbind; b++)
    free(start[b]);
  return st;
}
