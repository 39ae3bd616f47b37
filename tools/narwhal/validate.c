/* validate.c: `narwhal validate` (validate.h). */
#define _POSIX_C_SOURCE 200809L
#include "validate.h"

#include <cjson/cJSON.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "perfmodel.h"
#include "perfmodel_file.h"
#include "settle_memory.h"
#include "text_file.h"
#include "validate_file.h"
#include "validate_plot.h"
#include "validate_stats.h"
#include "validate_transport.h"
#include "validate_wall.h"

#define MAX_ARGV (VF_MAX_ARGS + VF_MAX_MPIRUN + 2 * VF_MAX_WORKLOADS + 32)

typedef struct options {
  const char *file;
  const char *out;
  int rounds; /* 0: the file's */
  int recalibrate;
  long settle_mib; /* --settle; -1: the default (settle_default) */
} options;

/* The host's CPU time so far (jiffies: all, and stolen by the hypervisor), from /proc/stat's
 * first line; 0 where it cannot be read. */
static void cpu_ticks(double *all, double *steal) {
  unsigned long long v[8] = {0};
  FILE *f = fopen("/proc/stat", "r");
  *all = *steal = 0;
  if (!f)
    return;
  if (fscanf(f, "cpu %llu %llu %llu %llu %llu %llu %llu %llu", &v[0], &v[1], &v[2], &v[3], &v[4],
             &v[5], &v[6], &v[7]) == 8) {
    for (int i = 0; i < 8; i++)
      *all += (double)v[i];
    *steal = (double)v[7];
  }
  fclose(f);
}

/* What one configuration gave. */
typedef struct result {
  double best; /* of the real rounds; best < 0 before the first */
  /* Every real round's time, in round order (the CSV's rounds_s; the worst is the largest): how
   * far two rounds, or two best-of-three sets of them, are apart is the floor of the
   * simulation's error (docs/experiments/validation-repeat.md). */
  double round_s[VF_MAX_ROUNDS];
  int rounds;
  double sim;
  double unpriced; /* subtasks the model could not time (priced_by_cost_model) */
  /* The best real round's kernels against the calibration's model: their CPU time over what
   * the model predicted for them, less one (kernels_measured_s, kernels_predicted_s); NAN
   * where the model timed none of them. */
  double kernels;
  /* The same round's CPU devices' busy (wall) time over its kernels' CPU time, less one: what
   * the kernels waited for a core or a page the host had to back, which their CPU time does
   * not show; NAN where a GPU ran subtasks or the model did not time them all. */
  double wall;
  uint64_t touched; /* pages its last real round first-touched, all ranks (sizes --settle) */
  /* Its calibration's anchor (vf_calibration.anchor): the median, over the real rounds, of
   * the anchor's kernels over the model's; NAN without one. */
  double anchor;
  double sim_plain; /* simulated without the anchor (its calibration's platform as written) */
} result;

/* A calibration's anchor runs: the pages its last one first-touched (sizes --settle), and
 * what each measured (anchor_run). */
typedef struct anchor_state {
  uint64_t touched;
  int n, cap;
  double *ratio;
} anchor_state;

#define VALIDATE_USAGE                                                                             \
  "usage: narwhal validate FILE [--out DIR] [--rounds N] [--recalibrate] [--settle MIB]"
static const char validate_help[] = VALIDATE_USAGE
    "\n"
    "Calibrates on the file's training workloads (narwhal calibrate, under mpirun), then runs\n"
    "each held-out configuration on the real backend and in simulation and prints their\n"
    "errors, the summary lines and Kendall's tau per group (docs/guide/calibration.md).\n"
    "  --out DIR       where the calibrations, logs and validation.csv go (default\n"
    "                  results/validate)\n"
    "  --rounds N      real rounds per configuration, interleaved, 1 to 100 (default: the\n"
    "                  file's \"rounds\")\n"
    "  --recalibrate   calibrate again even where DIR holds a calibration\n"
    "  --settle MIB    memory touched and freed before each real run (default 1536, at most\n"
    "                  half of what is available; more where a configuration's last round\n"
    "                  first-touched more)\n";

static int usage(void) {
  tool_say(VALIDATE_USAGE);
  return 2;
}

/* MiB touched before each real run by default: 1.5 GiB (the held-out set's largest run holds
 * about 1.1 GiB: conv2d 6144's input, output and copies), at most half of what is available. */
static long settle_default(void) {
  long avail = (long)tool_memory_available_mib(), mib = 1536;
  return avail > 0 && avail / 2 < mib ? avail / 2 : mib;
}

