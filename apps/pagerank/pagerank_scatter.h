/* pagerank_scatter.h: one subtask's work, as the GPU kernels see it: plain pointers, no views.
 *
 * A subtask takes pages [first, first + count), zeroes the whole output array, adds each page's
 * share to each of its outlinks' targets, and adds the teleport term to its own pages only:
 * summed over the subtasks of an iteration (the runtime's reduction), that is the whole
 * formula (pagerank_rank.h). The CPU kernel and the modelled GPU's kernel run it on host
 * memory (pagerank_kind.c), the CUDA kernel on the device (pagerank_cuda.cu).
 */
#ifndef NW_APP_PAGERANK_SCATTER_H
#define NW_APP_PAGERANK_SCATTER_H

#include "pagerank_rank.h"

typedef struct pr_scatter {
  pr_graph g;
  uint64_t first, count; /* the subtask's pages */
  const uint64_t *in;    /* in[i]: the rank of page first + i */
  uint64_t *out;         /* out[q]: page q's sum, g.n elements */
} pr_scatter;

#ifdef __cplusplus
extern "C" {
#endif
/* On host memory (pagerank_kind.c). */
void pr_scatter_host(const pr_scatter *s);
/* On device memory, issued on a cudaStream_t and finished on return: pagerank_cuda.cu where
 * the program is built with CUDA, pagerank_nocuda.c otherwise. */
void nw_pagerank_cuda_scatter(const pr_scatter *s, void *stream);
#ifdef __cplusplus
}
#endif

#endif
