/* sweep.c: runs a sweep described in JSON and tabulates it.
 *
 * {"title": "...", "base": {run keys}, "vary": {"nodes": [1, 2, 4], ...}, "csv": "out.csv",
 *  "columns": ["cache_hits", ...]}   (optional: further keys of `run --json` to tabulate)
 * SimGrid can be initialised once per process, so each point runs as a child process
 * (`narwhal run --config TMP --json`, the same executable), up to -j N of them at once. Each
 * row is written to the CSV as soon as its point finishes, even when another point fails: a
 * sweep never loses results, and `--resume` reruns only the points the CSV lacks. When every
 * point is done the CSV is rewritten in point order, with each speed-up over the first point.
 */
#define _POSIX_C_SOURCE 200809L
#include "sweep.h"

#include <cjson/cJSON.h>
#include <errno.h>
#include <limits.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "options.h"
#include "report.h"
#include "sweep_grid.h"
#include "sweep_plot.h"
#include "sweep_program.h"
#include "sweep_rows.h"
#include "sweep_shard.h"
#include "sweep_slurm.h"
#include "text_file.h"

/* Starts this executable as `run --config path FLAG` (or the sweep's program as `PROGRAM
 * --config path FLAG OWN...`) with `fd` as its stdout (FLAG --json) or stderr (--check: where
 * it says what is wrong), and `other` (if >= 0) closed in it; the child's pid, or -1. */
#define SWEEP_MPIRUN_MAX 32

/* What every point of the sweep runs: the sweep file's "mpirun" (a list of strings, or NULL)
 * and its program (sweep_program.h; path "" for `narwhal run`). */
typedef struct sweep_how {
  const cJSON *mpirun;
  const sweep_program *program;
} sweep_how;

/* How one point starts: a real-backend point under the sweep's "mpirun" list (default:
 * mpirun), then -np and the point's nodes (its MPI ranks), then this executable (or the
 * program) and, for a program, the point's own words. */
typedef struct launcher {
  const sweep_how *how;
  int ranks; /* 0: simulated, run directly */
  sweep_own own;
} launcher;

static pid_t spawn_run(const char *path, const char *flag, int fd, int other, const launcher *l) {
  char self[1024];
  ssize_t n = readlink("/proc/self/exe", self, sizeof self - 1);
  self[n > 0 ? n : 0] = '\0';
  fflush(NULL);
  pid_t pid = fork();
  if (pid == 0) {
    dup2(fd, strcmp(flag, "--check") ? STDOUT_FILENO : STDERR_FILENO);
    close(fd);
    if (other >= 0)
      close(other);
    const char *program = l->how->program->path;
    char *argv[SWEEP_MPIRUN_MAX + SWEEP_OWN_MAX + 10], np[16];
    int a = 0;
    if (l->ranks > 0) {
      for (const cJSON *e = l->how->mpirun ? l->how->mpirun->child : NULL;
           e && a < SWEEP_MPIRUN_MAX; e = e->next)
        argv[a++] = e->valuestring;
      if (a == 0)
        argv[a++] = "mpirun";
      snprintf(np, sizeof np, "%d", l->ranks);
      argv[a++] = "-np", argv[a++] = np;
    }
    if (program[0]) {
      argv[a++] = (char *)program;
    } else {
      argv[a++] = l->ranks > 0 ? self : "narwhal";
      argv[a++] = "run";
    }
    char *tail[] = {"--config", (char *)path, (char *)flag, NULL};
    for (int i = 0; tail[i]; i++)
      argv[a++] = tail[i];
    for (int i = 0; i < l->own.n; i++)
      argv[a++] = l->own.argv[i];
    argv[a] = NULL;
    const char *exe = l->ranks > 0 ? argv[0] : program[0] ? program : "/proc/self/exe";
    if (l->ranks > 0)
      execvp(exe, argv);
    else
      execv(exe, argv);
    tool_say("sweep: cannot run %.200s: %s", argv[0], strerror(errno));
    _exit(127);
  }
  return pid;
}

/* The number of MPI ranks a point runs under: its nodes for a real-backend point (1 when it
 * gives none), 0 for a simulated one. */
static int point_ranks(const cJSON *point) {
  const cJSON *backend = cJSON_GetObjectItemCaseSensitive(point, "backend");
  const cJSON *nodes = cJSON_GetObjectItemCaseSensitive(point, "nodes");
  if (cJSON_IsString(backend) && !strcmp(backend->valuestring, "real"))
    return cJSON_IsNumber(nodes) && nodes->valuedouble >= 1 ? (int)nodes->valuedouble : 1;
  return 0;
}

