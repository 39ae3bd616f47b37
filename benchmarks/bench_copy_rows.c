/* bench_copy_rows.c: host-to-GPU copy rates of a block's rows, by row width, through the path
 * a run's copies take (real_gpu_measure_copy_rates: the left half of a registered matrix twice
 * the block's width, best of 3, as `narwhal calibrate` measures copy_row_rates). The path for
 * rows under 64 KiB follows NARWHAL_GPU_STAGING (unset: staged on the CPU; off: 2D copies;
 * kernel: gathered by a kernel), so three runs compare the three on one GPU:
 *   for m in on off kernel; do NARWHAL_GPU_STAGING=$m build/benchmarks/bench_copy_rows; done
 * Prints one line per width: mode=M width=BYTES gbps=RATE. Exit 77 without a GPU. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

#include "real_gpu.h"

int main(void) {
  char why[256];
  if (real_gpu_count(why, sizeof why) <= 0) {
    printf("bench_copy_rows: skipped: %s\n", why);
    return 77;
  }
  static const uint64_t widths[] = {4, 64, 512, 2048, 8192, 16384, 65536, 262144, 1 << 20, 4 << 20};
  enum { N = sizeof widths / sizeof *widths };
  double rates[N];
  real_gpu_measure_copy_rates(0, N, widths, rates);
  const char *mode = getenv("NARWHAL_GPU_STAGING");
  for (int i = 0; i < N; i++)
    printf("mode=%s width=%llu gbps=%.2f\n", mode ? mode : "on", (unsigned long long)widths[i],
           rates[i] / 1e9);
  return 0;
}
