/* options.c: the command line (--name VALUE) and JSON run files ("name": value), both read
 * through the one option table (options_table.c), so they can never disagree on names or
 * checks. */
#define _POSIX_C_SOURCE 200809L
#include "options.h"

#include <cjson/cJSON.h>
#include <ctype.h>
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "narwhal_app.h"
#include "options_fields.h"
#include "options_table.h"
#include "text_file.h"

/* Edit distance between a and b (insertions, deletions, substitutions), at most 63 bytes
 * each counted. */
static size_t edit_distance(const char *a, const char *b) {
  size_t la = strnlen(a, 63), lb = strnlen(b, 63), row[64];
  for (size_t j = 0; j <= lb; j++)
    row[j] = j;
  for (size_t i = 1; i <= la; i++) {
    size_t diag = row[0];
    row[0] = i;
    for (size_t j = 1; j <= lb; j++) {
      size_t up = row[j];
      size_t best = diag + (a[i - 1] != b[j - 1]);
      best = up + 1 < best ? up + 1 : best;
      best = row[j - 1] + 1 < best ? row[j - 1] + 1 : best;
      row[j] = best;
      diag = up;
    }
  }
  return row[lb];
}

/* The option a mistyped name most likely meant ("; did you mean PREFIX NAME SUFFIX?"), or "". Only
 * close matches: at most 2 edits, and at most half the name. */
static void did_you_mean(const char *name, const char *prefix, const char *suffix, char *out,
                         size_t len) {
  const opt_def *best = NULL;
  size_t best_d = 3;
  for (int i = 0; i < tool_option_count; i++) {
    const opt_def *o = &tool_option_defs[i];
    size_t d = edit_distance(name, o->name);
    if (d < best_d && 2 * d <= strlen(o->name)) {
      best = o;
      best_d = d;
    }
  }
  if (best)
    snprintf(out, len, "; did you mean %s%s%s?", prefix, best->name, suffix);
  else if (len)
    out[0] = '\0';
}

/* Digits only: strtoull would also take " -1" as 2^64 - 1. */
static int parse_u64(const char *s, unsigned long long *out) {
  if (!isdigit((unsigned char)*s))
    return 0;
  char *end;
  errno = 0;
  *out = strtoull(s, &end, 10);
  return errno == 0 && *end == '\0';
}

/* Where a row's value is kept, checked against how the row says it is kept: a row that does
 * not match is a mistake in the table, reported as one rather than written past the field. */
static void *field_of(tool_options *o, const opt_def *d, const char *who, char *why, size_t len) {
  size_t want = d->field == F_INT      ? sizeof(int)
                : d->field == F_U64    ? sizeof(uint64_t)
                : d->field == F_DOUBLE ? sizeof(double)
                                       : d->size;
  if (d->field == F_NONE || d->size != want || d->at + d->size > sizeof *o) {
    snprintf(why, len, "%s: the option table's row has no field of its kind (lib/options_table.c)",
             who);
    return NULL;
  }
  return (char *)o + d->at;
}

/* Checks v against d's type and bounds into *val. `who` is how messages name the option
 * ("--nodes", "key 'nodes' of run.json"). */
static int check(const opt_def *d, const char *v, const char *who, opt_value *val, char *why,
                 size_t len) {
  char *end;
  switch (d->type) {
  case T_INT:
  case T_U64:
    if (!parse_u64(v, &val->u) || (d->type == T_INT && val->u > 1000000)) {
      snprintf(why, len, "%s: '%s' is not a whole number%s", who, v,
               d->type == T_INT ? " from 0 to 1000000" : "");
      return 1;
    }
    if (d->type == T_INT && (val->u < (unsigned)d->min || (d->max && val->u > (unsigned)d->max))) {
      if (d->max)
        snprintf(why, len, "%s: must be from %d%s to %d%s", who, d->min,
                 d->min_note ? d->min_note : "", d->max, d->max_note ? d->max_note : "");
      else
        snprintf(why, len, "%s: must be at least %d", who, d->min);
      return 1;
    }
    return 0;
  case T_DOUBLE:
    errno = 0;
    val->x = strtod(v, &end);
    if (!*v || *end || errno || !(val->x >= 0) || val->x > 1e9) {
      snprintf(why, len, "%s: '%s' is not a number of seconds >= 0", who, v);
      return 1;
    }
    return 0;
  case T_CHOICE: {
    char list[128] = "";
    for (int i = 0; i < 8 && d->choices[i]; i++) {
      if (strcmp(v, d->choices[i]) == 0) {
        val->choice = d->values[i];
        return 0;
      }
      size_t at = strlen(list);
      snprintf(list + at, sizeof list - at, "%s%s", i ? ", " : "", d->choices[i]);
    }
    snprintf(why, len, "%s: unknown value '%s' (one of: %s)", who, v, list);
    return 1;
  }
  case T_BOOL:
    if (strcmp(v, "true") != 0 && strcmp(v, "false") != 0) {
      snprintf(why, len, "%s: '%s' is not true or false", who, v);
      return 1;
    }
    val->on = strcmp(v, "true") == 0;
    return 0;
  case T_STRING:
    if (!*v) {
      snprintf(why, len, "%s: the value is empty", who);
      return 1;
    }
    return 0;
  case T_PARAM:
  case T_SIMGRID: /* their setters check them */
    return 0;
  }
  return 0;
}

