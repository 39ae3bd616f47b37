/* embed_sweep.c: nw_tool_sweep_plan_json (narwhal_tool.h): a sweep definition's points as
 * `narwhal sweep` makes them (sweep_grid.h), each checked as a run file before any runs, with
 * the columns of its CSV (sweep_rows.h), for a caller that runs the points itself. */
#define _POSIX_C_SOURCE 200809L /* open_memstream */
#include <cjson/cJSON.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "narwhal_tool.h"
#include "options.h"
#include "report.h"
#include "sweep_grid.h"
#include "sweep_rows.h"

/* Whether key is a top-level key of the run's --json object, as the sweep's "columns" must
 * be: those of an empty result's report, and runtime_costs, which only the real backend
 * prints. */
static int report_has(const char *key) {
  tool_options o;
  nw_run_result empty;
  memset(&o, 0, sizeof o);
  memset(&empty, 0, sizeof empty);
  nw_run_config_defaults(&o.run);
  cJSON *report = report_json_object(&o, &empty);
  int has = cJSON_GetObjectItemCaseSensitive(report, key) != NULL;
  cJSON_Delete(report);
  return has || !strcmp(key, "runtime_costs");
}

/* The first key of object that a point may not hold (a point runs with --json: the table's
 * output options, and the command line's own config and help), or NULL. */
static const char *point_refuses(const cJSON *object) {
  const cJSON *k = cJSON_IsObject(object) ? object->child : NULL;
  for (; k; k = k->next)
    if (tool_option_is_output(k->string) || !strcmp(k->string, "config") ||
        !strcmp(k->string, "help"))
      return k->string;
  return NULL;
}

static int is_list_of_strings(const cJSON *list, int at_least) {
  if (!cJSON_IsArray(list) || cJSON_GetArraySize(list) < at_least)
    return 0;
  for (const cJSON *e = list->child; e; e = e->next)
    if (!cJSON_IsString(e) || !e->valuestring[0])
      return 0;
  return 1;
}

/* The definition's own keys, as `narwhal sweep` takes them; 0, or 2 with why. */
static int check_definition(const cJSON *root, char *why, size_t len) {
  static const char *const own[] = {"title",  "base",    "vary", "csv", "columns",
                                    "mpirun", "program", "args", NULL};
  for (const cJSON *k = root->child; k; k = k->next) {
    int i = 0;
    while (own[i] && strcmp(own[i], k->string))
      i++;
    if (!own[i]) {
      snprintf(why, len,
               "unknown key '%.100s' (title, base, vary, csv, columns, mpirun, program, args)",
               k->string);
      return 2;
    }
  }
  const cJSON *title = cJSON_GetObjectItemCaseSensitive(root, "title");
  const cJSON *csv = cJSON_GetObjectItemCaseSensitive(root, "csv");
  const cJSON *columns = cJSON_GetObjectItemCaseSensitive(root, "columns");
  const cJSON *mpirun = cJSON_GetObjectItemCaseSensitive(root, "mpirun");
  const cJSON *vary = cJSON_GetObjectItemCaseSensitive(root, "vary");
  const char *refused = point_refuses(cJSON_GetObjectItemCaseSensitive(root, "base"));
  refused = refused ? refused : point_refuses(vary);
  const cJSON *together = cJSON_GetObjectItemCaseSensitive(vary, SWEEP_OPTIONS_KEY);
  for (const cJSON *v = cJSON_IsArray(together) ? together->child : NULL; v && !refused;
       v = v->next)
    refused = point_refuses(v);
  if (cJSON_GetObjectItemCaseSensitive(root, "program") ||
      cJSON_GetObjectItemCaseSensitive(root, "args"))
    snprintf(why, len,
             "\"program\" names an executable, which `narwhal sweep` runs; this "
             "library runs a program built as a shared object instead");
  else if ((title && !cJSON_IsString(title)) || (csv && !cJSON_IsString(csv)))
    snprintf(why, len, "\"%s\" must be a string", csv && !cJSON_IsString(csv) ? "csv" : "title");
  else if (mpirun && !is_list_of_strings(mpirun, 1))
    snprintf(why, len,
             "\"mpirun\" must be a list of strings: the launcher and its options, "
             "before -np");
  else if (columns && !is_list_of_strings(columns, 0))
    snprintf(why, len, "\"columns\" must be a list of key names of `narwhal run --json`");
  else if (cJSON_GetArraySize(columns) > SWEEP_COLUMNS_MAX)
    snprintf(why, len, "\"columns\" lists more than %d keys", SWEEP_COLUMNS_MAX);
  else if (refused)
    snprintf(why, len, "\"%s\" has no place in a sweep (each point runs with --json)", refused);
  else
    why[0] = '\0';
  for (const cJSON *c = columns ? columns->child : NULL; !why[0] && c; c = c->next)
    if (!report_has(c->valuestring))
      snprintf(why, len, "\"columns\": '%.100s' is not a key of `narwhal run --json`",
               c->valuestring);
  return why[0] ? 2 : 0;
}

