/* mdlite.h: an MDLite-like short molecular-dynamics segment, the many-task workload of GeMTC
 * (Krieder, Wozniak, Armstrong, Wilde, Katz, Grimmer, Foster, Raicu: "GeMTC: GPU-enabled
 * Many-Task Computing"), as a Narwhal application: many small independent tasks, each a few
 * steps of an all-pairs 2D system of up to 32 particles (one GPU warp).
 *
 * --n particles, --block particles per group (1 to 32, dividing n): n / block subtasks in one
 * task, subtask s running `--app-param steps=T` steps (default 10) of group s, alone. A step
 * (narwhal_mtc.h): every particle's force from all the others of its group, in index order,
 * from the positions at the start of the step; then each particle moves (v += f dt, x += v dt).
 *
 * Spaces: IN, read-only, and OUT, write-only, each n particles of 4 floats (x, y, vx, vy), one
 * row (pitch 16n bytes); group s is the particles [s block, (s + 1) block). Subtask s reads its
 * group from IN and writes its state after T steps to OUT. An input and an output rather than
 * one read-write space: a subtask is a pure function of its input bytes, so any copy of it
 * (multi-assign) gives the same bytes, IN stays the same from task to task (a GPU's cache may
 * keep it), and the check runs the reference from the input it wrote.
 *
 * Initial state from --seed: positions uniform in [0, 1)^2, velocities in [-0.1, 0.1)^2, each
 * value a hash of (seed, index). Groups share no particles: each is its own small system.
 *
 * Exactness: every kernel (CPU, a modelled GPU's emulation, CUDA) and the reference compute
 * through narwhal_mtc.h's nw_mtc_md_pull and nw_mtc_md_move, in the same order, every operation
 * rounded alone (host files compiled with -ffp-contract=off; _rn intrinsics in CUDA), each
 * particle's sum in one thread: every run, on any devices, equals the single-process reference
 * bit for bit. The many-task worker kernel runs the same arithmetic (its NW_MTC_MDLITE
 * operation, which mdlite_kind.c's mtc_task names).
 */
#ifndef NW_APP_MDLITE_H
#define NW_APP_MDLITE_H

#include "mdlite_kernels.h"
#include "narwhal_app.h"

#define MDLITE_STEPS_DEFAULT 10
#define MDLITE_STEPS_MAX 100000
#define MDLITE_N_MAX (1ull << 24) /* 256 MiB a space, at most 2^24 subtasks */
#define MDLITE_SPEED_MAX 0.1f     /* initial velocities are uniform in [-0.1, 0.1)^2 */

/* Flops counted (the cost model): nw_mtc_md_pull is 2 subtractions, 2 multiplications and 2
 * additions for r^2 + soft, a division, a multiplication for w, 2 multiplications and 2
 * additions into the sums: 12; nw_mtc_md_move is 4 multiplications and 4 additions: 8. */
#define MDLITE_FLOPS_PULL 12
#define MDLITE_FLOPS_MOVE 8

typedef struct mdlite_conf {
  uint64_t n;     /* particles */
  uint64_t block; /* particles per group */
  uint64_t steps; /* steps per subtask */
} mdlite_conf;

/* Bound spaces, in binding order. */
enum { MDLITE_IN = 0, MDLITE_OUT = 1 };

extern const nw_task_kind nw_mdlite_kind;
extern const nw_app nw_mdlite_app;

#endif
