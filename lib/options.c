/* options.c: one table of `narwhal run` options serves the command line (--name VALUE) and
 * JSON run files ("name": value), so the two can never disagree on names or checks. */
#define _POSIX_C_SOURCE 200809L
#include "options.h"

#include <cjson/cJSON.h>
#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "narwhal_app.h"
#include "text_file.h"

/* T_PARAM: KEY=VALUE, repeatable, into the app's parameter list (nw_app_args.params).
 * T_SIMGRID: repeatable, passed to SimGrid as --NAME=VALUE (nw_run_config.simgrid_args). */
typedef enum { T_STRING, T_INT, T_U64, T_DOUBLE, T_BOOL, T_CHOICE, T_PARAM, T_SIMGRID } opt_type;

typedef struct opt_def {
  const char *name;
  opt_type type;
  const char *choices[8]; /* T_CHOICE */
  const char *help;
} opt_def;

static const opt_def defs[] = {
    {"app", T_STRING, {0}, "application to run (the names are the registry's: apps/registry.c)"},
    {"backend", T_CHOICE, {"sim", "real"}, "sim: SimGrid model; real: MPI ranks (use mpirun)"},
    {"platform", T_STRING, {0}, "SimGrid platform file (sim)"},
    {"trace",
     T_STRING,
     {0},
     "write an execution trace to FILE: a lane per device, its data waits, copy engine and "
     "the node's network (Perfetto, chrome://tracing, ViTE; README, \"Traces\")"},
    {"trace-format",
     T_CHOICE,
     {"chrome", "paje"},
     "--trace FILE's format: Chrome trace JSON (Perfetto, narwhal plot) or Paje (ViTE, pj_dump)"},
    {"nodes", T_INT, {0}, "nodes to use (sim: default all of the platform; real: MPI size)"},
    {"n",
     T_U64,
     {0},
     "problem size (matmul, lu, fft2d, cholesky: matrix dimension; conv2d: image side; chain, "
     "taskbench: steps; pagerank: pages; gemv: rows; cmeans: points; molecular2d: particles)"},
    {"block",
     T_U64,
     {0},
     "subtask granularity (matmul, lu: block dimension; conv2d: tile side; chain: subtasks; "
     "taskbench: width; pagerank: pages per subtask; fft2d: rows, then columns, per subtask; "
     "gemv: rows per subtask; cmeans: points per subtask; molecular2d: particles per cell; "
     "cholesky: tile side)"},
    {"data", T_CHOICE, {"functional", "phantom"}, "real bytes and kernels, or sizes only (sim)"},
    {"seed", T_U64, {0}, "seed of the input data and of the scheduler's random choices"},
    {"verify", T_BOOL, {0}, "compare with a single-process reference (functional only)"},
    {"placement",
     T_CHOICE,
     {"spread", "node0", "blocks", "rows", "columns", "rows-columns"},
     "where inputs start (paper Fig. 13): blocks on random nodes (spread, blocks), all on node "
     "0, rows or columns of blocks on random nodes, or (matmul) A by rows and B by columns"},
    {"cpu-devices", T_INT, {0}, "CPU devices per node; 0: one per core not reserved"},
    {"reserved-cores",
     T_INT,
     {0},
     "cores per node left to the runtime; default 2 when GPUs are used, else 0"},
    {"work-groups",
     T_CHOICE,
     {"on", "off"},
     "a node's CPU cores form one work-group, sized per task by binary search"},
    {"sched",
     T_STRING,
     {0},
     "scheduling policy: unicorn (default), eager, prio, random, ws, lws, dm, dmda, dmdar, "
     "dmdas, heft, roofline (README, \"Scheduling policies\")"},
    {"roofline-p",
     T_STRING,
     {0},
     "roofline: the CPUs' fraction of each node's subtasks, 0 to 1; auto: equation (8) of the "
     "PRS paper"},
    {"roofline-resident",
     T_CHOICE,
     {"on", "off"},
     "roofline: take the GPUs' data as already in their memory (iterative apps: no PCIe term)"},
    {"prefetch-depth",
     T_INT,
     {0},
     "model-based policies (dm, dmda, ...): queued subtasks per device whose data is requested "
     "when placed (StarPU's prefetch on push); 0: only the pipeline's"},
    {"perfmodel",
     T_STRING,
     {0},
     "performance-model file (JSON): model-based policies predict from it, the simulator takes "
     "subtask durations from it; with --calibrate on, written at the end of the run"},
    {"calibrate",
     T_CHOICE,
     {"on", "off"},
     "measure every subtask into --perfmodel FILE (created if missing); policies calibrate "
     "kinds it does not know instead of using the cost model"},
    {"pipeline", T_CHOICE, {"on", "off"}, "fetch the next subtask's data during the current one"},
    {"prefetch-priority",
     T_CHOICE,
     {"low", "same"},
     "the pipeline's prefetched data goes after data devices wait for (paper 4.2), or alike"},
    {"steal-retry", T_DOUBLE, {0}, "after a failed stealing round: 0 stop, else retry after S s"},
    {"steal-probes",
     T_INT,
     {0},
     "remote steal agents a dry device asks per round (default 16); 0: every node, as the "
     "original Unicorn"},
    {"prosteal", T_CHOICE, {"on", "off"}, "steal before running dry (ProSteal)"},
    {"multi-assign", T_CHOICE, {"on", "off"}, "run a copy of a straggling subtask elsewhere"},
    {"steal-policy",
     T_CHOICE,
     {"two-level", "one-level"},
     "work stealing: per-node agents (the paper's) or device to device"},
    {"locality",
     T_CHOICE,
     {"on", "off"},
     "locality-aware scheduling (paper 4.3.4): assign and steal by where the data is"},
    {"slow",
     T_STRING,
     {0},
     "external load: NODE:FACTOR[@SECONDS],... (node computes FACTOR x slower)"},
    {"fail",
     T_STRING,
     {0},
     "lose nodes: NODE@SECONDS,... (sim: the node stops; real: its rank is killed); README, "
     "\"Faults\""},
    {"fault",
     T_STRING,
     {0},
     "inject faults (sim): drop:P, rto:S, delay:S[:P], link:NAME:FACTOR[@S], detect:S, "
     "comma-separated; README, \"Faults\""},
    {"devices",
     T_CHOICE,
     {"cpu", "gpu", "cpu+gpu", "auto"},
     "which devices run subtasks (paper Figs. 5-7): CPU cores, GPUs, or both; auto: every kind "
     "the node has that runs every task kind of the application (StarPU's every worker)"},
    {"gpu-cache",
     T_CHOICE,
     {"lru", "mru", "lfu", "mfu", "random", "none"},
     "eviction policy of each GPU's software cache"},
    {"gpu-mem", T_U64, {0}, "GPU memory budget in bytes; 0: the GPU's own (platform memsize)"},
    {"gpu-streams",
     T_INT,
     {0},
     "subtasks one GPU runs at once (CUDA streams; with --agglomerate, the lanes that feed its "
     "FIFO), 1 to 32; with --gpu-mode many-task, the lanes that feed its queue, up to 512"},
    {"gpu-mode",
     T_CHOICE,
     {"launch", "many-task"},
     "how a GPU runs subtasks: a kernel launch each, or GeMTC's resident worker kernel fed in "
     "bundles (sim; README, \"Many-task GPU mode\")"},
    {"pack-copies",
     T_CHOICE,
     {"on", "off"},
     "a GPU's copies queued together cross PCIe as one transfer (sim; README, "
     "\"Agglomeration\")"},
    {"mtc-bundle",
     T_INT,
     {0},
     "many-task mode: the most subtasks one host-to-device bundle carries, 1 to 65536 "
     "(default 100)"},
    {"agglomerate",
     T_INT,
     {0},
     "dynamic agglomeration (sim): the most subtasks one GPU launch runs, 0 off (README, "
     "\"Agglomeration\")"},
    {"check-views",
     T_CHOICE,
     {"on", "off"},
     "CPU views hold only subscribed bytes; a kernel writing others fails the run (functional; "
     "default on in sanitizer builds)"},
    {"concurrent-tasks",
     T_CHOICE,
     {"on", "off"},
     "independent tasks run at once (paper section 2); off: one at a time, in submission order"},
    {"compression",
     T_CHOICE,
     {"off", "network", "gpu", "both"},
     "reduction data run-length encoded (paper 4.6; functional only): between nodes "
     "(network), from GPU to host, encoded on the GPU (gpu), or both"},
    {"app-param",
     T_PARAM,
     {0},
     "KEY=VALUE for the application, repeatable (taskbench: pattern, iterations); in a run "
     "file an object {\"KEY\": VALUE}"},
    {"cfg",
     T_SIMGRID,
     {0},
     "KEY:VALUE, SimGrid's configuration, passed to the simulator as --cfg=KEY:VALUE after "
     "Narwhal's own (repeatable; e.g. network/model:LV08; in a run file a string or a list)"},
    {"log",
     T_SIMGRID,
     {0},
     "SimGrid's logging setting, passed as --log=SETTING (repeatable; e.g. root.thres:info)"},
    {"json", T_BOOL, {0}, "print one JSON object on stdout"},
    {"dry-run", T_BOOL, {0}, "print the resolved configuration as JSON and stop"},
    {"check",
     T_BOOL,
     {0},
     "set the run up on its backend (platform, nodes, devices, GPU memory) and stop: exit 0, or "
     "2 and why"},
};
enum { NDEFS = sizeof defs / sizeof defs[0] };