/* Runs `run --config path --check` and returns what it said (NULL on failure). */
static char *run_check(const char *path, int *status, const launcher *l) {
  int fds[2];
  if (pipe(fds) != 0)
    return NULL;
  pid_t pid = spawn_run(path, "--check", fds[1], fds[0], l);
  if (pid < 0) {
    close(fds[0]);
    close(fds[1]);
    return NULL;
  }
  close(fds[1]);
  FILE *f = fdopen(fds[0], "r");
  char *out = f ? tool_read_stream(f) : NULL;
  if (f)
    fclose(f);
  while (waitpid(pid, status, 0) < 0 && errno == EINTR)
    ;
  return out;
}

/* The run file of point p, in a new temporary file whose name goes to tmp, and how it starts
 * (l); 0 on success. A program's own keys go to l->own, not into the file. */
static int write_point(const sweep_grid *g, const cJSON *base, long p, char tmp[32],
                       const sweep_how *how, launcher *l) {
  cJSON *point = sweep_grid_point(g, base, p);
  char why[300];
  l->how = how;
  l->ranks = point ? point_ranks(point) : 0;
  if (point && sweep_program_split(how->program, point, &l->own, why, sizeof why)) {
    cJSON_Delete(point);
    point = NULL; /* check_points said why before any point ran */
  }
  snprintf(tmp, 32, "/tmp/narwhal-sweep-XXXXXX");
  int fd = point ? mkstemp(tmp) : -1;
  char *body = point ? cJSON_Print(point) : NULL;
  cJSON_Delete(point);
  int ok = fd >= 0 && body && write(fd, body, strlen(body)) == (ssize_t)strlen(body);
  free(body);
  if (fd >= 0)
    close(fd);
  if (!ok && fd >= 0)
    unlink(tmp);
  return ok ? 0 : 1;
}

static int ensure_parent_dir(const char *path) {
  char dir[1024];
  snprintf(dir, sizeof dir, "%s", path);
  char *slash = strrchr(dir, '/');
  if (!slash)
    return 0;
  *slash = '\0';
  for (char *p = dir + 1; *p; p++)
    if (*p == '/') {
      *p = '\0';
      mkdir(dir, 0777);
      *p = '/';
    }
  return mkdir(dir, 0777) == 0 || errno == EEXIST ? 0 : -1;
}

static int usage_error(const char *msg, const char *path) {
  tool_say("sweep %s: %s", path, msg);
  return 2;
}

/* Whether `key` is a top-level key of `narwhal run --json`: the keys of an empty result's
 * report (runtime_costs, which only runs that measure or charge the runtime's costs print,
 * too). */
static int run_json_has(const char *key) {
  tool_options o;
  memset(&o, 0, sizeof o);
  nw_run_config_defaults(&o.run);
  nw_run_result r;
  memset(&r, 0, sizeof r);
  cJSON *j = report_json_object(&o, &r);
  int has = cJSON_GetObjectItemCaseSensitive(j, key) != NULL || !strcmp(key, "runtime_costs");
  cJSON_Delete(j);
  return has;
}

/* The first key of a JSON object that no point may hold: one that changes what a run prints (the
 * option table's output options), or one of the command line's own; NULL when none. */
static const char *key_not_in_sweep(const cJSON *object) {
  for (const cJSON *k = cJSON_IsObject(object) ? object->child : NULL; k; k = k->next)
    if (tool_option_is_output(k->string) || !strcmp(k->string, "config") ||
        !strcmp(k->string, "help"))
      return k->string;
  return NULL;
}

/* The sweep file's own keys and their types; the run keys are checked per point. Writes a
 * reason and returns 1 when something is wrong. */
