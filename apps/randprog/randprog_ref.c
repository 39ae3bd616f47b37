/* randprog_ref.c: the serial reference: one task of a random program in plain memory, with
 * Unicorn's transactional semantics (paper section 3): every subtask reads the state as it
 * was when the task started, and the task's writes are visible only to later tasks. The
 * generator keeps different subtasks' writes disjoint except on reduced bindings, so the
 * order they are applied in does not matter there; a reduced binding's subtasks write into a
 * private buffer each, folded into the state in subtask order as the runtime's merge does
 * (core/data/reduce.c): an element no earlier subtask of the task wrote is copied, one that
 * an earlier one wrote is combined with rp_combine. Integer and custom operations are
 * associative and commutative, so subtask order gives the bytes any commit order gives. */
#include <stdlib.h>
#include <string.h>

#include "randprog_ref.h"
#include "reduce.h"

/* Runs body with `off` set to the offset of each element of es bytes in subtask j's write
 * quads of binding b (its quads are whole elements: randprog_gen.c). */
#define FOR_ELEMENTS(conf, h, j, b, es, off, ...)                                                  \
  for (uint32_t i_ = (h).first[j]; i_ < (h).first[(j) + 1]; i_++) {                                \
    rp_quad q_;                                                                                    \
    rp_conf_get_quad(conf, i_, &q_);                                                               \
    if (q_.space != (b) || !(q_.access & NW_WRITE_ONLY))                                           \
      continue;                                                                                    \
    for (uint64_t s_ = 0; s_ < q_.count; s_++)                                                     \
      for (uint64_t k_ = 0; k_ < q_.length; k_ += (es)) {                                          \
        uint64_t off = q_.offset + s_ * q_.step + k_;                                              \
        __VA_ARGS__;                                                                               \
      }                                                                                            \
  }

/* Folds subtask j's result on reduced binding b (in mine) into out. mark[e] is scratch, all 0
 * on entry and exit; done[e] says whether an earlier subtask of the task wrote element e. A
 * subtask's own quads may overlap: each element it wrote is folded once. */
static void fold(const void *conf, const rp_conf_head *h, uint32_t j, uint32_t b, size_t es,
                 const unsigned char *mine, unsigned char *out, unsigned char *mark,
                 unsigned char *done) {
  FOR_ELEMENTS(conf, *h, j, b, es, off, mark[off / es] = 1);
  FOR_ELEMENTS(conf, *h, j, b, es, off, {
    if (!mark[off / es])
      continue;
    mark[off / es] = 0;
    if (done[off / es])
      rp_combine(conf, b, out + off, mine + off, off, es);
    else
      memcpy(out + off, mine + off, es);
    done[off / es] = 1;
  });
}

nw_status rp_ref_task(const rp_program *p, int k, unsigned char *const *state) {
  const rp_task_def *t = &p->task[k];
  rp_conf_head h;
  rp_conf_get_head(t->conf, &h);
  unsigned char *start[RP_MAX_SPACES] = {0}, *out[RP_MAX_SPACES] = {0};
  unsigned char *mine[RP_MAX_SPACES] = {0}, *mark[RP_MAX_SPACES] = {0}, *done[RP_MAX_SPACES] = {0};
  nw_status st = NW_OK;
  for (int b = 0; st == NW_OK && b < t->nbind; b++) {
    uint32_t size = p->size[t->space[b]];
    if (!(start[b] = malloc(size))) {
      st = NW_ERR_NOMEM;
      break;
    }
    memcpy(start[b], state[t->space[b]], size);
    out[b] = state[t->space[b]];
    if (h.red[b].op) {
      mine[b] = malloc(size);
      mark[b] = calloc(size, 1);
      done[b] = calloc(size, 1);
      st = mine[b] && mark[b] && done[b] ? NW_OK : NW_ERR_NOMEM;
      out[b] = mine[b];
    }
  }
  rp_bytes bytes = {
      .kind = RP_PLAIN, .plain_in = (const unsigned char *const *)start, .plain_out = out};
  for (uint32_t j = 0; st == NW_OK && j < t->subtasks; j++) {
    rp_run_subtask(t->conf, j, &bytes);
    for (int b = 0; b < t->nbind; b++)
      if (h.red[b].op)
        fold(t->conf, &h, j, (uint32_t)b, nw_reduce_elem_size((nw_elem_type)h.red[b].type), mine[b],
             state[t->space[b]], mark[b], done[b]);
  }
  for (int b = 0; b < t->nbind; b++) {
    free(start[b]);
    free(mine[b]);
    free(mark[b]);
    free(done[b]);
  }
  return st;
}
