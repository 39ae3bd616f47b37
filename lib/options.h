/* options.h: `narwhal run` options, from the command line and from a JSON run file. */
#ifndef NW_TOOL_OPTIONS_H
#define NW_TOOL_OPTIONS_H

#include <stddef.h>
#include <stdio.h>

#include "run.h"

typedef struct tool_options {
  nw_run_config run;
  int json;    /* print one JSON object */
  int dry_run; /* print the resolved configuration and stop */
  int help;
  int verify_set;
  char perfmodel[1024]; /* --perfmodel FILE; empty: none */
  char placement[16];   /* --placement as given (run.args holds what it means) */
  int trace_paje;       /* --trace-format paje: --trace FILE as Paje, not Chrome trace JSON */
} tool_options;

/* Fills o from argv (argv[0] is the first option, after "run"): defaults, then the --config
 * file's keys, then the command line's options. On error writes a one-line message naming
 * the option, key or file to why and returns non-zero. */
int tool_options_parse(int argc, char **argv, tool_options *o, char *why, size_t why_len);
/* The same for a program's own main (nw_init): argv[0] is the program, its Narwhal options are
 * taken out of argv and the others (with --help) left, in order, for the program; *argc
 * counts what is left and argv[*argc] becomes NULL. --app is refused. */
int tool_options_parse_program(int *argc, char **argv, tool_options *o, char *why, size_t why_len);
/* Applies the keys of a JSON object (a run file's, or a sweep's "base") to o; `where` names
 * the source in messages. */
int tool_options_apply_json(const void *cjson_object, const char *where, tool_options *o, char *why,
                            size_t why_len);
/* The usage text: on stdout when asked for (--help), on stderr after a mistake. The tool's
 * names its built-in applications (apps, comma-separated); with apps NULL, a program's
 * (nw_init): its name, Narwhal's options without --app. */
void tool_options_usage(FILE *out, const char *apps, const char *program);
/* The options as a Markdown table (option, values, default, description): the text of
 * docs/reference/options.md, from `narwhal options --markdown`. */
void tool_options_markdown(FILE *out);
/* The manual page narwhal(1) in roff: the usage's commands, every option, exit status, files;
 * apps as for tool_options_usage. The text of docs/reference/narwhal.1 (options_man.c). */
void tool_options_man(FILE *out, const char *apps);
/* Whether `key` is an option that changes what a run prints or whether it runs (json,
 * dry-run, check), which a sweep's points may not hold. */
int tool_option_is_output(const char *key);
/* JSON numbers are doubles: whole numbers from 2^53 on lose digits, and cJSON prints only 15
 * significant digits where they read back within its tolerance. A 64-bit value (a seed) is
 * written as a number below 10^15 and as a string of digits from there; a run file may give
 * one either way, and a number from 2^53 on is refused as ambiguous. */
#define TOOL_JSON_EXACT_MAX 9007199254740992.0  /* 2^53 */
#define TOOL_JSON_PRINT_MAX 1000000000000000ull /* 10^15 */
void tool_json_add_u64(void *cjson_object, const char *key, unsigned long long v);
/* The resolved configuration as a JSON object (cJSON *), with the run file's keys. */
void *tool_options_to_json(const tool_options *o);

#endif
