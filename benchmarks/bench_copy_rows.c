/* bench_copy_rows.c: host-to-GPU copy rates of a block's rows, by row width, through the path
 * a run's copies take (real_gpu_measure_copy_rates: the left half of a registered matrix twice
 * the block's width, best of 3, as `narwhal calibrate` measures copy_row_rates). The path for
 * rows under 64 KiB follows NARWHAL_GPU_STAGING (unset or off: one 2D copy; on: staged on a CPU;
 * kernel: gathered by a kernel; real_copy_path), so three runs compare the three on one GPU:
 *   for m in off on kernel; do NARWHAL_GPU_STAGING=$m build/benchmarks/bench_copy_rows; done
 * Prints one line per width: path=2d|staged|kernel width=BYTES gbps=RATE (the path of rows
 * under 64 KiB; wider rows always go as one 2D copy). Exit 77 without a GPU. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

#include "real_gpu.h"
#include "real_staging.h"

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
  static const char *const path[] = {"2d", "staged", "kernel"}; /* by real_staging_mode */
  real_staging_mode mode = real_staging_mode_parse(getenv("NARWHAL_GPU_STAGING"));
  for (int i = 0; i < N; i++)
    printf("path=%s width=%llu gbps=%.2f\n", path[mode], (unsigned long long)widths[i],
           rates[i] / 1e9);
  return 0;
}