static int parse_args(int argc, char **argv, options *o) {
  *o = (options){NULL, "results/validate", 0, 0, -1};
  for (int i = 0; i < argc; i++) {
    if (!strcmp(argv[i], "--help") || !strcmp(argv[i], "-h")) {
      fputs(validate_help, stdout);
      return -1;
    }
    if (!strcmp(argv[i], "--out") && i + 1 < argc) {
      o->out = argv[++i];
    } else if (!strcmp(argv[i], "--rounds") && i + 1 < argc) {
      char *end;
      long r = strtol(argv[++i], &end, 10);
      if (*end || r < 1 || r > VF_MAX_ROUNDS) {
        tool_say("validate: --rounds %.100s: a whole number from 1 to 100", argv[i]);
        return 2;
      }
      o->rounds = (int)r;
    } else if (!strcmp(argv[i], "--settle") && i + 1 < argc) {
      char *end;
      long m = strtol(argv[++i], &end, 10);
      if (*end || m < 0 || m > (1L << 20)) {
        tool_say("validate: --settle %.100s: MiB, a whole number from 0 to 1048576", argv[i]);
        return 2;
      }
      o->settle_mib = m;
    } else if (!strcmp(argv[i], "--recalibrate")) {
      o->recalibrate = 1;
    } else if (argv[i][0] != '-' && !o->file) {
      o->file = argv[i];
    } else {
      tool_say("validate: unexpected argument '%.200s'", argv[i]);
      return usage();
    }
  }
  return o->file ? 0 : usage();
}

/* Runs argv with stderr appended to log, stdout into *out (when out) or the log too; returns
 * the exit status (128 + signal; 127 when it could not start). */
/* The line that says why a child failed: its first line from Narwhal ("narwhal: ..."), else
 * its last non-empty line (mpirun ends its own report with a rule of dashes, not the reason).
 * For the one line that reports the failure: the log may be gone (a temporary directory)
 * before anyone reads it. */
static const char *log_tail(const char *log, char *line, size_t len) {
  snprintf(line, len, "(no output)");
  FILE *f = fopen(log, "r");
  char *text = f ? tool_read_stream(f) : NULL;
  if (f)
    fclose(f);
  if (!text)
    return line;
  size_t n = strlen(text);
  while (n > 0 && (text[n - 1] == '\n' || text[n - 1] == ' '))
    text[--n] = 0;
  const char *pick = text; /* the first line, where it is Narwhal's */
  if (strncmp(text, "narwhal: ", 9)) {
    const char *said = strstr(text, "\nnarwhal: "), *last = strrchr(text, '\n');
    pick = said ? said + 1 : last ? last + 1 : text;
  }
  int width = (int)strcspn(pick, "\n");
  if (*pick)
    snprintf(line, len, "'%.*s'", width < 300 ? width : 300, pick);
  free(text);
  return line;
}

static int run_child(char **argv, const char *log, char **out) {
  int fds[2] = {-1, -1};
  if (out && pipe(fds) != 0)
    return 127;
  fflush(NULL);
  pid_t pid = fork();
  if (pid == 0) {
    int fd = open(log, O_WRONLY | O_CREAT | O_APPEND, 0644);
    if (fd >= 0) {
      dup2(fd, STDERR_FILENO);
      if (!out)
        dup2(fd, STDOUT_FILENO);
      close(fd);
    }
    if (out) {
      dup2(fds[1], STDOUT_FILENO);
      close(fds[0]);
      close(fds[1]);
    }
    execvp(argv[0], argv);
    _exit(127);
  }
  if (out) {
    close(fds[1]);
    *out = NULL;
    FILE *f = pid > 0 ? fdopen(fds[0], "r") : NULL;
    if (f) {
      *out = tool_read_stream(f);
      fclose(f);
    } else {
      close(fds[0]);
    }
  }
  int status = 0;
  if (pid < 0)
    return 127;
  while (waitpid(pid, &status, 0) < 0 && errno == EINTR)
    ;
  return WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
}

/* The number under key in a run's --json output; NAN when missing. */
static double json_number(const char *text, const char *key) {
  cJSON *j = text ? cJSON_Parse(text) : NULL;
  const cJSON *v = cJSON_GetObjectItemCaseSensitive(j, key);
  double x = cJSON_IsNumber(v) ? v->valuedouble : NAN;
  cJSON_Delete(j);
  return x;
}

/* argv = [mpirun, mpirun options..., -np, R] of a calibration; returns the count. */
static int mpirun_prefix(const vf_calibration *c, char **argv, char *np, size_t nplen) {
  int a = 0;
  argv[a++] = "mpirun";
  for (int i = 0; i < c->nmpirun; i++)
    argv[a++] = c->mpirun[i];
  snprintf(np, nplen, "%d", c->ranks);
  argv[a++] = "-np";
  argv[a++] = np;
  return a;
}

static void paths_of(const options *o, const vf_calibration *c, char *xml, char *model, char *log,
                     size_t len) {
  snprintf(xml, len, "%s/%s.xml", o->out, c->name);
  snprintf(model, len, "%s/%s.json", o->out, c->name);
  snprintf(log, len, "%s/calibrate-%s.log", o->out, c->name);
}

