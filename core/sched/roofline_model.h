/* roofline_model.h: the analytic CPU/GPU work split of the PRS paper, as pure functions.
 *
 * Hui Li, Geoffrey Fox, Gregor von Laszewski, Arun Chauhan, "Co-processing SPMD Computation on
 * CPUs and GPUs Cluster" (IEEE Cluster 2013), section III.B.3. A node's CPUs reach
 * F_c = min(P_c, A_c * B_dram) flop/s on a kernel of arithmetic intensity A_c (flops per byte),
 * equation (6); its GPUs, whose data crosses DRAM and then PCIe, F_g = min(P_g, A_g / (1/B_dram
 * + 1/B_pcie)), equation (7). Both finish together when the CPUs get the fraction
 * p = F_c / (F_c + F_g) of the work, equation (5); written out per range of A, that is
 * equation (8).
 *
 * Equation (8) as printed multiplies A_g by (1/B_pcie + 1/B_dram) where equation (7) divides
 * by it (the printed form is not even dimensionally a rate); this file follows (5)-(7), from
 * which the paper derives (8). Then p is continuous at both ridge points, A_cr = P_c / B_dram
 * and A_gr = P_g * (1/B_dram + 1/B_pcie), which is what "ridge point" means in Fig. 3.
 *
 * Table 5's values cannot all come from one machine otherwise: with GEMV (A = 2) below the
 * CPU's ridge at 97.3% and C-means (A = 500) above the GPU's at 11.2%, B_dram would have to be
 * both below P_c / 2 and above 0.57 P_c (tests/unit/test_roofline_model.c).
 *
 * With data resident on the GPUs (gpu_resident), equation (7)'s data path is their own memory.
 *
 * A bandwidth of 0 means unknown and is taken as unlimited (the kernel is then compute-bound
 * on that side); so is an intensity of 0 or less (a kind without a bytes model).
 */
#ifndef NW_ROOFLINE_MODEL_H
#define NW_ROOFLINE_MODEL_H

typedef struct nw_roofline_machine {
  double cpu_peak; /* P_c: the node's CPU cores together, flop/s */
  double gpu_peak; /* P_g: the node's GPUs together, flop/s */
  double dram_bw;  /* B_dram: host memory, bytes/s (0: unknown, unlimited) */
  double pcie_bw;  /* B_pcie: host to GPU, bytes/s (0: unknown, unlimited) */
  /* The GPUs' data is already in their memory, so it crosses neither host memory nor PCIe: the
   * paper's iterative applications (section IV.C: "the average arithmetic intensity of C-means
   * and GMM depend on the bandwidth of DRAM and peak performance of GPU, rather than bandwidth
   * of PCI-E bus", their loop-invariant data staying on the GPU). Equation (7) then has the
   * GPUs stream their own memory: F_g = min(P_g, A_g * gpu_mem_bw). The paper's "DRAM" there is
   * read as the GPU's (GDDR5), where resident data is. */
  int gpu_resident;
  double gpu_mem_bw; /* the GPUs' own memory together, bytes/s (0: unknown, unlimited) */
} nw_roofline_machine;

typedef struct nw_roofline_split {
  double p;         /* the CPUs' fraction of the work, 0 to 1 */
  int range;        /* which line of equation (8): 1 (A < A_cr), 2, 3 (A_gr <= A) */
  double cpu_rate;  /* F_c, flop/s */
  double gpu_rate;  /* F_g, flop/s */
  double ridge_cpu; /* A_cr, flops per byte (+inf when B_dram is unknown) */
  double ridge_gpu; /* A_gr (+inf when both bandwidths are unknown) */
  /* Equation (9): the share of a GPU block's time spent moving its data rather than computing
   * (the block size cancels: the data and the work of a block grow together at fixed A); NaN
   * without a GPU intensity. */
  double overlap;
} nw_roofline_split;

/* Equation (6): the CPUs' rate on a kernel of intensity a. */
double nw_roofline_cpu_rate(const nw_roofline_machine *m, double a);
/* Equation (7): the GPUs' rate, their data crossing DRAM then PCIe. */
double nw_roofline_gpu_rate(const nw_roofline_machine *m, double a);
/* Equations (5)-(9) for intensities a_cpu and a_gpu (the kind's flops per byte on each; the
 * paper's A_c and A_g). A machine without GPUs gives p = 1, without CPUs p = 0. */
nw_roofline_split nw_roofline_split_work(const nw_roofline_machine *m, double a_cpu, double a_gpu);

#endif
