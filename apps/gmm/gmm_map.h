/* gmm_map.h: one map subtask's work as the kernels see it: plain pointers, no views, so that
 * the CUDA kernel (gmm_cuda.cu) and the host code (gmm_kind.c) share it. */
#ifndef NW_APP_GMM_MAP_H
#define NW_APP_GMM_MAP_H

#include "narwhal.h"

typedef struct gm_map {
  uint64_t points; /* b */
  uint32_t clusters, dims;
  const float *x; /* point i at x + i * ldx */
  uint64_t ldx;
  const double *p; /* cluster m's parameter row at p + m * ldp (gmm.h) */
  uint64_t ldp;
  double *r;    /* scratch: points x clusters responsibilities, point-major */
  double *d;    /* scratch: points x dims differences (the host code reuses the first row) */
  double *acc;  /* scratch (host code): the keys' sums in double */
  int64_t *out; /* the keys (CUDA kernel) */
} gm_map;

#ifdef __cplusplus
extern "C" {
#endif
/* On host memory: the responsibilities into m->r, the sums into m->acc, each key's fixed-point
 * value emitted into `out`, an emitter over all keys (gmm_kind.c). Returns out's refused
 * count. */
uint64_t gm_map_host(const gm_map *m, nw_emitter *out);
/* On device memory, issued on a cudaStream_t and finished on return: every key written into
 * m->out. gmm_cuda.cu where the program is built with CUDA, gmm_nocuda.c otherwise. */
void nw_gmm_cuda_map(const gm_map *m, void *stream);
#ifdef __cplusplus
}
#endif

#endif
