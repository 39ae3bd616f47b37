/* mtc_ops.c: the many-task worker kernel's operations (include/narwhal_mtc.h) on host memory:
 * what the simulator's modelled workers run in functional mode, so that a kind's descriptors are
 * checked where no GPU is. Each operation computes what backends/real/real_mtc.cu's warp
 * computes, bit for bit: integer additions, and MDLite's float steps in the same order from the
 * same arithmetic (built with -ffp-contract=off, as the device's _rn intrinsics never fuse).
 */
#include "backend.h"
#include "narwhal_mtc.h"

int nw_mtc_run_host(const nw_mtc_task *t) {
  switch (t->op) {
  case NW_MTC_ADD_U64: {
    const uint64_t *a = t->in[0], *b = t->in[1];
    uint64_t *c = t->out;
    if (t->count > 0 && (!a || !b || !c))
      return -1;
    for (uint64_t i = 0; i < t->count; i++)
      c[i] = a[i] + b[i];
    return 0;
  }
  case NW_MTC_MDLITE:
    if (t->count < 1 || t->count > NW_MTC_MD_MAX || !t->in[0] || !t->out)
      return -1;
    nw_mtc_md_segment_host(t->in[0], t->out, t->count, t->steps);
    return 0;
  default:
    return -1;
  }
}