/* Sets one option from its text form: checked by its row, then stored in its field or handed
 * to its setter. */
static int set(tool_options *o, const opt_def *d, const char *v, const char *who, char *why,
               size_t len) {
  opt_value val = {.text = v};
  if (check(d, v, who, &val, why, len))
    return 1;
  /* Where text is kept: longer text is refused, never cut short. */
  if (d->field == F_TEXT && strlen(v) >= d->size) {
    snprintf(why, len, "%s: %zu characters, at most %zu", who, strlen(v), d->size - 1);
    return 1;
  }
  if (d->set)
    return d->set(o, d, &val, who, why, len);
  void *p = field_of(o, d, who, why, len);
  if (!p)
    return 1;
  int i = d->type == T_CHOICE ? val.choice : d->type == T_BOOL ? val.on : (int)val.u;
  uint64_t u = val.u;
  switch (d->field) {
  case F_TEXT:
    snprintf(p, d->size, "%s", v);
    break;
  case F_INT: /* memcpy: the field may be an enum of int's size */
    memcpy(p, &i, sizeof i);
    break;
  case F_U64:
    memcpy(p, &u, sizeof u);
    break;
  case F_DOUBLE:
    memcpy(p, &val.x, sizeof val.x);
    break;
  case F_NONE:
    break;
  }
  return 0;
}

/* "app-param": {"KEY": "VALUE" or number, ...}, or "KEY=VALUE", or a list of those strings. */
static int apply_json_params(const cJSON *item, const opt_def *d, const char *who, tool_options *o,
                             char *why, size_t len) {
  char pair[NW_APP_PARAM_KEY + NW_APP_PARAM_VALUE + 2];
  if (cJSON_IsString(item))
    return set(o, d, item->valuestring, who, why, len);
  if (!cJSON_IsObject(item) && !cJSON_IsArray(item)) {
    snprintf(why, len, "%s must be an object of KEY: VALUE", who);
    return 1;
  }
  for (const cJSON *e = item->child; e; e = e->next) {
    if (cJSON_IsArray(item) && cJSON_IsString(e))
      snprintf(pair, sizeof pair, "%s", e->valuestring);
    else if (cJSON_IsObject(item) && cJSON_IsString(e))
      snprintf(pair, sizeof pair, "%s=%s", e->string, e->valuestring);
    else if (cJSON_IsObject(item) && cJSON_IsNumber(e))
      snprintf(pair, sizeof pair, "%s=%.17g", e->string, e->valuedouble);
    else {
      snprintf(why, len, "%s must be an object of KEY: VALUE (string or number)", who);
      return 1;
    }
    if (set(o, d, pair, who, why, len))
      return 1;
  }
  return 0;
}

