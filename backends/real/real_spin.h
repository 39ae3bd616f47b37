/* real_spin.h: how the real backend's threads wait for one another: spin, then sleep.
 *
 * A thread that waits for work (the event loop for events, a compute thread for a subtask, the
 * driver for its call's return) first polls for it for a short budget, pausing the core between
 * polls and yielding it after a few hundred polls; only then does it sleep on a condition
 * variable. Work handed to a spinning thread that has a core of its own reaches it in well
 * under a microsecond; a futex wake-up and context switch costs tens.
 *
 * Measured on this project's 2-core VM (docs/experiments/overhead-and-scale.md): there, a
 * sleeping thread is expensive to wake whenever the machine is otherwise idle (the virtual CPU
 * halts and the host must wake it: a 1-rank step of two empty subtasks took 420-480 us without
 * spinning, 37-60 us with a 20 us budget), while under heavy load from other processes the
 * futex hand-off is cheap and spinning costs the thread being waited for its core (2.1-2.4x
 * slower steps with 50 us budgets everywhere). A short budget wins the first case by far and
 * loses the second by less; NARWHAL_SPIN_US=0 is the setting for a machine shared with other
 * busy jobs.
 *  - the event loop of a rank with peers spins REAL_SPIN_NET_S: MPI cannot wake a sleeping
 *    thread, a sleeping loop sees a message only when it next polls;
 *  - every other wait spins REAL_SPIN_S.
 * NARWHAL_SPIN_US=N sets every budget to N microseconds (0: always sleep at once);
 * NARWHAL_LOOP_SPIN_US=N the event loop's alone (over NARWHAL_SPIN_US);
 * NARWHAL_SPIN_POLLS=N how many pauses come before each further pause yields the core (default
 * 256); NARWHAL_COMPUTE_NICE=N (0-19) the compute threads' nice value (defaults below, by
 * whether the rank has peers). The defaults were measured against other values on the 2-core
 * VM: for ranks with peers each alternative won on empty tasks and lost on heavy ones
 * (docs/experiments/two-rank-critical-path.md). */
#ifndef NW_REAL_SPIN_H
#define NW_REAL_SPIN_H

#define REAL_SPIN_S 20e-6      /* longer than a hand-off's gap between two running threads */
#define REAL_SPIN_NET_S 500e-6 /* longer than a few control round trips between ranks */

typedef enum { REAL_WAIT_LOOP, REAL_WAIT_WORKER } real_wait_role;

/* Sets the budgets (peers: whether other ranks send to this one), then reads NARWHAL_SPIN_US
 * and NARWHAL_LOOP_SPIN_US (an unusable value is ignored). Call it before any thread that
 * waits is started. */
void real_spin_configure(int peers);
/* Seconds a thread in that role spins before it sleeps. */
double real_spin_budget(real_wait_role role);
/* One pause between two polls; *polls counts them. */
void real_spin_pause(unsigned *polls);
/* Gives up the core now (a spinner whose poll itself takes a microsecond, real_cpu_pool.c). */
void real_spin_yield(void);

/* CLOCK_MONOTONIC in seconds. */
double real_monotonic(void);
/* The calling thread's CPU time in seconds (CLOCK_THREAD_CPUTIME_ID: user and system time,
 * page faults included, time other threads held its core excluded). A system call, where
 * real_monotonic is read without one (the vDSO): call it where a kernel is timed, not per
 * event. */
double real_thread_cpu_seconds(void);

/* Threads that compute (a CPU device's, a work-group member's) on a rank
 * with peers run at a lower priority than the event loop, nice REAL_COMPUTE_NICE. Where a
 * rank has no core to spare, the loop then gets one as soon as it has work instead of after a
 * kernel's time slice. It matters most for large messages: MPI moves one only while both
 * sides' loops poll (real_queue_wait spins without yielding meanwhile, for a transfer with a
 * rank of the same host: real_net_poll); with the loop at equal priority a 4 MiB transfer
 * between two one-core ranks took up to 127 ms instead of about 1 ms
 * (docs/experiments/calibrated-simulation.md). */
#define REAL_COMPUTE_NICE 10
/* A rank with no peers has no messages to answer. There one rank at nice 0 was as fast as at
 * 10 or faster on every workload of docs/experiments/two-rank-critical-path.md; sgemm 8192 ran
 * 2.4% faster in starpu-no-runtime.md, though starpu-8192-first-touch.md puts differences of
 * that size there down to the VM. */
#define REAL_COMPUTE_NICE_ALONE 0
void real_spin_lower_priority(void);
/* The event loop's share of a core against one compute thread's when both want it: Linux's
 * CFS gives runnable threads time in proportion to their nice values' weights (the kernel's
 * sched_prio_to_weight table, kernel/sched/core.c: 1024 at nice 0, 110 at nice 10), so with
 * the compute threads at the nice value real_spin_configure chose, the loop (nice 0) gets
 * 1024 / weight(nice) of a compute thread's time: 9.31 at nice 10, 1 at nice 0. */
double real_loop_weight(void);

#endif