static int calibrate(const options *o, const vf_calibration *c, const char *self) {
  char xml[1200], model[1200], log[1200], np[16], runs[16], settle[24];
  paths_of(o, c, xml, model, log, sizeof xml);
  snprintf(settle, sizeof settle, "%ld",
           o->settle_mib / c->ranks > 0 ? o->settle_mib / c->ranks : 1);
  if (!o->recalibrate && access(xml, R_OK) == 0 && access(model, R_OK) == 0) {
    printf("calibration %s: %s and %s (kept)\n", c->name, xml, model);
    return 0;
  }
  char *argv[MAX_ARGV];
  int a = mpirun_prefix(c, argv, np, sizeof np);
  snprintf(runs, sizeof runs, "%d", c->runs);
  char *tail[] = {(char *)self, "calibrate", "--platform-out", xml, "--perfmodel", model, "--runs",
                  runs,         NULL};
  for (int i = 0; tail[i]; i++)
    argv[a++] = tail[i];
  if (o->settle_mib > 0) { /* each rank its share */
    argv[a++] = "--settle";
    argv[a++] = settle;
  }
  for (int w = 0; w < c->nworkloads; w++) {
    argv[a++] = "--workload";
    argv[a++] = c->workloads[w];
  }
  for (int i = 0; i < c->nargs; i++)
    argv[a++] = c->args[i];
  argv[a] = NULL;
  remove(log);
  printf("calibration %s: %d rank(s), %d workload(s), %d runs each...\n", c->name, c->ranks,
         c->nworkloads, c->runs);
  fflush(stdout);
  struct timespec t0, t1;
  clock_gettime(CLOCK_MONOTONIC, &t0);
  int code = run_child(argv, log, NULL);
  if (code) {
    char tail[400];
    tool_say("validate: calibration '%s' failed (exit %d): %s; see %s", c->name, code,
             log_tail(log, tail, sizeof tail), log);
    return 1;
  }
  clock_gettime(CLOCK_MONOTONIC, &t1);
  printf("calibration %s: done in %.0f s\n", c->name,
         (double)(t1.tv_sec - t0.tv_sec) + 1e-9 * (double)(t1.tv_nsec - t0.tv_nsec));
  fflush(stdout);
  return 0;
}

/* Appends the configuration's own options, then `extra` (NULL-terminated), to argv at a. */
static int add_args(char **argv, int a, const vf_config *c, char *const *extra) {
  for (int i = 0; i < c->nargs; i++)
    argv[a++] = c->args[i];
  for (int i = 0; extra && extra[i]; i++)
    argv[a++] = extra[i];
  argv[a] = NULL;
  return a;
}

/* Whether the model at `a` has an entry (kind, arch, footprint) that the model `b` has. On a
 * hit, names it in hit. */
static int overlap(nw_perfmodel *a, nw_perfmodel *b, char *hit, size_t len) {
  for (size_t t = 0; t < nw_perfmodel_tables(a); t++) {
    const char *kind, *arch;
    size_t n;
    nw_perfmodel_table(a, t, &kind, &arch, &n);
    for (size_t i = 0; i < n; i++) {
      nw_perf_entry e = nw_perfmodel_entry(a, t, i);
      if (nw_perfmodel_samples(b, kind, arch, e.footprint) > 0) {
        snprintf(hit, len, "kind '%s' on %s with %llu bytes of data", kind, arch,
                 (unsigned long long)e.size);
        return 1;
      }
    }
  }
  return 0;
}

/* Step 2 of validate.h for configuration c. */
static int check_held_out(const options *o, const vf_file *f, int k, const char *self) {
  const vf_config *c = &f->conf[k];
  const vf_calibration *cal = &f->cal[c->calibration];
  char xml[1200], model[1200], log[1200], seen[1200], nodes[16];
  paths_of(o, cal, xml, model, log, sizeof xml);
  snprintf(seen, sizeof seen, "%s/.footprints.json", o->out);
  snprintf(log, sizeof log, "%s/held-out-check.log", o->out);
  snprintf(nodes, sizeof nodes, "%d", cal->ranks);
  remove(seen);
  char *argv[MAX_ARGV];
  char *head[] = {(char *)self, "run", "--backend", "sim", "--platform", xml, "--nodes", nodes};
  int a = 0;
  for (size_t i = 0; i < sizeof head / sizeof *head; i++)
    argv[a++] = head[i];
  char *extra[] = {"--data", "phantom", "--calibrate", "on", "--perfmodel", seen, NULL};
  add_args(argv, a, c, extra);
  char *out = NULL;
  int code = run_child(argv, log, &out);
  free(out);
  if (code) {
    char tail[400];
    tool_say("validate: configuration '%s' does not run in simulation (exit %d): %s; see %s",
             c->name, code, log_tail(log, tail, sizeof tail), log);
    return code == 2 ? 2 : 1;
  }
  nw_perfmodel *ran = NULL, *fitted = NULL;
  char why[1024], hit[256] = "";
  int st = nw_perfmodel_create(&ran) != NW_OK || nw_perfmodel_create(&fitted) != NW_OK ||
           nw_perfmodel_load(ran, seen, NULL, why, sizeof why) != NW_OK ||
           nw_perfmodel_load(fitted, model, NULL, why, sizeof why) != NW_OK;
  int same = !st && overlap(ran, fitted, hit, sizeof hit);
  nw_perfmodel_free(ran);
  nw_perfmodel_free(fitted);
  remove(seen);
  if (st) {
    tool_say("%s", why);
    return 1;
  }
  if (same) {
    tool_say("validate: %s: configuration '%s' is not held out: it runs %s, which calibration "
             "'%s' measured",
             o->file, c->name, hit, cal->name);
    return 2;
  }
  return 0;
}

