/* check.h: the few assertion macros the unit tests share; each test prints
 * "<name>: N passed, M failed" and exits non-zero on any failure. */
#ifndef NW_CHECK_H
#define NW_CHECK_H

#include <stdio.h>

static int check_passed, check_failed;

#define CHECK(cond)                                                                                \
  do {                                                                                             \
    if (cond) {                                                                                    \
      check_passed++;                                                                              \
    } else {                                                                                       \
      check_failed++;                                                                              \
      fprintf(stderr, "%s:%d: CHECK failed: %s\n", __FILE__, __LINE__, #cond);                     \
    }                                                                                              \
  } while (0)

static inline int check_report(const char *name) {
  printf("%s: %d passed, %d failed\n", name, check_passed, check_failed);
  return check_failed ? 1 : 0;
}

#endif
