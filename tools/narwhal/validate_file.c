/* validate_file.c: see validate_file.h. */
#define _POSIX_C_SOURCE 200809L
#include "validate_file.h"

#include <cjson/cJSON.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "text_file.h"

static int fail(char *why, size_t len, const char *path, const char *fmt, ...) {
  char msg[512];
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(msg, sizeof msg, fmt, ap);
  va_end(ap);
  snprintf(why, len, "validate: %s: %s", path, msg);
  return 2;
}

/* The first key of obj not in known (NULL-terminated), or NULL. */
static const char *unknown_key(const cJSON *obj, const char *const *known) {
  for (const cJSON *it = obj->child; it; it = it->next) {
    int ok = 0;
    for (int k = 0; known[k] && !ok; k++)
      ok = !strcmp(it->string, known[k]);
    if (!ok)
      return it->string;
  }
  return NULL;
}

/* A whole number in [lo, hi] under key (def when absent and def >= lo), or -1. */
static int whole(const cJSON *obj, const char *key, int lo, int hi, int def) {
  const cJSON *j = cJSON_GetObjectItemCaseSensitive(obj, key);
  if (!j)
    return def;
  if (!cJSON_IsNumber(j) || j->valuedouble != (double)(int)j->valuedouble || j->valuedouble < lo ||
      j->valuedouble > hi)
    return -1;
  return (int)j->valuedouble;
}

/* Copies the string under key into out (1 to VF_NAME_MAX - 1 bytes); "" and 0 when absent
 * and optional; -1 when wrong. */
static int name_of(const cJSON *obj, const char *key, int optional, char *out) {
  const cJSON *j = cJSON_GetObjectItemCaseSensitive(obj, key);
  out[0] = '\0';
  if (!j)
    return optional ? 0 : -1;
  if (!cJSON_IsString(j) || !j->valuestring[0] || strlen(j->valuestring) >= VF_NAME_MAX)
    return -1;
  strcpy(out, j->valuestring);
  return 0;
}

/* The strings of the array under key into out (at most max); their count, or -1 when the key
 * is not an array of non-empty strings or holds more than max. */
static int strings(const cJSON *obj, const char *key, char **out, int max) {
  const cJSON *a = cJSON_GetObjectItemCaseSensitive(obj, key);
  if (!a)
    return 0;
  if (!cJSON_IsArray(a))
    return -1;
  int n = 0;
  for (const cJSON *e = a->child; e; e = e->next) {
    if (!cJSON_IsString(e) || !e->valuestring[0] || n == max)
      return -1;
    out[n++] = e->valuestring;
  }
  return n;
}

/* The first of args that is one of `mine` (NULL-terminated), alone or as --opt=value; or NULL. */
static const char *first_of(char **args, int n, const char *const *mine) {
  for (int i = 0; i < n; i++)
    for (int k = 0; mine[k]; k++) {
      size_t l = strlen(mine[k]);
      if (!strncmp(args[i], mine[k], l) && (args[i][l] == '\0' || args[i][l] == '='))
        return mine[k];
    }
  return NULL;
}

/* Options validate sets itself: a configuration may not. */
static const char *reserved(char **args, int n) {
  static const char *const mine[] = {"--backend", "--platform",  "--perfmodel", "--nodes",
                                     "--json",    "--calibrate", "--config",    NULL};
  return first_of(args, n, mine);
}

/* Options of `narwhal calibrate` that validate sets itself: a calibration's args may not. */
static const char *calibrate_reserved(char **args, int n) {
  static const char *const mine[] = {"--platform-out", "--perfmodel", "--runs", "--settle",
                                     "--workload",     "--config",    NULL};
  return first_of(args, n, mine);
}