static int sweep_shape_error(const cJSON *root, char *why, size_t len) {
  static const char *const known[] = {"title",  "base",    "vary", "csv", "columns",
                                      "mpirun", "program", "args", NULL};
  if (!cJSON_IsObject(root)) {
    snprintf(why, len, "must be a JSON object");
    return 1;
  }
  for (const cJSON *k = root->child; k; k = k->next) {
    int ok = 0;
    for (int i = 0; known[i]; i++)
      ok |= !strcmp(k->string, known[i]);
    if (!ok) {
      snprintf(why, len,
               "unknown key '%.100s' (title, base, vary, csv, columns, mpirun, program, args)",
               k->string);
      return 1;
    }
  }
  const cJSON *title = cJSON_GetObjectItemCaseSensitive(root, "title");
  const cJSON *csv = cJSON_GetObjectItemCaseSensitive(root, "csv");
  if ((title && !cJSON_IsString(title)) ||
      (csv && (!cJSON_IsString(csv) || !csv->valuestring[0]))) {
    snprintf(why, len, "\"%s\" must be a string",
             title && !cJSON_IsString(title) ? "title" : "csv");
    return 1;
  }
  const cJSON *mpirun = cJSON_GetObjectItemCaseSensitive(root, "mpirun");
  int launcher_ok = !mpirun || (cJSON_IsArray(mpirun) && cJSON_GetArraySize(mpirun) >= 1 &&
                                cJSON_GetArraySize(mpirun) <= SWEEP_MPIRUN_MAX);
  for (const cJSON *e = mpirun ? mpirun->child : NULL; launcher_ok && e; e = e->next)
    launcher_ok = cJSON_IsString(e) && e->valuestring[0];
  if (!launcher_ok) {
    snprintf(why, len,
             "\"mpirun\" must be a list of 1 to %d strings: the launcher and its options, before "
             "-np",
             SWEEP_MPIRUN_MAX);
    return 1;
  }
  const cJSON *columns = cJSON_GetObjectItemCaseSensitive(root, "columns");
  if (columns && !cJSON_IsArray(columns)) {
    snprintf(why, len, "\"columns\" must be a list of key names of `narwhal run --json`");
    return 1;
  }
  for (const cJSON *c = columns ? columns->child : NULL; c; c = c->next)
    if (!cJSON_IsString(c) || !c->valuestring[0] || !run_json_has(c->valuestring)) {
      snprintf(why, len, "\"columns\": %s%.100s%s is not a key of `narwhal run --json`",
               cJSON_IsString(c) ? "'" : "", cJSON_IsString(c) ? c->valuestring : "an entry",
               cJSON_IsString(c) ? "'" : "");
      return 1;
    }
  /* A point's run is `run --config POINT --json`: keys that change what it prints (the option
   * table's output options) have no place, nor the command line's own. */
  const cJSON *base = cJSON_GetObjectItemCaseSensitive(root, "base");
  const cJSON *vary = cJSON_GetObjectItemCaseSensitive(root, "vary");
  const cJSON *together =
      cJSON_IsObject(vary) ? cJSON_GetObjectItemCaseSensitive(vary, SWEEP_OPTIONS_KEY) : NULL;
  const char *bad = key_not_in_sweep(base);
  bad = bad ? bad : key_not_in_sweep(vary);
  for (const cJSON *v = cJSON_IsArray(together) ? together->child : NULL; !bad && v; v = v->next)
    bad = key_not_in_sweep(v);
  if (bad) {
    snprintf(why, len, "\"%s\" has no place in a sweep (each point runs with --json)", bad);
    return 1;
  }
  return 0;
}

/* One point running as a child: `run --config POINT --json` with its output in a file. */
typedef struct running {
  pid_t pid;
  long point;
  int real; /* under mpirun: runs alone */
  char config[32], output[32];
} running;

static int start_point(const sweep_grid *g, const cJSON *base, const sweep_how *how, long p,
                       running *r) {
  r->point = p;
  launcher l;
  if (write_point(g, base, p, r->config, how, &l))
    return -1;
  r->real = l.ranks > 0;
  snprintf(r->output, sizeof r->output, "/tmp/narwhal-sweep-XXXXXX");
  int fd = mkstemp(r->output);
  if (fd < 0) {
    unlink(r->config);
    return -1;
  }
  r->pid = spawn_run(r->config, "--json", fd, -1, &l);
  close(fd);
  if (r->pid < 0) {
    unlink(r->config);
    unlink(r->output);
    return -1;
  }
  return 0;
}

/* The finished child's --json result (NULL when it failed); removes its files. */
static cJSON *finish_point(running *r, int status) {
  FILE *f = fopen(r->output, "r");
  char *text = f ? tool_read_stream(f) : NULL;
  if (f)
    fclose(f);
  unlink(r->config);
  unlink(r->output);
  /* A program of one's own may print lines of its own before the result: the JSON object is
   * what starts at the first line that opens one. */
  const char *at = text && text[0] == '{' ? text : text ? strstr(text, "\n{") : NULL;
  cJSON *j = at ? cJSON_Parse(at) : NULL;
  free(text);
  if (j && WIFEXITED(status) && (WEXITSTATUS(status) == 0 || WEXITSTATUS(status) == 3))
    return j;
  cJSON_Delete(j);
  return NULL;
}

/* Whether point p runs on the real backend (under mpirun). */
static int point_is_real(const sweep_grid *g, const cJSON *base, long p) {
  cJSON *point = sweep_grid_point(g, base, p);
  int real = point && point_ranks(point) > 0;
  cJSON_Delete(point);
  return real;
}

