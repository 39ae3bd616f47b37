/* touch_pages.c MIB: writes one byte into every 4 KiB page of MIB mebibytes, prints what that
 * took, then exits.
 *
 * Why: on the development VM (a Firecracker guest whose kernel reports free memory back to the
 * host), the first touch of a page costs about 1 us when the guest's allocator hands out a
 * page freed a moment ago and 5-8 us when it hands out one the host has taken back.
 * Which one a process gets depends on how much memory the processes before it freed, and how
 * much it allocated itself before the timed part: a run of sgemm 8192 that first-touches its
 * C inside the timed part then varies by 3-4% with the order of the runs, and the process
 * with the larger set-up loses (docs/experiments/starpu-8192-first-touch.md). The benchmarks
 * that compare processes call this before each timed process, so that each finds as many
 * recently freed pages as this one freed at its exit. */
#define _POSIX_C_SOURCE 200809L /* clock_gettime */
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#include "bench_clock.h"

int main(int argc, char **argv) {
  char *end = NULL;
  long mib = argc == 2 ? strtol(argv[1], &end, 10) : -1;
  if (argc != 2 || !end || *end != '\0' || mib < 1 || mib > (1L << 20)) {
    fprintf(stderr, "usage: touch_pages MIB (1 to 1048576)\n");
    return 2;
  }
  size_t bytes = (size_t)mib << 20;
  volatile char *p = malloc(bytes);
  if (!p) {
    fprintf(stderr, "touch_pages: out of memory for %ld MiB\n", mib);
    return 1;
  }
  double t0 = bench_now();
  for (size_t i = 0; i < bytes; i += 4096)
    p[i] = 1;
  double s = bench_now() - t0;
  free((void *)p);
  /* What the touches cost: the figure docs/experiments/starpu-8192-first-touch.md quotes. */
  printf("touched %ld MiB in %.1f ms: %.2f us a page\n", mib, s * 1e3,
         s * 1e6 / (double)(bytes / 4096));
  return 0;
}