int tool_options_apply_json(const void *object, const char *where, tool_options *o, char *why,
                            size_t len) {
  const cJSON *root = object;
  if (!cJSON_IsObject(root)) {
    snprintf(why, len, "%s: expected a JSON object", where);
    return 1;
  }
  for (const cJSON *item = root->child; item; item = item->next) {
    const opt_def *d = tool_option_find(item->string);
    char who[300], text[64];
    snprintf(who, sizeof who, "%s: key '%s'", where, item->string);
    if (!d) {
      char hint[100];
      did_you_mean(item->string, "'", "'", hint, sizeof hint);
      snprintf(why, len, "%s: unknown key '%s'%s", where, item->string, hint);
      return 1;
    }
    const char *v = text;
    if (d->type == T_PARAM) {
      if (apply_json_params(item, d, who, o, why, len))
        return 1;
      continue;
    }
    if (d->type == T_SIMGRID) { /* a string, or a list of strings */
      const cJSON *e = cJSON_IsArray(item) ? item->child : item;
      for (; e; e = cJSON_IsArray(item) ? e->next : NULL) {
        if (!cJSON_IsString(e)) {
          snprintf(why, len, "%s must be a string or a list of strings", who);
          return 1;
        }
        if (set(o, d, e->valuestring, who, why, len))
          return 1;
      }
      continue;
    }
    if (d->type == T_BOOL) {
      if (!cJSON_IsBool(item)) {
        snprintf(why, len, "%s must be true or false", who);
        return 1;
      }
      v = cJSON_IsTrue(item) ? "true" : "false";
    } else if (d->type == T_U64 && cJSON_IsString(item)) {
      v = item->valuestring; /* exact at any size (tool_json_add_u64) */
    } else if (d->type == T_INT || d->type == T_U64 || d->type == T_DOUBLE) {
      if (!cJSON_IsNumber(item)) {
        snprintf(why, len, "%s must be a number", who);
        return 1;
      }
      double x = item->valuedouble;
      /* From 2^64 on the cast is undefined (1e300, or 1e400 read as infinity): test first. */
      if (d->type != T_DOUBLE && (x < 0 || x >= 0x1p64 || x != (double)(unsigned long long)x)) {
        snprintf(why, len, "%s must be a whole number >= 0", who);
        return 1;
      }
      if (d->type == T_U64 && x >= TOOL_JSON_EXACT_MAX) {
        snprintf(why, len,
                 "%s: %.17g is not below 2^53, where a JSON number loses digits; give it as a "
                 "string of digits",
                 who, x);
        return 1;
      }
      if (d->type == T_DOUBLE)
        snprintf(text, sizeof text, "%.17g", x);
      else
        snprintf(text, sizeof text, "%llu", (unsigned long long)x);
    } else if ((d->flags & OPT_JSON_NUMBER) && cJSON_IsNumber(item)) {
      snprintf(text, sizeof text, "%.17g", item->valuedouble); /* a fraction, or "auto" */
    } else if ((d->flags & OPT_JSON_BOOL) && cJSON_IsBool(item)) {
      v = cJSON_IsTrue(item) ? "on" : "off";
    } else {
      if (!cJSON_IsString(item)) {
        snprintf(why, len, "%s must be a string", who);
        return 1;
      }
      v = item->valuestring;
    }
    if (set(o, d, v, who, why, len))
      return 1;
  }
  return 0;
}

static char *read_file(const char *path, char *why, size_t len) {
  FILE *f = fopen(path, "rb");
  if (!f) {
    snprintf(why, len, "config %s: %s", path, strerror(errno));
    return NULL;
  }
  char unread[128];
  char *buf = tool_read_json_text(f, unread, sizeof unread);
  fclose(f);
  if (!buf)
    snprintf(why, len, "config %s: %s", path, unread);
  return buf;
}

static int load_config(const char *path, tool_options *o, char *why, size_t len) {
  char *text = read_file(path, why, len);
  if (!text)
    return 1;
  const char *end = NULL;
  cJSON *root = cJSON_ParseWithOpts(text, &end, 1);
  if (!root) {
    int line = 1;
    const char *at = cJSON_GetErrorPtr();
    for (const char *p = text; at && p < at && *p; p++)
      line += *p == '\n';
    snprintf(why, len, "config %s: malformed JSON at line %d", path, line);
    free(text);
    return 1;
  }
  char where[320];
  snprintf(where, sizeof where, "config %s", path);
  int rc = tool_options_apply_json(root, where, o, why, len);
  cJSON_Delete(root);
  free(text);
  return rc;
}

/* The parser of both: with `kept` NULL every argument must be one of Narwhal's (the tool);
 * otherwise an argument that is not (and a non-option after it, its value perhaps) is marked
 * in kept[] for the program, as is --help, and --app is refused. */