/* Prints the table's rows from *printed on, as far as they are done, in point order (the
 * points of other shards passed over). */
static void print_ready(const sweep_table *t, const sweep_shard *shard, long *printed) {
  for (; *printed < t->grid->points; (*printed)++) {
    if (!sweep_shard_has(shard, *printed))
      continue;
    if (!t->row[*printed].done)
      break;
    sweep_print_row(t, *printed);
  }
  fflush(stdout);
}

/* The progress line, on a terminal only: points done, time so far, time left at the rate of
 * this run's points (kept rows from --resume do not count). */
typedef struct progress {
  int on;
  double start;
  long done, kept, points;
} progress;

static double now_s(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

static void progress_show(const progress *pr) {
  if (!pr->on)
    return;
  double elapsed = now_s() - pr->start;
  long ran = pr->done - pr->kept, left = pr->points - pr->done;
  if (ran > 0 && left > 0)
    fprintf(stderr, "\r[%ld of %ld points, %.0f s, about %.0f s left]", pr->done, pr->points,
            elapsed, elapsed / (double)ran * (double)left);
  else
    fprintf(stderr, "\r[%ld of %ld points, %.0f s]", pr->done, pr->points, elapsed);
  fflush(stderr);
}

static void progress_clear(const progress *pr) {
  if (pr->on)
    fprintf(stderr, "\r\033[K");
}

/* Checks every point before running any: its options and application arguments, then its
 * set-up as the backend would make it (`run --check`: platform, nodes, devices, GPU memory), so
 * that a bad later point stops the sweep before the first one runs. 0, or the exit code. */
static int check_points(const sweep_grid *g, const cJSON *base, const sweep_how *how,
                        const sweep_shard *shard, const char *path) {
  char why[1024], where[1100], point_text[600];
  /* The base's own keys first, each as a run takes it: one that every point overrides is
   * still written in the file, and a wrong one there ("n": {}) is a mistake to point at. */
  tool_options base_only;
  memset(&base_only, 0, sizeof base_only);
  nw_run_config_defaults(&base_only.run);
  snprintf(where, sizeof where, "sweep %s: base", path);
  sweep_own own;
  cJSON *narwhal_keys = cJSON_Duplicate(base, 1); /* without a program's own keys */
  if (!narwhal_keys || sweep_program_split(how->program, narwhal_keys, &own, why, sizeof why) ||
      tool_options_apply_json(narwhal_keys, where, &base_only, why, sizeof why)) {
    tool_say("%s", narwhal_keys ? why : "sweep: out of memory");
    cJSON_Delete(narwhal_keys);
    return 2;
  }
  cJSON_Delete(narwhal_keys);
  for (long p = 0; p < g->points; p++) {
    if (!sweep_shard_has(shard, p))
      continue;
    cJSON *point = sweep_grid_point(g, base, p);
    tool_options o;
    memset(&o, 0, sizeof o);
    nw_run_config_defaults(&o.run);
    snprintf(where, sizeof where, "sweep %s", path);
    int bad = !point || sweep_program_split(how->program, point, &own, why, sizeof why) ||
              tool_options_apply_json(point, where, &o, why, sizeof why);
    cJSON_Delete(point);
    if (bad) {
      tool_say("%s", point ? why : "sweep: out of memory");
      return 2;
    }
  }
  for (long p = 0; p < g->points; p++) {
    if (!sweep_shard_has(shard, p))
      continue;
    char tmp[32];
    int status = 0;
    launcher l;
    char *msg = write_point(g, base, p, tmp, how, &l) ? NULL : run_check(tmp, &status, &l);
    if (msg)
      unlink(tmp);
    if (!msg || !WIFEXITED(status) || WEXITSTATUS(status) != 0) {
      char *nl = msg ? strchr(msg, '\n') : NULL;
      if (nl)
        *nl = '\0';
      const char *reason = msg && !strncmp(msg, "narwhal: ", 9) ? msg + 9 : msg;
      sweep_grid_describe(g, p, point_text, sizeof point_text);
      tool_say("sweep %s: the point %s: %s", path, point_text,
               reason && *reason ? reason : "cannot be checked");
      int code = msg && WIFEXITED(status) && WEXITSTATUS(status) == 2 ? 2 : 1;
      free(msg);
      return code;
    }
    free(msg);
  }
  return 0;
}

/* "simulated" or "measured" when every point's backend says so (the run's default is the
 * simulator), "" when they differ: the figure's legend says which makespans it shows. */
static const char *points_backend(const sweep_grid *g, const cJSON *base) {
  long real = 0;
  for (long p = 0; p < g->points; p++)
    real += point_is_real(g, base, p);
  return real == 0 ? "simulated" : real == g->points ? "measured" : "";
}

/* The finished sweep's figure (sweep_plot.h). A figure that cannot be drawn leaves the sweep's
 * exit status as it is: the CSV stands. */
static void draw(const sweep_table *t, const cJSON *base, const char *file, const char *csv,
                 const char *title) {
  char png[PATH_MAX];
  sweep_figure fig = {csv, title, file, points_backend(t->grid, base)};
  int drawn = sweep_plot(t, &fig, png, sizeof png);
  if (drawn == SWEEP_PLOT_DRAWN)
    printf("plotted %s\n", png);
  else if (drawn == SWEEP_PLOT_NO_GNUPLOT)
    printf("no plot: gnuplot is not installed\n");
  else if (drawn == SWEEP_PLOT_FAILED) /* NO_SCRIPT said which script it missed */
    tool_say("sweep: the plot %s failed (the CSV stands; gnuplot %.*s.gp says why)", png,
             (int)(strlen(png) > 4 ? strlen(png) - 4 : 0), png);
}

/* Writes every row, in point order, to path (through a temporary file renamed over it). */
static int rewrite_csv(const sweep_table *t, const char *path) {
  char tmp[1100];
  snprintf(tmp, sizeof tmp, "%s.tmp", path);
  FILE *out = fopen(tmp, "w");
  if (!out)
    return -1;
  sweep_csv_header(t, out);
  for (long p = 0; p < t->grid->points; p++)
    if (t->row[p].done)
      sweep_csv_row(t, p, out);
  return fclose(out) == 0 && rename(tmp, path) == 0 ? 0 : -1;
}

/* The finished sweep's CSV in point order, and its plot (plot: 1 to draw; base and file: the
 * sweep file's, for its own figure script and the points' backend); 0, or 1 when the CSV could
 * not be written (a plot that fails leaves the CSV standing). */
static int write_and_plot(const sweep_table *t, const char *csv, const cJSON *title, int plot,
                          const cJSON *base, const char *file) {
  if (rewrite_csv(t, csv) != 0) {
    tool_say("sweep: cannot rewrite %s in point order: %s", csv, strerror(errno));
    return 1;
  }
  printf("wrote %s\n", csv);
  if (plot)
    draw(t, base, file, csv, cJSON_IsString(title) ? title->valuestring : NULL);
  return 0;
}

/* --merge: the shards' rows into the sweep's table, then its CSV and plot as a whole run
 * writes them. The exit code (3 when a row is not verified, as a run's). */
static int merge_shards(sweep_table *t, const cJSON *root, char **paths, int npaths,
                        const char *csv, int plot, const char *path) {
  char why[800];
  char *fingerprint = sweep_fingerprint(root);
  long shards = -1;
  if (!fingerprint || !t->row)
    snprintf(why, sizeof why, "out of memory");
  else
    shards = sweep_merge(t, fingerprint, paths, npaths, why, sizeof why);
  free(fingerprint);
  if (shards < 0) {
    tool_say("sweep %s: %s", path, why);
    return 2;
  }
  const cJSON *title = cJSON_GetObjectItemCaseSensitive(root, "title");
  if (cJSON_IsString(title))
    printf("%s\n", title->valuestring);
  printf("merged: %ld shards, %ld points\n", shards, t->grid->points);
  sweep_print_header(t);
  int code = 0;
  for (long p = 0; p < t->grid->points; p++) {
    sweep_print_row(t, p);
    code = strcmp(t->row[p].verified, "false") ? code : 3;
  }
  if (ensure_parent_dir(csv) != 0) {
    tool_say("sweep: cannot write %s: %s", csv, strerror(errno));
    return 1;
  }
  int written =
      write_and_plot(t, csv, title, plot, cJSON_GetObjectItemCaseSensitive(root, "base"), path);
  return written ? written : code;
}

/* Ctrl-C (or SIGTERM): start no more points, stop the running ones, keep every finished row,
 * and say how to resume. */
static volatile sig_atomic_t interrupted;
static void on_interrupt(int sig) {
  interrupted = sig;
}

#define SWEEP_USAGE                                                                                \
  "usage: narwhal sweep FILE [--csv OUT] [-j N] [--resume] [--plot on|off] [--shard K/N]\n"        \
  "       narwhal sweep FILE --merge SHARD_CSV_OR_FOLDER... [--csv OUT] [--plot on|off]\n"         \
  "       narwhal sweep FILE --slurm [--points-per-task P] [--array-max M] [-j N]"
static const char sweep_help[] = SWEEP_USAGE
    "\n"
    "Runs `narwhal run` (or a program of one's own) for every point of the sweep file's grid\n"
    "(a JSON object: \"base\" options, \"vary\" lists, \"csv\"; docs/guide/sweeps.md) and\n"
    "writes one CSV row per point, in grid order, then a gnuplot script and its PNG.\n"
    "  --csv OUT       the CSV (default: the file's \"csv\")\n"
    "  -j N, --jobs N  points run at once, 1 to 256 (default: the cores)\n"
    "  --resume        keep the CSV's rows already written and run only the others\n"
    "  --plot on|off   draw the plot (default on)\n"
    "  --shard K/N     run only shard K of N (the points p with p mod N = K) into\n"
    "                  CSV.shard-K-of-N.csv, to merge later (a Slurm array's element)\n"
    "  --merge PATH... join every shard's CSV (files, or folders holding them) into the\n"
    "                  sweep's CSV and plot, refusing a missing, repeated, unfinished or\n"
    "                  foreign shard\n"
    "  --slurm         write a Slurm job array running the sweep's shards (P points each,\n"
    "                  default 4; at most M elements at once, default 16; -j N cores each),\n"
    "                  a merge job after it, and the script that submits both\n";

int sweep_main(int argc, char **argv) {
  const char *path = NULL, *csv_opt = NULL;
  long cores = sysconf(_SC_NPROCESSORS_ONLN);
  int jobs = cores >= 1 && cores <= 256 ? (int)cores : 1, resume = 0, plot = 1, slurm = 0;
  int nmerge = 0, jobs_given = 0;
  char **merge = NULL, reason[300];
  sweep_shard shard = {0, 0};
  sweep_slurm_plan plan = {4, 16, 1};
  for (int i = 0; i < argc; i++) {
    if (!strcmp(argv[i], "--help") || !strcmp(argv[i], "-h")) {
      fputs(sweep_help, stdout);
      return 0;
    }
    if (!strcmp(argv[i], "--csv") && i + 1 < argc) {
      csv_opt = argv[++i];
      if (!*csv_opt) { /* as the file's "csv": "" */
        tool_say("sweep: --csv: the value is empty");
        return 2;
      }
    } else if ((!strcmp(argv[i], "-j") || !strcmp(argv[i], "--jobs")) && i + 1 < argc) {
      char *end;
      long j = strtol(argv[++i], &end, 10);
      if (*end || end == argv[i] || j < 1 || j > 256) {
        tool_say("sweep: -j '%.40s': not a number of jobs from 1 to 256", argv[i]);
        return 2;
      }
      jobs = (int)j, jobs_given = 1;
    } else if (!strcmp(argv[i], "--shard") && i + 1 < argc) {
      if (sweep_shard_parse(argv[++i], &shard, reason, sizeof reason)) {
        tool_say("sweep: %s", reason);
        return 2;
      }
    } else if (!strcmp(argv[i], "--merge")) {
      merge = argv + i + 1; /* the paths that follow, up to the next option */
      while (i + 1 < argc && argv[i + 1][0] != '-')
        i++, nmerge++;
      if (!nmerge) {
        tool_say("sweep: --merge needs the shards' CSVs, or folders holding them");
        return 2;
      }
    } else if (!strcmp(argv[i], "--slurm")) {
      slurm = 1;
    } else if ((!strcmp(argv[i], "--points-per-task") || !strcmp(argv[i], "--array-max")) &&
               i + 1 < argc) {
      long *to = !strcmp(argv[i], "--array-max") ? &plan.array_max : &plan.points_per_task;
      char *end;
      long v = strtol(argv[++i], &end, 10);
      if (*end || end == argv[i] || v < 1 || v > SWEEP_POINTS_MAX) {
        tool_say("sweep: %s '%.40s': a whole number from 1 to %d", argv[i - 1], argv[i],
                 SWEEP_POINTS_MAX);
        return 2;
      }
      *to = v;
    } else if (!strcmp(argv[i], "--plot") && i + 1 < argc) {
      i++;
      if (strcmp(argv[i], "on") && strcmp(argv[i], "off")) {
        tool_say("sweep: --plot '%.40s': on or off", argv[i]);
        return 2;
      }
      plot = !strcmp(argv[i], "on");
    } else if (!strcmp(argv[i], "--resume"))
      resume = 1;
    else if (!path && strncmp(argv[i], "-", 1) != 0)
      path = argv[i];
    else {
      tool_say("sweep: unexpected argument '%.200s' (" SWEEP_USAGE ")", argv[i]);
      return 2;
    }
  }
  if (!path) {
    tool_say("sweep: missing FILE (" SWEEP_USAGE ")");
    return 2;
  }
  if ((shard.n > 0) + (merge != NULL) + slurm > 1 || ((merge || slurm) && resume)) {
    tool_say("sweep: --shard, --merge and --slurm go alone (and --resume only with --shard)");
    return 2;
  }
  plan.cores = jobs_given ? jobs : 1;
  FILE *f = fopen(path, "r");
  if (!f) {
    tool_say("sweep %s: %s", path, strerror(errno));
    return 2;
  }
  char unread[128];
  char *text = tool_read_json_text(f, unread, sizeof unread);
  fclose(f);
  if (!text)
    return usage_error(unread, path);
  cJSON *root = cJSON_ParseWithOpts(text, NULL, 1);
  free(text);
  if (!root)
    return usage_error("malformed JSON", path);
  const cJSON *base = cJSON_GetObjectItemCaseSensitive(root, "base");
  const cJSON *vary = cJSON_GetObjectItemCaseSensitive(root, "vary");
  const cJSON *csv_item = cJSON_GetObjectItemCaseSensitive(root, "csv");
  const cJSON *title = cJSON_GetObjectItemCaseSensitive(root, "title");
  const cJSON *columns = cJSON_GetObjectItemCaseSensitive(root, "columns");
  char bad[400];
  sweep_grid grid;
  if (sweep_shape_error(root, bad, sizeof bad) ||
      (!cJSON_IsObject(base) && snprintf(bad, sizeof bad, "needs \"base\": {run keys}")) ||
      (!cJSON_IsObject(vary) &&
       snprintf(bad, sizeof bad, "needs \"vary\": {\"KEY\": [values...], ...}")) ||
      sweep_grid_init(&grid, vary, bad, sizeof bad) != 0 ||
      (cJSON_GetArraySize(columns) > SWEEP_COLUMNS_MAX &&
       snprintf(bad, sizeof bad, "\"columns\" lists more than %d keys", SWEEP_COLUMNS_MAX))) {
    cJSON_Delete(root);
    return usage_error(bad, path);
  }
  const char *csv = csv_opt ? csv_opt : cJSON_IsString(csv_item) ? csv_item->valuestring : NULL;
  if (resume && !csv) {
    cJSON_Delete(root);
    return usage_error("--resume needs the CSV of the earlier run (\"csv\" or --csv)", path);
  }
  if ((shard.n || merge || slurm) && !csv) {
    cJSON_Delete(root);
    return usage_error("shards need the sweep's CSV to name theirs (\"csv\" or --csv)", path);
  }
  char shard_csv[1100];
  if (shard.n) { /* a shard writes its own CSV, marked with the sweep it belongs to */
    char *fingerprint = sweep_fingerprint(root);
    sweep_shard_csv(csv, &shard, shard_csv, sizeof shard_csv);
    int marked = fingerprint && ensure_parent_dir(shard_csv) == 0 &&
                 sweep_shard_mark(shard_csv, fingerprint) == 0;
    free(fingerprint);
    if (!marked) {
      tool_say("sweep: cannot write %s.sweep: %s", shard_csv, strerror(errno));
      cJSON_Delete(root);
      return 1;
    }
    csv = shard_csv, plot = 0;
  }
  sweep_program program;
  if (sweep_program_init(&program, root, bad, sizeof bad)) {
    cJSON_Delete(root);
    return usage_error(bad, path);
  }
  sweep_how how = {cJSON_GetObjectItemCaseSensitive(root, "mpirun"), &program};
  sweep_table table = {&grid, columns, cJSON_GetArraySize(columns),
                       calloc((size_t)grid.points, sizeof(sweep_row))};
  if (merge) {
    int merged = merge_shards(&table, root, merge, nmerge, csv, plot, path);
    free(table.row);
    cJSON_Delete(root);
    return merged;
  }
  int code = check_points(&grid, base, &how, &shard, path);
  if (!code && slurm) {
    code = ensure_parent_dir(csv) != 0
               ? (snprintf(reason, sizeof reason, "cannot make the folder of %.200s", csv), 1)
               : sweep_slurm_write(path, csv, grid.points, &plan, reason, sizeof reason);
    if (code)
      tool_say("sweep %s: %s", path, reason);
    free(table.row);
    cJSON_Delete(root);
    return code;
  }
  running *run = calloc((size_t)jobs, sizeof *run);
  long kept = 0;
  if (!code && (!table.row || !run)) {
    tool_say("sweep: out of memory");
    code = 1;
  }
  if (!code && resume && (kept = sweep_csv_resume(&table, csv, bad, sizeof bad)) < 0) {
    tool_say("sweep %s: %s", path, bad);
    code = 2;
  }
  FILE *out = NULL;
  if (!code && csv && (ensure_parent_dir(csv) != 0 || !(out = fopen(csv, "w")))) {
    tool_say("sweep: cannot write %s: %s", csv, strerror(errno));
    code = 1;
  }
  if (code) {
    free(table.row);
    free(run);
    cJSON_Delete(root);
    return code;
  }
  if (cJSON_IsString(title))
    printf("%s\n", title->valuestring);
  long points = 0; /* of this run: the sweep's, or the shard's */
  for (long p = 0; p < grid.points; p++)
    points += sweep_shard_has(&shard, p);
  if (resume)
    printf("resumed: %ld of %ld points from %s\n", kept, points, csv);
  sweep_print_header(&table);
  if (out)
    sweep_csv_header(&table, out);
  for (long p = 0; p < grid.points; p++)
    if (table.row[p].done && out)
      sweep_csv_row(&table, p, out);
  long printed = 0; /* the table shows rows in point order, each once those before it are done */
  print_ready(&table, &shard, &printed);
  progress prog = {isatty(STDERR_FILENO), now_s(), 0, 0, points};
  for (long p = 0; p < grid.points; p++)
    prog.done += table.row[p].done, prog.kept += table.row[p].done;
  /* Up to `jobs` points at once; a failed point stops new ones, the running ones finish. */
  struct sigaction sa;
  memset(&sa, 0, sizeof sa);
  sa.sa_handler = on_interrupt; /* no SA_RESTART: waitpid returns to look at the flag */
  sigaction(SIGINT, &sa, NULL);
  sigaction(SIGTERM, &sa, NULL);
  long next = 0;
  int active = 0, failed = 0, alone = 0; /* alone: a real-backend point runs, nothing beside */
  char point_text[600];
  for (;;) {
    if (interrupted)
      for (int r = 0; r < active; r++)
        kill(run[r].pid, SIGTERM); /* a Ctrl-C reached them already; a kill of ours did not */
    while (!failed && !interrupted && !alone && active < jobs && next < grid.points) {
      if (table.row[next].done || !sweep_shard_has(&shard, next)) {
        next++;
        continue;
      }
      /* A real-backend point measures this machine: it runs alone, so it waits for the
       * running ones (real and simulated points in one sweep) and they for it. */
      int real = point_is_real(&grid, base, next);
      if (real && active > 0)
        break;
      if (start_point(&grid, base, &how, next, &run[active]) != 0) {
        tool_say("sweep: cannot start a run: %s", strerror(errno));
        failed = 1;
        break;
      }
      alone = run[active].real;
      active++, next++;
    }
    if (active == 0)
      break;
    int status = 0;
    pid_t pid = waitpid(-1, &status, 0);
    if (pid < 0 && errno == EINTR)
      continue;
    int r = 0;
    while (r < active && run[r].pid != pid)
      r++;
    if (r == active) /* not one of ours (cannot happen: --check's children were waited for) */
      continue;
    long p = run[r].point;
    if (run[r].real)
      alone = 0;
    cJSON *result = finish_point(&run[r], status);
    run[r] = run[--active];
    if (!result && interrupted)
      continue;
    if (!result) {
      sweep_grid_describe(&grid, p, point_text, sizeof point_text);
      tool_say("sweep: the run with %s failed%s", point_text, WIFEXITED(status) ? "" : " (killed)");
      failed = 1;
      continue;
    }
    sweep_row_from_json(&table, p, result);
    cJSON_Delete(result);
    if (!strcmp(table.row[p].verified, "false"))
      code = 3;
    progress_clear(&prog);
    print_ready(&table, &shard, &printed);
    if (out)
      sweep_csv_row(&table, p, out);
    prog.done++;
    progress_show(&prog);
  }
  progress_clear(&prog);
  if (failed)
    code = 1;
  long done = 0;
  for (long p = 0; p < grid.points; p++)
    done += table.row[p].done;
  if (interrupted) {
    tool_say("sweep %s: interrupted with %ld of %ld points done%s%s%s", path, done, points,
             out ? " (in " : "", out ? csv : "",
             out ? "; add --resume to run the rest)" : "; give it a CSV to resume from");
    code = 130;
  }
  if (out) {
    fclose(out);
    if (!failed && !interrupted) {
      int written = write_and_plot(&table, csv, title, plot, base, path);
      code = written ? written : code;
    } else {
      printf("wrote %s\n", csv);
    }
  }
  free(table.row);
  free(run);
  cJSON_Delete(root);
  return code;
}