static int real_round(const options *o, const vf_file *f, int k, const char *self, result *r) {
  const vf_config *c = &f->conf[k];
  const vf_calibration *cal = &f->cal[c->calibration];
  char log[1200], np[16], xml[1200], model[1200], cal_log[1200];
  paths_of(o, cal, xml, model, cal_log, sizeof xml);
  snprintf(log, sizeof log, "%s/real.log", o->out);
  char *argv[MAX_ARGV];
  int a = mpirun_prefix(cal, argv, np, sizeof np);
  /* With the calibration's model, as the simulation has it: model-based policies (dmda, heft)
   * decide from the same numbers on both sides, and the run says how its kernels compare with
   * the model's (kernels_measured_s, kernels_predicted_s). It does not write the model. */
  char *head[] = {(char *)self, "run", "--backend", "real", "--perfmodel", model};
  for (size_t i = 0; i < sizeof head / sizeof *head; i++)
    argv[a++] = head[i];
  char *extra[] = {"--json", NULL};
  add_args(argv, a, c, extra);
  char *out = NULL;
  /* Recently freed pages for its first touches (settle_memory.h): real rounds without them
   * spread by up to 57% on the project's VM (matmul 3072, 2026-12-02). As many as its last
   * round first-touched where that is more, as calibrate sizes its runs. */
  if (o->settle_mib > 0)
    tool_settle_memory(tool_settle_mib_for((uint64_t)o->settle_mib, r->touched, 1));
  uint64_t touched0 = tool_pages_touched(1);
  int code = run_child(argv, log, &out);
  r->touched = tool_pages_touched(1) - touched0;
  double s = json_number(out, "makespan_s");
  double measured = json_number(out, "kernels_measured_s");
  double predicted = json_number(out, "kernels_predicted_s");
  double wall = validate_wall_over_cpu(out);
  free(out);
  if (code || !(s > 0)) {
    char tail[400];
    tool_say("validate: configuration '%s' failed on the real backend (exit %d): %s; see %s",
             c->name, code, log_tail(log, tail, sizeof tail), log);
    return 1;
  }
  if (r->best < 0 || s < r->best) {
    r->best = s;
    r->kernels = predicted > 0 ? measured / predicted - 1 : NAN;
    r->wall = wall;
  }
  if (r->rounds < VF_MAX_ROUNDS)
    r->round_s[r->rounds++] = s;
  printf("  %s: %.4f s\n", c->name, s); /* as it comes: a run cut short keeps what it measured */
  fflush(stdout);
  return 0;
}

/* The calibration's anchor workload on the real backend with its model, as a configuration's
 * round runs: adds its kernels' CPU time over what the model predicted to st (nothing when
 * the model timed none): the machine's speed then, against the calibration's
 * (docs/validation.md). */
