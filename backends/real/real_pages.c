/* real_pages.c: see real_pages.h. */
#define _GNU_SOURCE
#include "real_pages.h"

#include <stddef.h>
#include <sys/mman.h>
#include <time.h>

static double seconds(void) {
  struct timespec t;
  clock_gettime(CLOCK_MONOTONIC, &t);
  return (double)t.tv_sec + 1e-9 * (double)t.tv_nsec;
}

double real_page_first_touch_s(void) {
  enum { PAGE = 4096, PAGES = 1024, ROUNDS = 3 };
  double s[ROUNDS];
  for (int r = 0; r < ROUNDS; r++) {
    /* A mapping of its own, not malloc: freed memory that malloc reuses is already mapped. */
    volatile unsigned char *m = mmap(NULL, (size_t)PAGE * PAGES, PROT_READ | PROT_WRITE,
                                     MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    if (m == MAP_FAILED)
      return 0;
    double t0 = seconds();
    for (size_t i = 0; i < PAGES; i++)
      m[i * PAGE] = 1;
    s[r] = (seconds() - t0) / PAGES;
    munmap((void *)m, (size_t)PAGE * PAGES);
  }
  for (int i = 0; i < ROUNDS; i++) /* median of three */
    for (int j = i + 1; j < ROUNDS; j++)
      if (s[j] < s[i]) {
        double x = s[i];
        s[i] = s[j];
        s[j] = x;
      }
  return s[ROUNDS / 2];
}
