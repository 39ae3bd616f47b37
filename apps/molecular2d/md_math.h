/* md_math.h: Molecular2D's arithmetic, one definition for the host code (kernels, their GPU
 * emulation, the reference) and the CUDA kernels (md_cuda.cu).
 *
 * Force law. A soft repulsion of cutoff 1 (the cell side), in r^2 only, so no square root:
 *   a_i = k sum_j w(r_ij^2) (p_i - p_j),   w(r^2) = (1 - r^2)^2 for r^2 < 1, 0 beyond,
 * the force of the pair potential U(r) = (k / 6) (1 - r^2)^3 on unit masses. Finite at r = 0
 * (no singularity for particles drawn close together), vanishing smoothly at the cutoff; a
 * pair's force is at most 0.29 k, and with k = 1 / ppc an acceleration at most 2.6 whatever
 * the density. Every pair of the neighbourhood is evaluated (w is clamped at 0 rather than the
 * pair skipped), the particle itself included (p_i - p_i = 0 adds +0): 11 operations a pair.
 *
 * Integration: semi-implicit Euler, v += a dt, then p += v dt; a particle past its cell's wall
 * (0 or 1 in its coordinates relative to the cell) reflects (p := -p or 2 - p, v := -v), and is
 * clamped to the wall should one step carry it further than the cell (never at the default
 * dt and speeds). So no particle leaves its cell: the simplification that keeps every
 * subtask's sizes fixed (molecular2d.h).
 *
 * Bit-exact on every device. Every operation is one IEEE single-precision operation rounded
 * to nearest, in a fixed order: on the host plain operators on float (x86-64 evaluates float in
 * float, FLT_EVAL_METHOD 0, and the files are compiled with -ffp-contract=off so no multiply
 * and add are fused: see CMakeLists.txt); in CUDA the _rn intrinsics, which nvcc never
 * contracts, with denormals kept (no fast math). Comparisons, negation and the clamp are
 * exact. A particle's acceleration sums its neighbour cells in the fixed order of md_hood and
 * each cell's particles in slot order, in one thread on every device: so the same bits on a
 * CPU, a modelled GPU and a CUDA GPU, and in the reference.
 */
#ifndef NW_APP_MD_MATH_H
#define NW_APP_MD_MATH_H

#include <stdint.h>

#ifdef __CUDACC__
#define MD_HD __host__ __device__
#else
#define MD_HD
#endif

/* One rounded operation each, never fused with a neighbour. */
#ifdef __CUDA_ARCH__
#define MD_ADD(a, b) __fadd_rn((a), (b))
#define MD_SUB(a, b) __fsub_rn((a), (b))
#define MD_MUL(a, b) __fmul_rn((a), (b))
#else
#define MD_ADD(a, b) ((a) + (b))
#define MD_SUB(a, b) ((a) - (b))
#define MD_MUL(a, b) ((a) * (b))
#endif

/* Flops counted (the cost model, md_force.c and md_integrate.c): per pair 2 subtractions for
 * the difference, 2 multiplications and an addition for r^2, a subtraction and a
 * multiplication for w, 2 multiplications and 2 additions into the sums; per particle and
 * neighbour cell the 2 subtractions shifting it into the cell's frame; per particle the 2
 * multiplications by k; per particle moved 2 multiplications and 2 additions for v and as many
 * for p (reflections, rare, left out). */
#define MD_FLOPS_PAIR 11
#define MD_FLOPS_SHIFT 2
#define MD_FLOPS_SCALE 2
#define MD_FLOPS_MOVE 8

/* One force subtask as the kernels see it: plain pointers, no views, so that the CUDA kernels
 * and the host code share it, and the batched CUDA kernel takes an array of them (its offset
 * array, the paper's Fig. 4). cell[k] holds the ppc (x, y) pairs of the neighbour at
 * (dx, dy) = (k % 3 - 1, k / 3 - 1) from the subtask's cell (so cell[4] is the cell itself),
 * NULL where the box ends. */
typedef struct md_hood {
  const float *cell[9];
  float *acc; /* the cell's ppc (ax, ay) pairs, written */
  uint64_t ppc;
  float k;
} md_hood;

/* One integrate subtask: the cell's accelerations, positions and velocities, ppc pairs each. */
typedef struct md_move {
  const float *acc;
  float *pos, *vel;
  uint64_t ppc;
  float dt;
} md_move;

/* Particle i's acceleration from its neighbourhood, written to h->acc. Neighbour k's
 * coordinates are relative to its own corner, which lies (dx, dy) from i's cell's: shifting i
 * into its frame once per cell (p_i - (dx, dy)) keeps the pair loop at 11 operations. */
static inline MD_HD void md_particle_accel(const md_hood *h, uint64_t i) {
  const float *own = h->cell[4];
  float xi = own[2 * i], yi = own[2 * i + 1], ax = 0.0f, ay = 0.0f;
  for (int k = 0; k < 9; k++) {
    const float *p = h->cell[k];
    if (!p)
      continue;
    float xs = MD_SUB(xi, (float)(k % 3 - 1)), ys = MD_SUB(yi, (float)(k / 3 - 1));
    for (uint64_t j = 0; j < h->ppc; j++) {
      float dx = MD_SUB(xs, p[2 * j]), dy = MD_SUB(ys, p[2 * j + 1]);
      float r2 = MD_ADD(MD_MUL(dx, dx), MD_MUL(dy, dy));
      float s = MD_SUB(1.0f, r2);
      s = s > 0.0f ? s : 0.0f;
      float w = MD_MUL(s, s);
      ax = MD_ADD(ax, MD_MUL(w, dx));
      ay = MD_ADD(ay, MD_MUL(w, dy));
    }
  }
  h->acc[2 * i] = MD_MUL(h->k, ax);
  h->acc[2 * i + 1] = MD_MUL(h->k, ay);
}

/* One coordinate after its step: off a wall (0 or 1) it reflects, its velocity turning. */
static inline MD_HD void md_reflect(float *p, float *v) {
  if (*p < 0.0f) {
    *p = -*p;
    *v = -*v;
  } else if (*p > 1.0f) {
    *p = MD_SUB(2.0f, *p);
    *v = -*v;
  }
  *p = *p < 0.0f ? 0.0f : *p > 1.0f ? 1.0f : *p; /* a step longer than the cell */
}

/* Particle i's step: v += a dt, p += v dt, then the walls. */
static inline MD_HD void md_particle_move(const md_move *m, uint64_t i) {
  for (int d = 0; d < 2; d++) {
    uint64_t q = 2 * i + (uint64_t)d;
    float v = MD_ADD(m->vel[q], MD_MUL(m->acc[q], m->dt));
    float p = MD_ADD(m->pos[q], MD_MUL(v, m->dt));
    md_reflect(&p, &v);
    m->pos[q] = p;
    m->vel[q] = v;
  }
}

#endif
