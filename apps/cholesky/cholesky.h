/* cholesky.h: tiled Cholesky factorisation A = L L^T of a symmetric positive definite matrix,
 * written as StarPU's examples write it (Augonnet, Thibault, Namyst, Wacrenier, "StarPU: a
 * Unified Platform for Task Scheduling on Heterogeneous Multicore Architectures"; StarPU's
 * examples/cholesky/cholesky_implicit.c): one task per tile operation, each of one subtask,
 * the dependencies left to the runtime, which derives them from the tiles the tasks share.
 *
 * --n is the matrix side, --block the tile side b (nb = n / b tiles per side). Only the lower
 * triangle's tiles exist, each an address space of its own (b x b floats, row-major, pitch one
 * tile row). Step k runs POTRF(k) on tile (k,k), TRSM(k,i) on the tiles (i,k) below it, then
 * SYRK(k,i) on (i,i) and GEMM(k,i,j) on (i,j), i > j > k: the trailing update.
 * docs/apps/cholesky.md has the task graph, the priorities and the check.
 */
#ifndef NW_APP_CHOLESKY_H
#define NW_APP_CHOLESKY_H

#include "narwhal_app.h"

/* One task's configuration, in its conf bytes: the tile operation's step k and tile (i, j)
 * (POTRF: i = j = k; TRSM and SYRK: j = k for TRSM, j = i for SYRK), the tile side, the tiles
 * per side, and whether the kinds' priority callback gives StarPU's critical-path priorities
 * (1) or all 0 (0, `--app-param prio=off`). */
typedef struct chol_conf {
  uint64_t k, i, j, b, nb;
  uint64_t prio;
} chol_conf;

/* Bound spaces of each kind, in binding order (each a whole tile). */
enum { CHOL_POTRF_A = 0 };                                    /* (k,k) rw */
enum { CHOL_TRSM_L = 0, CHOL_TRSM_A = 1 };                    /* (k,k) r, (i,k) rw */
enum { CHOL_SYRK_L = 0, CHOL_SYRK_A = 1 };                    /* (i,k) r, (i,i) rw */
enum { CHOL_GEMM_LI = 0, CHOL_GEMM_LJ = 1, CHOL_GEMM_A = 2 }; /* (i,k) r, (j,k) r, (i,j) rw */

extern const nw_task_kind nw_chol_potrf_kind, nw_chol_trsm_kind, nw_chol_syrk_kind,
    nw_chol_gemm_kind;
extern const nw_app nw_cholesky_app;

/* StarPU's critical-path priority of a task (cholesky_kind.c says which formula for which
 * kind), or 0 when conf->prio is 0. */
int chol_priority(const chol_conf *c, int kind);
enum { CHOL_POTRF = 0, CHOL_TRSM, CHOL_SYRK, CHOL_GEMM };

/* The tile operations on host memory (cholesky_tile.c), each tile at a pointer with leading
 * dimension ld floats (b for a CPU view, the GPU view's pitch / 4 for the modelled GPU):
 *   potrf: a := L with L L^T = a (lower triangle; the strict upper one is left as it was);
 *          returns LAPACK's info (0, or the column where a is not positive definite);
 *   trsm:  a := a L^-T;   syrk: a := a - l l^T (lower triangle);   gemm: a := a - li lj^T. */
int chol_tile_potrf(int b, float *a, int ld);
void chol_tile_trsm(int b, const float *l, int ldl, float *a, int lda);
void chol_tile_syrk(int b, const float *l, int ldl, float *a, int lda);
void chol_tile_gemm(int b, const float *li, int ldi, const float *lj, int ldj, float *a, int lda);

/* The same on a CUDA GPU (cholesky_cuda.c: cuSOLVER and cuBLAS; cholesky_nocuda.c in a build
 * without CUDA), on device pointers, issued on a cudaStream_t and finished on return. */
void nw_chol_cuda_potrf(int b, float *a, int ld, void *stream);
void nw_chol_cuda_trsm(int b, const float *l, int ldl, float *a, int lda, void *stream);
void nw_chol_cuda_syrk(int b, const float *l, int ldl, float *a, int lda, void *stream);
void nw_chol_cuda_gemm(int b, const float *li, int ldi, const float *lj, int ldj, float *a, int lda,
                       void *stream);
/* Creates the calling thread's cuBLAS and cuSOLVER handles (slow to start: not in a timed run). */
void nw_chol_cuda_init(void);

#endif
