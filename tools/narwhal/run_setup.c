/* run_setup.c: see run_setup.h. */
#include "run_setup.h"

#include <stdio.h>

int tool_run_setup(int argc, char **argv, tool_options *o, const nw_app **app, char *why,
                   size_t why_len) {
  *app = NULL;
  if (tool_options_parse(argc, argv, o, why, why_len))
    return 2;
  if (o->help)
    return 0;
  *app = nw_app_find(o->run.app);
  if (!*app) {
    char names[512];
    nw_app_names(names, sizeof names);
    snprintf(why, why_len, "--app: unknown application '%s' (built in: %s)", o->run.app, names);
    return 2;
  }
  return 0;
}
