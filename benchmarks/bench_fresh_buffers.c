/* bench_fresh_buffers.c: what a message between two ranks of one host costs with buffers used
 * before (reused), with buffers malloc'd per message as the real backend's are (it packs each
 * message into a buffer it allocates and receives each into another, backends/real/real_net.c),
 * and with buffers mapped afresh (mmap: every page fresh). Rank 0 sends to rank 1 (one way), or
 * both send to each other at once (both ways); the time is from the buffers' allocation to both
 * receives' end, the slower rank's. A sender writes its new buffer first, as packing does.
 * Interleaved, best of ROUNDS.
 *
 * usage: mpirun -np 2 bench_fresh_buffers [ROUNDS]
 * Prints, per size and direction, each way's best ms. The simulator's model of which malloc'd
 * pages are fresh (backends/simgrid/sim_msg_pages.h) says: one way, malloc'd as fast as
 * reused (one buffer of a size at a time: the heap keeps its pages); both ways, as slow as
 * mapped (two at once: freed together, they go back to the system). */
#define _DEFAULT_SOURCE /* MAP_ANONYMOUS */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>

enum { REUSED, MALLOCED, MAPPED, WAYS };
static const char *const way_name[WAYS] = {"reused", "malloc'd", "mapped"};

static char *get(size_t len, int way, char *reused) {
  if (way == REUSED)
    return reused;
  char *p = way == MALLOCED
                ? malloc(len)
                : mmap(NULL, len, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
  if (!p || p == MAP_FAILED)
    MPI_Abort(MPI_COMM_WORLD, 1);
  return p;
}

static void put(char *p, size_t len, int way) {
  if (way == MALLOCED)
    free(p);
  else if (way == MAPPED)
    munmap(p, len);
}

static double exchange(int rank, size_t len, int way, int both, char *warm_send, char *warm_recv) {
  MPI_Barrier(MPI_COMM_WORLD);
  double t0 = MPI_Wtime();
  int peer = 1 - rank;
  char *s = NULL, *r = NULL;
  MPI_Request req[2];
  int n = 0;
  if (rank == 0 || both) {
    s = get(len, way, warm_send);
    memset(s, rank + 1, len); /* packing writes it */
    MPI_Isend(s, (int)len, MPI_BYTE, peer, 1, MPI_COMM_WORLD, &req[n++]);
  }
  if (rank == 1 || both) { /* as real_net.c receives: matched, then a buffer of its size */
    int flag = 0;
    MPI_Message msg;
    MPI_Status st;
    while (!flag)
      MPI_Improbe(peer, 1, MPI_COMM_WORLD, &flag, &msg, &st);
    r = get(len, way, warm_recv);
    MPI_Imrecv(r, (int)len, MPI_BYTE, &msg, &req[n++]);
  }
  for (int done = 0; !done;)
    MPI_Testall(n, req, &done, MPI_STATUSES_IGNORE);
  double t = MPI_Wtime() - t0, slowest;
  if (s)
    put(s, len, way);
  if (r)
    put(r, len, way);
  MPI_Allreduce(&t, &slowest, 1, MPI_DOUBLE, MPI_MAX, MPI_COMM_WORLD);
  return slowest;
}

int main(int argc, char **argv) {
  MPI_Init(&argc, &argv);
  int rank, size;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  int rounds = argc > 1 ? atoi(argv[1]) : 7;
  if (size != 2 || rounds < 1) {
    if (rank == 0)
      fprintf(stderr, "bench_fresh_buffers: run it on 2 ranks; ROUNDS is a whole number >= 1\n");
    MPI_Finalize();
    return 2;
  }
  static const size_t sizes[] = {1 << 20, 2359296, 4718592, 7077888, 18874368};
  enum { NSIZES = sizeof sizes / sizeof *sizes };
  size_t most = sizes[NSIZES - 1];
  char *ws = malloc(most), *wr = malloc(most);
  if (!ws || !wr)
    MPI_Abort(MPI_COMM_WORLD, 1);
  memset(ws, 1, most);
  memset(wr, 2, most);
  if (rank == 0)
    printf("%10s %-9s %10s %10s %10s  (best ms)\n", "bytes", "direction", way_name[REUSED],
           way_name[MALLOCED], way_name[MAPPED]);
  for (int i = 0; i < NSIZES; i++)
    for (int both = 0; both < 2; both++) {
      double best[WAYS] = {1e30, 1e30, 1e30};
      for (int k = 0; k < rounds; k++)
        for (int way = 0; way < WAYS; way++) { /* interleaved */
          double t = exchange(rank, sizes[i], way, both, ws, wr);
          best[way] = t < best[way] ? t : best[way];
        }
      if (rank == 0)
        printf("%10zu %-9s %10.3f %10.3f %10.3f\n", sizes[i], both ? "both ways" : "one way",
               best[REUSED] * 1e3, best[MALLOCED] * 1e3, best[MAPPED] * 1e3);
    }
  free(ws);
  free(wr);
  MPI_Finalize();
  return 0;
}
