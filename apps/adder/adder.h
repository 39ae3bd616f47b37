/* adder.h: the trivial adder of GeMTC's many-task mode (Krieder, Wozniak, Armstrong, Wilde,
 * Katz, Grimmer, Foster, Raicu: "GeMTC: GPU-enabled Many-Task Computing"), the smallest task
 * there is, as a Narwhal application: many subtasks that each do almost nothing, so that what a
 * run measures is the runtime's cost per task.
 *
 * --n elements, --block elements per subtask: n / block subtasks in one task. Three spaces of
 * n uint64 each, one row (pitch 8n bytes): A and B, read-only inputs drawn from --seed, and C,
 * write-only. Subtask s reads A and B over [s block, (s + 1) block) and writes C[i] = A[i] + B[i]
 * there, wrapping modulo 2^64: disjoint writes, no reduction, integer arithmetic, so every run
 * on any devices equals the single-process reference bit for bit.
 *
 * `--app-param flops=F`: the flops one subtask is charged in the cost model (default --block,
 * one addition an element). GeMTC's throughput and efficiency experiments run sleeps of a given
 * length; here a sweep over F gives a subtask a modelled duration of F over the device's speed
 * (when F / speed exceeds the subtask's 24 block bytes over the platform's memory bandwidth,
 * which the simulator also charges), whatever its data. The kernels still add their block.
 */
#ifndef NW_APP_ADDER_H
#define NW_APP_ADDER_H

#include "narwhal_app.h"

#define ADDER_N_MAX (1ull << 27)        /* 1 GiB a space */
#define ADDER_SUBTASKS_MAX (1ull << 24) /* each is checked at submission */
#define ADDER_FLOPS_MAX (1ull << 53)    /* the cost model is a double: exact up to 2^53 */

typedef struct adder_conf {
  uint64_t n;     /* elements */
  uint64_t block; /* elements per subtask */
  uint64_t flops; /* charged per subtask */
} adder_conf;

/* Bound spaces, in binding order. */
enum { ADDER_A = 0, ADDER_B = 1, ADDER_C = 2 };

extern const nw_task_kind nw_adder_kind;
extern const nw_app nw_adder_app;

#endif
