/* write_platform.c: `write_platform OUT [WIDTH:RATE...]` writes, with the platform writer that
 * `narwhal calibrate` uses (tools/narwhal/platform_writer.h), one node of 2 cores at 1 Gflop/s
 * and one GPU of 100 Tflop/s behind a 1 GB/s PCIe link, its copy rates by row width as given
 * (none: no copy_row_rates property). tests/sim/copy_row_rates.sh runs the simulator on it. */
#include <stdio.h>
#include <stdlib.h>

#include "platform_writer.h"

int main(int argc, char **argv) {
  if (argc < 2 || argc - 2 > TOOL_PLATFORM_MAX_COPY_WIDTHS) {
    fprintf(stderr, "usage: write_platform OUT [WIDTH:RATE...] (at most 16)\n");
    return 2;
  }
  static tool_platform p;
  p.nodes = 1;
  p.cores = 2;
  p.core_speed = 1e9;
  p.gpus = 1;
  p.gpu_speed = 1e14;
  p.gpu_memory = 1ull << 30;
  p.pcie_bandwidth = 1e9;
  p.pcie_latency = 1e-5;
  p.nic_bandwidth = 1e9;
  p.nic_latency = 1e-5;
  for (int i = 2; i < argc; i++) {
    unsigned long long w;
    double r;
    if (sscanf(argv[i], "%llu:%lg", &w, &r) != 2) {
      fprintf(stderr, "write_platform: %s: not WIDTH:RATE\n", argv[i]);
      return 2;
    }
    p.copy_width[p.copy_widths] = w;
    p.copy_rate[p.copy_widths++] = r;
  }
  char why[256];
  if (tool_platform_write(&p, argv[1], why, sizeof why) != 0) {
    fprintf(stderr, "write_platform: %s\n", why);
    return 1;
  }
  return 0;
}
