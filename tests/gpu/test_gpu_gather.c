/* test_gpu_gather.c: narrow rows gathered and scattered by a kernel (backends/real/
 * real_gather.cu) on this machine's CUDA GPU, bit for bit: blocks of rows 4 B to 64 KiB wide
 * (odd widths and odd offsets too, which take the narrower words) copied from registered host
 * memory into packed device rows and back out into other host rows, whose bytes between the
 * rows must stay untouched; unregistered memory is refused (real_gather_usable). Exit 77
 * (skipped) where no GPU is present. Written where no GPU was lent. */
#define _POSIX_C_SOURCE 200809L
#include <cuda_runtime.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "real_gather.h"

static void cuda_ok(cudaError_t err, const char *what) {
  if (err != cudaSuccess) {
    fprintf(stderr, "gpu_gather: %s: %s\n", what, cudaGetErrorString(err));
    exit(1);
  }
}

enum { HOST = 8 << 20 };

int main(void) {
  int gpus = 0;
  if (cudaGetDeviceCount(&gpus) != cudaSuccess || gpus == 0) {
    printf("gpu_gather: skipped: no CUDA GPU on this machine\n");
    return 77;
  }
  cuda_ok(cudaSetDevice(0), "cudaSetDevice");
  cudaStream_t stream;
  cuda_ok(cudaStreamCreateWithFlags(&stream, cudaStreamNonBlocking), "cudaStreamCreate");
  unsigned char *src = NULL, *dst = NULL, *plain = malloc(4096), *dev = NULL;
  unsigned char *packed = malloc(HOST);
  if (posix_memalign((void **)&src, 4096, HOST) || posix_memalign((void **)&dst, 4096, HOST) ||
      !plain || !packed) {
    fprintf(stderr, "gpu_gather: out of memory\n");
    return 1;
  }
  for (size_t i = 0; i < HOST; i++)
    src[i] = (unsigned char)(i * 131 + (i >> 11));
  cuda_ok(cudaHostRegister(src, HOST, cudaHostRegisterPortable), "cudaHostRegister");
  cuda_ok(cudaHostRegister(dst, HOST, cudaHostRegisterPortable), "cudaHostRegister");
  cuda_ok(cudaMalloc((void **)&dev, HOST), "cudaMalloc");
  int usable = real_gather_usable(0, src, 8192, 16, 4096);
  printf("gpu_gather: registered memory %s by the kernel\n",
         usable ? "reachable" : "NOT reachable");
  if (!usable)
    return 1; /* the H100/H200 machines can: a machine that cannot fails loudly, not silently */
  if (real_gather_usable(0, plain, 64, 8, 64)) {
    fprintf(stderr, "gpu_gather: unregistered memory taken as usable\n");
    return 1;
  }
  const uint64_t widths[] = {4, 12, 13, 64, 500, 2048, 8191, 16384, 65532};
  const uint64_t offsets[] = {0, 1, 4, 8};
  int cases = 0, wrong = 0;
  for (size_t w = 0; w < sizeof widths / sizeof *widths; w++) {
    for (size_t o = 0; o < sizeof offsets / sizeof *offsets; o++) {
      uint64_t width = widths[w], off = offsets[o], pitch = 2 * width + (o == 1 ? 3 : 0);
      uint64_t rows = (HOST - off - width) / pitch;
      if (rows > 300)
        rows = 300;
      /* In: gathered rows against the host's own packing. */
      cuda_ok((cudaError_t)real_gather_copy(stream, 1, dev, src + off, pitch, rows, width),
              "gather");
      cuda_ok(cudaMemcpy(packed, dev, rows * width, cudaMemcpyDeviceToHost), "copy back");
      int bad = 0;
      for (uint64_t r = 0; r < rows && !bad; r++)
        bad = memcmp(packed + r * width, src + off + r * pitch, width) != 0;
      /* Out: scattered into rows of dst, whose other bytes must keep their sentinel. */
      memset(dst, 0x5a, HOST);
      cuda_ok((cudaError_t)real_gather_copy(stream, 0, dev, dst + off, pitch, rows, width),
              "scatter");
      for (uint64_t i = 0; i < off + rows * pitch && !bad; i++) {
        uint64_t r = i < off ? 0 : (i - off) / pitch, c = i < off ? 0 : (i - off) % pitch;
        int inside = i >= off && r < rows && c < width;
        bad = dst[i] != (inside ? src[i] : 0x5a);
      }
      cases++;
      if (bad) {
        wrong++;
        fprintf(stderr, "gpu_gather: width %llu, offset %llu, pitch %llu: wrong bytes\n",
                (unsigned long long)width, (unsigned long long)off, (unsigned long long)pitch);
      }
    }
  }
  printf("gpu_gather: %d cases, %d wrong\n", cases, wrong);
  return wrong ? 1 : 0;
}
