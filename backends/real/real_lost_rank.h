/* real_lost_rank.h: one Narwhal line when mpirun stops the job because a rank died.
 *
 * Open MPI stops every rank (SIGTERM, then SIGKILL) as soon as one exits abnormally, and
 * prints its own banner; the ranks would vanish without a word of Narwhal's. Every rank
 * learns the others' process ids and hosts at start; on SIGTERM the lowest-numbered live rank
 * of each host names the ranks of its host that are gone (a rank on another host cannot be
 * checked from here: mpirun's banner names it) and the process exits with status 143. */
#ifndef NW_REAL_LOST_RANK_H
#define NW_REAL_LOST_RANK_H

/* Collective over MPI_COMM_WORLD (every rank calls it once, after MPI_Init); later calls do
 * nothing. */
void real_lost_rank_watch(int rank, int size);

/* --fail NODE@SECONDS for this rank: it kills itself (SIGKILL) `seconds` from now, which the
 * others report as above. */
void real_lost_rank_fail_at(double seconds);

#endif