/* --compression's value from the two switches it sets. */
static const char *compression_name(const nw_run_config *c) {
  return c->compress_network ? (c->compress_gpu ? "both" : "network")
                             : (c->compress_gpu ? "gpu" : "off");
}

static const opt_def *find(const char *name) {
  for (int i = 0; i < NDEFS; i++)
    if (strcmp(defs[i].name, name) == 0)
      return &defs[i];
  return NULL;
}

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
  for (int i = 0; i < NDEFS; i++) {
    size_t d = edit_distance(name, defs[i].name);
    if (d < best_d && 2 * d <= strlen(defs[i].name)) {
      best = &defs[i];
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

/* Sets one option from its text form. `who` is how messages name it ("--nodes", "key
 * 'nodes' of run.json"). */
static int set(tool_options *o, const opt_def *d, const char *v, const char *who, char *why,
               size_t len) {
  nw_run_config *c = &o->run;
  unsigned long long u = 0;
  double x = 0;
  char *end;
  switch (d->type) {
  case T_INT:
  case T_U64:
    if (!parse_u64(v, &u) || (d->type == T_INT && u > 1000000)) {
      snprintf(why, len, "%s: '%s' is not a whole number%s", who, v,
               d->type == T_INT ? " from 0 to 1000000" : "");
      return 1;
    }
    break;
  case T_DOUBLE:
    errno = 0;
    x = strtod(v, &end);
    if (!*v || *end || errno || !(x >= 0) || x > 1e9) {
      snprintf(why, len, "%s: '%s' is not a number of seconds >= 0", who, v);
      return 1;
    }
    break;
  case T_CHOICE: {
    int ok = 0;
    char list[128] = "";
    for (int i = 0; i < 8 && d->choices[i]; i++) {
      ok |= strcmp(v, d->choices[i]) == 0;
      size_t at = strlen(list);
      snprintf(list + at, sizeof list - at, "%s%s", i ? ", " : "", d->choices[i]);
    }
    if (!ok) {
      snprintf(why, len, "%s: unknown value '%s' (one of: %s)", who, v, list);
      return 1;
    }
    break;
  }
  case T_BOOL:
    if (strcmp(v, "true") != 0 && strcmp(v, "false") != 0) {
      snprintf(why, len, "%s: '%s' is not true or false", who, v);
      return 1;
    }
    break;
  case T_STRING: {
    if (!*v) {
      snprintf(why, len, "%s: the value is empty", who);
      return 1;
    }
    /* Where it is kept: longer text is refused, never cut short. */
    size_t cap = !strcmp(d->name, "app")         ? sizeof c->app
                 : !strcmp(d->name, "platform")  ? sizeof c->platform
                 : !strcmp(d->name, "trace")     ? sizeof c->trace
                 : !strcmp(d->name, "sched")     ? sizeof c->sched.policy
                 : !strcmp(d->name, "perfmodel") ? sizeof o->perfmodel
                                                 : 0;
    if (cap && strlen(v) >= cap) {
      snprintf(why, len, "%s: %zu characters, at most %zu", who, strlen(v), cap - 1);
      return 1;
    }
    break;
  }
  case T_SIMGRID: {
    nw_run_config *rc = &o->run;
    int cfg = !strcmp(d->name, "cfg");
    if (!*v || (cfg && (!strchr(v, ':') || v[0] == ':'))) {
      snprintf(why, len, "%s: '%s' is not %s", who, v,
               cfg ? "KEY:VALUE (SimGrid's --cfg; --cfg=help is not run here)" : "a setting");
      return 1;
    }
    for (const char *p = v; *p; p++)
      if ((unsigned char)*p < 0x20) {
        snprintf(why, len, "%s: control characters in '%s'", who, v);
        return 1;
      }
    if (strlen(v) + strlen(d->name) + 4 > NW_SIMGRID_ARG_LEN) {
      snprintf(why, len, "%s: longer than %zu characters", who,
               NW_SIMGRID_ARG_LEN - strlen(d->name) - 4);
      return 1;
    }
    if (rc->nsimgrid_args >= NW_SIMGRID_ARGS_MAX) {
      snprintf(why, len, "%s: more than %d --cfg and --log settings", who, NW_SIMGRID_ARGS_MAX);
      return 1;
    }
    snprintf(rc->simgrid_args[rc->nsimgrid_args++], NW_SIMGRID_ARG_LEN, "--%s=%s", d->name, v);
    return 0;
  }
  case T_PARAM: {
    const char *eq = strchr(v, '=');
    char key[NW_APP_PARAM_KEY];
    size_t k = eq ? (size_t)(eq - v) : 0;
    if (!eq || k == 0) {
      snprintf(why, len, "%s: '%s' is not KEY=VALUE", who, v);
      return 1;
    }
    if (k >= sizeof key || strlen(eq + 1) >= NW_APP_PARAM_VALUE) {
      snprintf(why, len, "%s: '%s': key longer than %d or value longer than %d characters", who, v,
               NW_APP_PARAM_KEY - 1, NW_APP_PARAM_VALUE - 1);
      return 1;
    }
    memcpy(key, v, k);
    key[k] = '\0';
    if (nw_app_param_set(&o->run.args, key, eq + 1) != 0) {
      snprintf(why, len, "%s: more than %d keys", who, NW_APP_PARAMS_MAX);
      return 1;
    }
    return 0;
  }
  }
  const char *n = d->name;
  int on = strcmp(v, "true") == 0;
  if (!strcmp(n, "app"))
    snprintf(c->app, sizeof c->app, "%s", v);
  else if (!strcmp(n, "backend"))
    snprintf(c->backend, sizeof c->backend, "%s", v);
  else if (!strcmp(n, "platform"))
    snprintf(c->platform, sizeof c->platform, "%s", v);
  else if (!strcmp(n, "trace"))
    snprintf(c->trace, sizeof c->trace, "%s", v);
  else if (!strcmp(n, "trace-format"))
    o->trace_paje = strcmp(v, "paje") == 0;
  else if (!strcmp(n, "nodes")) {
    if (u < 1) {
      snprintf(why, len, "%s: must be at least 1", who);
      return 1;
    }
    c->nodes = (int)u;
  } else if (!strcmp(n, "n"))
    c->args.n = u;
  else if (!strcmp(n, "block"))
    c->args.block = u;
  else if (!strcmp(n, "data"))
    c->functional = strcmp(v, "functional") == 0;
  else if (!strcmp(n, "seed"))
    c->seed = c->args.seed = u;
  else if (!strcmp(n, "verify")) {
    c->args.verify = on;
    o->verify_set = 1;
  } else if (!strcmp(n, "placement")) {
    c->args.spread = strcmp(v, "node0") != 0;
    c->args.placement = !strcmp(v, "rows")           ? NW_PLACEMENT_ROWS
                        : !strcmp(v, "columns")      ? NW_PLACEMENT_COLUMNS
                        : !strcmp(v, "rows-columns") ? NW_PLACEMENT_ROWS_COLUMNS
                                                     : NW_PLACEMENT_BLOCKS;
    snprintf(o->placement, sizeof o->placement, "%s", v);
  } else if (!strcmp(n, "cpu-devices"))
    c->cpu_devices = (int)u;
  else if (!strcmp(n, "reserved-cores"))
    c->reserved_cores = (int)u;
  else if (!strcmp(n, "work-groups"))
    c->work_groups = strcmp(v, "on") == 0;
  else if (!strcmp(n, "sched")) {
    if (!nw_sched_policy_exists(v)) {
      char names[256];
      nw_sched_policy_names(names, sizeof names);
      snprintf(why, len, "%s: unknown policy '%s' (one of: %s)", who, v, names);
      return 1;
    }
    snprintf(c->sched.policy, sizeof c->sched.policy, "%s", v);
  } else if (!strcmp(n, "prefetch-depth"))
    c->sched.prefetch_depth = (int)u;
  else if (!strcmp(n, "roofline-p")) {
    int fixed = strcmp(v, "auto") != 0;
    double p = fixed ? strtod(v, &end) : 0;
    if (fixed && (*end || !(p >= 0 && p <= 1))) {
      snprintf(why, len, "%s: '%s' is neither auto nor a fraction from 0 to 1", who, v);
      return 1;
    }
    c->sched.roofline_fixed = fixed;
    c->sched.roofline_p = p;
  } else if (!strcmp(n, "roofline-resident"))
    c->sched.roofline_resident = strcmp(v, "on") == 0;
  else if (!strcmp(n, "perfmodel")) {
    if (strlen(v) >= sizeof o->perfmodel) {
      snprintf(why, len, "%s: the path is too long", who);
      return 1;
    }
    snprintf(o->perfmodel, sizeof o->perfmodel, "%s", v);
  } else if (!strcmp(n, "calibrate"))
    c->calibrate = strcmp(v, "on") == 0;
  else if (!strcmp(n, "pipeline"))
    c->sched.pipeline = strcmp(v, "on") == 0;
  else if (!strcmp(n, "prefetch-priority"))
    c->sched.prefetch_priority = strcmp(v, "same") == 0 ? NW_PREFETCH_SAME : NW_PREFETCH_LOW;
  else if (!strcmp(n, "steal-retry"))
    c->sched.steal_retry_s = x;
  else if (!strcmp(n, "steal-probes"))
    c->sched.steal_probes = (int)u;
  else if (!strcmp(n, "prosteal"))
    c->sched.prosteal = strcmp(v, "on") == 0;
  else if (!strcmp(n, "check-views"))
    c->check_views = strcmp(v, "on") == 0;
  else if (!strcmp(n, "concurrent-tasks"))
    c->sched.sequential_tasks = strcmp(v, "off") == 0;
  else if (!strcmp(n, "compression")) {
    c->compress_network = !strcmp(v, "network") || !strcmp(v, "both");
    c->compress_gpu = !strcmp(v, "gpu") || !strcmp(v, "both");
  } else if (!strcmp(n, "multi-assign"))
    c->sched.multi_assign = strcmp(v, "on") == 0;
  else if (!strcmp(n, "steal-policy"))
    c->sched.steal_policy = strcmp(v, "one-level") == 0 ? NW_STEAL_ONE_LEVEL : NW_STEAL_TWO_LEVEL;
  else if (!strcmp(n, "locality"))
    c->sched.locality = strcmp(v, "on") == 0;
  else if (!strcmp(n, "devices"))
    c->devices = !strcmp(v, "cpu")    ? NW_DEVICES_CPU
                 : !strcmp(v, "gpu")  ? NW_DEVICES_GPU
                 : !strcmp(v, "auto") ? NW_DEVICES_AUTO
                                      : NW_DEVICES_CPU_GPU;
  else if (!strcmp(n, "gpu-cache"))
    c->sched.gpu_cache = (nw_cache_policy)nw_cache_policy_parse(v);
  else if (!strcmp(n, "gpu-mem"))
    c->gpu_mem = u;
  else if (!strcmp(n, "gpu-streams")) {
    if (u < 1 || u > NW_MTC_LANES_MAX) {
      snprintf(why, len, "%s: must be from 1 to %d (above %d only with --gpu-mode many-task)", who,
               NW_MTC_LANES_MAX, NW_GPU_STREAMS_MAX);
      return 1;
    }
    c->gpu_streams = (int)u;
  } else if (!strcmp(n, "pack-copies"))
    c->pack_copies = strcmp(v, "on") == 0;
  else if (!strcmp(n, "gpu-mode"))
    c->gpu_mode = strcmp(v, "many-task") == 0 ? NW_GPU_MANY_TASK : NW_GPU_LAUNCH;
  else if (!strcmp(n, "mtc-bundle")) {
    if (u < 1 || u > 65536) {
      snprintf(why, len, "%s: must be from 1 to 65536", who);
      return 1;
    }
    c->mtc_bundle = (int)u;
  } else if (!strcmp(n, "agglomerate")) {
    if (u > 1024) {
      snprintf(why, len, "%s: must be from 0 (off) to 1024", who);
      return 1;
    }
    c->agglomerate = (int)u;
  } else if (!strcmp(n, "slow")) {
    char reason[300];
    if (nw_slowdown_parse(c, v, reason, sizeof reason) != NW_OK) {
      snprintf(why, len, "%s: %s", who, reason);
      return 1;
    }
  } else if (!strcmp(n, "fail") || !strcmp(n, "fault")) {
    char reason[300];
    if ((!strcmp(n, "fail") ? nw_fault_parse_fail(&c->faults, v, reason, sizeof reason)
                            : nw_fault_parse(&c->faults, v, reason, sizeof reason)) != NW_OK) {
      snprintf(why, len, "%s: %s", who, reason);
      return 1;
    }
  } else if (!strcmp(n, "json"))
    o->json = on;
  else if (!strcmp(n, "dry-run"))
    o->dry_run = on;
  else if (!strcmp(n, "check"))
    c->check_only = on;
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
    const opt_def *d = find(item->string);
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
    } else if (!strcmp(d->name, "roofline-p") && cJSON_IsNumber(item)) {
      snprintf(text, sizeof text, "%.17g", item->valuedouble); /* a fraction, or "auto" */
    } else if (d->type == T_CHOICE && !strcmp(d->name, "pipeline") && cJSON_IsBool(item)) {
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
  char *buf = tool_read_stream(f);
  fclose(f);
  if (!buf)
    snprintf(why, len, "config %s: cannot read it", path);
  return buf;
}

static int load_config(const char *path, tool_options *o, char *why, size_t len) {
  char *text = read_file(path, why, len);
  if (!text)
    return 1;
  if (tool_json_escapes_nul(text)) {
    snprintf(why, len, "config %s: a string holds a NUL character (\\u0000)", path);
    free(text);
    return 1;
  }
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
  snprintf(o->placement, sizeof o->placement, "spread");
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
    int negated = !strncmp(name, "no-", 3) && find(name + 3) && find(name + 3)->type == T_BOOL;
    const opt_def *d = find(negated ? name + 3 : name);
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
             compression_name(&o->run));
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

void tool_options_usage(FILE *out, const char *apps, const char *program) {
  if (!apps) {
    fprintf(out,
            "usage: %s [--config FILE] [Narwhal's options] [the program's own options]\n"
            "       (a Narwhal program: simulated with --backend sim, on this machine or under\n"
            "       mpirun with --backend real)\n\n"
            "Narwhal's options (each also a key of the JSON run file, without the dashes):\n",
            program);
  } else
    fprintf(out,
            "usage: narwhal run [--config FILE] [options]\n"
            "       narwhal sweep FILE [--csv OUT] [-j N] [--resume] [--plot on|off]\n"
            "       narwhal reproduce [--out DIR] [--build DIR] [--only NAME[,NAME...]]\n"
            "           (every simulated paper figure, its values beside the paper's:\n"
            "           results/paper/report.md; README, \"Using it\")\n"
            "       narwhal plot TRACE.json [--out FILE.png] [--size WxH]\n"
            "           (a Gantt chart of a --trace file, drawn with gnuplot)\n"
            "       narwhal critical-path TRACE.json [--top N]\n"
            "           (where a --trace file's time went: its critical path, its messages)\n"
            "       mpirun -np R narwhal calibrate --platform-out FILE --perfmodel FILE\n"
            "           --workload APP:N:BLOCK [--workload ...] [--runs K] [--keep best|all]\n"
            "           [--settle MIB] [options of run]\n"
            "           (real backend: measures this machine into a platform and a model; README,\n"
            "           \"Calibration\")\n\n"
            "Options of run (each also a key of the JSON run file, without the dashes):\n");
  tool_options none;
  char why[256];
  cJSON *defaults =
      parse(0, NULL, &none, NULL, why, sizeof why) ? NULL : tool_options_to_json(&none);
  for (int i = 0; i < NDEFS; i++) {
    const opt_def *d = &defs[i];
    if (!apps && !strcmp(d->name, "app"))
      continue; /* a program is its own application */
    char arg[64] = "";
    if (d->type == T_CHOICE)
      for (int k = 0; k < 8 && d->choices[k]; k++) {
        size_t at = strlen(arg);
        snprintf(arg + at, sizeof arg - at, "%s%s", k ? "|" : " ", d->choices[k]);
      }
    else if (d->type != T_BOOL)
      snprintf(arg, sizeof arg, " %s",
               d->type == T_STRING                               ? "TEXT"
               : d->type == T_PARAM                              ? "KEY=VALUE"
               : d->type == T_SIMGRID && !strcmp(d->name, "cfg") ? "KEY:VALUE"
               : d->type == T_SIMGRID                            ? "SETTING"
                                                                 : "N");
    char help[1024];
    if (!strcmp(d->name, "app")) /* every app this build has, so the list never goes stale */
      snprintf(help, sizeof help, "application to run (%s)", apps);
    else
      snprintf(help, sizeof help, "%s", d->help);
    /* The default, from the configuration nothing was given for, so it never goes stale. */
    char dflt[128] = "";
    const cJSON *v = defaults ? cJSON_GetObjectItemCaseSensitive(defaults, d->name) : NULL;
    if (cJSON_IsString(v) && v->valuestring[0])
      snprintf(dflt, sizeof dflt, " [default: %.100s]", v->valuestring);
    else if (cJSON_IsNumber(v))
      snprintf(dflt, sizeof dflt, " [default: %.17g]", v->valuedouble);
    else if (cJSON_IsBool(v))
      snprintf(dflt, sizeof dflt, " [default: %s]", cJSON_IsTrue(v) ? "on" : "off");
    fprintf(out, "  --%s%s%s%s\n      %s\n",
            d->type == T_BOOL && !strcmp(d->name, "verify") ? "[no-]" : "", d->name, arg, dflt,
            help);
  }
  cJSON_Delete(defaults);
  fprintf(out,
          "Exit status: 0 success, 1 the run failed, 2 bad input, 3 the result differs from the "
          "reference.\n");
}

void *tool_options_to_json(const tool_options *o) {
  const nw_run_config *c = &o->run;
  cJSON *j = cJSON_CreateObject();
  cJSON_AddStringToObject(j, "app", c->app);
  cJSON_AddStringToObject(j, "backend", c->backend);
  cJSON_AddStringToObject(j, "platform", c->platform);
  if (c->trace[0])
    cJSON_AddStringToObject(j, "trace", c->trace);
  if (c->trace[0] || o->trace_paje)
    cJSON_AddStringToObject(j, "trace-format", o->trace_paje ? "paje" : "chrome");
  if (c->nodes > 0) /* 0: all nodes of the platform, which has no key value */
    cJSON_AddNumberToObject(j, "nodes", c->nodes);
  tool_json_add_u64(j, "n", c->args.n);
  tool_json_add_u64(j, "block", c->args.block);
  cJSON_AddStringToObject(j, "data", c->functional ? "functional" : "phantom");
  tool_json_add_u64(j, "seed", c->seed);
  cJSON_AddBoolToObject(j, "verify", c->args.verify);
  /* The name given: "blocks" and "spread" place alike, and a run file keeps what it said. */
  cJSON_AddStringToObject(j, "placement", o->placement[0] ? o->placement : "spread");
  cJSON_AddNumberToObject(j, "cpu-devices", c->cpu_devices);
  if (c->reserved_cores >= 0) /* -1: the default, which depends on the GPUs in use */
    cJSON_AddNumberToObject(j, "reserved-cores", c->reserved_cores);
  cJSON_AddStringToObject(j, "work-groups", c->work_groups ? "on" : "off");
  cJSON_AddStringToObject(j, "sched", c->sched.policy[0] ? c->sched.policy : "unicorn");
  cJSON_AddNumberToObject(j, "prefetch-depth", c->sched.prefetch_depth);
  if (c->sched.roofline_fixed)
    cJSON_AddNumberToObject(j, "roofline-p", c->sched.roofline_p);
  else
    cJSON_AddStringToObject(j, "roofline-p", "auto");
  cJSON_AddStringToObject(j, "roofline-resident", c->sched.roofline_resident ? "on" : "off");
  if (o->perfmodel[0])
    cJSON_AddStringToObject(j, "perfmodel", o->perfmodel);
  cJSON_AddStringToObject(j, "calibrate", c->calibrate ? "on" : "off");
  cJSON_AddStringToObject(j, "pipeline", c->sched.pipeline ? "on" : "off");
  cJSON_AddStringToObject(j, "prefetch-priority",
                          c->sched.prefetch_priority == NW_PREFETCH_SAME ? "same" : "low");
  cJSON_AddStringToObject(j, "multi-assign", c->sched.multi_assign ? "on" : "off");
  cJSON_AddStringToObject(j, "prosteal", c->sched.prosteal ? "on" : "off");
  cJSON_AddStringToObject(j, "check-views", c->check_views ? "on" : "off");
  cJSON_AddStringToObject(j, "concurrent-tasks", c->sched.sequential_tasks ? "off" : "on");
  cJSON_AddStringToObject(j, "compression", compression_name(c));
  cJSON_AddNumberToObject(j, "steal-retry", c->sched.steal_retry_s);
  cJSON_AddNumberToObject(j, "steal-probes", c->sched.steal_probes);
  cJSON_AddStringToObject(j, "steal-policy",
                          c->sched.steal_policy == NW_STEAL_ONE_LEVEL ? "one-level" : "two-level");
  cJSON_AddStringToObject(j, "locality", c->sched.locality ? "on" : "off");
  cJSON_AddStringToObject(j, "devices", nw_devices_mode_name(c->devices));
  cJSON_AddStringToObject(j, "gpu-cache", nw_cache_policy_name(c->sched.gpu_cache));
  tool_json_add_u64(j, "gpu-mem", c->gpu_mem);
  cJSON_AddNumberToObject(j, "gpu-streams", c->gpu_streams);
  cJSON_AddNumberToObject(j, "agglomerate", c->agglomerate);
  cJSON_AddStringToObject(j, "gpu-mode", c->gpu_mode == NW_GPU_MANY_TASK ? "many-task" : "launch");
  cJSON_AddNumberToObject(j, "mtc-bundle", c->mtc_bundle);
  cJSON_AddStringToObject(j, "pack-copies", c->pack_copies ? "on" : "off");
  if (c->nslow) {
    char text[512] = "";
    for (int i = 0; i < c->nslow; i++) {
      size_t at = strlen(text);
      snprintf(text + at, sizeof text - at, "%s%d:%g@%g", i ? "," : "", c->slow[i].node,
               c->slow[i].factor, c->slow[i].from_s);
    }
    cJSON_AddStringToObject(j, "slow", text);
  }
  char fail[512], fault[1536];
  nw_fault_format(&c->faults, fail, sizeof fail, fault, sizeof fault);
  if (fail[0]) /* only when given: configurations without any print as before */
    cJSON_AddStringToObject(j, "fail", fail);
  if (fault[0])
    cJSON_AddStringToObject(j, "fault", fault);
  if (c->args.nparams) { /* only when given: configurations without any print as before */
    cJSON *p = cJSON_AddObjectToObject(j, "app-param");
    for (int i = 0; i < c->args.nparams; i++)
      cJSON_AddStringToObject(p, c->args.params[i].key, c->args.params[i].value);
  }
  for (int k = 0; k < 2; k++) { /* "cfg" and "log": lists of what follows --NAME= */
    const char *name = k ? "log" : "cfg";
    cJSON *list = NULL;
    for (int i = 0; i < c->nsimgrid_args; i++) {
      const char *a = c->simgrid_args[i];
      size_t n = strlen(name);
      if (strncmp(a + 2, name, n) != 0 || a[2 + n] != '=')
        continue;
      if (!list)
        list = cJSON_AddArrayToObject(j, name);
      cJSON_AddItemToArray(list, cJSON_CreateString(a + 3 + n));
    }
  }
  return j;
}
