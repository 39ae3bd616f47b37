/* cholesky.h: tiled Cholesky factorisation A = L L^T of a symmetric positive definite matrix,
 * written as StarPU's examples write it (Augonnet, Thibault, Namyst, Wacrenier, "StarPU: a
 * Unified Platform for Task Scheduling on Heterogeneous Multicore Architectures"; StarPU's
 * examples/cholesky/cholesky_implicit.c): one task per tile operation, each of one subtask,
 * the dependencies left to the runtime, which derives them from the tiles the tasks share.
 *
 * --n is the matrix side, --block the tile side b (nb = n / b tiles per side). Only the lower
 * triangle's tiles exist, each an address space of its own (b x b floats, row-major, pitch one
 * tile row). Step k runs POTRF(k) on tile (k,k), TRSM(k,i) on the tiles (i,k) below it, then
 * SYRK(k,i) on (i,i) and GEMM(k,i,j) on (i,j), i > j > k: the trailing update. With
 * --app-param variant=lu the same layout, with every tile, runs a tiled LU without pivoting
 * (cholesky_lu_kind.c). docs/apps/cholesky.md has the task graphs, the priorities and the check.
 */
#ifndef NW_APP_CHOLESKY_H
#define NW_APP_CHOLESKY_H

#include "narwhal_app.h"

/* One task's configuration, in its conf bytes: the tile operation's step k and the tile (i, j)
 * it updates (POTRF and GETRF: i = j = k; Cholesky's TRSM and LU's column TRSM: j = k; SYRK:
 * j = i; LU's row TRSM: i = k), the tile side, the tiles per side, and whether the kinds'
 * priority callback gives StarPU's critical-path priorities (1) or all 0 (0,
 * `--app-param prio=off`). */
typedef struct chol_conf {
  uint64_t k, i, j, b, nb;
  uint64_t prio;
} chol_conf;

/* Bound spaces of each kind, in binding order (each a whole tile). */
enum { CHOL_POTRF_A = 0 };                                    /* (k,k) rw */
enum { CHOL_TRSM_L = 0, CHOL_TRSM_A = 1 };                    /* (k,k) r, (i,k) rw */
enum { CHOL_SYRK_L = 0, CHOL_SYRK_A = 1 };                    /* (i,k) r, (i,i) rw */
enum { CHOL_GEMM_LI = 0, CHOL_GEMM_LJ = 1, CHOL_GEMM_A = 2 }; /* (i,k) r, (j,k) r, (i,j) rw */
/* The LU variant's: GETRF (k,k) rw; the row TRSM (k,k) r, (k,j) rw; the column TRSM (k,k) r,
 * (i,k) rw; GEMM (i,k) r, (k,j) r, (i,j) rw. */
enum { CHOL_LU_GETRF_A = 0 };
enum { CHOL_LU_TRSM_D = 0, CHOL_LU_TRSM_A = 1 };
enum { CHOL_LU_GEMM_L = 0, CHOL_LU_GEMM_U = 1, CHOL_LU_GEMM_A = 2 };

extern const nw_task_kind nw_chol_potrf_kind, nw_chol_trsm_kind, nw_chol_syrk_kind,
    nw_chol_gemm_kind;
extern const nw_task_kind nw_chol_lu_getrf_kind, nw_chol_lu_trsm_row_kind, nw_chol_lu_trsm_col_kind,
    nw_chol_lu_gemm_kind;
extern const nw_app nw_cholesky_app;

/* StarPU's critical-path priority of a task, 2 nb - 2k less each of i and j that lies past k
 * (cholesky_kind.c says why), or 0 when conf->prio is 0. */
int chol_priority(const chol_conf *c);

/* The tile operations on host memory (cholesky_tile.c), each tile at a pointer with leading
 * dimension ld floats (b for a CPU view, the GPU view's pitch / 4 for the modelled GPU):
 *   potrf: a := L with L L^T = a (lower triangle; the strict upper one is left as it was);
 *          returns LAPACK's info (0, or the column where a is not positive definite);
 *   trsm:  a := a L^-T;   syrk: a := a - l l^T (lower triangle);   gemm: a := a - li lj^T.
 * The LU variant's, in Crout's form (U has the unit diagonal, so that a GPU's column-major
 * LU of the transposed tile gives the same factors, cholesky_cuda.c):
 *   getrf: a := L and U, L on and below the diagonal, U above it; returns 0, or 1 + the
 *          column of the first zero pivot;
 *   trsm_row: a := L^-1 a (L of the diagonal tile d);   trsm_col: a := a U^-1 (U of d);
 *   lu_gemm: a := a - l u. */
int chol_tile_potrf(int b, float *a, int ld);
void chol_tile_trsm(int b, const float *l, int ldl, float *a, int lda);
void chol_tile_syrk(int b, const float *l, int ldl, float *a, int lda);
void chol_tile_gemm(int b, const float *li, int ldi, const float *lj, int ldj, float *a, int lda);
int chol_tile_getrf(int b, float *a, int ld);
void chol_tile_trsm_row(int b, const float *d, int ldd, float *a, int lda);
void chol_tile_trsm_col(int b, const float *d, int ldd, float *a, int lda);
void chol_tile_lu_gemm(int b, const float *l, int ldl, const float *u, int ldu, float *a, int lda);

/* The same on a CUDA GPU (cholesky_cuda.c: cuSOLVER and cuBLAS; cholesky_nocuda.c in a build
 * without CUDA), on device pointers, issued on a cudaStream_t and finished on return. */
void nw_chol_cuda_potrf(int b, float *a, int ld, void *stream);
void nw_chol_cuda_trsm(int b, const float *l, int ldl, float *a, int lda, void *stream);
void nw_chol_cuda_syrk(int b, const float *l, int ldl, float *a, int lda, void *stream);
void nw_chol_cuda_gemm(int b, const float *li, int ldi, const float *lj, int ldj, float *a, int lda,
                       void *stream);
void nw_chol_cuda_getrf(int b, float *a, int ld, void *stream);
void nw_chol_cuda_trsm_row(int b, const float *d, int ldd, float *a, int lda, void *stream);
void nw_chol_cuda_trsm_col(int b, const float *d, int ldd, float *a, int lda, void *stream);
void nw_chol_cuda_lu_gemm(int b, const float *l, int ldl, const float *u, int ldu, float *a,
                          int lda, void *stream);
/* Creates the calling thread's cuBLAS and cuSOLVER handles (slow to start: not in a timed run). */
void nw_chol_cuda_init(void);

#endif
