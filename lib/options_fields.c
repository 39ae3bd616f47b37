/* options_fields.c: the options whose value is not one field stored as given (the table's
 * `set` and `get`): two fields at once, a list that grows, a plan parsed from text. */
#define _POSIX_C_SOURCE 200809L
#include "options_fields.h"

#include <cjson/cJSON.h>
#include <stdlib.h>
#include <string.h>

#include "narwhal_app.h"

int opt_set_seed(tool_options *o, const opt_def *d, const opt_value *v, const char *who, char *why,
                 size_t len) {
  (void)d, (void)who, (void)why, (void)len;
  o->run.seed = o->run.args.seed = v->u; /* the input data's and the scheduler's */
  return 0;
}

int opt_set_verify(tool_options *o, const opt_def *d, const opt_value *v, const char *who,
                   char *why, size_t len) {
  (void)d, (void)who, (void)why, (void)len;
  o->run.args.verify = v->on;
  o->verify_set = 1; /* otherwise it follows --data (parse) */
  return 0;
}

int opt_set_placement(tool_options *o, const opt_def *d, const opt_value *v, const char *who,
                      char *why, size_t len) {
  (void)d, (void)who, (void)why, (void)len;
  o->run.args.spread = strcmp(v->text, "node0") != 0;
  o->run.args.placement = (nw_app_placement)v->choice;
  /* The name given: "blocks" and "spread" place alike, and a run file keeps what it said. */
  snprintf(o->placement, sizeof o->placement, "%s", v->text);
  return 0;
}

int opt_set_sched(tool_options *o, const opt_def *d, const opt_value *v, const char *who, char *why,
                  size_t len) {
  (void)d;
  if (!nw_sched_policy_exists(v->text)) {
    char names[256];
    nw_sched_policy_names(names, sizeof names);
    snprintf(why, len, "%s: unknown policy '%s' (one of: %s)", who, v->text, names);
    return 1;
  }
  snprintf(o->run.sched.policy, sizeof o->run.sched.policy, "%s", v->text);
  return 0;
}

int opt_set_roofline_p(tool_options *o, const opt_def *d, const opt_value *v, const char *who,
                       char *why, size_t len) {
  (void)d;
  char *end = NULL;
  int fixed = strcmp(v->text, "auto") != 0;
  double p = fixed ? strtod(v->text, &end) : 0;
  if (fixed && (*end || !(p >= 0 && p <= 1))) {
    snprintf(why, len, "%s: '%s' is neither auto nor a fraction from 0 to 1", who, v->text);
    return 1;
  }
  o->run.sched.roofline_fixed = fixed;
  o->run.sched.roofline_p = p;
  return 0;
}

void opt_get_roofline_p(const tool_options *o, const char *key, void *j) {
  if (o->run.sched.roofline_fixed)
    cJSON_AddNumberToObject(j, key, o->run.sched.roofline_p);
  else
    cJSON_AddStringToObject(j, key, "auto");
}

int opt_set_compression(tool_options *o, const opt_def *d, const opt_value *v, const char *who,
                        char *why, size_t len) {
  (void)d, (void)who, (void)why, (void)len;
  o->run.compress_network = !strcmp(v->text, "network") || !strcmp(v->text, "both");
  o->run.compress_gpu = !strcmp(v->text, "gpu") || !strcmp(v->text, "both");
  return 0;
}

const char *opt_compression_name(const nw_run_config *c) {
  return c->compress_network ? (c->compress_gpu ? "both" : "network")
                             : (c->compress_gpu ? "gpu" : "off");
}

void opt_get_compression(const tool_options *o, const char *key, void *j) {
  cJSON_AddStringToObject(j, key, opt_compression_name(&o->run));
}

void opt_get_trace_format(const tool_options *o, const char *key, void *j) {
  if (o->run.trace[0] || o->trace_paje) /* a format without a trace only when given */
    cJSON_AddStringToObject(j, key, o->trace_paje ? "paje" : "chrome");
}

int opt_set_slow(tool_options *o, const opt_def *d, const opt_value *v, const char *who, char *why,
                 size_t len) {
  (void)d;
  char reason[300];
  if (!strcmp(v->text, "none")) /* the default the usage shows: no node slowed */
    return 0;
  if (nw_slowdown_parse(&o->run, v->text, reason, sizeof reason) != NW_OK) {
    snprintf(why, len, "%s: %s", who, reason);
    return 1;
  }
  return 0;
}

void opt_get_slow(const tool_options *o, const char *key, void *j) {
  const nw_run_config *c = &o->run;
  if (!c->nslow)
    return;
  char text[512] = "";
  for (int i = 0; i < c->nslow; i++) {
    size_t at = strlen(text);
    snprintf(text + at, sizeof text - at, "%s%d:%g@%g", i ? "," : "", c->slow[i].node,
             c->slow[i].factor, c->slow[i].from_s);
  }
  cJSON_AddStringToObject(j, key, text);
}

