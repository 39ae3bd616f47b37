/* options_table.c: every option of `narwhal run`, one row each (options_table.h says what a
 * row holds). The command line, run files, --help, --dry-run and docs/reference/options.md
 * all read this table; docs/design/recipes/add-an-option.md shows how to add a row. */
#include "options_table.h"

#include <stddef.h>
#include <stdio.h>
#include <string.h>

#include "options_fields.h"

/* The field a row stores into, and how it holds the value. */
#define AT(kind, member)                                                                           \
  .field = kind, .at = offsetof(tool_options, member), .size = sizeof(((tool_options *)0)->member)
#define ON_OFF .choices = {"on", "off"}, .values = {1, 0}
#define STR_(x) #x
#define STR(x) STR_(x)

const opt_def tool_option_defs[] = {
    {"app", T_STRING, AT(F_TEXT, run.app), .dflt = "matmul",
     .help = "application to run (the names are the list apps/apps.def)"},
    {"backend", T_CHOICE, AT(F_TEXT, run.backend), .choices = {"sim", "real"}, .dflt = "sim",
     .help = "sim: SimGrid model; real: MPI ranks (use mpirun)"},
    {"platform", T_STRING, AT(F_TEXT, run.platform), .dflt = "platforms/paper-cluster.xml",
     .help = "SimGrid platform file (sim)"},
    {"trace", T_STRING, AT(F_TEXT, run.trace), .flags = OPT_OPTIONAL, .shown = "none",
     .help = "write an execution trace to FILE: a lane per device, its data waits, copy engine "
             "and the node's network (Perfetto, chrome://tracing, ViTE; README, \"Traces\")"},
    {"trace-format", T_CHOICE, AT(F_INT, trace_paje), .choices = {"chrome", "paje"},
     .values = {0, 1}, .dflt = "chrome", .get = opt_get_trace_format,
     .help = "--trace FILE's format: Chrome trace JSON (Perfetto, narwhal plot) or Paje (ViTE, "
             "pj_dump)"},
    {"nodes", T_INT, AT(F_INT, run.nodes), .min = 1, .flags = OPT_OPTIONAL,
     .shown = "sim: all of the platform; real: the MPI size", .help = "nodes to use"},
    {"n", T_U64, AT(F_U64, run.args.n), .dflt = "1024",
     .help = "problem size (matmul, lu, fft2d, cholesky: matrix dimension; conv2d: image side; "
             "chain, taskbench: steps; pagerank: pages; gemv: rows; cmeans, gmm: points; "
             "molecular2d: particles)"},
    {"block", T_U64, AT(F_U64, run.args.block), .dflt = "256",
     .help = "subtask granularity (matmul, lu: block dimension; conv2d: tile side; chain: "
             "subtasks; taskbench: width; pagerank: pages per subtask; fft2d: rows, then "
             "columns, per subtask; gemv: rows per subtask; cmeans, gmm: points per subtask; "
             "molecular2d: particles per cell; cholesky: tile side)"},
    {"data", T_CHOICE, AT(F_INT, run.functional), .choices = {"functional", "phantom"},
     .values = {1, 0}, .dflt = "functional", .help = "real bytes and kernels, or sizes only (sim)"},
    {"seed", T_U64, AT(F_U64, run.seed), .dflt = "1", .set = opt_set_seed,
     .help = "seed of the input data and of the scheduler's random choices"},
    {"verify", T_BOOL, AT(F_INT, run.args.verify), .set = opt_set_verify,
     .shown = "on with --data functional",
     .help = "compare with a single-process reference (functional only)"},
    {"placement", T_CHOICE, AT(F_TEXT, placement),
     .choices = {"spread", "node0", "blocks", "rows", "columns", "rows-columns", "local"},
     .values = {NW_PLACEMENT_BLOCKS, NW_PLACEMENT_BLOCKS, NW_PLACEMENT_BLOCKS, NW_PLACEMENT_ROWS,
                NW_PLACEMENT_COLUMNS, NW_PLACEMENT_ROWS_COLUMNS, NW_PLACEMENT_LOCAL},
     .dflt = "spread", .set = opt_set_placement,
     .help = "where inputs start (paper Fig. 13): blocks on random nodes (spread, blocks), all "
             "on node 0, rows or columns of blocks on random nodes, (matmul) A by rows and B "
             "by columns, or (cmeans, gemv, gmm) each node its own contiguous equal share (local)"},
    {"cpu-devices", T_INT, AT(F_INT, run.cpu_devices), .dflt = "0",
     .help = "CPU devices per node; 0: one per core not reserved"},
    {"reserved-cores", T_INT, AT(F_INT, run.reserved_cores), .flags = OPT_OPTIONAL,
     .shown = "2 when GPUs are used, else 0", .help = "cores per node left to the runtime"},
    {"work-groups", T_CHOICE, AT(F_INT, run.work_groups), ON_OFF, .dflt = "off",
     .help = "a node's CPU cores form one work-group, sized per task by binary search"},
    {"sched", T_STRING, AT(F_TEXT, run.sched.policy), .dflt = "unicorn", .set = opt_set_sched,
     .help = "scheduling policy (docs/guide/policies.md)"},
    {"roofline-p", T_STRING, .dflt = "auto", .set = opt_set_roofline_p, .get = opt_get_roofline_p,
     .flags = OPT_JSON_NUMBER,
     .help = "roofline: the CPUs' fraction of each node's subtasks, 0 to 1; auto: equation (8) "
             "of the PRS paper"},
    {"roofline-resident", T_CHOICE, AT(F_INT, run.sched.roofline_resident), ON_OFF, .dflt = "off",
     .help = "roofline: take the GPUs' data as already in their memory (iterative apps: no PCIe "
             "term)"},
    {"prefetch-depth", T_INT, AT(F_INT, run.sched.prefetch_depth), .dflt = "1",
     .help = "model-based policies (dm, dmda, ...): queued subtasks per device whose data is "
             "requested when placed (StarPU's prefetch on push); 0: only the pipeline's"},
    {"perfmodel", T_STRING, AT(F_TEXT, perfmodel), .flags = OPT_OPTIONAL, .shown = "none",
     .help = "performance-model file (JSON): model-based policies predict from it, the simulator "
             "takes subtask durations from it; with --calibrate on, written at the end of the "
             "run"},
    {"calibrate", T_CHOICE, AT(F_INT, run.calibrate), ON_OFF, .dflt = "off",
     .help = "measure every subtask into --perfmodel FILE (created if missing); policies "
             "calibrate kinds it does not know instead of using the cost model"},
    {"pipeline", T_CHOICE, AT(F_INT, run.sched.pipeline), ON_OFF, .dflt = "on",
     .flags = OPT_JSON_BOOL, .help = "fetch the next subtask's data during the current one"},
    {"prefetch-priority", T_CHOICE, AT(F_INT, run.sched.prefetch_priority),
     .choices = {"low", "same"}, .values = {NW_PREFETCH_LOW, NW_PREFETCH_SAME}, .dflt = "low",
     .help = "the pipeline's prefetched data goes after data devices wait for (paper 4.2), or "
             "alike"},
    {"steal-retry", T_DOUBLE, AT(F_DOUBLE, run.sched.steal_retry_s), .dflt = "0",
     .help = "after a failed stealing round: 0 stop, else retry after S s"},
    {"steal-probes", T_INT, AT(F_INT, run.sched.steal_probes), .dflt = STR(NW_STEAL_PROBES_DEFAULT),
     .help = "remote steal agents a dry device asks per round; 0: every node, as the original "
             "Unicorn"},
    {"prosteal", T_CHOICE, AT(F_INT, run.sched.prosteal), ON_OFF, .dflt = "on",
     .help = "steal before running dry (ProSteal)"},
    {"multi-assign", T_CHOICE, AT(F_INT, run.sched.multi_assign), ON_OFF, .dflt = "on",
     .help = "run a copy of a straggling subtask elsewhere"},
    {"master-serves", T_CHOICE, AT(F_INT, run.sched.master_serves_copies),
     .choices = {"owned", "copies"}, .values = {0, 1}, .dflt = "owned",
     .help = "a space's master answers a fetch with the bytes it owns and forwards the rest to "
             "their owners (owned), or also with the bytes it fetched in the task (copies: "
             "paper section 3's temporary owners sharing data)"},
    {"steal-policy", T_CHOICE, AT(F_INT, run.sched.steal_policy),
     .choices = {"two-level", "one-level"}, .values = {NW_STEAL_TWO_LEVEL, NW_STEAL_ONE_LEVEL},
     .dflt = "two-level",
     .help = "work stealing: per-node agents (the paper's) or device to device"},
    {"locality", T_CHOICE, AT(F_INT, run.sched.locality), ON_OFF, .dflt = "off",
     .help = "locality-aware scheduling (paper 4.3.4): assign and steal by where the data is"},
    {"slow", T_STRING, .shown = "none", .set = opt_set_slow, .get = opt_get_slow,
     .help = "external load: NODE:FACTOR[@SECONDS],... (node computes FACTOR x slower; on hardware "
             "its CPU kernels hold their core until they have spent FACTOR x their CPU time)"},
    {"fail", T_STRING, .shown = "none", .set = opt_set_faults, .get = opt_get_faults,
     .help = "lose nodes: NODE@SECONDS,... (sim: the node stops; real: its rank is killed); "
             "README, \"Faults\""},
    {"fault", T_STRING, .shown = "none", .set = opt_set_faults, .get = opt_get_faults,
     .help = "inject faults (sim): drop:P, rto:S, delay:S[:P], link:NAME:FACTOR[@S], detect:S, "
             "comma-separated; README, \"Faults\""},
    {"devices", T_CHOICE, AT(F_INT, run.devices), .choices = {"cpu", "gpu", "cpu+gpu", "auto"},
     .values = {NW_DEVICES_CPU, NW_DEVICES_GPU, NW_DEVICES_CPU_GPU, NW_DEVICES_AUTO}, .dflt = "cpu",
     .help = "which devices run subtasks (paper Figs. 5-7): CPU cores, GPUs, or both; auto: every "
             "kind the node has that runs every task kind of the application (StarPU's every "
             "worker)"},
    {"gpu-cache", T_CHOICE, AT(F_INT, run.sched.gpu_cache),
     .choices = {"lru", "mru", "lfu", "mfu", "random", "none"},
     .values = {NW_CACHE_LRU, NW_CACHE_MRU, NW_CACHE_LFU, NW_CACHE_MFU, NW_CACHE_RANDOM,
                NW_CACHE_NONE},
     .dflt = "lru", .help = "eviction policy of each GPU's software cache"},
    {"gpu-mem", T_U64, AT(F_U64, run.gpu_mem), .dflt = "0",
     .help = "GPU memory budget in bytes; 0: the GPU's own (platform memsize)"},
    {"gpu-streams", T_INT, AT(F_INT, run.gpu_streams), .min = 1, .max = NW_MTC_LANES_MAX,
     .max_note = " (above " STR(NW_GPU_STREAMS_MAX) " only with --gpu-mode many-task)", .dflt = "1",
     .help = "subtasks one GPU runs at once (CUDA streams; with --agglomerate, the lanes that "
             "feed its FIFO), 1 to 32; with --gpu-mode many-task, the lanes that feed its "
             "queue, up to 512"},
    {"gpu-mode", T_CHOICE, AT(F_INT, run.gpu_mode), .choices = {"launch", "many-task"},
     .values = {NW_GPU_LAUNCH, NW_GPU_MANY_TASK}, .dflt = "launch",
     .help = "how a GPU runs subtasks: a kernel launch each, or GeMTC's resident worker kernel "
             "fed in bundles (sim; README, \"Many-task GPU mode\")"},
    {"pack-copies", T_CHOICE, AT(F_INT, run.pack_copies), ON_OFF, .dflt = "off",
     .help = "a GPU's copies queued together cross PCIe as one transfer (sim; README, "
             "\"Agglomeration\")"},
    {"mtc-bundle", T_INT, AT(F_INT, run.mtc_bundle), .min = 1, .max = 65536,
     .dflt = STR(NW_MTC_BUNDLE_DEFAULT),
     .help = "many-task mode: the most subtasks one host-to-device bundle carries, 1 to 65536"},
    {"agglomerate", T_INT, AT(F_INT, run.agglomerate), .max = 1024, .min_note = " (off)",
     .dflt = "0",
     .help = "dynamic agglomeration (sim): the most subtasks one GPU launch runs, 0 off "
             "(README, \"Agglomeration\")"},
    {"agglomerate-mode", T_CHOICE, AT(F_INT, run.agglomerate_mode),
     .choices = {"dynamic", "static"}, .values = {NW_AGGLO_DYNAMIC, NW_AGGLO_STATIC},
     .dflt = "dynamic",
     .help = "with --agglomerate N: a launch takes what the GPU's FIFO holds, up to N (dynamic), "
             "or waits for N subtasks of one task, fewer only when no more can come (static; "
             "sim)"},
    {"check-views", T_CHOICE, AT(F_INT, run.check_views), ON_OFF,
     .shown = "off; on in sanitizer builds",
     .help = "CPU views hold only subscribed bytes; a kernel writing others fails the run "
             "(functional)"},
    {"concurrent-tasks", T_CHOICE, AT(F_INT, run.sched.sequential_tasks), .choices = {"on", "off"},
     .values = {0, 1}, .dflt = "on",
     .help = "independent tasks run at once (paper section 2); off: one at a time, in "
             "submission order"},
    {"compression", T_CHOICE, .choices = {"off", "network", "gpu", "both"}, .dflt = "off",
     .set = opt_set_compression, .get = opt_get_compression,
     .help = "reduction data run-length encoded (paper 4.6; functional only): between nodes "
             "(network), from GPU to host, encoded on the GPU (gpu), or both"},
    {"app-param", T_PARAM, .shown = "none", .set = opt_set_app_param, .get = opt_get_app_param,
     .help = "KEY=VALUE for the application, repeatable (taskbench: pattern, iterations); in a "
             "run file an object {\"KEY\": VALUE}"},
    {"cfg", T_SIMGRID, .shown = "none", .set = opt_set_simgrid, .get = opt_get_simgrid,
     .arg = "KEY:VALUE",
     .help = "KEY:VALUE, SimGrid's configuration, passed to the simulator as --cfg=KEY:VALUE "
             "after Narwhal's own (repeatable; e.g. network/model:LV08; in a run file a string "
             "or a list)"},
    {"log", T_SIMGRID, .shown = "none", .set = opt_set_simgrid, .get = opt_get_simgrid,
     .arg = "SETTING",
     .help = "SimGrid's logging setting, passed as --log=SETTING (repeatable; e.g. "
             "root.thres:info)"},
    {"json", T_BOOL, AT(F_INT, json), .dflt = "false", .flags = OPT_OUTPUT,
     .help = "print one JSON object on stdout"},
    {"dry-run", T_BOOL, AT(F_INT, dry_run), .dflt = "false", .flags = OPT_OUTPUT,
     .help = "print the resolved configuration as JSON and stop"},
    {"check", T_BOOL, AT(F_INT, run.check_only), .dflt = "false", .flags = OPT_OUTPUT,
     .help = "set the run up on its backend (platform, nodes, devices, GPU memory) and stop: "
             "exit 0, or 2 and why"},
    /* add-an-option: new rows go above this line */
};
const int tool_option_count = sizeof tool_option_defs / sizeof tool_option_defs[0];

