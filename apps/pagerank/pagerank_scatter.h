/* pagerank_scatter.h: one subtask's work, as the GPU kernels see it: plain pointers, no views.
 *
 * A subtask takes pages [first, first + count), zeroes the whole output array, adds each page's
 * share to each of its outlinks' targets, and adds the teleport term to its own pages only:
 * summed over the subtasks of an iteration (the runtime's reduction), that is the whole
 * formula (pagerank_rank.h). It is a map subtask (narwhal.h, "MapReduce"): pages are keys,
 * shares values, summed by PR_OP over PR_TYPE (pagerank.h). The CPU kernel and the modelled GPU's
 * kernel run it on host memory through an emitter (pagerank_kind.c), the CUDA kernel on the device
 * with atomic adds over an array it zeroes itself, ADD's identity (pagerank_cuda.cu).
 */
#ifndef NW_APP_PAGERANK_SCATTER_H
#define NW_APP_PAGERANK_SCATTER_H

#include "narwhal.h"
#include "pagerank_rank.h"

typedef struct pr_scatter {
  pr_graph g;
  uint64_t first, count; /* the subtask's pages */
  const uint64_t *in;    /* in[i]: the rank of page first + i */
  uint64_t *out;         /* out[q]: page q's sum, g.n elements (the CUDA kernel's) */
} pr_scatter;

#ifdef __cplusplus
extern "C" {
#endif
/* On host memory: emits each share and teleport term into `out`, an emitter over keys
 * [0, g.n) (pagerank_kind.c). Returns the emitter's refused count: 0 unless a link leaves the
 * pages. */
uint64_t pr_scatter_host(const pr_scatter *s, nw_emitter *out);
/* On device memory, issued on a cudaStream_t and finished on return: pagerank_cuda.cu where
 * the program is built with CUDA, pagerank_nocuda.c otherwise. */
void nw_pagerank_cuda_scatter(const pr_scatter *s, void *stream);
#ifdef __cplusplus
}
#endif

#endif