static int anchor_run(const options *o, const vf_calibration *cal, const char *self,
                      anchor_state *st) {
  char app[64], n[32], block[32], log[1200], np[16], xml[1200], model[1200], cal_log[1200];
  sscanf(cal->anchor, "%63[^:]:%31[^:]:%31s", app, n, block); /* checked by vf_load */
  paths_of(o, cal, xml, model, cal_log, sizeof xml);
  snprintf(log, sizeof log, "%s/anchor.log", o->out);
  char *argv[MAX_ARGV];
  int a = mpirun_prefix(cal, argv, np, sizeof np);
  char *tail[] = {(char *)self, "run", "--backend", "real", "--perfmodel", model,    "--app", app,
                  "--n",        n,     "--block",   block,  "--no-verify", "--json", NULL};
  for (int i = 0; tail[i]; i++)
    argv[a++] = tail[i];
  argv[a] = NULL;
  if (o->settle_mib > 0)
    tool_settle_memory(tool_settle_mib_for((uint64_t)o->settle_mib, st->touched, 1));
  uint64_t touched0 = tool_pages_touched(1);
  char *out = NULL;
  int code = run_child(argv, log, &out);
  st->touched = tool_pages_touched(1) - touched0;
  double measured = json_number(out, "kernels_measured_s");
  double predicted = json_number(out, "kernels_predicted_s");
  free(out);
  if (code) {
    char tail_line[400];
    tool_say("validate: the anchor '%s' of calibration '%s' failed (exit %d): %s; see %s",
             cal->anchor, cal->name, code, log_tail(log, tail_line, sizeof tail_line), log);
    return 1;
  }
  if (!(predicted > 0 && measured > 0))
    return 0;
  if (st->n == st->cap) {
    int cap = st->cap ? 2 * st->cap : 64;
    double *more = realloc(st->ratio, (size_t)cap * sizeof *more);
    if (!more) {
      tool_say("validate: out of memory");
      return 1;
    }
    st->ratio = more, st->cap = cap;
  }
  st->ratio[st->n++] = measured / predicted;
  return 0;
}

/* Writes the platform at src with every CPU host's kernels stretched by scale
 * (rt_kernel_scale, backends/simgrid/sim_costs.h) to dst; -1 when it cannot (no CPU host). */
static int write_scaled_platform(const char *src, const char *dst, double scale) {
  static const char cpu[] = "<prop id=\"kind\" value=\"cpu\"/>";
  FILE *in = fopen(src, "r");
  char *text = in ? tool_read_stream(in) : NULL;
  if (in)
    fclose(in);
  FILE *out = text && strstr(text, cpu) ? fopen(dst, "w") : NULL;
  if (!out) {
    free(text);
    return -1;
  }
  const char *p = text, *hit;
  while ((hit = strstr(p, cpu))) {
    hit += sizeof cpu - 1;
    fwrite(p, 1, (size_t)(hit - p), out);
    fprintf(out, "<prop id=\"rt_kernel_scale\" value=\"%.9g\"/>", scale);
    p = hit;
  }
  fputs(p, out);
  free(text);
  return fclose(out) == 0 ? 0 : -1;
}

/* The configuration simulated on platform xml: *sim its makespan, *unpriced its subtasks the
 * model could not time. */
static int simulate_on(const options *o, const vf_file *f, int k, const char *self, const char *xml,
                       double *sim, double *unpriced) {
  const vf_config *c = &f->conf[k];
  const vf_calibration *cal = &f->cal[c->calibration];
  char own_xml[1200], model[1200], log[1200], nodes[16];
  paths_of(o, cal, own_xml, model, log, sizeof own_xml);
  snprintf(log, sizeof log, "%s/sim.log", o->out);
  snprintf(nodes, sizeof nodes, "%d", cal->ranks);
  char *argv[MAX_ARGV];
  char *head[] = {(char *)self, "run",         "--backend", "sim",     "--platform",
                  (char *)xml,  "--perfmodel", model,       "--nodes", nodes};
  int a = 0;
  for (size_t i = 0; i < sizeof head / sizeof *head; i++)
    argv[a++] = head[i];
  /* One node: without bytes unless the configuration says otherwise. Phantom and functional
   * runs of one node count the same copies and pages and time alike (sim.phantom_times_alike),
   * and a phantom one neither computes the kernels nor needs a GPU's modelled memory (an
   * H200's: 148 GB). On several nodes functional: there a phantom app writes no initial bytes,
   * and its placements gather less (PageRank 65536/4096 on 2 nodes: 2% faster). */
  int own_data = 0;
  for (int i = 0; i < c->nargs; i++)
    own_data |= !strcmp(c->args[i], "--data");
  if (!own_data && cal->ranks == 1) {
    argv[a++] = "--data";
    argv[a++] = "phantom";
  }
  char *extra[] = {"--json", NULL};
  add_args(argv, a, c, extra);
  char *out = NULL;
  int code = run_child(argv, log, &out);
  *sim = json_number(out, "makespan_s");
  *unpriced = json_number(out, "priced_by_cost_model");
  free(out);
  if (code || !(*sim > 0)) {
    char tail[400];
    tool_say("validate: configuration '%s' failed in simulation (exit %d): %s; see %s", c->name,
             code, log_tail(log, tail, sizeof tail), log);
    return 1;
  }
  return 0;
}

/* The configuration simulated on its calibration's platform as written (r->sim_plain) and,
 * where its calibration has an anchor, with the CPU kernels stretched to the machine's speed
 * in the real rounds (r->sim; else the same as sim_plain). */