/* The CSV's header, as `narwhal sweep` writes it, as a list of names. */
static cJSON *csv_columns(const sweep_grid *g, const cJSON *columns) {
  sweep_table t = {g, columns, cJSON_GetArraySize(columns), NULL};
  char *text = NULL;
  size_t size = 0;
  FILE *f = open_memstream(&text, &size);
  if (!f)
    return NULL;
  sweep_csv_header(&t, f);
  fclose(f);
  cJSON *names = cJSON_CreateArray();
  for (char *s = text, *end; names && s && *s; s = end ? end + 1 : NULL) {
    end = strpbrk(s, ",\n");
    if (end)
      *end = '\0';
    cJSON_AddItemToArray(names, cJSON_CreateString(s));
  }
  free(text);
  return names;
}

/* Point p: its run file, its values and their labels, and how many MPI ranks it runs on; NULL
 * with why when its keys are not a run's. */
static cJSON *plan_point(const sweep_grid *g, const cJSON *base, long p, const char *where,
                         char *why, size_t len) {
  cJSON *run = sweep_grid_point(g, base, p);
  tool_options o;
  memset(&o, 0, sizeof o);
  nw_run_config_defaults(&o.run);
  if (!run || tool_options_apply_json(run, where, &o, why, len)) {
    if (!run)
      snprintf(why, len, "out of memory");
    cJSON_Delete(run);
    return NULL;
  }
  cJSON *point = cJSON_CreateObject();
  cJSON_AddItemToObject(point, "run", run);
  cJSON *values = cJSON_AddArrayToObject(point, "values");
  cJSON *labels = cJSON_AddArrayToObject(point, "labels");
  for (int k = 0; k < g->nkeys; k++) {
    char label[SWEEP_LABEL_MAX];
    sweep_value_text(sweep_grid_value(g, p, k), label, sizeof label);
    cJSON_AddItemToArray(values, cJSON_Duplicate(sweep_grid_value(g, p, k), 1));
    cJSON_AddItemToArray(labels, cJSON_CreateString(label));
  }
  char describe[600];
  sweep_grid_describe(g, p, describe, sizeof describe);
  cJSON_AddStringToObject(point, "describe", describe);
  /* A real-backend point runs under mpirun, a rank per node (one when it gives none). */
  int real = !strcmp(o.run.backend, "real");
  cJSON_AddNumberToObject(point, "ranks", real ? (o.run.nodes >= 1 ? o.run.nodes : 1) : 0);
  return point;
}

/* The plan of a parsed definition into *plan; 0, or 2 with why (without `where`). */
static int plan(const cJSON *root, const char *where, cJSON **plan_out, char *why, size_t len) {
  const cJSON *base = cJSON_GetObjectItemCaseSensitive(root, "base");
  const cJSON *vary = cJSON_GetObjectItemCaseSensitive(root, "vary");
  const cJSON *columns = cJSON_GetObjectItemCaseSensitive(root, "columns");
  sweep_grid g;
  if (!cJSON_IsObject(root))
    snprintf(why, len, "must be a JSON object");
  else if (check_definition(root, why, len))
    return 2;
  else if (!cJSON_IsObject(base))
    snprintf(why, len, "needs \"base\": {run keys}");
  else if (!cJSON_IsObject(vary))
    snprintf(why, len, "needs \"vary\": {\"KEY\": [values...], ...}");
  else if (sweep_grid_init(&g, vary, why, len) == 0)
    why[0] = '\0';
  if (why[0])
    return 2;
  /* The base alone first, as a run takes it: a key every point overrides is still checked. */
  char at[1100];
  snprintf(at, sizeof at, "%s: base", where);
  tool_options o;
  memset(&o, 0, sizeof o);
  nw_run_config_defaults(&o.run);
  if (tool_options_apply_json(base, at, &o, why, len))
    return 3; /* why names where already */
  cJSON *out = cJSON_CreateObject(), *keys = cJSON_AddArrayToObject(out, "keys");
  for (int k = 0; k < g.nkeys; k++)
    cJSON_AddItemToArray(keys, cJSON_CreateString(g.key[k]));
  cJSON_AddItemToObject(out, "columns", csv_columns(&g, columns));
  const cJSON *mpirun = cJSON_GetObjectItemCaseSensitive(root, "mpirun");
  cJSON_AddItemToObject(out, "mpirun", mpirun ? cJSON_Duplicate(mpirun, 1) : cJSON_CreateNull());
  cJSON *points = cJSON_AddArrayToObject(out, "points");
  for (long p = 0; p < g.points; p++) {
    cJSON *point = plan_point(&g, base, p, where, why, len);
    if (!point) {
      cJSON_Delete(out);
      return 3;
    }
    cJSON_AddItemToArray(points, point);
  }
  *plan_out = out;
  return 0;
}

int nw_tool_sweep_plan_json(const char *sweep, const char *where, char **json_out, char *why,
                            size_t why_len) {
  *json_out = NULL;
  char reason[1024] = "";
  cJSON *root = sweep ? cJSON_ParseWithOpts(sweep, NULL, 1) : NULL, *out = NULL;
  int code = root ? plan(root, where, &out, reason, sizeof reason) : 2;
  cJSON_Delete(root);
  if (!root)
    snprintf(why, why_len, "%s: malformed JSON", where);
  else if (code == 2)
    snprintf(why, why_len, "%s: %s", where, reason);
  else if (code == 3) /* the message of a run file's key, which names where itself */
    snprintf(why, why_len, "%s", reason);
  if (code)
    return 2;
  *json_out = cJSON_PrintUnformatted(out);
  cJSON_Delete(out);
  if (!*json_out) {
    snprintf(why, why_len, "%s: out of memory", where);
    return 1;
  }
  return 0;
}
