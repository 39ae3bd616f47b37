/* narwhal_app.h: how an application presents itself to the narwhal tool.
 *
 * An application is a driver (its main, run on node 0) plus the task kinds it registers. The
 * tool finds it by name, checks its arguments before anything starts, and runs it unchanged on
 * either backend.
 */
#ifndef NARWHAL_APP_H
#define NARWHAL_APP_H

#include "narwhal.h"

/* Application-specific parameters: `--app-param KEY=VALUE` (repeatable; a later KEY replaces an
 * earlier one) or the run file's "app-param". Fixed-size so that nw_app_args stays a plain
 * value every rank fills from its own command line. Each app checks its keys in check_args. */
#define NW_APP_PARAMS_MAX 16
#define NW_APP_PARAM_KEY 32
#define NW_APP_PARAM_VALUE 96
typedef struct nw_app_param {
  char key[NW_APP_PARAM_KEY];
  char value[NW_APP_PARAM_VALUE];
} nw_app_param;

/* How an app's inputs leave node 0 when nw_app_args.spread is set (`--placement`; the schemes
 * of the Unicorn paper's Fig. 13). Each unit is one `--block` x `--block` block of a matrix or
 * image, each drawn a node from the run's seed (apps/common/place.h). */
typedef enum nw_app_placement {
  NW_PLACEMENT_BLOCKS = 0,   /* each block on its own node (`spread`, `blocks`) */
  NW_PLACEMENT_ROWS,         /* each row of blocks on one node */
  NW_PLACEMENT_COLUMNS,      /* each column of blocks on one node */
  NW_PLACEMENT_ROWS_COLUMNS, /* two inputs: the first by rows of blocks, the second by columns */
  /* Each node its own contiguous, equal share of the units, node 0 the first (`local`): an SPMD
   * program's nodes each starting with their own data (the PRS paper's weak scaling). */
  NW_PLACEMENT_LOCAL
} nw_app_placement;

typedef struct nw_app_args {
  uint64_t n;     /* problem size (matmul: matrix dimension; conv2d: image side) */
  uint64_t block; /* subtask granularity (matmul: block dimension; conv2d: tile side) */
  uint64_t seed;  /* input data seed */
  int verify;     /* compare against a single-process reference (functional mode only) */
  int spread;     /* start with inputs spread over the nodes (paper section 5), as
                   * `placement` says; 0 leaves them all on node 0 */
  nw_app_placement placement; /* how, when spread; apps that honour only blocks ignore it */
  int nparams;                /* params[0 .. nparams-1]: the --app-param pairs, keys distinct */
  nw_app_param params[NW_APP_PARAMS_MAX];
} nw_app_args;

/* The value of app parameter `key`, or NULL when it was not given (apps/common/params.c). */
const char *nw_app_param_get(const nw_app_args *a, const char *key);
/* Sets `key` to `value`, replacing an earlier value of the same key. Returns 0, or -1 when the
 * key is empty or too long, the value too long, or NW_APP_PARAMS_MAX keys are already set. */
int nw_app_param_set(nw_app_args *a, const char *key, const char *value);
/* 0 when every key given is one of `keys` (comma-separated); else -1 with a one-line reason
 * naming the app, the key and the ones it knows. */
int nw_app_param_keys(const nw_app_args *a, const char *app, const char *keys, char *why,
                      size_t why_len);
/* The value of `key` as a whole number from lo to hi into *out (dflt when not given); 0, or -1
 * with a one-line reason. */
int nw_app_param_uint(const nw_app_args *a, const char *app, const char *key, uint64_t lo,
                      uint64_t hi, uint64_t dflt, uint64_t *out, char *why, size_t why_len);

typedef struct nw_app_outcome {
  int verified; /* 1 equal to the reference, 0 different, -1 not checked */
  /* Reads a kernel found stale: an app that checks every read says how many (chain); the
   * others leave it 0. */
  uint64_t stale_reads;
} nw_app_outcome;

