/* adder_kernels.h: the adder's GPU entry, on device memory, issued on a cudaStream_t and
 * finished on return: adder_cuda.cu where the program is built with CUDA, adder_nocuda.c
 * otherwise. Plain pointers, no views, so that the CUDA file needs no Narwhal header. */
#ifndef NW_APP_ADDER_KERNELS_H
#define NW_APP_ADDER_KERNELS_H

#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif
/* c[i] = a[i] + b[i] for i < count, wrapping; the same call shape on every device. */
typedef struct adder_op {
  const uint64_t *a, *b;
  uint64_t *c;
  uint64_t count;
} adder_op;

/* One subtask: a thread per element. */
void nw_adder_cuda_add(const adder_op *op, void *stream);
#ifdef __cplusplus
}
#endif

#endif
