/* main.c: the narwhal tool: `narwhal run` runs one application on a backend, `narwhal sweep`
 * runs a family of runs from a JSON file and tabulates them. */
#define _DEFAULT_SOURCE
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <unistd.h>

#include "backend_choice.h"
#include "options.h"
#include "reproduce.h"
#include "run_app.h"
#include "run_setup.h"
#include "sweep.h"
#include "trace_path.h"
#include "trace_plot.h"
#include "validate.h"
#include "version.h"

/* The tool's backends: the simulator here, or a hand-over to narwhal-real (backend_choice.h);
 * ctx is the process's argv for that hand-over. */
static nw_status run_backend(const tool_options *o, const nw_app *app, nw_run_result *res,
                             void *ctx) {
  return tool_run_backend(o, app, ctx, res);
}

/* Whether the command line asks for the list of policies (--sched help, as StarPU's
 * STARPU_SCHED=help), which option parsing would refuse as an unknown policy. */
static int wants_sched_help(int argc, char **argv) {
  for (int i = 0; i < argc; i++) {
    if (!strcmp(argv[i], "--config")) {
      i++;
      continue;
    }
    if (!strcmp(argv[i], "--sched=help") ||
        (!strcmp(argv[i], "--sched") && i + 1 < argc && !strcmp(argv[i + 1], "help")))
      return 1;
  }
  return 0;
}

static int run(int argc, char **argv, char **all_argv) {
  tool_options o;
  const nw_app *app;
  char why[1024];
  if (wants_sched_help(argc, argv)) {
    nw_sched_policy_help(stdout);
    return 0;
  }
  int bad = tool_run_setup(argc, argv, &o, &app, why, sizeof why);
  if (bad)
    return tool_fail(bad, why);
  if (o.help) {
    char names[512];
    nw_app_names(names, sizeof names);
    tool_options_usage(stdout, names, "narwhal");
    return 0;
  }
  return tool_run_app(&o, app, run_backend, all_argv, NULL);
}

int main(int argc, char **argv) {
  if (argc == 2 && !strcmp(argv[1], "--version")) {
    printf("narwhal %s\n", NW_TOOL_VERSION);
    return 0;
  }
  if (argc < 2 || !strcmp(argv[1], "--help") || !strcmp(argv[1], "-h")) {
    char names[512];
    nw_app_names(names, sizeof names);
    tool_options_usage(argc < 2 ? stderr : stdout, names, "narwhal"); /* no command: a mistake */
    return argc < 2 ? 2 : 0;
  }
  if (!strcmp(argv[1], "run") || !strcmp(argv[1], "calibrate")) {
    int code = argv[1][0] == 'r' ? run(argc - 2, argv + 2, argv)
                                 : tool_calibrate(argc - 2, argv + 2, argv);
    tool_backend_finish();
    return code;
  }
  if (!strcmp(argv[1], "sweep"))
    return sweep_main(argc - 2, argv + 2);
  if (!strcmp(argv[1], "reproduce"))
    return reproduce_main(argc - 2, argv + 2);
  if (!strcmp(argv[1], "validate")) /* the simulator against held-out real runs */
    return validate_main(argc - 2, argv + 2);
  if (!strcmp(argv[1], "plot")) /* a Gantt chart of a --trace file */
    return trace_plot_main(argc - 2, argv + 2);
  if (!strcmp(argv[1], "critical-path")) /* where a --trace file's time went */
    return trace_path_main(argc - 2, argv + 2);
  /* Not in the usage: it writes docs/reference/options.md and narwhal.1, which tests/cli
   * checks. */
  if (!strcmp(argv[1], "options")) {
    if (argc == 3 && (!strcmp(argv[2], "--help") || !strcmp(argv[2], "-h"))) {
      printf("usage: narwhal options --markdown|--man\n"
             "Prints the option table of `narwhal run` as Markdown (docs/reference/options.md is "
             "its output) or the manual page narwhal(1) in roff (docs/reference/narwhal.1).\n");
      return 0;
    }
    if (argc == 3 && !strcmp(argv[2], "--markdown")) {
      tool_options_markdown(stdout);
      return 0;
    }
    if (argc == 3 && !strcmp(argv[2], "--man")) {
      char names[512];
      nw_app_names(names, sizeof names);
      tool_options_man(stdout, names);
      return 0;
    }
    return tool_fail(2, "options: usage: narwhal options --markdown|--man");
  }
  char msg[300];
  snprintf(msg, sizeof msg,
           "unknown command '%.200s' (run, sweep, reproduce, validate, plot, critical-path or "
           "calibrate)",
           argv[1]);
  return tool_fail(2, msg);
}