typedef struct nw_app {
  const char *name;
  const nw_task_kind *const *kinds; /* NULL-terminated */
  /* Rejects arguments the app cannot run with; writes a one-line reason. */
  nw_status (*check_args)(const nw_app_args *a, char *why, size_t why_len);
  nw_status (*main)(nw_runtime *rt, const nw_app_args *a, nw_app_outcome *out);
} nw_app;

/* The name `--placement` gives a placement ("blocks", "rows", "columns", "rows-columns",
 * "local"). */
const char *nw_app_placement_name(nw_app_placement p);
/* 0 when app honours a's placement; else -1 with a one-line reason naming the option, the app
 * and what it takes. Every app honours node 0 and blocks; lib/app_placement.c lists the
 * ones that honour more (an app not listed ignores nw_app_args.placement). */
int nw_app_check_placement(const nw_app *app, const nw_app_args *a, char *why, size_t why_len);

/* A program of one's own (libnarwhal; README, "Programs of your own"). Its main() hands its
 * command line to nw_init, which takes out Narwhal's options (those of `narwhal run` but
 * --app: backend, platform, nodes, n, block, seed, sched, json, trace, ...) and leaves the
 * program's own, in order, with argv[0]; nw_run_app then runs the program's application on
 * the backend those options chose: the simulator (--backend sim, the default), or this
 * machine under mpirun, one rank per node (--backend real), where every rank calls these
 * three and the driver runs on rank 0. It prints the run's report as `narwhal run` does (on
 * rank 0 only); nw_finalize ends the backend (MPI) and gives main's exit status:
 *
 *   int main(int argc, char **argv) {
 *     if (nw_init(&argc, &argv) == NW_OK && my_options(argc, argv) == 0)
 *       nw_run_app(&my_app);
 *     return nw_finalize();
 *   }
 *
 * nw_init: NW_OK, or NW_ERR_ARG after one line naming the bad option (on stderr, rank 0).
 * With --help it prints Narwhal's options and leaves --help in argv for the program's own
 * usage; nw_run_app then runs nothing. Options Narwhal does not know are left to the program,
 * which must refuse the ones it does not know either (a mistyped Narwhal option reaches it).
 * nw_run_app: once per process (SimGrid starts once); returns the exit status, as nw_finalize
 * does: 0, 1 the run failed, 2 bad input, 3 the result differs from the reference (the app's
 * outcome said verified 0). Under mpirun ranks other than 0 return 0 on failure, so that rank
 * 0's message is not cut short. */
nw_status nw_init(int *argc, char ***argv);
int nw_run_app(const nw_app *app);
int nw_finalize(void);

/* What the run of nw_run_app measured, for a program that uses its result itself (compares
 * it with a prediction, writes its own table): the same numbers `--json` prints. */
typedef struct nw_run_summary {
  int reporter; /* 1 on the process that holds the result (rank 0); else 0 */
  int nodes;
  int verified; /* 1 equal to the reference, 0 different, -1 not checked */
  uint64_t subtasks;
  double makespan_s;      /* first submission to last completion (simulated or measured) */
  double gflops;          /* the kinds' cost model's flops / makespan */
  uint64_t bytes_network; /* bytes sent between nodes */
  uint64_t steals_succeeded, steals_attempted;
} nw_run_summary;
/* Fills *out after nw_run_app ran (on every rank; only the reporter's numbers are the run's);
 * NW_ERR_STATE before, or when the run did not get as far as a result. */
nw_status nw_run_summary_get(nw_run_summary *out);

/* The narwhal tool's built-in applications (the list apps/apps.def, apps/registry.c; linked into
 * the tool, not part of libnarwhal). */
const nw_app *nw_app_find(const char *name);
/* Their names, comma-separated, for messages. */
void nw_app_names(char *buf, size_t len);
/* The task kind of that name in app, or NULL. */
const nw_task_kind *nw_app_kind(const nw_app *app, const char *kind_name);

#endif
