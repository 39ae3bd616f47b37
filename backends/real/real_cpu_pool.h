/* real_cpu_pool.h: a rank's CPU devices and the threads that run their subtasks.
 *
 * A rank has one compute thread per CPU device, and a CPU device runs one subtask at a time,
 * as the core expects (core/backend.h). But a device's subtask need not wait for that device's
 * own thread: all CPU devices of a rank compute in the same host memory, so any compute thread
 * that is idle and on a core may run it. This is what the pool does: a thread looks at its
 * own device first, then takes the subtask that has waited longest on any other device that
 * is not running one. The core still sees device d run d's subtasks one at a time (its
 * statistics, its work-group size search, its trace lane), and no more kernels run at once
 * than there are devices.
 *
 * Why (docs/experiments/cpu-pool.md): on a rank with fewer cores than runnable threads
 * (the driver, the event loop and the compute threads; on this project's 2-core machine always)
 * the thread of the device that just got a subtask is often off its core, spinning with
 * yields or asleep, while another compute thread sits idle on a core. In a trace of a
 * one-rank Task Bench step of four empty subtasks, one spanned 16-18 us from launch to
 * completion, most of the step, while the other device ran the three others.
 *
 * Waking: a thread that finds nothing spins for its budget (real_spin.h), then sleeps. A
 * launch wakes a sleeping thread (the device's own first) only when more devices have a
 * subtask waiting than there are threads looking for one, so a subtask another running thread
 * will take at once costs no futex wake, and parallel work is never left to one thread.
 * A work-group device's subtask runs on that device's team (real_team.h) whichever thread
 * takes it; devices of one rank have teams of one size. */
#ifndef NW_REAL_CPU_POOL_H
#define NW_REAL_CPU_POOL_H

#include <stdint.h>

#include "backend.h"
#include "real_team.h"

typedef struct real_cpu_pool real_cpu_pool;

/* Called on a compute thread: `kernel` runs exec (device d's), then, once device d may take its
 * next subtask, `done` reports it (real_backend.c queues the completion and handles events). */
typedef struct real_cpu_pool_calls {
  void (*kernel)(void *ctx, int d, nw_exec *exec);
  void (*done)(void *ctx, int d, nw_exec *exec);
  /* Optional (NULL: none): called between polls while a thread spins for work (real_backend.c
   * polls MPI there, so a rank's idle compute thread receives messages as its loop would). */
  void (*idle)(void *ctx);
  void *ctx;
  /* Non-zero in runs that keep a model: a launch's time leaves out what the taking thread
   * waited on a run queue meanwhile (its schedstat), as the simulator charges a shared core's
   * contention of its own. */
  int measure;
} real_cpu_pool_calls;

/* Starts ndev threads (ndev >= 1), thread d's own device being d; NULL if out of memory or
 * threads. *publish (publish may be NULL) is set to the pool before any thread starts: a
 * callback that reaches the pool through it (an idle thread handling an event that launches a
 * subtask) finds it there from its first call. */
real_cpu_pool *real_cpu_pool_start(int ndev, real_cpu_pool_calls calls, real_cpu_pool **publish);
/* Queues exec on device d (any thread, any time before stop). */
void real_cpu_pool_launch(real_cpu_pool *p, int d, nw_exec *exec);
/* Devices with a subtask waiting and none running; lock-free, for the event loop's yield rule. */
int real_cpu_pool_waiting(const real_cpu_pool *p);
/* Devices running a kernel now; lock-free, for the event loop's spin measurement. */
int real_cpu_pool_running(const real_cpu_pool *p);
/* Launches and their seconds to the kernel's start, over all devices: from the launch, or from
 * the end of the device's previous kernel where the subtask was queued behind it (the
 * simulator queues it so too), less, with calls.measure, the taking thread's run-queue waits. */
void real_cpu_pool_stats(real_cpu_pool *p, uint64_t *launches, double *launch_s);
/* Lets the threads end once nothing is queued, joins them, frees the pool. */
void real_cpu_pool_stop(real_cpu_pool *p);

#endif
