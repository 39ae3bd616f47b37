/* embed_options.c: nw_tool_options_json, nw_tool_abi and nw_tool_version (narwhal_tool.h): the
 * option table as data, so that a caller's names and values come from the table itself. */
#include <cjson/cJSON.h>
#include <string.h>

#include "narwhal_app.h"
#include "narwhal_tool.h"
#include "options_table.h"
#include "run.h"
#include "version.h"

int nw_tool_abi(void) {
  return NW_TOOL_ABI;
}

const char *nw_tool_version(void) {
  return NW_TOOL_VERSION;
}

static const char *type_name(opt_type t) {
  static const char *const names[] = {
      [T_STRING] = "string", [T_INT] = "int",       [T_U64] = "u64",     [T_DOUBLE] = "double",
      [T_BOOL] = "bool",     [T_CHOICE] = "choice", [T_PARAM] = "param", [T_SIMGRID] = "simgrid"};
  return names[t];
}

/* A list of names as the messages write them ("a, b, c") into a JSON list. */
static void add_names(cJSON *list, char *names) {
  for (char *s = names, *comma; s && *s; s = comma ? comma + 2 : NULL) {
    comma = strstr(s, ", ");
    if (comma)
      *comma = '\0';
    cJSON_AddItemToArray(list, cJSON_CreateString(s));
  }
}

/* The choices a row takes: a choice's own, or the names --app and --sched check against. */
static void add_choices(cJSON *row, const opt_def *d) {
  char names[1024] = "";
  if (!strcmp(d->name, "app"))
    nw_app_names(names, sizeof names);
  else if (!strcmp(d->name, "sched"))
    nw_sched_policy_names(names, sizeof names);
  if (d->type != T_CHOICE && !names[0])
    return;
  cJSON *list = cJSON_AddArrayToObject(row, "choices");
  for (int k = 0; d->type == T_CHOICE && k < 8 && d->choices[k]; k++)
    cJSON_AddItemToArray(list, cJSON_CreateString(d->choices[k]));
  add_names(list, names);
}

static cJSON *option_row(const opt_def *d) {
  cJSON *row = cJSON_CreateObject();
  cJSON_AddStringToObject(row, "name", d->name);
  cJSON_AddStringToObject(row, "type", type_name(d->type));
  add_choices(row, d);
  cJSON_AddStringToObject(row, "default", tool_option_default_text(d));
  if (d->dflt)
    cJSON_AddStringToObject(row, "value", d->dflt);
  else
    cJSON_AddNullToObject(row, "value");
  if (d->type == T_INT) { /* the parser's bounds: the row's, within 0 to 1000000 */
    cJSON_AddNumberToObject(row, "min", d->min);
    cJSON_AddNumberToObject(row, "max", d->max ? d->max : 1000000);
  }
  cJSON_AddBoolToObject(row, "repeatable", d->type == T_PARAM || d->type == T_SIMGRID);
  cJSON_AddBoolToObject(row, "output", (d->flags & OPT_OUTPUT) != 0);
  char text[1024];
  tool_option_arg(d, text, sizeof text);
  cJSON_AddStringToObject(row, "arg", text);
  tool_option_help(d, text, sizeof text);
  cJSON_AddStringToObject(row, "help", text);
  return row;
}

const char *nw_tool_options_json(void) {
  /* Made once and kept: the table does not change while the library is loaded. */
  static char *text;
  if (!text) {
    cJSON *rows = cJSON_CreateArray();
    for (int i = 0; rows && i < tool_option_count; i++)
      cJSON_AddItemToArray(rows, option_row(&tool_option_defs[i]));
    text = rows ? cJSON_PrintUnformatted(rows) : NULL;
    cJSON_Delete(rows);
  }
  return text;
}
