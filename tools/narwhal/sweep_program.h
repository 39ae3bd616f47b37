/* sweep_program.h: a sweep of a program of one's own ("program" in the sweep file): each point
 * runs `PROGRAM --config POINT --json [own options]` instead of `narwhal run`. The point's keys
 * that are Narwhal's options (the option table) go into its run file; the others are the
 * program's own and go to its command line as `--KEY VALUE`, followed by the sweep's "args". */
#ifndef NW_SWEEP_PROGRAM_H
#define NW_SWEEP_PROGRAM_H

#include <cjson/cJSON.h>
#include <stddef.h>

#define SWEEP_OWN_MAX 64 /* command-line words a point may give its program */

typedef struct sweep_program {
  char path[4096];   /* absolute; "" when the sweep runs `narwhal run` */
  const cJSON *args; /* the sweep's "args": a list of strings, or NULL */
} sweep_program;

/* A point's own words for its program, and the room they live in. */
typedef struct sweep_own {
  char *argv[SWEEP_OWN_MAX + 1]; /* NULL-terminated */
  int n;
  char text[8192];
} sweep_own;

/* Reads "program" (a path to an executable, relative to the current directory) and "args" (a
 * list of strings, only with a program) from the sweep file's root. 0, or 1 with a reason. */
int sweep_program_init(sweep_program *sp, const cJSON *root, char *why, size_t len);
/* Takes the program's own keys out of a point (every key the option table does not name) into
 * own, as `--KEY VALUE` words, then the sweep's "args". With no program, leaves the point
 * alone and own empty. 0, or 1 with a reason (too many or too long words, a value that is an
 * object or a list). */
int sweep_program_split(const sweep_program *sp, cJSON *point, sweep_own *own, char *why,
                        size_t len);

#endif
