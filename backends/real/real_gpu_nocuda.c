/* real_gpu_nocuda.c: real_gpu.h in a build without the CUDA toolkit: there is no GPU. */
#include <stdio.h>
#include <stdlib.h>

#include "real_gpu.h"

int real_gpu_count(char *why, size_t why_len) {
  snprintf(why, why_len, "this narwhal-real was built without CUDA (no nvcc at configure time)");
  return 0;
}

uint64_t real_gpu_free_memory(int g) {
  (void)g;
  return 0;
}

int real_gpu_measure_link(int g, double *bandwidth, double *latency) {
  (void)g;
  *bandwidth = *latency = 0;
  return 0;
}

int real_gpu_measure_copy_rates(int g, int n, const uint64_t *widths, double *rates) {
  (void)g, (void)widths;
  for (int i = 0; i < n; i++)
    rates[i] = 0;
  return 0;
}

real_gpu *real_gpu_open(int g, uint64_t bytes, int streams, int agglomerate, int mtc_bundle,
                        int mtc_share, real_queue *q, const nw_task_kind *const *kinds, char *why,
                        size_t why_len) {
  (void)g, (void)bytes, (void)streams, (void)agglomerate, (void)mtc_bundle, (void)mtc_share,
      (void)q, (void)kinds;
  snprintf(why, why_len, "this narwhal-real was built without CUDA");
  return NULL;
}

void real_gpu_copy(real_gpu *gpu, nw_copy *c) {
  (void)gpu, (void)c;
  abort(); /* unreachable: no real_gpu exists */
}

void real_gpu_launch(real_gpu *gpu, int stream, nw_exec *e) {
  (void)gpu, (void)stream, (void)e;
  abort();
}

void real_gpu_launch_stats(const real_gpu *gpu, uint64_t *launches, uint64_t *subtasks,
                           uint64_t *largest) {
  (void)gpu;
  *launches = *subtasks = *largest = 0;
}

int real_gpu_pin(void *ptr, size_t len, int pin, char *why, size_t why_len) {
  (void)ptr, (void)len, (void)pin, (void)why, (void)why_len;
  return 0;
}

void real_gpu_close(real_gpu *gpu) {
  (void)gpu;
}
