/* mdlite_kernels.h: one group's segment as every kernel sees it, and the GPU entry, on device
 * memory, issued on a cudaStream_t and finished on return: mdlite_cuda.cu where the program is
 * built with CUDA, mdlite_nocuda.c otherwise. Plain pointers, no views, so that the CUDA file
 * needs no Narwhal header. */
#ifndef NW_APP_MDLITE_KERNELS_H
#define NW_APP_MDLITE_KERNELS_H

#include <stdint.h>

#include "narwhal_mtc.h"

#define MDLITE_GROUP_MAX 32 /* particles a group: one GPU thread each, one warp */

#ifdef __cplusplus
extern "C" {
#endif
/* A particle as the spaces hold it (mdlite.h): the many-task operation's (narwhal_mtc.h). */
typedef nw_mtc_particle mdlite_particle;

/* One subtask: `count` particles (1 to 32) read at `in`, their state after `steps` steps
 * written at `out` (another space: never the same bytes). */
typedef struct mdlite_group {
  const mdlite_particle *in;
  mdlite_particle *out;
  uint32_t count;
  uint64_t steps;
} mdlite_group;

/* One subtask in one launch: a block of `count` threads, a thread per particle. */
void nw_mdlite_cuda_segment(const mdlite_group *g, void *stream);
#ifdef __cplusplus
}
#endif

#endif
