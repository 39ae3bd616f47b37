/* run_app.c: see run_app.h. */
#define _DEFAULT_SOURCE
#include "run_app.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <cjson/cJSON.h>

#include "perfmodel_file.h"
#include "platform_path.h"
#include "report.h"
#include "text_file.h"
#include "trace_json.h"
#include "trace_paje.h"

/* Under mpirun every rank parses the same arguments; one of them is enough to complain. */
int tool_quiet_rank(void) {
  const char *r = getenv("OMPI_COMM_WORLD_RANK");
  return r && strcmp(r, "0") != 0;
}

int tool_fail(int code, const char *msg) {
  if (tool_quiet_rank())
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
 * --calibrate on a missing file starts an empty model, as StarPU does; *labels is what the
 * file said it was measured on, or this run's platform for a new file (real: no machine
 * label, the platform is the machine). */
static int load_model(tool_options *o, nw_perfmodel **model, nw_perfmodel_labels *labels, char *why,
                      size_t len) {
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
  snprintf(labels->platform, sizeof labels->platform, "%s", platform);
  labels->machine[0] = '\0';
  if ((!o->run.calibrate || access(o->perfmodel, F_OK) == 0) &&
      nw_perfmodel_load_labelled(*model, o->perfmodel, platform, labels, why, len) != NW_OK) {
    nw_perfmodel_free(*model);
    *model = NULL;
    return 2;
  }
  o->run.perfmodel = *model;
  return 0;
}

int tool_run_app(tool_options *o, const nw_app *app, tool_backend_fn backend, void *ctx,
                 nw_run_summary *summary) {
  char why[1024];
  if (!strcmp(o->run.backend, "sim"))
    tool_platform_resolve(o->run.platform, sizeof o->run.platform);
  if (app->check_args(&o->run.args, why, sizeof why) != NW_OK ||
      nw_app_check_placement(app, &o->run.args, why, sizeof why) != 0)
    return tool_fail(2, why);
  if (o->dry_run) {
    cJSON *j = tool_options_to_json(o);
    char *text = cJSON_Print(j);
    printf("%s\n", text);
    free(text);
    cJSON_Delete(j);
    return 0;
  }
  nw_perfmodel *model;
  nw_perfmodel_labels labels;
  int bad = load_model(o, &model, &labels, why, sizeof why);
  if (bad)
    return tool_fail(bad, why);
  nw_run_result res;
  nw_status st = backend(o, app, &res, ctx);
  int code = 0;
  /* Written even when the result is wrong: the durations were measured all the same. Under
   * the labels it was loaded with, so that a model of both a platform and a machine stays so. */
  if (model && o->run.calibrate && !o->run.check_only && st == NW_OK && res.reporter &&
      nw_perfmodel_save_labelled(model, o->perfmodel, &labels, why, sizeof why) != NW_OK) {
    tool_say("%s", why);
    code = 1;
  }
  nw_perfmodel_free(model);
  o->run.perfmodel = NULL;
  if (st == NW_OK && summary)
    *summary = (nw_run_summary){.reporter = res.reporter,
                                .nodes = res.nodes,
                                .verified = res.verified,
                                .subtasks = res.subtasks,
                                .makespan_s = res.makespan_s,
                                .gflops = res.gflops,
                                .bytes_network = res.total.bytes_network,
                                .steals_succeeded = res.total.steals_succeeded,
                                .steals_attempted = res.total.steals_attempted};
  if (st != NW_OK) {
    code = tool_fail(st == NW_ERR_ARG ? 2 : 1, res.error[0] ? res.error : "the run failed");
  } else if (res.reporter && !o->run.check_only) {
    if (o->json)
      report_json(o, &res);
    else
      report_text(o, &res);
    if (res.verified == 0) {
      tool_say("the result differs from the single-process reference");
      code = 3;
    }
    if (o->run.trace[0] && (o->trace_paje ? trace_paje_write : trace_json_write)(
                               o->run.trace, &res, app, why, sizeof why) != 0) {
      tool_say("%s", why);
      code = code ? code : 1;
    } else if (o->run.trace[0] && res.trace_lost)
      tool_say("--trace %s: incomplete (memory ran out while recording)", o->run.trace);
  }
  nw_run_result_free(&res);
  return code;
}
