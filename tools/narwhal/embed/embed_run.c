/* embed_run.c: nw_tool_resolve_json, nw_tool_run_json and nw_tool_free (narwhal_tool.h):
 * `narwhal run` through the tool's own code (run_setup.h, run_app.h), its report taken as the
 * object `--json` prints and its one-line message as a value. */
#include <cjson/cJSON.h>
#include <stdio.h>
#include <string.h>

#include "embed_capture.h"
#include "embed_program.h"
#include "narwhal_tool.h"
#include "report.h"
#include "run_app.h"
#include "run_setup.h"
#include "sim_backend.h"

void nw_tool_free(char *text) {
  cJSON_free(text);
}

/* The resolved configuration with the run's own options, which --dry-run leaves out. */
static cJSON *resolved(const tool_options *o) {
  cJSON *j = tool_options_to_json(o);
  if (j) {
    cJSON_AddBoolToObject(j, "json", o->json);
    cJSON_AddBoolToObject(j, "dry-run", o->dry_run);
    cJSON_AddBoolToObject(j, "check", o->run.check_only);
  }
  return j;
}

/* Prints j for the caller into *out (NULL when there is none), deletes it; 1 when memory ran
 * out. */
static int hand_out(cJSON *j, char **out) {
  *out = j ? cJSON_PrintUnformatted(j) : NULL;
  cJSON_Delete(j);
  return j && !*out;
}

int nw_tool_resolve_json(int argc, char **argv, char **json_out, char *why, size_t why_len) {
  tool_options o;
  *json_out = NULL;
  if (tool_options_parse(argc, argv, &o, why, why_len))
    return 2;
  if (hand_out(resolved(&o), json_out)) {
    snprintf(why, why_len, "out of memory");
    return 1;
  }
  return 0;
}

/* What the backend hands back to nw_tool_run_json through tool_run_app. */
typedef struct embed_result {
  cJSON *report;    /* the --json object, once the run has one */
  int saved_stdout; /* the caller's stdout while the report is printed nowhere; -1: none */
} embed_result;

/* The simulator, then the report as the object --json prints. tool_run_app prints it next, as
 * text: that goes nowhere, since the caller takes the object. */
static nw_status embed_backend(const tool_options *o, const nw_app *app, nw_run_result *res,
                               void *ctx) {
  embed_result *r = ctx;
  nw_status st = nw_sim_run(&o->run, app, res);
  if (st == NW_OK && res->reporter && !o->run.check_only)
    r->report = report_json_object(o, res);
  r->saved_stdout = embed_stdout_silence();
  return st;
}

/* The options and the application: the built-in one --app names, or the program's. */
static int setup(int argc, char **argv, const char *program, const char *symbol, tool_options *o,
                 const nw_app **app, char *why, size_t why_len) {
  if (!program)
    return tool_run_setup(argc, argv, o, app, why, why_len);
  if (embed_program_names_app(argc, argv)) {
    snprintf(why, why_len,
             "--app: a program runs its own application (the tool's --app names a built-in one)");
    return 2;
  }
  int bad = embed_program_app(program, symbol, app, why, why_len);
  if (!bad && tool_options_parse(argc, argv, o, why, why_len))
    bad = 2;
  if (!bad)
    snprintf(o->run.app, sizeof o->run.app, "%s", (*app)->name);
  return bad;
}

int nw_tool_run_json(int argc, char **argv, const char *program, const char *symbol,
                     char **json_out, char *why, size_t why_len) {
  tool_options o;
  const nw_app *app = NULL;
  *json_out = NULL;
  if (why_len)
    why[0] = '\0';
  int code = setup(argc, argv, program, symbol, &o, &app, why, why_len);
  if (!code && o.help) {
    snprintf(why, why_len, "--help: prints the usage, and runs nothing to return");
    code = 2;
  }
  if (!code && strcmp(o.run.backend, "sim") != 0) {
    snprintf(why, why_len,
             "--backend %s: MPI ranks run in narwhal-real under mpirun, not in a process that "
             "holds the simulator",
             o.run.backend);
    code = 2;
  }
  if (code)
    return code;
  embed_result r = {NULL, -1};
  embed_capture held;
  embed_capture_start(&held);
  if (o.dry_run) /* its configuration, printed on stdout, is handed out below instead */
    r.saved_stdout = embed_stdout_silence();
  code = tool_run_app(&o, app, embed_backend, &r, NULL);
  embed_stdout_restore(r.saved_stdout);
  embed_capture_stop(&held, code != 0, why, why_len);
  if (code && !why[0])
    snprintf(why, why_len, "the run failed (status %d)", code);
  cJSON *out = r.report;
  if (o.dry_run && !code) {
    cJSON_Delete(out);
    out = tool_options_to_json(&o);
  }
  if (code != 0 && code != 3) {
    cJSON_Delete(out);
    return code;
  }
  if (hand_out(out, json_out)) {
    snprintf(why, why_len, "out of memory for the report");
    return 1;
  }
  return code;
}