static int simulate(const options *o, const vf_file *f, int k, const char *self, result *r) {
  const vf_calibration *cal = &f->cal[f->conf[k].calibration];
  char xml[1200], model[1200], log[1200], scaled[1200];
  paths_of(o, cal, xml, model, log, sizeof xml);
  if (simulate_on(o, f, k, self, xml, &r->sim_plain, &r->unpriced))
    return 1;
  r->sim = r->sim_plain;
  if (!isfinite(r->anchor))
    return 0;
  /* Under the calibration's own file name, which its model is labelled with (a model is used
   * only on the platform it was measured on). */
  snprintf(scaled, sizeof scaled, "%s/anchored", o->out);
  if (mkdir(scaled, 0755) != 0 && errno != EEXIST) {
    tool_say("validate: cannot make %s: %s", scaled, strerror(errno));
    return 1;
  }
  snprintf(scaled, sizeof scaled, "%s/anchored/%s.xml", o->out, cal->name);
  if (write_scaled_platform(xml, scaled, r->anchor)) {
    tool_say("validate: cannot write %s from %s (a platform with a CPU host)", scaled, xml);
    return 1;
  }
  double unpriced;
  return simulate_on(o, f, k, self, scaled, &r->sim, &unpriced);
}

static double error_of(const result *r) {
  return (r->sim - r->best) / r->best;
}

/* The slowest real round's seconds less the best's. */
static double spread_s(const result *r) {
  double worst = r->best;
  for (int i = 0; i < r->rounds; i++)
    worst = fmax(worst, r->round_s[i]);
  return worst - r->best;
}

static double spread_of(const result *r) {
  return spread_s(r) / r->best;
}

/* Per group: Kendall's tau, the winner, the pairs told apart; totals of the pairs into *d, *a. */
static void report_groups(const vf_file *f, const result *res, int *decided, int *agree) {
  *decided = *agree = 0;
  for (int k = 0; k < f->nconf; k++) {
    const char *g = f->conf[k].group;
    int first = 1;
    for (int j = 0; j < k && first; j++)
      first = strcmp(f->conf[j].group, g) != 0;
    if (!g[0] || !first)
      continue;
    double real[256], sim[256], spread[256];
    int idx[256], n = 0;
    for (int j = k; j < f->nconf && n < 256; j++)
      if (!strcmp(f->conf[j].group, g)) {
        idx[n] = j;
        real[n] = res[j].best;
        sim[n] = res[j].sim;
        spread[n] = spread_s(&res[j]);
        n++;
      }
    int d, a;
    vs_pairs(real, spread, sim, n, &d, &a);
    *decided += d;
    *agree += a;
    int wr = vs_argmin(real, n), ws = vs_argmin(sim, n), tied = 0;
    for (int j = 0; j < n; j++)
      tied += sim[j] == sim[ws];
    printf("group %s: %d configurations, Kendall's tau %.3f, winner %s (real: %s, simulated: "
           "%s), pairs told apart %d, ordered alike %d\n",
           g, n, vs_kendall_tau(real, sim, n),
           tied > 1   ? "tied in simulation"
           : wr == ws ? "same"
                      : "different",
           f->conf[idx[wr]].name, f->conf[idx[ws]].name, d, a);
  }
}

/* A CSV field in double quotes, a quote inside doubled (RFC 4180). */
static void csv_field(FILE *out, const char *s) {
  fputc('"', out);
  for (; *s; s++) {
    if (*s == '"')
      fputc('"', out);
    fputc(*s, out);
  }
  fputc('"', out);
}

static int write_csv(const options *o, const vf_file *f, const result *res, char *csv, size_t len) {
  snprintf(csv, len, "%s/validation.csv", o->out);
  FILE *out = fopen(csv, "w");
  if (!out)
    return -1;
  fprintf(out, "configuration,group,real_s,spread,simulated_s,error,uncalibrated_subtasks,"
               "kernels,anchor,simulated_unanchored_s,error_unanchored,kernels_wall,rounds_s\n");
  for (int k = 0; k < f->nconf; k++) {
    csv_field(out, f->conf[k].name);
    fputc(',', out);
    csv_field(out, f->conf[k].group);
    fprintf(out, ",%.9g,%.6f,%.9g,%.6f,%.0f,", res[k].best, spread_of(&res[k]), res[k].sim,
            error_of(&res[k]), res[k].unpriced);
    if (isfinite(res[k].kernels)) /* else empty: no kernel the model timed */
      fprintf(out, "%.6f", res[k].kernels);
    fputc(',', out);
    if (isfinite(res[k].anchor)) /* else empty: no anchor */
      fprintf(out, "%.6f", res[k].anchor - 1);
    fprintf(out, ",%.9g,%.6f,", res[k].sim_plain, (res[k].sim_plain - res[k].best) / res[k].best);
    if (isfinite(res[k].wall)) /* else empty: GPU subtasks, or kernels the model did not time */
      fprintf(out, "%.6f", res[k].wall);
    fputc(',', out);
    for (int i = 0; i < res[k].rounds; i++) /* each round's seconds, in order, ';' between */
      fprintf(out, "%s%.9g", i ? ";" : "", res[k].round_s[i]);
    fputc('\n', out);
  }
  return fclose(out) == 0 ? 0 : -1;
}

