/* bench_msg.c: a control message's send-to-handle latency through the real backend's transport
 * against an MPI ping-pong of the same size between the same two ranks (target:
 * within 5x).
 *
 * Run under `mpirun -np 2`. Each round trip of the Narwhal side is what two nodes' event loops
 * do with a control message: rank 0's loop sends it (real_net_send), rank 1's loop gets it as an
 * event from its queue (real_queue_wait, polling MPI meanwhile: real_net.h, then real_queue_take)
 * and sends one back, which rank 0's loop gets the same way. Half a round trip is the
 * send-to-handle latency. The baseline is MPI_Send/MPI_Recv ping-pong of the same bytes. The two
 * alternate (A, B, A, B, ...), REPS times each, and each side's best is printed with their ratio,
 * since this machine is noisy. Usage: bench_msg [BYTES=8] [ROUNDS=2000] [REPS=5].
 */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "real_net.h"
#include "real_queue.h"
#include "real_spin.h"

static double mpi_pingpong(int rank, char *buf, int bytes, int rounds) {
  MPI_Barrier(MPI_COMM_WORLD);
  double t0 = real_monotonic();
  for (int i = 0; i < rounds; i++) {
    if (rank == 0) {
      MPI_Send(buf, bytes, MPI_BYTE, 1, 1, MPI_COMM_WORLD);
      MPI_Recv(buf, bytes, MPI_BYTE, 1, 1, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    } else {
      MPI_Recv(buf, bytes, MPI_BYTE, 0, 1, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
      MPI_Send(buf, bytes, MPI_BYTE, 0, 1, MPI_COMM_WORLD);
    }
  }
  return (real_monotonic() - t0) / rounds / 2;
}

static void *copy_of(const char *buf, int bytes) {
  void *m = malloc(bytes > 0 ? (size_t)bytes : 1);
  if (!m) {
    fprintf(stderr, "bench_msg: out of memory\n");
    exit(1);
  }
  memcpy(m, buf, (size_t)bytes);
  return m;
}

/* Waits for the peer's message as an event loop does, and checks it is one. */
static void handle_one(real_queue *q, real_net *net, int bytes) {
  nw_event *ev = NULL;
  while (!ev) {
    real_queue_wait(q, real_net_poll, net, 20e-6);
    ev = real_queue_take(q);
  }
  if (ev->kind != NW_EVENT_MESSAGE || ev->len != (size_t)bytes) {
    fprintf(stderr, "bench_msg: expected a %d-byte message\n", bytes);
    exit(1);
  }
  free(ev->buf);
  free(ev);
}

static double narwhal_pingpong(int rank, real_queue *q, real_net *net, const char *buf, int bytes,
                               int rounds) {
  MPI_Barrier(MPI_COMM_WORLD);
  double t0 = real_monotonic();
  for (int i = 0; i < rounds; i++) {
    if (rank == 0) {
      real_net_send(net, 1, NW_CHANNEL_CONTROL, copy_of(buf, bytes), (size_t)bytes);
      handle_one(q, net, bytes);
    } else {
      handle_one(q, net, bytes);
      real_net_send(net, 0, NW_CHANNEL_CONTROL, copy_of(buf, bytes), (size_t)bytes);
    }
  }
  double t = (real_monotonic() - t0) / rounds / 2;
  while (real_net_poll(net) || real_net_pending(net)) /* the last reply's send completes */
    ;
  return t;
}

int main(int argc, char **argv) {
  int bytes = argc > 1 ? atoi(argv[1]) : 8;
  int rounds = argc > 2 ? atoi(argv[2]) : 2000;
  int reps = argc > 3 ? atoi(argv[3]) : 5;
  int provided = 0, rank = 0, size = 0;
  MPI_Init_thread(&argc, &argv, MPI_THREAD_SERIALIZED, &provided);
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  if (size != 2 || bytes < 1 || rounds < 1 || reps < 1) {
    if (rank == 0)
      fprintf(stderr, "bench_msg: run under mpirun -np 2; BYTES, ROUNDS, REPS >= 1\n");
    MPI_Finalize();
    return 2;
  }
  real_spin_configure(1); /* an event loop with a peer, as in a run */
  real_queue q;
  real_queue_init(&q);
  unsigned char *same_host = real_net_same_host(size);
  real_net *net = same_host ? real_net_create(rank, size, same_host, &q) : NULL;
  free(same_host);
  char *buf = calloc((size_t)bytes, 1);
  if (!net || !buf) {
    fprintf(stderr, "bench_msg: out of memory\n");
    MPI_Abort(MPI_COMM_WORLD, 1);
  }
  double best_mpi = 1e30, best_nw = 1e30;
  for (int r = 0; r < reps; r++) {
    double a = mpi_pingpong(rank, buf, bytes, rounds);
    double b = narwhal_pingpong(rank, &q, net, buf, bytes, rounds);
    best_mpi = a < best_mpi ? a : best_mpi;
    best_nw = b < best_nw ? b : best_nw;
  }
  real_net_finish(net);
  if (rank == 0)
    printf("bytes=%d mpi_pingpong_us=%.2f narwhal_send_to_handle_us=%.2f ratio=%.2f (target <= "
           "5)\n",
           bytes, best_mpi * 1e6, best_nw * 1e6, best_nw / best_mpi);
  real_net_destroy(net);
  real_queue_destroy(&q);
  free(buf);
  MPI_Finalize();
  return 0;
}