static int parse_calibration(const cJSON *j, int i, vf_calibration *c, const char *path, char *why,
                             size_t len) {
  static const char *const known[] = {"name", "ranks", "mpirun", "workloads",
                                      "runs", "args",  "anchor", NULL};
  if (!cJSON_IsObject(j))
    return fail(why, len, path, "calibrations[%d] must be an object", i);
  const char *bad = unknown_key(j, known);
  if (bad)
    return fail(why, len, path, "calibrations[%d]: unknown key '%s'", i, bad);
  if (name_of(j, "name", 0, c->name))
    return fail(why, len, path, "calibrations[%d]: 'name' must be a string of 1 to %d bytes", i,
                VF_NAME_MAX - 1);
  if ((c->ranks = whole(j, "ranks", 1, 64, -1)) < 0)
    return fail(why, len, path, "calibration '%s': 'ranks' must be a whole number from 1 to 64",
                c->name);
  if ((c->runs = whole(j, "runs", 1, 100, 5)) < 0)
    return fail(why, len, path, "calibration '%s': 'runs' must be a whole number from 1 to 100",
                c->name);
  if ((c->nmpirun = strings(j, "mpirun", c->mpirun, VF_MAX_MPIRUN)) < 0)
    return fail(why, len, path, "calibration '%s': 'mpirun' must be a list of at most %d strings",
                c->name, VF_MAX_MPIRUN);
  if ((c->nargs = strings(j, "args", c->args, VF_MAX_ARGS)) < 0)
    return fail(why, len, path, "calibration '%s': 'args' must be a list of at most %d strings",
                c->name, VF_MAX_ARGS);
  const char *own = calibrate_reserved(c->args, c->nargs);
  if (own)
    return fail(why, len, path, "calibration '%s': 'args' may not hold %s (validate sets it)",
                c->name, own);
  if ((c->nworkloads = strings(j, "workloads", c->workloads, VF_MAX_WORKLOADS)) <= 0)
    return fail(why, len, path,
                "calibration '%s': 'workloads' must be a list of 1 to %d APP:N:BLOCK strings",
                c->name, VF_MAX_WORKLOADS);
  for (int w = 0; w < c->nworkloads; w++) {
    char app[64];
    unsigned long long n, b;
    char end;
    if (sscanf(c->workloads[w], "%63[^:]:%llu:%llu%c", app, &n, &b, &end) != 3 || !n || !b)
      return fail(why, len, path, "calibration '%s': workload '%.100s' is not APP:N:BLOCK", c->name,
                  c->workloads[w]);
  }
  if (name_of(j, "anchor", 1, c->anchor))
    return fail(why, len, path, "calibration '%s': 'anchor' must be one of its workloads", c->name);
  int found = !c->anchor[0];
  for (int w = 0; !found && w < c->nworkloads; w++)
    found = !strcmp(c->anchor, c->workloads[w]);
  if (!found)
    return fail(why, len, path, "calibration '%s': anchor '%.100s' is not one of its workloads",
                c->name, c->anchor);
  return 0;
}

static int parse_config(const cJSON *j, int i, const vf_file *f, vf_config *c, const char *path,
                        char *why, size_t len) {
  static const char *const known[] = {"name", "calibration", "group", "args", NULL};
  if (!cJSON_IsObject(j))
    return fail(why, len, path, "configurations[%d] must be an object", i);
  const char *bad = unknown_key(j, known);
  if (bad)
    return fail(why, len, path, "configurations[%d]: unknown key '%s'", i, bad);
  if (name_of(j, "name", 0, c->name))
    return fail(why, len, path, "configurations[%d]: 'name' must be a string of 1 to %d bytes", i,
                VF_NAME_MAX - 1);
  if (name_of(j, "group", 1, c->group))
    return fail(why, len, path, "configuration '%s': 'group' must be a string of 1 to %d bytes",
                c->name, VF_NAME_MAX - 1);
  char cal[VF_NAME_MAX];
  if (name_of(j, "calibration", 0, cal))
    return fail(why, len, path, "configuration '%s': 'calibration' must name a calibration",
                c->name);
  c->calibration = -1;
  for (int k = 0; k < f->ncal; k++)
    if (!strcmp(f->cal[k].name, cal))
      c->calibration = k;
  if (c->calibration < 0)
    return fail(why, len, path, "configuration '%s': no calibration named '%s'", c->name, cal);
  if ((c->nargs = strings(j, "args", c->args, VF_MAX_ARGS)) <= 0)
    return fail(why, len, path,
                "configuration '%s': 'args' must be a list of 1 to %d options of narwhal run",
                c->name, VF_MAX_ARGS);
  const char *mine = reserved(c->args, c->nargs);
  if (mine)
    return fail(why, len, path, "configuration '%s': args may not set %s (validate sets it)",
                c->name, mine);
  return 0;
}

