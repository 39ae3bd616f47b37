/* main.c: the narwhal tool: `narwhal run` runs one application on a backend, `narwhal sweep`
 * runs a family of runs from a JSON file and tabulates them. */
#define _DEFAULT_SOURCE
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <unistd.h>

#include "backend_choice.h"
#include "options.h"
#include "perfmodel_file.h"
#include "report.h"
#include "reproduce.h"
#include "sweep.h"
#include "text_file.h"
#include "trace_json.h"
#include "version.h"

#include <cjson/cJSON.h>

/* Under mpirun every rank parses the same arguments; one of them is enough to complain. */
static int quiet_rank(void) {
  const char *r = getenv("OMPI_COMM_WORLD_RANK");
  return r && strcmp(r, "0") != 0;
}

/* Under mpirun only rank 0 reports and sets the exit status. The other ranks see the same
 * arguments and configuration, so they fail alike; they exit 0, because mpirun kills the job
 * as soon as one rank exits non-zero, which could stop rank 0 before it says why. */
static int fail(int code, const char *msg) {
  if (quiet_rank())
    return 0;
  tool_say("%s", msg);
  return code;
}

/* Where a model's samples were taken: the platform file's name (sim), or the machine (real).
 * A model measured elsewhere describes other devices, so loading refuses it. */
static void model_platform(const tool_options *o, char *out, size_t len) {
  if (strcmp(o->run.backend, "real") == 0) {
    char host[256] = "";
    gethostname(host, sizeof host - 1);
    snprintf(out, len, "real:%s", host);
    return;
  }
  const char *slash = strrchr(o->run.platform, '/');
  snprintf(out, len, "%s", slash ? slash + 1 : o->run.platform);
}

/* --perfmodel FILE: the model the run predicts from (sim: takes durations from). With
 * --calibrate on a missing file starts an empty model, as StarPU does. */
static int load_model(tool_options *o, nw_perfmodel **model, char *why, size_t len) {
  *model = NULL;
  if (o->run.calibrate && !o->perfmodel[0]) {
    snprintf(why, len, "--calibrate on: needs --perfmodel FILE to write the model to");
    return 2;
  }
  if (!o->perfmodel[0])
    return 0;
  if (nw_perfmodel_create(model) != NW_OK) {
    snprintf(why, len, "out of memory for the performance model");
    return 1;
  }
  char platform[1100];
  model_platform(o, platform, sizeof platform);
  if ((!o->run.calibrate || access(o->perfmodel, F_OK) == 0) &&
      nw_perfmodel_load(*model, o->perfmodel, platform, why, len) != NW_OK) {
    nw_perfmodel_free(*model);
    *model = NULL;
    return 2;
  }
  o->run.perfmodel = *model;
  return 0;
}

static int run(int argc, char **argv, char **all_argv) {
  tool_options o;
  char why[1024];
  if (tool_options_parse(argc, argv, &o, why, sizeof why))
    return fail(2, why);
  if (o.help) {
    tool_options_usage(stdout);
    return 0;
  }
  const nw_app *app = nw_app_find(o.run.app);
  if (!app) {
    char names[256];
    nw_app_names(names, sizeof names);
    snprintf(why, sizeof why, "--app: unknown application '%s' (built in: %s)", o.run.app, names);
    return fail(2, why);
  }
  if (app->check_args(&o.run.args, why, sizeof why) != NW_OK ||
      nw_app_check_placement(app, &o.run.args, why, sizeof why) != 0)
    return fail(2, why);
  if (o.dry_run) {
    cJSON *j = tool_options_to_json(&o);
    char *text = cJSON_Print(j);
    printf("%s\n", text);
    free(text);
    cJSON_Delete(j);
    return 0;
  }
  nw_perfmodel *model;
  int bad = load_model(&o, &model, why, sizeof why);
  if (bad)
    return fail(bad, why);
  nw_run_result res;
  nw_status st = tool_run_backend(&o, app, all_argv, &res);
  int code = 0;
  char platform[1100];
  model_platform(&o, platform, sizeof platform);
  /* Written even when the result is wrong: the durations were measured all the same. */
  if (model && o.run.calibrate && !o.run.check_only && st == NW_OK && res.reporter &&
      nw_perfmodel_save(model, o.perfmodel, platform, why, sizeof why) != NW_OK) {
    tool_say("%s", why);
    code = 1;
  }
  nw_perfmodel_free(model);
  if (st != NW_OK) {
    code = fail(st == NW_ERR_ARG ? 2 : 1, res.error[0] ? res.error : "the run failed");
  } else if (res.reporter && !o.run.check_only) {
    if (o.json)
      report_json(&o, &res);
    else
      report_text(&o, &res);
    if (res.verified == 0) {
      tool_say("the result differs from the single-process reference");
      code = 3;
    }
    if (o.run.trace[0] && trace_json_write(o.run.trace, &res, app, why, sizeof why) != 0) {
      tool_say("%s", why);
      code = code ? code : 1;
    } else if (o.run.trace[0] && res.trace_lost)
      tool_say("--trace %s: incomplete (memory ran out while recording)", o.run.trace);
  }
  nw_run_result_free(&res);
  return code;
}

int main(int argc, char **argv) {
  if (argc == 2 && !strcmp(argv[1], "--version")) {
    printf("narwhal %s\n", NW_TOOL_VERSION);
    return 0;
  }
  if (argc < 2 || !strcmp(argv[1], "--help") || !strcmp(argv[1], "-h")) {
    tool_options_usage(argc < 2 ? stderr : stdout); /* no command: a mistake */
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
  char msg[300];
  snprintf(msg, sizeof msg, "unknown command '%.200s' (run, sweep or calibrate)", argv[1]);
  return fail(2, msg);
}
