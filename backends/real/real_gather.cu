/* real_gather.cu: real_gather.h's kernel. */
#include "real_gather.h"

#include <cuda_runtime.h>

/* Grid-stride over rows; within a row each thread moves words of W bytes (W = 16, 8, 4 or 1,
 * the widest that the row's width and both ends' alignment allow), so the link sees long runs
 * of consecutive addresses. */
template <typename W>
__global__ void gather_rows(unsigned char *dst, uint64_t dst_pitch, const unsigned char *src,
                            uint64_t src_pitch, uint64_t rows, uint64_t words) {
  for (uint64_t r = blockIdx.x; r < rows; r += gridDim.x) {
    const W *s = reinterpret_cast<const W *>(src + r * src_pitch);
    W *d = reinterpret_cast<W *>(dst + r * dst_pitch);
    for (uint64_t i = threadIdx.x; i < words; i += blockDim.x)
      d[i] = s[i];
  }
}

static int registered(const unsigned char *p) {
  cudaPointerAttributes a;
  if (cudaPointerGetAttributes(&a, p) != cudaSuccess) {
    cudaGetLastError();
    return 0;
  }
  return a.type == cudaMemoryTypeHost;
}

extern "C" int real_gather_usable(int device, const unsigned char *host, uint64_t host_pitch,
                                  uint64_t rows, uint64_t width) {
  int same = 0;
  if (rows == 0 || width == 0 ||
      cudaDeviceGetAttribute(&same, cudaDevAttrCanUseHostPointerForRegisteredMem, device) !=
          cudaSuccess) {
    cudaGetLastError();
    return 0;
  }
  return same && registered(host) && registered(host + (rows - 1) * host_pitch + width - 1);
}

template <typename W>
static void launch(cudaStream_t s, int to_device, unsigned char *dev, unsigned char *host,
                   uint64_t host_pitch, uint64_t rows, uint64_t width) {
  /* 256 blocks of 256 threads: a few hundred KB of loads in flight, enough to fill the link,
   * while leaving most of the GPU's thread slots to the kernels running beside the copy. */
  unsigned blocks = rows < 256 ? (unsigned)rows : 256u;
  uint64_t words = width / sizeof(W);
  if (to_device)
    gather_rows<W><<<blocks, 256, 0, s>>>(dev, width, host, host_pitch, rows, words);
  else
    gather_rows<W><<<blocks, 256, 0, s>>>(host, host_pitch, dev, width, rows, words);
}

extern "C" int real_gather_copy(void *stream, int to_device, unsigned char *dev,
                                unsigned char *host, uint64_t host_pitch, uint64_t rows,
                                uint64_t width) {
  cudaStream_t s = (cudaStream_t)stream;
  /* The widest word that divides the width, both pitches and both base addresses. */
  uint64_t all = width | host_pitch | (uint64_t)(uintptr_t)host | (uint64_t)(uintptr_t)dev;
  if (all % 16 == 0)
    launch<uint4>(s, to_device, dev, host, host_pitch, rows, width);
  else if (all % 8 == 0)
    launch<uint2>(s, to_device, dev, host, host_pitch, rows, width);
  else if (all % 4 == 0)
    launch<unsigned>(s, to_device, dev, host, host_pitch, rows, width);
  else
    launch<unsigned char>(s, to_device, dev, host, host_pitch, rows, width);
  cudaError_t err = cudaGetLastError();
  if (err == cudaSuccess)
    err = cudaStreamSynchronize(s);
  return (int)err;
}