static int parse(int argc, char **argv, tool_options *o, unsigned char *kept, char *why,
                 size_t len) {
  memset(o, 0, sizeof *o);
  nw_run_config_defaults(&o->run);
  /* The table's defaults over the core's, each through its row as if given. */
  for (int i = 0; i < tool_option_count; i++) {
    const opt_def *d = &tool_option_defs[i];
    if (d->dflt && set(o, d, d->dflt, d->name, why, len))
      return 1;
  }
  /* The run file first, whatever its position: the command line overrides it. */
  for (int i = 0; i < argc; i++)
    if (!strcmp(argv[i], "--config")) {
      if (i + 1 >= argc) {
        snprintf(why, len, "--config: missing value (a JSON run file)");
        return 1;
      }
      if (load_config(argv[i + 1], o, why, len))
        return 1;
    }
  for (int i = 0; i < argc; i++) {
    const char *a = argv[i];
    if (!strcmp(a, "--config")) {
      i++;
      continue;
    }
    if (!strcmp(a, "--help") || !strcmp(a, "-h")) {
      o->help = 1;
      if (kept)
        kept[i] = 1;
      continue;
    }
    if (strncmp(a, "--", 2) != 0) {
      if (kept) {
        kept[i] = 1;
        continue;
      }
      snprintf(why, len, "unexpected argument '%s' (options start with --)", a);
      return 1;
    }
    /* --name=value as well as --name value (GNU style) */
    char name[64];
    const char *eq = strchr(a + 2, '=');
    size_t name_len = eq ? (size_t)(eq - (a + 2)) : strlen(a + 2);
    if (name_len >= sizeof name) {
      if (kept) {
        kept[i] = 1;
        continue;
      }
      snprintf(why, len, "%.80s...: unknown option (see narwhal run --help)", a);
      return 1;
    }
    memcpy(name, a + 2, name_len);
    name[name_len] = '\0';
    const opt_def *neg = !strncmp(name, "no-", 3) ? tool_option_find(name + 3) : NULL;
    int negated = neg && neg->type == T_BOOL;
    const opt_def *d = negated ? neg : tool_option_find(name);
    if (!d && kept) {
      kept[i] = 1;
      continue;
    }
    if (kept && !strcmp(d->name, "app")) {
      snprintf(why, len,
               "--app: a program runs its own application (the tool's --app names "
               "a built-in one)");
      return 1;
    }
    if (!d) {
      char hint[100];
      did_you_mean(name, "--", "", hint, sizeof hint);
      snprintf(why, len, "--%s: unknown option%s (see narwhal run --help)", name, hint);
      return 1;
    }
    const char *v;
    if (eq && negated) {
      snprintf(why, len, "--%s: takes no value", name);
      return 1;
    }
    if (eq) {
      v = eq + 1; /* a bool's is true or false */
    } else if (d->type == T_BOOL) {
      v = negated ? "false" : "true";
    } else {
      if (i + 1 >= argc || !strncmp(argv[i + 1], "--", 2)) {
        snprintf(why, len, "%s: missing value", a);
        return 1;
      }
      v = argv[++i];
    }
    char who[70];
    snprintf(who, sizeof who, "--%s", name);
    if (set(o, d, v, eq ? who : a, why, len))
      return 1;
  }
  if (!o->verify_set)
    o->run.args.verify = o->run.functional ? 1 : 0;
  else if (o->run.args.verify && !o->run.functional) {
    snprintf(why, len, "--verify needs --data functional (phantom mode moves no bytes)");
    return 1;
  }
  if ((o->run.compress_network || o->run.compress_gpu) && !o->run.functional) {
    snprintf(why, len,
             "--compression %s needs --data functional (phantom data has no bytes to encode)",
             opt_compression_name(&o->run));
    return 1;
  }
  if (o->run.work_groups && o->run.cpu_devices > 0) {
    snprintf(why, len,
             "--cpu-devices %d: with --work-groups on a node's CPU is one work-group "
             "(use --reserved-cores to size it)",
             o->run.cpu_devices);
    return 1;
  }
  if (!strcmp(o->run.backend, "real") && o->run.nsimgrid_args) {
    snprintf(why, len, "%.200s: SimGrid's setting, for the simulator (--backend sim)",
             o->run.simgrid_args[0]);
    return 1;
  }
  if (!strcmp(o->run.backend, "real") &&
      (o->run.faults.drop_p > 0 || o->run.faults.delay_s > 0 || o->run.faults.nlink > 0)) {
    snprintf(why, len,
             "--fault is for the simulator (--backend sim); on hardware --fail "
             "NODE@SECONDS kills a rank");
    return 1;
  }
  if (!strcmp(o->run.backend, "real") && !o->run.functional) {
    snprintf(why, len, "--data phantom is for the simulator (--backend sim)");
    return 1;
  }
  return 0;
}

int tool_options_parse(int argc, char **argv, tool_options *o, char *why, size_t len) {
  return parse(argc, argv, o, NULL, why, len);
}

int tool_options_parse_program(int *argc, char **argv, tool_options *o, char *why, size_t len) {
  int n = *argc;
  unsigned char *kept = calloc(n > 1 ? (size_t)n : 1, 1);
  if (!kept) {
    snprintf(why, len, "out of memory parsing the command line");
    return 1;
  }
  int rc = parse(n - 1, argv + 1, o, kept, why, len);
  if (rc == 0) { /* argv[0], then the program's arguments in their order */
    int out = 1;
    for (int i = 1; i < n; i++)
      if (kept[i - 1])
        argv[out++] = argv[i];
    argv[out] = NULL;
    *argc = out;
  }
  free(kept);
  return rc;
}

void tool_json_add_u64(void *object, const char *key, unsigned long long v) {
  if (v < TOOL_JSON_PRINT_MAX) {
    cJSON_AddNumberToObject(object, key, (double)v);
    return;
  }
  char digits[24];
  snprintf(digits, sizeof digits, "%llu", v);
  cJSON_AddStringToObject(object, key, digits);
}