/* Names unique within each list. */
static int check_unique(const vf_file *f, const char *path, char *why, size_t len) {
  for (int i = 0; i < f->ncal; i++)
    for (int k = 0; k < i; k++)
      if (!strcmp(f->cal[i].name, f->cal[k].name))
        return fail(why, len, path, "two calibrations are named '%s'", f->cal[i].name);
  for (int i = 0; i < f->nconf; i++)
    for (int k = 0; k < i; k++)
      if (!strcmp(f->conf[i].name, f->conf[k].name))
        return fail(why, len, path, "two configurations are named '%s'", f->conf[i].name);
  return 0;
}

static int parse(cJSON *root, vf_file *f, const char *path, char *why, size_t len) {
  static const char *const known[] = {"narwhal-validate", "rounds", "calibrations",
                                      "configurations", NULL};
  if (!cJSON_IsObject(root))
    return fail(why, len, path, "expected a JSON object");
  const cJSON *v = cJSON_GetObjectItemCaseSensitive(root, "narwhal-validate");
  if (!cJSON_IsNumber(v) || v->valuedouble != 1)
    return fail(why, len, path, "\"narwhal-validate\": 1 (the format version) is missing");
  const char *bad = unknown_key(root, known);
  if (bad)
    return fail(why, len, path, "unknown key '%s'", bad);
  if ((f->rounds = whole(root, "rounds", 1, VF_MAX_ROUNDS, 3)) < 0)
    return fail(why, len, path, "'rounds' must be a whole number from 1 to 100");
  const cJSON *cals = cJSON_GetObjectItemCaseSensitive(root, "calibrations");
  const cJSON *confs = cJSON_GetObjectItemCaseSensitive(root, "configurations");
  if (!cJSON_IsArray(cals) || cJSON_GetArraySize(cals) < 1)
    return fail(why, len, path, "'calibrations' must be a list of at least one calibration");
  if (!cJSON_IsArray(confs) || cJSON_GetArraySize(confs) < 1)
    return fail(why, len, path, "'configurations' must be a list of at least one configuration");
  f->ncal = cJSON_GetArraySize(cals);
  f->nconf = cJSON_GetArraySize(confs);
  f->cal = calloc((size_t)f->ncal, sizeof *f->cal);
  f->conf = calloc((size_t)f->nconf, sizeof *f->conf);
  if (!f->cal || !f->conf)
    return fail(why, len, path, "out of memory");
  int i = 0;
  for (const cJSON *c = cals->child; c; c = c->next, i++)
    if (parse_calibration(c, i, &f->cal[i], path, why, len))
      return 2;
  i = 0;
  for (const cJSON *c = confs->child; c; c = c->next, i++)
    if (parse_config(c, i, f, &f->conf[i], path, why, len))
      return 2;
  return check_unique(f, path, why, len);
}

int vf_load(const char *path, vf_file *f, char *why, size_t len) {
  memset(f, 0, sizeof *f);
  FILE *in = fopen(path, "r");
  if (!in)
    return fail(why, len, path, "cannot read it");
  char bad[128];
  char *text = tool_read_json_text(in, bad, sizeof bad);
  fclose(in);
  if (!text)
    return fail(why, len, path, "%s", bad);
  cJSON *root = cJSON_Parse(text);
  free(text);
  if (!root)
    return fail(why, len, path, "not JSON");
  f->json = root;
  int code = parse(root, f, path, why, len);
  if (code)
    vf_free(f);
  return code;
}

void vf_free(vf_file *f) {
  free(f->cal);
  free(f->conf);
  cJSON_Delete(f->json);
  memset(f, 0, sizeof *f);
}
