/* real_placement.h: which cores a rank's threads run on when cores are reserved for the
 * runtime (--reserved-cores; 2 by default when GPUs are used, as the Unicorn paper's section
 * 5.7 leaves "two CPU cores (out of 12)" to the runtime).
 *
 * The reserve exists so that the runtime's own threads (the event loop, the driver, each GPU's
 * copy and kernel threads) never wait behind compute threads: on an H100 machine the event
 * loop waited 61 ms per GPU completion behind 15 busy compute threads. Priority alone (the
 * compute threads' higher nice value, real_spin.h) does not stop the kernel's scheduler from
 * putting a woken runtime thread in a busy core's queue. So the rank's affinity mask is split:
 * its first `reserved` cores for the runtime's threads, the rest for the compute threads; the
 * simulator's model of that layout gives the loop a core of its own (sim_costs.h).
 *
 * Threads take their creator's mask, so real_backend.c switches the creating thread: to the
 * runtime's cores before it starts GPUs and the event loop, to the compute cores while it
 * starts the compute threads. Nothing is pinned where the reserve is 0, where the mask has no
 * core left for compute, or where the CPU devices ask for more cores than the reserve leaves
 * (--cpu-devices overriding it): those runs keep the mask as mpirun gave it. */
#ifndef NW_REAL_PLACEMENT_H
#define NW_REAL_PLACEMENT_H

#include <sched.h> /* cpu_set_t: the includer defines _GNU_SOURCE before any header */

typedef struct real_placement {
  int active; /* 0: nothing is pinned */
  cpu_set_t runtime, compute;
  cpu_set_t original; /* the calling thread's mask before the plan, given back at the end */
} real_placement;

/* Splits this thread's affinity mask: `reserved` cores for the runtime, the rest for
 * `compute_cores` cores' worth of compute threads. */
void real_placement_plan(real_placement *p, int reserved, int compute_cores);
/* Moves the calling thread (and so the threads it creates next) to the runtime's cores or to
 * the compute cores; nothing when the plan is not active. */
void real_placement_runtime(const real_placement *p);
void real_placement_compute(const real_placement *p);
/* Gives the calling thread its mask from before the plan back, at the end of a run: a process
 * that runs again (calibrate's runs, a program's second run) must not start from the reserve's
 * cores alone, or each run would find fewer cores than the last. */
void real_placement_restore(const real_placement *p);

#endif
