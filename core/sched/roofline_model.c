/* roofline_model.c: equations (5)-(9) of the PRS paper (roofline_model.h). */
#include "roofline_model.h"

#include <math.h>

/* Seconds per byte of a bandwidth; 0 for an unknown (unlimited) one. */
static double per_byte(double bw) {
  return bw > 0 ? 1.0 / bw : 0.0;
}

/* The GPU's data path, DRAM then PCIe: seconds per byte (equation 7's right-hand side / S);
 * for data resident on the GPU, its own memory (the paper's iterative applications). */
static double gpu_per_byte(const nw_roofline_machine *m) {
  if (m->gpu_resident)
    return per_byte(m->gpu_mem_bw);
  return per_byte(m->dram_bw) + per_byte(m->pcie_bw);
}

double nw_roofline_cpu_rate(const nw_roofline_machine *m, double a) {
  if (a <= 0 || m->dram_bw <= 0)
    return m->cpu_peak;
  return fmin(m->cpu_peak, a * m->dram_bw);
}

double nw_roofline_gpu_rate(const nw_roofline_machine *m, double a) {
  double s = gpu_per_byte(m);
  if (a <= 0 || s <= 0)
    return m->gpu_peak;
  return fmin(m->gpu_peak, a / s);
}

nw_roofline_split nw_roofline_split_work(const nw_roofline_machine *m, double a_cpu, double a_gpu) {
  nw_roofline_split r;
  r.cpu_rate = m->cpu_peak > 0 ? nw_roofline_cpu_rate(m, a_cpu) : 0.0;
  r.gpu_rate = m->gpu_peak > 0 ? nw_roofline_gpu_rate(m, a_gpu) : 0.0;
  r.ridge_cpu = m->dram_bw > 0 ? m->cpu_peak / m->dram_bw : INFINITY;
  double s = gpu_per_byte(m);
  r.ridge_gpu = s > 0 ? m->gpu_peak * s : INFINITY;
  /* Which line of equation (8): each side is bandwidth-bound below its ridge point. With the
   * usual A_cr < A_gr this is the paper's three ranges of A. */
  int cpu_bound = m->dram_bw > 0 && a_cpu > 0 && a_cpu < r.ridge_cpu;
  int gpu_bound = s > 0 && a_gpu > 0 && a_gpu < r.ridge_gpu;
  r.range = 3 - cpu_bound - gpu_bound;
  double total = r.cpu_rate + r.gpu_rate;
  r.p = total > 0 ? r.cpu_rate / total : 1.0; /* equation (5) */
  /* Equation (9) per byte of a block: transfer time over transfer plus compute time. */
  double compute = a_gpu > 0 && m->gpu_peak > 0 ? a_gpu / m->gpu_peak : 0.0;
  r.overlap = compute > 0 ? s / (s + compute) : NAN; /* no intensity: no block to weigh */
  return r;
}
