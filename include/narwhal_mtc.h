/* narwhal_mtc.h: the operations of the many-task GPU mode's resident worker kernel, and the
 * descriptor a task kind fills to run a subtask as one of them (`--gpu-mode many-task` on a
 * CUDA GPU; README, "Many-task GPU mode").
 *
 * GeMTC compiles its tasks' code into the worker kernel: a task names one of a fixed library of
 * "AppKernels" and carries its parameters (Krieder, Wozniak, Armstrong, Wilde, Katz, Grimmer,
 * Foster, Raicu, "GeMTC: GPU-enabled Many-Task Computing", section 3). Narwhal's worker kernel
 * (backends/real/real_mtc.cu) does the same: each warp runs one operation below on device
 * pointers into the GPU's memory, where the runtime staged the subtask's subscriptions. A kind
 * that wants the mode on hardware fills an nw_mtc_task from its views (nw_task_kind.mtc_task).
 * The simulator runs the same descriptor on its modelled GPU's host-side bytes (core/device/
 * mtc_ops.c), so a descriptor's mistakes show in a functional simulation too.
 *
 * Plain C, no Narwhal types: nvcc compiles it into the worker kernel, and the host's
 * arithmetic here is the device's, operation for operation (the MD step below).
 */
#ifndef NARWHAL_MTC_H
#define NARWHAL_MTC_H

#include <stdint.h>
#include <string.h>

/* The operations; the numbers are a public contract (they travel in descriptors). */
typedef enum nw_mtc_op {
  /* out[i] = in[0][i] + in[1][i] for i < count, uint64 elements, wrapping modulo 2^64:
   * GeMTC's trivial adder over a block. */
  NW_MTC_ADD_U64 = 1,
  /* MDLite's segment: `count` particles (1 to NW_MTC_MD_MAX, nw_mtc_particle) read at in[0],
   * moved `steps` steps (nw_mtc_md_pull, nw_mtc_md_move: the pulls in index order from the
   * positions at the step's start), written at out. out must not overlap in[0]. */
  NW_MTC_MDLITE = 2,
} nw_mtc_op;

#define NW_MTC_MD_MAX 32 /* particles an MDLite segment: one lane of its warp each */

/* One subtask as the worker kernel runs it. Pointers are into the GPU's memory (host memory
 * laid out as the GPU's in the simulator), from nw_gpu_view_at. */
typedef struct nw_mtc_task {
  uint32_t op;    /* an nw_mtc_op */
  uint32_t pad;   /* zero */
  uint64_t count; /* elements or particles */
  uint64_t steps; /* NW_MTC_MDLITE */
  const void *in[2];
  void *out;
} nw_mtc_task;

/* MDLite's particle: 16 bytes. */
typedef struct nw_mtc_particle {
  float x, y, vx, vy;
} nw_mtc_particle;

/* The MD step's arithmetic, the same on host and device: on the device through the _rn
 * intrinsics (never fused into a multiply-add), on the host in plain float (built with
 * -ffp-contract=off). A toy softened attraction f = d / (|d|^2 + soft)^2, small enough to stay
 * finite for any step count. */
#if defined(__CUDA_ARCH__)
#define NW_MTC_FN __device__ static inline
#define NW_MTC_ADD(a, b) __fadd_rn((a), (b))
#define NW_MTC_SUB(a, b) __fsub_rn((a), (b))
#define NW_MTC_MUL(a, b) __fmul_rn((a), (b))
#define NW_MTC_DIV(a, b) __fdiv_rn((a), (b))
#else
#if defined(__CUDACC__)
#define NW_MTC_FN __host__ static inline
#else
#define NW_MTC_FN static inline
#endif
#define NW_MTC_ADD(a, b) ((a) + (b))
#define NW_MTC_SUB(a, b) ((a) - (b))
#define NW_MTC_MUL(a, b) ((a) * (b))
#define NW_MTC_DIV(a, b) ((a) / (b))
#endif

#define NW_MTC_MD_SOFT 0.01f
#define NW_MTC_MD_DT 0.001f

/* Adds particle j's pull on particle i to (*fx, *fy). */
NW_MTC_FN void nw_mtc_md_pull(float xi, float yi, float xj, float yj, float *fx, float *fy) {
  float dx = NW_MTC_SUB(xj, xi), dy = NW_MTC_SUB(yj, yi);
  float r2 = NW_MTC_ADD(NW_MTC_ADD(NW_MTC_MUL(dx, dx), NW_MTC_MUL(dy, dy)), NW_MTC_MD_SOFT);
  float inv = NW_MTC_DIV(1.0f, r2);
  float w = NW_MTC_MUL(inv, inv);
  *fx = NW_MTC_ADD(*fx, NW_MTC_MUL(dx, w));
  *fy = NW_MTC_ADD(*fy, NW_MTC_MUL(dy, w));
}

/* Moves one particle by one step under force (fx, fy). */
NW_MTC_FN void nw_mtc_md_move(float *x, float *y, float *vx, float *vy, float fx, float fy) {
  *vx = NW_MTC_ADD(*vx, NW_MTC_MUL(fx, NW_MTC_MD_DT));
  *vy = NW_MTC_ADD(*vy, NW_MTC_MUL(fy, NW_MTC_MD_DT));
  *x = NW_MTC_ADD(*x, NW_MTC_MUL(*vx, NW_MTC_MD_DT));
  *y = NW_MTC_ADD(*y, NW_MTC_MUL(*vy, NW_MTC_MD_DT));
}

/* NW_MTC_MDLITE on host memory: each step's pulls from the positions at its start, particle
 * j's pull on i added for j = 0, 1, ... skipping i, as the worker's shuffles read them. What
 * the app's CPU kernel and the simulator's emulation of the worker run. */
#if !defined(__CUDA_ARCH__)
static inline void nw_mtc_md_segment_host(const nw_mtc_particle *in, nw_mtc_particle *out,
                                          uint64_t n, uint64_t steps) {
  nw_mtc_particle p[NW_MTC_MD_MAX];
  float x[NW_MTC_MD_MAX], y[NW_MTC_MD_MAX];
  memcpy(p, in, n * sizeof *p);
  for (uint64_t s = 0; s < steps; s++) {
    for (uint64_t i = 0; i < n; i++) {
      x[i] = p[i].x;
      y[i] = p[i].y;
    }
    for (uint64_t i = 0; i < n; i++) {
      float fx = 0.0f, fy = 0.0f;
      for (uint64_t j = 0; j < n; j++)
        if (j != i)
          nw_mtc_md_pull(x[i], y[i], x[j], y[j], &fx, &fy);
      nw_mtc_md_move(&p[i].x, &p[i].y, &p[i].vx, &p[i].vy, fx, fy);
    }
  }
  memcpy(out, p, n * sizeof *p);
}
#endif

#endif
