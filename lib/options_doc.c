/* options_doc.c: what the option table says to people and to scripts: --help, the Markdown
 * reference page (docs/reference/options.md) and --dry-run's JSON, each written from the rows
 * so that none of them can go stale. */
#include <cjson/cJSON.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "options.h"
#include "options_table.h"

/* Whether --no-NAME belongs in the usage: a setting on by default that a run may turn off. */
static int shows_negation(const opt_def *d) {
  return d->type == T_BOOL && !(d->flags & OPT_OUTPUT);
}

/* --sched's help names the policies of the table (policies.def), so that the list cannot go
 * stale. */
void tool_option_help(const opt_def *d, char *help, size_t len) {
  if (!strcmp(d->name, "sched")) {
    char names[512];
    nw_sched_policy_names(names, sizeof names);
    snprintf(help, len, "%s: %s (`narwhal run --sched help`: what each does)", d->help, names);
  } else {
    snprintf(help, len, "%s", d->help);
  }
}

void tool_options_usage(FILE *out, const char *apps, const char *program) {
  if (!apps) {
    fprintf(out,
            "usage: %s [--config FILE] [Narwhal's options] [the program's own options]\n"
            "       (a Narwhal program: simulated with --backend sim, on this machine or under\n"
            "       mpirun with --backend real)\n\n"
            "Narwhal's options (each also a key of the JSON run file, without the dashes):\n",
            program);
  } else
    fprintf(
        out,
        "usage: narwhal run [--config FILE] [options]\n"
        "       narwhal sweep FILE [--csv OUT] [-j N] [--resume] [--plot on|off]\n"
        "           [--shard K/N | --merge SHARDS... | --slurm [--points-per-task P]]\n"
        "       narwhal reproduce [--out DIR] [--build DIR] [--only NAME[,NAME...]] [--resume]\n"
        "           (every simulated paper figure, its values beside the paper's:\n"
        "           results/paper/report.md; README, \"Using it\")\n"
        "       narwhal plot TRACE.json [--out FILE.png] [--size WxH] [--lanes all] [--whole]\n"
        "           (a Gantt chart of a --trace file, drawn with gnuplot)\n"
        "       narwhal critical-path TRACE.json [--top N]\n"
        "           (where a --trace file's time went: its critical path, its messages)\n"
        "       mpirun -np R narwhal calibrate --platform-out FILE --perfmodel FILE\n"
        "           --workload APP:N:BLOCK [--workload ...] [--runs K]\n"
        "           [--keep best|all|best-kernels] [--settle MIB] [options of run]\n"
        "           (real backend: measures this machine into a platform and a model; README,\n"
        "           \"Calibration\")\n"
        "       narwhal validate FILE [--out DIR] [--rounds N] [--recalibrate] [--settle MIB]\n"
        "           (calibrates, then compares held-out real runs with their simulation)\n"
        "       narwhal COMMAND --help (one command's usage and options)\n\n"
        "Options of run (each also a key of the JSON run file, without the dashes):\n");
  for (int i = 0; i < tool_option_count; i++) {
    const opt_def *d = &tool_option_defs[i];
    if (!apps && !strcmp(d->name, "app"))
      continue; /* a program is its own application */
    char arg[96];
    tool_option_arg(d, arg, sizeof arg);
    char help[1024];
    if (!strcmp(d->name, "app")) /* every app this build has, so the list never goes stale */
      snprintf(help, sizeof help, "application to run (%s)", apps);
    else
      tool_option_help(d, help, sizeof help);
    fprintf(out, "  --%s%s%s%s [default: %s]\n      %s\n", shows_negation(d) ? "[no-]" : "",
            d->name, arg[0] ? " " : "", arg, tool_option_default_text(d), help);
  }
  fprintf(out,
          "Exit status: 0 success, 1 the run failed, 2 bad input, 3 the result differs from the "
          "reference.\n");
}

/* Text in a Markdown table cell: a '|' would end the cell. */
static void md_cell(FILE *out, const char *text) {
  for (const char *p = text; *p; p++) {
    if (*p == '|')
      fputc('\\', out);
    fputc(*p, out);
  }
}