/* Simulated against real, with the diagonal and the 10% band (validate_plot.h). A figure that
 * cannot be drawn leaves the table and the CSV as they are. */
static void plot(const options *o, const char *csv, const result *res, int n) {
  double lo = INFINITY, hi = 0;
  for (int k = 0; k < n; k++) {
    lo = fmin(lo, fmin(res[k].best, res[k].sim));
    hi = fmax(hi, fmax(res[k].best, res[k].sim));
  }
  char png[PATH_MAX];
  int drawn = validate_plot(o->out, csv, n, lo, hi, png, sizeof png);
  if (drawn == VALIDATE_PLOT_DRAWN)
    printf("wrote %s\n", png);
  else if (drawn == VALIDATE_PLOT_FAILED) /* NO_SCRIPT said which script it missed */
    tool_say("validate: the plot %s failed (the CSV stands)", png);
}

static void report(const options *o, const vf_file *f, const result *res) {
  printf("\n%-36s %-22s %11s %7s %11s %8s %6s %8s %8s %8s %7s\n", "configuration", "group",
         "real_s", "spread", "simulated_s", "error", "uncal", "kernels", "anchor", "unanch",
         "wall");
  double *err = malloc((size_t)f->nconf * sizeof *err);
  double *plain = malloc((size_t)f->nconf * sizeof *plain);
  double *drift = malloc((size_t)f->nconf * sizeof *drift);
  int within = 0, within_plain = 0, ndrift = 0, nanchored = 0;
  for (int k = 0; k < f->nconf; k++) {
    const result *r = &res[k];
    double e = error_of(r), ep = (r->sim_plain - r->best) / r->best;
    if (err)
      err[k] = fabs(e);
    if (plain)
      plain[k] = fabs(ep);
    within += fabs(e) <= fmax(0.12, spread_of(r));
    within_plain += fabs(ep) <= fmax(0.12, spread_of(r));
    nanchored += isfinite(r->anchor);
    printf("%-36.36s %-22.22s %11.6f %6.1f%% %11.6f %+7.1f%% %6.0f", f->conf[k].name,
           f->conf[k].group[0] ? f->conf[k].group : "-", r->best, 100 * spread_of(r), r->sim,
           100 * e, r->unpriced);
    if (isfinite(r->kernels)) {
      printf(" %+7.1f%%", 100 * r->kernels);
      if (drift)
        drift[ndrift++] = r->kernels;
    } else {
      printf(" %8s", "-");
    }
    if (isfinite(r->anchor))
      printf(" %+7.1f%% %+7.1f%%", 100 * (r->anchor - 1), 100 * ep);
    else
      printf(" %8s %8s", "-", "-");
    if (isfinite(r->wall))
      printf(" %+6.1f%%\n", 100 * r->wall);
    else
      printf(" %7s\n", "-");
  }
  if (err)
    printf("\n|error| over %d configurations: median %.1f%%, p95 %.1f%%, max %.1f%%; within "
           "max(12%%, own spread): %d of %d\n",
           f->nconf, 100 * vs_median(err, f->nconf), 100 * vs_quantile(err, f->nconf, 0.95),
           100 * vs_quantile(err, f->nconf, 1.0), within, f->nconf);
  /* The same without the anchors: what the calibration alone predicts. */
  if (plain && nanchored)
    printf("|error| without the anchors (%d configurations had one): median %.1f%%, p95 %.1f%%, "
           "max %.1f%%; within max(12%%, own spread): %d of %d\n",
           nanchored, 100 * vs_median(plain, f->nconf), 100 * vs_quantile(plain, f->nconf, 0.95),
           100 * vs_quantile(plain, f->nconf, 1.0), within_plain, f->nconf);
  free(err);
  free(plain);
  /* How far the machine's kernels were, in the rounds, from the calibration's: an error the
   * simulation cannot help (the model is all it knows of them), told apart from its own. */
  if (drift && ndrift > 0) {
    double m = vs_median(drift, ndrift);
    for (int k = 0; k < ndrift; k++)
      drift[k] = fabs(drift[k]);
    printf("kernels of the best real rounds against the calibration's model, over %d "
           "configurations: median %+.1f%%, median |difference| %.1f%%, max %.1f%%\n",
           ndrift, 100 * m, 100 * vs_median(drift, ndrift), 100 * vs_quantile(drift, ndrift, 1.0));
  }
  free(drift);
  int decided, agree;
  report_groups(f, res, &decided, &agree);
  if (decided)
    printf("pairs the hardware tells apart: %d; the simulation orders %d of them alike (%.0f%%)\n",
           decided, agree, 100.0 * agree / decided);
  else
    printf("pairs the hardware tells apart: none (every group's differences are within its "
           "noise)\n");
  char csv[1200];
  if (write_csv(o, f, res, csv, sizeof csv) == 0) {
    printf("wrote %s\n", csv);
    plot(o, csv, res, f->nconf);
  } else {
    tool_say("validate: cannot write %s: %s", csv, strerror(errno));
  }
}

