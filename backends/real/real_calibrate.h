/* real_calibrate.h: what `narwhal calibrate` measures of the machine itself, apart from the
 * runs of applications (README, "Calibration").
 *
 * Collective over MPI_COMM_WORLD: every rank calls it, the measurements are valid on rank 0.
 * Each measurement runs while every other rank waits in a barrier, so nothing competes with it,
 * and keeps the best of a few repetitions (the machine's capability, not its noise). */
#ifndef NW_REAL_CALIBRATE_H
#define NW_REAL_CALIBRATE_H

#include <stdint.h>

#include "narwhal.h"
#include "run.h"

#define NW_REAL_HOST_MAX 64
#define NW_REAL_COPY_WIDTHS 10

typedef struct nw_real_machine {
  int ranks;
  int cores_min, cores_max; /* the cores each rank may run on (its affinity mask) */
  double core_flops;        /* rank 0: one core's SGEMM rate (OpenBLAS, one thread), flop/s */
  double memory_bandwidth;  /* rank 0: one thread's memcpy, bytes/s (copy rate, not traffic) */
  /* Point to point, ranks x ranks, [i * ranks + j] for i != j (the diagonal is 0): one-way
   * latency (half the best 1-byte round trip, s), bandwidth (nw_real_ping_pong, bytes/s) and
   * the bytes of a large message in flight that a control message to the same peer waits
   * behind (nw_real_behind_bytes), and the bytes of a message that move before the receiver's
   * MPI progress sees it (nw_real_eager_bytes). */
  double *latency, *bandwidth, *behind, *eager;
  char (*host)[NW_REAL_HOST_MAX];      /* each rank's host name */
  int gpus;                            /* rank 0's GPUs (0 when not asked for) */
  uint64_t gpu_memory;                 /* rank 0's GPU 0: free bytes */
  double pcie_bandwidth, pcie_latency; /* rank 0's GPU 0, host to device */
  /* Rank 0's GPU 0: host-to-device bytes/s of blocks of rows of each width, through the copy
   * path runs take (real_gpu_measure_copy_rates); the simulator's copy_row_rates. 0: none. */
  int copy_widths;
  uint64_t copy_width[NW_REAL_COPY_WIDTHS];
  double copy_rate[NW_REAL_COPY_WIDTHS];
  /* Whether the host memory of the link's and the copy rates' measurements was registered (1)
   * or stayed pageable (0: registration refused): an H200's calibration once gave 12 GB/s where
   * a separate measurement gave 54, and the log must tell such cases apart. */
  int link_pinned, copy_pinned;
} nw_real_machine;

/* The cores this rank may run on: its affinity mask, not every core of the machine, since
 * mpirun binds each rank (Open MPI binds to one core when it starts 2 or fewer ranks;
 * `--bind-to none` gives a rank the whole node). */
int nw_real_usable_cores(void);

/* Ranks a and b of MPI_COMM_WORLD ping-pong (the others return at once): 1 byte for the
 * latency (best of 20 round trips, halved), NW_REAL_PING_PONG_BYTES and half of it for the
 * bandwidth (after one unmeasured large message, best of 3 of each: the half's bytes over the
 * difference of the two times; 0: too fast to tell). buf holds NW_REAL_PING_PONG_BYTES. The
 * two participants get the result, the others zeros. */
#define NW_REAL_PING_PONG_BYTES (4 << 20)
void nw_real_ping_pong(int rank, int a, int b, char *buf, double *latency, double *bandwidth);

/* Ranks a and b (the others return 0 at once): how many bytes of a large message already under
 * way from a to b a small message sent after it waits behind, as the real backend's transport
 * is set up (real_net_before_mpi_init): a sends NW_REAL_PING_PONG_BYTES, and when half of them
 * should have gone at `bandwidth` it sends 64 bytes that b answers at once; the answer's delay
 * beyond two latencies, times the bandwidth. The median of 3; 0 where the bandwidth is 0. buf
 * holds NW_REAL_PING_PONG_BYTES. Both participants get the result. */
double nw_real_behind_bytes(int rank, int a, int b, char *buf, double latency, double bandwidth);

/* Ranks a and b (the others return 0 at once): the largest message a sends to b before b's MPI
 * progress sees it, in the real backend's transport: Open MPI sends a message up to its eager
 * limit at once (64 KiB over TCP, 4 KiB through shared memory) and a larger one by rendezvous,
 * whose bulk moves only after the receiver has matched its first fragment and answered
 * (docs/experiments/network-validation.md). Found by sending while b stays out of MPI for
 * 20 ms: sizes doubling from 1 KiB to the first that a cannot finish meanwhile, then six
 * halvings between the last two. 0: even 1 KiB waits for b. buf holds NW_REAL_PING_PONG_BYTES.
 * Both participants get the result. */
double nw_real_eager_bytes(int rank, int a, int b, char *buf);

/* Where a rank's event loop runs in the layout cfg gives a rank of `cores` cores and `gpus`
 * GPUs: with no core of its own (the compute threads take them all) *weight is its share of a
 * core against one compute thread's (real_loop_weight, by the nice value the last run on this
 * rank gave its compute threads) and *spin_s how long it polls after an event before it sleeps
 * (real_spin_budget); with a core of its own both are 0. The simulator's rt_loop_weight and
 * rt_spin (backends/simgrid/sim_costs.h). */
void nw_real_loop_layout(const nw_run_config *cfg, int cores, int gpus, double *weight,
                         double *spin_s);

/* Measures the machine (want_gpus: also rank 0's GPUs). NW_ERR_NOMEM with a reason in why.
 * nw_real_machine_free releases what it allocated. */
nw_status nw_real_measure_machine(int want_gpus, nw_real_machine *m, char *why, size_t why_len);
void nw_real_machine_free(nw_real_machine *m);

#endif