const opt_def *tool_option_find(const char *name) {
  for (int i = 0; i < tool_option_count; i++)
    if (strcmp(tool_option_defs[i].name, name) == 0)
      return &tool_option_defs[i];
  return NULL;
}

const char *tool_option_default_text(const opt_def *d) {
  if (d->shown)
    return d->shown;
  if (d->type == T_BOOL && d->dflt) /* as the on|off choices read */
    return strcmp(d->dflt, "true") == 0 ? "on" : "off";
  return d->dflt ? d->dflt : "none";
}

void tool_option_arg(const opt_def *d, char *out, size_t len) {
  if (len)
    out[0] = '\0';
  if (d->type == T_CHOICE) {
    for (int k = 0; k < 8 && d->choices[k]; k++) {
      size_t at = strlen(out);
      snprintf(out + at, len - at, "%s%s", k ? "|" : "", d->choices[k]);
    }
  } else if (d->type != T_BOOL)
    snprintf(out, len, "%s",
             d->arg                 ? d->arg
             : d->type == T_STRING  ? "TEXT"
             : d->type == T_PARAM   ? "KEY=VALUE"
             : d->type == T_SIMGRID ? "SETTING"
                                    : "N");
}

int tool_option_is_output(const char *key) {
  const opt_def *d = tool_option_find(key);
  return d && (d->flags & OPT_OUTPUT);
}
