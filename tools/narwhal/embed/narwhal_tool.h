/* narwhal_tool.h: the narwhal tool's `run` and `sweep` as C functions of a shared library,
 * libnarwhal_tool.so, for a language that calls C (Python's ctypes: python/narwhal,
 * docs/guide/python.md). Text in, JSON text out: the options, checks, one-line messages and
 * `--json` object are the command line's own, from the same code.
 *
 * SimGrid starts once per process, so nw_tool_run_json runs once in a process: a caller that
 * runs several gives each a process of its own (Python forks one per run). The others start
 * nothing and may be called any number of times.
 *
 * Every status is the command line's exit status: 0, 1 the run failed, 2 bad input, 3 the
 * result differs from the reference. A non-zero status comes with its one-line reason in why
 * (without the "narwhal: " the command line puts before it). Text handed out through a
 * char ** is the caller's, to give back to nw_tool_free. */
#ifndef NARWHAL_TOOL_H
#define NARWHAL_TOOL_H

#include <stddef.h>

/* Bumped whenever a function below changes its arguments or meaning: a caller checks it. */
#define NW_TOOL_ABI 1
int nw_tool_abi(void);
/* The tool's version ("0.13.0"), as `narwhal --version` prints it. */
const char *nw_tool_version(void);

/* The option table of `narwhal run` (lib/options_table.c) as a JSON list, a row per option in
 * the table's order: name, type (string, int, u64, double, bool, choice, param, simgrid),
 * choices (a choice's values; --app's and --sched's names), default (as --help shows it),
 * value (the default as a value of the option, or null), min and max (int), repeatable,
 * output (changes what a run prints, not the run), arg and help. The library's own text; NULL
 * when memory ran out. */
const char *nw_tool_options_json(void);

/* `narwhal run`'s options (argv: those after `run`, argc of them) resolved into a run file's
 * JSON object, as `--dry-run` prints it, with the run's own options (json, dry-run, check)
 * added; no application is looked up and nothing runs. 0, or 2 with why. */
int nw_tool_resolve_json(int argc, char **argv, char **json_out, char *why, size_t why_len);

/* `narwhal run ARGV --json` on the simulator, in this process: *json_out is the report's
 * object (status 0 or 3), the resolved configuration with --dry-run, NULL with --check. The
 * application is the built-in one --app names, or, with program not NULL, the nw_app a shared
 * object exports as `symbol` (dlopen'ed; --app is refused then). What the run prints on
 * stdout (an application's own lines) and on stderr stays there, but for the report and the
 * message returned in why. --backend real is refused: it runs in narwhal-real under mpirun. */
int nw_tool_run_json(int argc, char **argv, const char *program, const char *symbol,
                     char **json_out, char *why, size_t why_len);

/* A sweep definition (the JSON text of `narwhal sweep FILE`) checked and laid out as its
 * points, without running any: {"keys": [...], "columns": [the CSV's header], "mpirun": [...]
 * or null, "points": [{"run": {a run file}, "values": [...], "labels": [...], "describe": "KEY
 * = VALUE, ...", "ranks": R}]} in point order; ranks is 0 for a simulated point, else the MPI
 * ranks of a real-backend one. Messages start with `where` ("sweep FILE", as the command
 * line's). A "program" (an executable) is refused: `narwhal sweep` runs those. 0, or 2. */
int nw_tool_sweep_plan_json(const char *sweep, const char *where, char **json_out, char *why,
                            size_t why_len);

void nw_tool_free(char *text);

#endif
