/* taskbench_mpi.c PATTERN WIDTH STEPS ITERATIONS: the taskbench graph (apps/taskbench/
 * taskbench_graph.h) in plain MPI, the baseline of benchmarks/taskbench.sh.
 *
 * One rank per core; rank r owns the points [W r / R, W (r + 1) / R) and computes them every
 * step. Before a step it gets the previous step's cells it needs but does not own: stencil_1d
 * and nearest exchange one boundary cell with each neighbour rank (non-blocking send and
 * receive); spread and all_to_all gather the whole step (MPI_Allgatherv); trivial needs
 * nothing. The same kernel and cells as Narwhal's app, so the final cells are checked against
 * the same serial reference (untimed, after the timed part).
 * Prints one line on rank 0: wall_s=S tasks=N ranks=R verified=0|1
 * Wall: from a barrier before the first step to a barrier after the last. Exit status: 0 right,
 * 1 wrong result, 2 bad arguments.
 */
#define _POSIX_C_SOURCE 200809L
#include <mpi.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../apps/taskbench/taskbench_graph.h"
#include "taskbench_args.h"

#define CELL ((int)sizeof(tb_cell))

int main(int argc, char **argv) {
  MPI_Init(&argc, &argv);
  int rank, ranks;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &ranks);
  unsigned long long w = 0, steps = 0, iters = 0;
  int pattern = argc == 5 ? tb_pattern_parse(argv[1]) : -1;
  if (argc != 5 || pattern < 0 || !tb_arg_count("taskbench_mpi", "WIDTH", argv[2], 1u << 20, &w) ||
      !tb_arg_count("taskbench_mpi", "STEPS", argv[3], 1u << 30, &steps) ||
      !tb_arg_count("taskbench_mpi", "ITERATIONS", argv[4], 1ull << 40, &iters) ||
      w < (unsigned long long)ranks) {
    if (rank == 0)
      fprintf(stderr, "usage: taskbench_mpi PATTERN(%s) WIDTH>=ranks STEPS ITERATIONS\n",
              tb_pattern_names());
    MPI_Finalize();
    return 2;
  }
  uint64_t lo = w * (uint64_t)rank / (uint64_t)ranks,
           hi = w * (uint64_t)(rank + 1) / (uint64_t)ranks;
  /* Whole steps, indexed by point; a rank fills only what it owns and what it receives. */
  tb_cell *prev = calloc(w, sizeof *prev), *next = calloc(w, sizeof *next);
  int *counts = malloc((size_t)ranks * sizeof *counts),
      *displs = malloc((size_t)ranks * sizeof *displs);
  for (int r = 0; r < ranks; r++) {
    displs[r] = (int)(w * (uint64_t)r / (uint64_t)ranks) * CELL;
    counts[r] = (int)(w * (uint64_t)(r + 1) / (uint64_t)ranks) * CELL - displs[r];
  }
  for (uint64_t p = lo; p < hi; p++)
    tb_cell_init(&prev[p], p);
  int stencil = pattern == TB_STENCIL_1D || pattern == TB_NEAREST;
  int gather = pattern == TB_SPREAD || pattern == TB_ALL_TO_ALL;
  MPI_Barrier(MPI_COMM_WORLD);
  double t0 = MPI_Wtime();
  for (uint64_t t = 1; t <= steps; t++) {
    if (stencil) {
      MPI_Request rq[4];
      int n = 0;
      if (lo > 0) {
        MPI_Irecv(&prev[lo - 1], CELL, MPI_BYTE, rank - 1, 0, MPI_COMM_WORLD, &rq[n++]);
        MPI_Isend(&prev[lo], CELL, MPI_BYTE, rank - 1, 0, MPI_COMM_WORLD, &rq[n++]);
      }
      if (hi < w) {
        MPI_Irecv(&prev[hi], CELL, MPI_BYTE, rank + 1, 0, MPI_COMM_WORLD, &rq[n++]);
        MPI_Isend(&prev[hi - 1], CELL, MPI_BYTE, rank + 1, 0, MPI_COMM_WORLD, &rq[n++]);
      }
      MPI_Waitall(n, rq, MPI_STATUSES_IGNORE);
    } else if (gather) {
      MPI_Allgatherv(MPI_IN_PLACE, 0, MPI_BYTE, prev, counts, displs, MPI_BYTE, MPI_COMM_WORLD);
    }
    for (uint64_t p = lo; p < hi; p++) {
      tb_state s;
      tb_task_begin(&s, t, p);
      for (uint64_t k = 0, n = tb_ndeps(pattern, w, p); k < n; k++)
        tb_task_add(&s, &prev[tb_dep(pattern, w, p, k)]);
      tb_task_finish(&s, t, p, iters, &next[p]);
    }
    tb_cell *x = prev;
    prev = next;
    next = x;
  }
  MPI_Barrier(MPI_COMM_WORLD);
  double wall = MPI_Wtime() - t0;
  /* The check, untimed: every rank's final cells to rank 0, against the serial reference. */
  MPI_Gatherv(rank == 0 ? MPI_IN_PLACE : &prev[lo], counts[rank], MPI_BYTE, prev, counts, displs,
              MPI_BYTE, 0, MPI_COMM_WORLD);
  int ok = 1;
  if (rank == 0) {
    if (tb_reference(pattern, w, steps, iters, next) != 0)
      ok = 0;
    for (uint64_t p = 0; ok && p < w; p++)
      ok = memcmp(&prev[p], &next[p], sizeof *prev) == 0;
    printf("wall_s=%.6f tasks=%llu ranks=%d verified=%d\n", wall, w * steps, ranks, ok);
  }
  free(prev);
  free(next);
  free(counts);
  free(displs);
  MPI_Finalize();
  return ok ? 0 : 1;
}
