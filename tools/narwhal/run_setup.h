/* run_setup.h: the start of `narwhal run`: its command line into options and the built-in
 * application they name. The tool's main and the library of the tool's commands (embed/,
 * for Python) both start a run here, so that they take the same options and refuse the same
 * input with the same line. */
#ifndef NW_TOOL_RUN_SETUP_H
#define NW_TOOL_RUN_SETUP_H

#include <stddef.h>

#include "narwhal_app.h"
#include "options.h"

/* Parses argv (the options after `run`) into o and finds the application --app names into
 * *app. 0, or 2 (bad input) with a one-line reason in why. With --help nothing is looked up:
 * o->help is set and *app is NULL. */
int tool_run_setup(int argc, char **argv, tool_options *o, const nw_app **app, char *why,
                   size_t why_len);

#endif
