/* own_options.h: an example's options of its own, parsed the same way by every example, so
 * that each one's main() shows only what it runs. nw_init takes Narwhal's options (those of
 * `narwhal run`) out of argv; what it leaves is the program's: --help, and at most one option
 * taking a whole number. Anything else, a mistyped Narwhal option too, is refused with one
 * line on stderr and exit status 2, as examples/check.sh expects of every example.
 *
 * A header of static functions rather than a library, so that an example still builds from
 * its one C file (examples/README.md, "Building one outside the tree"). */
#ifndef NW_EXAMPLE_OWN_OPTIONS_H
#define NW_EXAMPLE_OWN_OPTIONS_H

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* An option of the program's own: NAME N, N a whole number from min to max. */
typedef struct own_option {
  const char *name;  /* "--bins" */
  const char *help;  /* what --help says it sets: "counters, 1 to 65536 (default 16)" */
  const char *wants; /* what a bad N is told it must be; NULL: "a whole number from MIN to MAX" */
  uint64_t min, max;
  uint64_t *value; /* where N goes */
} own_option;

/* Parses what nw_init left in argv (argv[0] the program): opt's option, or none when opt is
 * NULL, and --help. 0: run the application; 1: the help was printed, run nothing; 2: an option
 * or a value was refused (one line on stderr), run nothing and exit with status 2. */
static inline int own_options(int argc, char **argv, const char *prog, const own_option *opt) {
  for (int i = 1; i < argc; i++) {
    if (!strcmp(argv[i], "--help")) {
      if (opt)
        printf("%s's own option:\n  %s N\n      %s\n", prog, opt->name, opt->help);
      else
        printf("%s has no options of its own\n", prog);
      return 1;
    }
    if (!opt || strcmp(argv[i], opt->name) != 0) {
      fprintf(stderr, "%s: %s: unknown option (%s --help)\n", prog, argv[i], prog);
      return 2;
    }
    char *end = NULL;
    unsigned long long v = i + 1 < argc ? strtoull(argv[i + 1], &end, 10) : 0;
    if (i + 1 >= argc || argv[i + 1][0] == '-' || *end != '\0' || v < opt->min || v > opt->max) {
      if (opt->wants)
        fprintf(stderr, "%s: %s: wants %s\n", prog, opt->name, opt->wants);
      else
        fprintf(stderr, "%s: %s: wants a whole number from %" PRIu64 " to %" PRIu64 "\n", prog,
                opt->name, opt->min, opt->max);
      return 2;
    }
    *opt->value = v;
    i++; /* N is the option's, not an option */
  }
  return 0;
}

#endif
