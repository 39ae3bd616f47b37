/* embed_program.h: a program of one's own as a shared object: the nw_app it exports, run by
 * nw_tool_run_json as `narwhal run` runs a built-in application. */
#ifndef NW_EMBED_PROGRAM_H
#define NW_EMBED_PROGRAM_H

#include <stddef.h>

#include "narwhal_app.h"

/* Loads the shared object at path (relative to the current directory) and finds the nw_app
 * it exports as `symbol`; 0, or 2 with a one-line reason naming the file. The object stays
 * loaded: the run's kernels are its code. */
int embed_program_app(const char *path, const char *symbol, const nw_app **app, char *why,
                      size_t why_len);
/* Whether argv (a run's options) gives --app, which a program does not take. */
int embed_program_names_app(int argc, char **argv);

#endif
