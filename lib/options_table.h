/* options_table.h: the one table of `narwhal run` options (options_table.c). Parsing, the run
 * file's keys, --help, --dry-run's JSON and docs/reference/options.md are all read from it, so
 * a plain option is one row there plus the field it sets. */
#ifndef NW_TOOL_OPTIONS_TABLE_H
#define NW_TOOL_OPTIONS_TABLE_H

#include <stddef.h>

#include "options.h"

/* T_PARAM: KEY=VALUE, repeatable, into the app's parameter list (nw_app_args.params).
 * T_SIMGRID: repeatable, passed to SimGrid as --NAME=VALUE (nw_run_config.simgrid_args). */
typedef enum { T_STRING, T_INT, T_U64, T_DOUBLE, T_BOOL, T_CHOICE, T_PARAM, T_SIMGRID } opt_type;

/* How the row's field holds its value: F_TEXT a char array (the text as given), F_INT an int
 * (a T_CHOICE's: the choice's value), F_U64 a uint64_t, F_DOUBLE a double. */
typedef enum { F_NONE, F_TEXT, F_INT, F_U64, F_DOUBLE } opt_field;

/* Row flags. OPT_OPTIONAL: --dry-run writes the key only when it is set (text not empty, a
 * number not below min), since "unset" has no value of the key's type. OPT_OUTPUT: it changes
 * what a run prints or whether it runs, not the run: --dry-run leaves it out, and a sweep
 * refuses it (each point runs with --json). OPT_JSON_NUMBER: a run file may give the text as a
 * number (a fraction for "auto" or one); OPT_JSON_BOOL: an on|off choice as true or false. */
enum { OPT_OPTIONAL = 1, OPT_OUTPUT = 2, OPT_JSON_NUMBER = 4, OPT_JSON_BOOL = 8 };

/* A value checked against its row's type: the text, and the number or choice it is. */
typedef struct opt_value {
  const char *text;
  unsigned long long u; /* T_INT, T_U64 */
  double x;             /* T_DOUBLE */
  int on;               /* T_BOOL */
  int choice;           /* T_CHOICE: the value of the choice given */
} opt_value;

/* A row's special handling, where a field is not simply stored: 0, or 1 with a message naming
 * `who` in why. */
typedef struct opt_def opt_def;
typedef int (*opt_set_fn)(tool_options *o, const opt_def *d, const opt_value *v, const char *who,
                          char *why, size_t len);
/* Adds the row's key to the JSON object (a cJSON *) as --dry-run shows it, or nothing. */
typedef void (*opt_get_fn)(const tool_options *o, const char *key, void *json);

struct opt_def {
  const char *name; /* --name, and the run file's key: a public contract, never renamed */
  opt_type type;
  const char *choices[8]; /* T_CHOICE */
  int values[8];          /* T_CHOICE kept in an int: each choice's value */
  /* T_INT: the bounds beyond the type's 0 to 1000000 (max 0: none); the notes follow the
   * numbers in the message ("from 0 (off) to 1024"). */
  int min, max;
  const char *min_note, *max_note;
  /* The default as a value of the option, set before the run file and the command line; NULL
   * where none is set here (nw_run_config_defaults' stays) and `shown` says what it is. */
  const char *dflt;
  const char *shown; /* the default as --help shows it, where not dflt */
  const char *help;
  opt_field field; /* where the value goes: tool_options at `at`, `size` bytes */
  size_t at, size;
  opt_set_fn set; /* instead of storing at `at` */
  opt_get_fn get; /* instead of reading `at` for --dry-run */
  unsigned flags;
  const char *arg; /* the value's placeholder in --help, where not the type's */
};

extern const opt_def tool_option_defs[];
extern const int tool_option_count;

/* The row named `name`, or NULL. */
const opt_def *tool_option_find(const char *name);
/* The default as users read it: "[default: X]" in --help, a column of the reference page. */
const char *tool_option_default_text(const opt_def *d);
/* The value's placeholder in --help ("N", "TEXT", "on|off"), written to out. */
void tool_option_arg(const opt_def *d, char *out, size_t len);
/* The row's help as people read it (--help, the reference page, the manual page): --sched's
 * lists the policies of the table. (options_doc.c) */
void tool_option_help(const opt_def *d, char *help, size_t len);

#endif