/* What values a row takes, as the reference page's second column says it. */
static void md_kind(FILE *out, const opt_def *d) {
  switch (d->type) {
  case T_CHOICE:
    for (int k = 0; k < 8 && d->choices[k]; k++)
      fprintf(out, "%s`%s`", k ? ", " : "", d->choices[k]);
    return;
  case T_INT:
    if (d->max)
      fprintf(out, "N, %d to %d", d->min, d->max);
    else
      fprintf(out, "N, %d to 1000000", d->min);
    return;
  case T_U64:
    fprintf(out, "N, 64-bit");
    return;
  case T_DOUBLE:
    fprintf(out, "seconds, 0 to 1e9");
    return;
  case T_BOOL:
    fprintf(out, "flag (JSON: true or false)");
    return;
  case T_STRING:
  case T_PARAM:
  case T_SIMGRID: {
    char arg[96];
    tool_option_arg(d, arg, sizeof arg);
    fprintf(out, "%s%s", arg, d->type == T_STRING ? "" : ", repeatable");
    return;
  }
  }
}

void tool_options_markdown(FILE *out) {
  fprintf(out,
          "<!-- Generated by `narwhal options --markdown`; edit lib/options_table.c, not this "
          "file. -->\n"
          "# Options of `narwhal run`\n\n"
          "Each option is also a key of the JSON run file, without the dashes "
          "(`--gpu-cache mru` is `\"gpu-cache\": \"mru\"`), and `--dry-run` prints them as one "
          "such file. The table is `lib/options_table.c`, which `--help` is written from too; "
          "[add-an-option](../design/recipes/add-an-option.md) shows how to add a row.\n\n"
          "| Option | Values | Default | Description |\n"
          "|---|---|---|---|\n");
  for (int i = 0; i < tool_option_count; i++) {
    const opt_def *d = &tool_option_defs[i];
    fprintf(out, "| `--%s` | ", d->name);
    md_kind(out, d);
    fputs(" | ", out);
    md_cell(out, tool_option_default_text(d));
    fputs(" | ", out);
    char help[1024];
    tool_option_help(d, help, sizeof help);
    md_cell(out, help);
    fputs(" |\n", out);
  }
}

/* A row's value read from its field, as --dry-run writes it. */
static void add_field(cJSON *j, const tool_options *o, const opt_def *d) {
  const char *p = (const char *)o + d->at;
  if (d->field == F_TEXT) {
    if (!(d->flags & OPT_OPTIONAL) || p[0])
      cJSON_AddStringToObject(j, d->name, p);
    return;
  }
  if (d->field == F_U64 && d->size == sizeof(uint64_t)) {
    uint64_t u;
    memcpy(&u, p, sizeof u);
    tool_json_add_u64(j, d->name, u);
  } else if (d->field == F_DOUBLE && d->size == sizeof(double)) {
    double x;
    memcpy(&x, p, sizeof x);
    cJSON_AddNumberToObject(j, d->name, x);
  } else if (d->field == F_INT && d->size == sizeof(int)) {
    int v;
    memcpy(&v, p, sizeof v);
    if (d->type == T_BOOL)
      cJSON_AddBoolToObject(j, d->name, v);
    else if (d->type == T_CHOICE) {
      for (int k = 0; k < 8 && d->choices[k]; k++)
        if (d->values[k] == v) {
          cJSON_AddStringToObject(j, d->name, d->choices[k]);
          break;
        }
    } else if (!(d->flags & OPT_OPTIONAL) || v >= d->min)
      cJSON_AddNumberToObject(j, d->name, v);
  }
}

void *tool_options_to_json(const tool_options *o) {
  cJSON *j = cJSON_CreateObject();
  for (int i = 0; i < tool_option_count; i++) {
    const opt_def *d = &tool_option_defs[i];
    if (d->flags & OPT_OUTPUT)
      continue;
    if (d->get)
      d->get(o, d->name, j);
    else
      add_field(j, o, d);
  }
  return j;
}
