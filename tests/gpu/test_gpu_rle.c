/* test_gpu_rle.c: the GPU run-length encoder (backends/real/real_rle.cu) on this machine's CUDA
 * GPU against the CPU encoder: every input of tests/unit/rle_cases.h, copied to the device,
 * must encode to exactly nw_rle_encode's bytes, and decode back to the input; the same from a
 * source address one byte off alignment, on a stream of its own and on the default stream, and
 * with the encoder's scratch reused from a larger input to a smaller one and back. Exit 77
 * (skipped) where no GPU is present. Not yet run on hardware: written where no GPU was lent. */
#include <cuda_runtime.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "real_rle.h"
#include "rle.h"
#include "rle_cases.h"

enum { CAP = (1 << 21) + 8300 };

static void *alloc(size_t n) {
  void *p = malloc(n ? n : 1);
  if (!p) {
    fprintf(stderr, "gpu_rle: out of memory\n");
    exit(1);
  }
  return p;
}

static void cuda_ok(cudaError_t err, const char *what) {
  if (err != cudaSuccess) {
    fprintf(stderr, "gpu_rle: %s: %s\n", what, cudaGetErrorString(err));
    exit(1);
  }
}

int main(void) {
  int gpus = 0;
  if (cudaGetDeviceCount(&gpus) != cudaSuccess || gpus == 0) {
    printf("gpu_rle: skipped: no CUDA GPU on this machine\n");
    return 77;
  }
  cuda_ok(cudaSetDevice(0), "cudaSetDevice");
  cudaStream_t stream;
  cuda_ok(cudaStreamCreateWithFlags(&stream, cudaStreamNonBlocking), "cudaStreamCreate");
  real_rle *r = real_rle_new();
  unsigned char *in = alloc(CAP), *want = alloc(CAP + 1), *got = alloc(CAP + 1);
  unsigned char *back = alloc(CAP), *dev = NULL;
  cuda_ok(cudaMalloc((void **)&dev, CAP + 1), "cudaMalloc");
  char what[128], why[256];
  int cases = 0, wrong = 0;
  size_t n;
  for (int i = 0; (n = rle_case(i, in, CAP, what, sizeof what)) != (size_t)-1; i++) {
    size_t wlen = nw_rle_encode(in, n, want);
    for (int shifted = 0; shifted < 2; shifted++) { /* the source 1 byte off alignment */
      if (shifted && i % 4 != 0)
        continue;
      unsigned char *src = dev + shifted;
      cuda_ok(cudaMemcpy(src, in, n, cudaMemcpyHostToDevice), "copy to the GPU");
      void *st = i % 2 ? (void *)stream : NULL;
      memset(got, 0xa5, n + 1);
      uint64_t glen = real_rle_encode(r, src, n, got, st, why, sizeof why);
      if (glen == 0) {
        fprintf(stderr, "gpu_rle: %s: %s\n", what, why);
        return 1;
      }
      int ok = glen == wlen && memcmp(got, want, wlen) == 0 &&
               nw_rle_decode(got, glen, back, n) == 0 && (n == 0 || memcmp(back, in, n) == 0);
      cases++;
      if (!ok && wrong++ < 10) {
        size_t at = 0;
        while (at < wlen && at < glen && got[at] == want[at])
          at++;
        fprintf(stderr, "  %s%s: %llu bytes against %zu, first difference at %zu\n", what,
                shifted ? " (unaligned)" : "", (unsigned long long)glen, wlen, at);
      }
    }
  }
  printf("gpu_rle: %d encodings on the GPU, %d differ from nw_rle_encode\n", cases, wrong);
  real_rle_free(r);
  cudaFree(dev);
  cudaStreamDestroy(stream);
  free(in);
  free(want);
  free(got);
  free(back);
  printf("gpu_rle: %d passed, %d failed\n", wrong == 0, wrong != 0);
  return wrong != 0;
}
