/* cmeans_map.h: one map subtask's work as the kernels see it: plain pointers, no views, so
 * that the CUDA kernel (cmeans_cuda.cu) and the host code (cmeans_kind.c) share it. */
#ifndef NW_APP_CMEANS_MAP_H
#define NW_APP_CMEANS_MAP_H

#include "narwhal.h"

typedef struct cm_map {
  uint64_t points; /* b */
  uint32_t clusters, dims;
  const float *x; /* point i at x + i * ldx */
  uint64_t ldx;
  const float *c; /* centre j at c + j * ldc */
  uint64_t ldc;
  double *w;    /* scratch: points x clusters weights, point-major */
  double *acc;  /* scratch (host code): the keys' sums in double */
  int64_t *out; /* the keys (CUDA kernel) */
} cm_map;

#ifdef __cplusplus
extern "C" {
#endif
/* On host memory: the weights into m->w, the sums into m->acc, each key's fixed-point value
 * emitted into `out`, an emitter over all keys (cmeans_kind.c). Returns out's refused count. */
uint64_t cm_map_host(const cm_map *m, nw_emitter *out);
/* On device memory, issued on a cudaStream_t and finished on return: every key written into
 * m->out. cmeans_cuda.cu where the program is built with CUDA, cmeans_nocuda.c otherwise. */
void nw_cmeans_cuda_map(const cm_map *m, void *stream);
#ifdef __cplusplus
}
#endif

#endif
