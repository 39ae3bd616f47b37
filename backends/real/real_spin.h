/* real_spin.h: how the real backend's threads wait for one another: spin, then sleep.
 *
 * A thread that waits for work (the event loop for events, a compute thread for a subtask, the
 * driver for its call's return) first polls for it for a short budget, pausing the core between
 * polls and yielding it after a few hundred polls; only then does it sleep on a condition
 * variable. Work handed to a spinning thread that has a core of its own reaches it in well
 * under a microsecond; a futex wake-up and context switch costs tens (issue 16).
 *
 * Spinning pays only where the spinning thread does not take the core of the thread it waits
 * for. Measured on a 2-core machine (EXPERIMENTS.md, section 7), one rank with a compute
 * thread per core ran its steps 2.1-2.4x slower with every thread spinning than with none. So
 * the budgets depend on whether the rank's threads fit its share of the cores:
 *  - the event loop of a rank with peers spins REAL_SPIN_NET_S whatever the fit: MPI cannot
 *    wake a sleeping thread, a sleeping loop sees a message only when it next polls;
 *  - every other wait spins REAL_SPIN_S if the threads fit, else not at all.
 * NARWHAL_SPIN_US=N sets every budget to N microseconds (0: always sleep at once). */
#ifndef NW_REAL_SPIN_H
#define NW_REAL_SPIN_H

#define REAL_SPIN_S 50e-6      /* longer than a hand-off's gap between two running threads */
#define REAL_SPIN_NET_S 500e-6 /* longer than a few control round trips between ranks */

typedef enum { REAL_WAIT_LOOP, REAL_WAIT_WORKER } real_wait_role;

/* Sets the budgets: threads, the rank's threads that may run at once; cores, its share of
 * the node's cores; peers, whether other ranks send to it. Then reads NARWHAL_SPIN_US (an
 * unusable value is ignored). Call it before any thread that waits is started. */
void real_spin_configure(int threads, int cores, int peers);
/* Seconds a thread in that role spins before it sleeps. */
double real_spin_budget(real_wait_role role);
/* One pause between two polls; *polls counts them. */
void real_spin_pause(unsigned *polls);

/* CLOCK_MONOTONIC in seconds. */
double real_monotonic(void);

#endif
