/* mdlite_math.h: the arithmetic of MDLite's segment, shared by the worker kernel (one particle
 * per lane) and the host's reference, so that both round every operation the same way: on the
 * device through the _rn intrinsics (never fused into an FMA), on the host in plain float
 * (built with -ffp-contract=off).
 *
 * A step: every particle's force from all the others (in index order), from the positions at
 * the start of the step; then v += f dt and x += v dt. A toy softened attraction
 * f = d / (|d|^2 + soft)^2, small enough to stay finite for any step count.
 */
#ifndef NW_APP_MDLITE_MATH_H
#define NW_APP_MDLITE_MATH_H

#if defined(__CUDA_ARCH__)
#define MTC_MD_FN __device__ static inline
#define MTC_ADD(a, b) __fadd_rn((a), (b))
#define MTC_SUB(a, b) __fsub_rn((a), (b))
#define MTC_MUL(a, b) __fmul_rn((a), (b))
#define MTC_DIV(a, b) __fdiv_rn((a), (b))
#else
#if defined(__CUDACC__)
#define MTC_MD_FN __host__ static inline
#else
#define MTC_MD_FN static inline
#endif
#define MTC_ADD(a, b) ((a) + (b))
#define MTC_SUB(a, b) ((a) - (b))
#define MTC_MUL(a, b) ((a) * (b))
#define MTC_DIV(a, b) ((a) / (b))
#endif

#define MTC_MD_SOFT 0.01f
#define MTC_MD_DT 0.001f

/* Adds particle j's pull on particle i to (*fx, *fy). */
MTC_MD_FN void mtc_md_pull(float xi, float yi, float xj, float yj, float *fx, float *fy) {
  float dx = MTC_SUB(xj, xi), dy = MTC_SUB(yj, yi);
  float r2 = MTC_ADD(MTC_ADD(MTC_MUL(dx, dx), MTC_MUL(dy, dy)), MTC_MD_SOFT);
  float inv = MTC_DIV(1.0f, r2);
  float w = MTC_MUL(inv, inv);
  *fx = MTC_ADD(*fx, MTC_MUL(dx, w));
  *fy = MTC_ADD(*fy, MTC_MUL(dy, w));
}

/* Moves one particle by one step under force (fx, fy). */
MTC_MD_FN void mtc_md_move(float *x, float *y, float *vx, float *vy, float fx, float fy) {
  *vx = MTC_ADD(*vx, MTC_MUL(fx, MTC_MD_DT));
  *vy = MTC_ADD(*vy, MTC_MUL(fy, MTC_MD_DT));
  *x = MTC_ADD(*x, MTC_MUL(*vx, MTC_MD_DT));
  *y = MTC_ADD(*y, MTC_MUL(*vy, MTC_MD_DT));
}

#endif
