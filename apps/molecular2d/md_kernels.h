/* md_kernels.h: the GPU entries of Molecular2D's kinds, on device memory, issued on a
 * cudaStream_t and finished on return: md_cuda.cu where the program is built with CUDA,
 * md_nocuda.c otherwise. */
#ifndef NW_APP_MD_KERNELS_H
#define NW_APP_MD_KERNELS_H

#include "md_math.h"

#ifdef __cplusplus
extern "C" {
#endif
/* One force subtask: a thread per particle of the cell. */
void nw_md_cuda_force(const md_hood *h, void *stream);
/* `count` force subtasks in one launch (agglomeration): hoods[j] in host memory, holding device
 * pointers, is copied to the device as the kernel's offset array; the launch has `count` times
 * the blocks of one subtask, and each block finds its subtask's hood by its index. */
void nw_md_cuda_force_batch(const md_hood *hoods, int count, void *stream);
/* One integrate subtask: a thread per particle of the cell. */
void nw_md_cuda_move(const md_move *m, void *stream);
#ifdef __cplusplus
}
#endif

#endif