int opt_set_faults(tool_options *o, const opt_def *d, const opt_value *v, const char *who,
                   char *why, size_t len) {
  char reason[300];
  nw_fault_plan *p = &o->run.faults;
  if (!strcmp(v->text, "none")) /* the default the usage shows: nothing injected */
    return 0;
  if ((!strcmp(d->name, "fail") ? nw_fault_parse_fail(p, v->text, reason, sizeof reason)
                                : nw_fault_parse(p, v->text, reason, sizeof reason)) != NW_OK) {
    snprintf(why, len, "%s: %s", who, reason);
    return 1;
  }
  return 0;
}

void opt_get_faults(const tool_options *o, const char *key, void *j) {
  char fail[512], fault[1536];
  nw_fault_format(&o->run.faults, fail, sizeof fail, fault, sizeof fault);
  const char *text = !strcmp(key, "fail") ? fail : fault;
  if (text[0]) /* only when given: configurations without any print as before */
    cJSON_AddStringToObject(j, key, text);
}

int opt_set_app_param(tool_options *o, const opt_def *d, const opt_value *v, const char *who,
                      char *why, size_t len) {
  (void)d;
  const char *eq = strchr(v->text, '=');
  char key[NW_APP_PARAM_KEY];
  size_t k = eq ? (size_t)(eq - v->text) : 0;
  if (!eq || k == 0) {
    snprintf(why, len, "%s: '%s' is not KEY=VALUE", who, v->text);
    return 1;
  }
  if (k >= sizeof key || strlen(eq + 1) >= NW_APP_PARAM_VALUE) {
    snprintf(why, len, "%s: '%s': key longer than %d or value longer than %d characters", who,
             v->text, NW_APP_PARAM_KEY - 1, NW_APP_PARAM_VALUE - 1);
    return 1;
  }
  memcpy(key, v->text, k);
  key[k] = '\0';
  if (nw_app_param_set(&o->run.args, key, eq + 1) != 0) {
    snprintf(why, len, "%s: more than %d keys", who, NW_APP_PARAMS_MAX);
    return 1;
  }
  return 0;
}

void opt_get_app_param(const tool_options *o, const char *key, void *j) {
  const nw_app_args *a = &o->run.args;
  if (!a->nparams) /* only when given: configurations without any print as before */
    return;
  cJSON *p = cJSON_AddObjectToObject(j, key);
  for (int i = 0; i < a->nparams; i++)
    cJSON_AddStringToObject(p, a->params[i].key, a->params[i].value);
}

int opt_set_simgrid(tool_options *o, const opt_def *d, const opt_value *v, const char *who,
                    char *why, size_t len) {
  nw_run_config *rc = &o->run;
  const char *t = v->text;
  int cfg = !strcmp(d->name, "cfg");
  if (!*t || (cfg && (!strchr(t, ':') || t[0] == ':'))) {
    snprintf(why, len, "%s: '%s' is not %s", who, t,
             cfg ? "KEY:VALUE (SimGrid's --cfg; --cfg=help is not run here)" : "a setting");
    return 1;
  }
  for (const char *p = t; *p; p++)
    if ((unsigned char)*p < 0x20) {
      snprintf(why, len, "%s: control characters in '%s'", who, t);
      return 1;
    }
  if (strlen(t) + strlen(d->name) + 4 > NW_SIMGRID_ARG_LEN) {
    snprintf(why, len, "%s: longer than %zu characters", who,
             NW_SIMGRID_ARG_LEN - strlen(d->name) - 4);
    return 1;
  }
  if (rc->nsimgrid_args >= NW_SIMGRID_ARGS_MAX) {
    snprintf(why, len, "%s: more than %d --cfg and --log settings", who, NW_SIMGRID_ARGS_MAX);
    return 1;
  }
  snprintf(rc->simgrid_args[rc->nsimgrid_args++], NW_SIMGRID_ARG_LEN, "--%s=%s", d->name, t);
  return 0;
}

void opt_get_simgrid(const tool_options *o, const char *key, void *j) {
  const nw_run_config *c = &o->run;
  size_t n = strlen(key);
  cJSON *list = NULL; /* a list of what follows --KEY=, only when given */
  for (int i = 0; i < c->nsimgrid_args; i++) {
    const char *a = c->simgrid_args[i];
    if (strncmp(a + 2, key, n) != 0 || a[2 + n] != '=')
      continue;
    if (!list)
      list = cJSON_AddArrayToObject(j, key);
    cJSON_AddItemToArray(list, cJSON_CreateString(a + 3 + n));
  }
}
