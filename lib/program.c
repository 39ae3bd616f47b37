/* program.c: nw_init, nw_run_app and nw_finalize (narwhal_app.h): a program's own main as a
 * Narwhal program, with `narwhal run`'s options, checks and report (run_app.h) and its backend
 * a plugin (backend_plugin.h). */
#include <stdio.h>
#include <string.h>

#include "backend_plugin.h"
#include "options.h"
#include "run_app.h"
#include "text_file.h"

static struct {
  int initialized, ran;
  int status; /* what nw_finalize returns */
  tool_options o;
  const nw_backend_plugin *plugin;
  nw_run_summary summary; /* reporter -1: no result */
} program = {.summary = {.reporter = -1}};

nw_status nw_init(int *argc, char ***argv) {
  if (!argc || !argv || !*argv || *argc < 1 || !(*argv)[0]) {
    fprintf(stderr, "nw_init: needs main's &argc and &argv\n");
    program.status = 2;
    return NW_ERR_ARG;
  }
  if (program.initialized) {
    tool_say("nw_init: called twice");
    program.status = 2;
    return NW_ERR_STATE;
  }
  tool_say_name((*argv)[0]);
  char why[1024];
  if (tool_options_parse_program(argc, *argv, &program.o, why, sizeof why)) {
    program.status = tool_fail(2, why);
    return NW_ERR_ARG;
  }
  program.initialized = 1;
  if (program.o.help && !tool_quiet_rank())
    tool_options_usage(stdout, NULL, (*argv)[0]);
  return NW_OK;
}

static nw_status plugin_backend(const tool_options *o, const nw_app *app, nw_run_result *res,
                                void *ctx) {
  const nw_backend_plugin *p = ctx;
  return p->run(&o->run, app, res);
}

int nw_run_app(const nw_app *app) {
  if (!program.initialized) {
    tool_say("nw_run_app: nw_init did not succeed");
    return program.status = program.status ? program.status : 2;
  }
  if (program.ran) {
    tool_say("nw_run_app: one run per process (the simulator starts once)");
    return program.status = 2;
  }
  program.ran = 1;
  if (program.o.help)
    return program.status = 0;
  if (!app || !app->name || !app->kinds || !app->check_args || !app->main) {
    tool_say("nw_run_app: the application needs a name, kinds, check_args and main");
    return program.status = 2;
  }
  snprintf(program.o.run.app, sizeof program.o.run.app, "%s", app->name);
  char why[1024];
  if (!program.o.dry_run) {
    program.plugin = nw_backend_plugin_load(program.o.run.backend, why, sizeof why);
    if (!program.plugin)
      return program.status = tool_fail(1, why);
  }
  program.summary.reporter = -1; /* no result yet */
  program.status =
      tool_run_app(&program.o, app, plugin_backend, (void *)program.plugin, &program.summary);
  return program.status;
}

nw_status nw_run_summary_get(nw_run_summary *out) {
  if (!out || program.summary.reporter < 0)
    return NW_ERR_STATE;
  *out = program.summary;
  return NW_OK;
}

int nw_finalize(void) {
  if (program.plugin && program.plugin->finish)
    program.plugin->finish();
  program.plugin = NULL;
  return program.status;
}