int validate_main(int argc, char **argv) {
  options o;
  int parsed = parse_args(argc, argv, &o);
  if (parsed)
    return parsed < 0 ? 0 : 2; /* -1: --help, answered */
  vf_file f;
  char why[1024];
  if (vf_load(o.file, &f, why, sizeof why)) {
    tool_say("%s", why);
    return 2;
  }
  int rounds = o.rounds ? o.rounds : f.rounds;
  if (o.settle_mib < 0)
    o.settle_mib = settle_default();
  /* As root, Open MPI's mpirun refuses to start without these: validate runs as its user
   * does, and the project's scripts set them the same way. */
  if (geteuid() == 0) {
    setenv("OMPI_ALLOW_RUN_AS_ROOT", "1", 0);
    setenv("OMPI_ALLOW_RUN_AS_ROOT_CONFIRM", "1", 0);
  }
  char self[1024];
  ssize_t n = readlink("/proc/self/exe", self, sizeof self - 1);
  self[n > 0 ? n : 0] = '\0';
  int code = 0;
  if (mkdir(o.out, 0755) != 0 && errno != EEXIST) {
    tool_say("validate: --out %s: %s", o.out, strerror(errno));
    code = 2;
  }
  const char *logs[] = {"real.log", "sim.log", "held-out-check.log"};
  for (int i = 0; !code && i < 3; i++) { /* this run's, not an earlier one's */
    char path[1200];
    snprintf(path, sizeof path, "%s/%s", o.out, logs[i]);
    remove(path);
  }
  for (int c = 0; !code && c < f.ncal; c++)
    code = calibrate(&o, &f.cal[c], self);
  for (int k = 0; !code && k < f.nconf; k++)
    code = check_held_out(&o, &f, k, self);
  result *res = calloc((size_t)f.nconf, sizeof *res);
  if (!code && !res) {
    tool_say("validate: out of memory");
    code = 1;
  }
  for (int k = 0; res && k < f.nconf; k++) {
    res[k].best = -1;
    res[k].kernels = res[k].anchor = res[k].wall = NAN;
  }
  anchor_state *anchors = calloc((size_t)f.ncal, sizeof *anchors);
  if (!code && !anchors) {
    tool_say("validate: out of memory");
    code = 1;
  }
  double all0, steal0, all1, steal1;
  cpu_ticks(&all0, &steal0);
  /* The anchors: before each real run of a calibration's configurations. One anchor beside
   * one round varied by 10-17% on the 2-core VM; their median over the rounds is the
   * machine's speed in them, the drift since the calibration (docs/validation.md). */
  for (int r = 0; !code && r < rounds; r++) {
    printf("real round %d of %d...\n", r + 1, rounds);
    for (int k = 0; !code && k < f.nconf; k++) {
      int c = f.conf[k].calibration;
      if (f.cal[c].anchor[0])
        code = anchor_run(&o, &f.cal[c], self, &anchors[c]);
      if (!code)
        code = real_round(&o, &f, k, self, &res[k]);
    }
  }
  for (int k = 0; !code && k < f.nconf; k++) {
    const anchor_state *st = &anchors[f.conf[k].calibration];
    if (st->n > 0)
      res[k].anchor = vs_median(st->ratio, st->n);
  }
  for (int c = 0; !code && c < f.ncal; c++)
    if (anchors[c].n > 0)
      printf("anchor of %s (%s): %d runs, kernels against the model: median %+.1f%%\n",
             f.cal[c].name, f.cal[c].anchor, anchors[c].n,
             100 * (vs_median(anchors[c].ratio, anchors[c].n) - 1));
  for (int c = 0; anchors && c < f.ncal; c++)
    free(anchors[c].ratio);
  free(anchors);
  /* A virtual machine's host may take its CPUs meanwhile: then no real time is the machine's
   * own, and spreads say how much. */
  cpu_ticks(&all1, &steal1);
  if (!code && all1 > all0)
    printf("host steal time during the real rounds: %.1f%% of this machine's CPU time\n",
           100 * (steal1 - steal0) / (all1 - all0));
  if (!code) { /* a condition of the two-rank runs, as the steal time is of all of them */
    char transport[256];
    printf("%s\n", validate_transport_here(transport, sizeof transport));
  }
  for (int k = 0; !code && k < f.nconf; k++)
    code = simulate(&o, &f, k, self, &res[k]);
  if (!code)
    report(&o, &f, res);
  free(res);
  vf_free(&f);
  return code;
}
