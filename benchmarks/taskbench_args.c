/* taskbench_args.c: see taskbench_args.h. */
#include "taskbench_args.h"

#include <stdio.h>
#include <stdlib.h>

int tb_arg_count(const char *prog, const char *name, const char *text, unsigned long long max,
                 unsigned long long *out) {
  char *end;
  *out = strtoull(text, &end, 10);
  if (!*text || *text == '-' || *end || *out > max) {
    fprintf(stderr, "%s: %s '%s': not a whole number up to %llu\n", prog, name, text, max);
    return 0;
  }
  return 1;
}
