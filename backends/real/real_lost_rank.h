/* real_lost_rank.h: a rank or host lost mid-run ends the whole run, with one Narwhal line
 * naming it (rank and hostname) on stderr.
 *
 * Every rank learns the others' process ids, hostnames and a heartbeat address at start.
 * Two ways a loss is noticed (docs/design/decisions.md, "Real backend: a lost host"):
 *  - a watcher thread per rank sends a 20-byte UDP heartbeat to every other rank every 0.25 s,
 *    on a socket of its own (not MPI: never on the hot path, and it needs no MPI call while
 *    the rank's threads hold MPI). A peer whose socket answers "port unreachable" (its process
 *    is gone: a crash, a host whose processes were killed) is lost at once; a peer heard
 *    before and silent for longer than the timeout (a cut link, a host powered off) is lost
 *    then. The lowest-numbered rank not lost prints the line, tells the others, and every rank
 *    exits with status NW_LOST_RANK_EXIT: mpirun then stops the job.
 *  - mpirun itself stops every rank (SIGTERM) when a rank or daemon dies, often before the
 *    next heartbeat: the handler first probes every peer not done (up to 0.3 s for an answer
 *    or a refusal), then names the ranks refused, gone from this host (their process ids) or
 *    silent for more than 1.5 s, unless the watcher has already spoken, and exits with 143.
 * The timeout is NARWHAL_PEER_TIMEOUT_S (rank 0's; default 5 s; 0: no watcher). A peer never
 * heard (UDP blocked between hosts) is judged by mpirun alone. */
#ifndef NW_REAL_LOST_RANK_H
#define NW_REAL_LOST_RANK_H

#include <stddef.h>

/* Heartbeat period and default silence timeout, in seconds; the exit status of a rank that
 * stops the run itself. */
#define NW_LOST_RANK_BEAT_S 0.25
#define NW_LOST_RANK_TIMEOUT_S 5.0
#define NW_LOST_RANK_EXIT 3

/* Collective over MPI_COMM_WORLD (every rank calls it once, after MPI_Init); later calls do
 * nothing and return 0. Returns -1 with a one-line reason in why when NARWHAL_PEER_TIMEOUT_S
 * (read on rank 0, given to all) is not a number of seconds: every rank returns -1 alike. */
int real_lost_rank_watch(int rank, int size, char *why, size_t cap);

/* Before MPI_Finalize: the watcher stops, telling the others this rank is done (not lost). */
void real_lost_rank_stop(void);

/* --fail NODE@SECONDS for this rank: it kills itself (SIGKILL) `seconds` from now, which the
 * others report as above. */
void real_lost_rank_fail_at(double seconds);

#endif
