/* validate_file.h: the held-out validation file `narwhal validate` reads (validate.h).
 *
 *   {
 *     "narwhal-validate": 1,
 *     "rounds": 3,
 *     "calibrations": [
 *       {"name": "1rank", "ranks": 1, "mpirun": ["--bind-to", "none"],
 *        "workloads": ["matmul:2048:512", "fft2d:2048:256"], "runs": 5}
 *     ],
 *     "configurations": [
 *       {"name": "matmul 3072/768 dmda", "calibration": "1rank", "group": "matmul policies",
 *        "args": ["--app", "matmul", "--n", "3072", "--block", "768", "--sched", "dmda"]}
 *     ]
 *   }
 *
 * rounds: real runs of each configuration (the best is kept), 1 to 100, default 3.
 * A calibration: name (unique), ranks (1 to 64), mpirun (optional: mpirun's options before
 * -np, e.g. a binding), workloads (APP:N:BLOCK, as `narwhal calibrate --workload`), runs
 * (optional, default 5), args (optional: more options of `narwhal calibrate`, such as
 * "--devices", "cpu+gpu"; not those validate sets), anchor (optional: one of its workloads,
 * run before each real run of its configurations, whose kernels against the model say how fast
 * the machine is then: the simulation of its configurations stretches their CPU kernels by the
 * median of those, platform property rt_kernel_scale). Its platform and model go to
 * OUT/NAME.xml and OUT/NAME.json.
 * A configuration: name (unique), calibration (a calibration's name: its ranks and platform),
 * group (optional: configurations of one group are ranked against each other), args (options
 * of `narwhal run`, without --backend, --platform, --perfmodel, --nodes or --json, which
 * validate sets). Unknown keys are refused, as every other mistake, with one line.
 */
#ifndef NW_TOOL_VALIDATE_FILE_H
#define NW_TOOL_VALIDATE_FILE_H

#include <stddef.h>

#define VF_MAX_ARGS 48
#define VF_MAX_ROUNDS 100 /* "rounds" and validate --rounds: 1 to this */
#define VF_MAX_WORKLOADS 32
#define VF_MAX_MPIRUN 16
#define VF_NAME_MAX 96

typedef struct vf_calibration {
  char name[VF_NAME_MAX];
  int ranks, runs;
  int nmpirun, nworkloads, nargs;
  char *mpirun[VF_MAX_MPIRUN];
  char *args[VF_MAX_ARGS]; /* options of `narwhal calibrate`, e.g. --devices cpu+gpu */
  char *workloads[VF_MAX_WORKLOADS];
  char anchor[VF_NAME_MAX]; /* one of the workloads, run beside each real round; "" none */
} vf_calibration;

typedef struct vf_config {
  char name[VF_NAME_MAX];
  char group[VF_NAME_MAX]; /* "" when none */
  int calibration;         /* index in calibrations */
  int nargs;
  char *args[VF_MAX_ARGS];
} vf_config;

typedef struct vf_file {
  int rounds;
  int ncal, nconf;
  vf_calibration *cal;
  vf_config *conf;
  void *json; /* the parsed document; the strings above point into it */
} vf_file;

/* Reads and checks path; 0 on success, else 2 with one line in why naming the file and what is
 * wrong. */
int vf_load(const char *path, vf_file *f, char *why, size_t len);
void vf_free(vf_file *f);

#endif
