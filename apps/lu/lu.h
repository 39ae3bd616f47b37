/* lu.h: in-place block LU decomposition without pivoting (Beri et al., "Unicorn: a programming
 * model and runtime for hybrid CPU-GPU clusters", IEEE TPDS, section 5.1).
 *
 * --n is the matrix side, --block the block side b (nb = n / b blocks per side). For each
 * diagonal block k three tasks run, as in the paper: the diagonal block's
 * factorisation A_kk = L_kk U_kk (one subtask), the panels A_kj := L_kk^-1 A_kj and
 * A_ik := A_ik U_kk^-1 for i, j > k (one subtask per block), and the trailing update
 * A_ij -= A_ik A_kj for i, j > k (one subtask per block): 3 nb - 2 tasks in all. As in the
 * paper, the diagonal task of each step (kind lu-step) spawns the other two, nested in it, and
 * the driver submits the nb steps at once; --app-param nested=0 has the driver run the three
 * kinds itself, one task after the other (the same tasks and results).
 *
 * The matrix lives in one read-write space (row-major, pitch one matrix row) that every task
 * binds, each subtask read-writing its own block. The factors it needs travel in three more
 * spaces (lu_kind.c says why): D holds L_kk U_kk (b x b), R the row panel's blocks and C the
 * column panel's, each block j of R and C packed at rows [j b, (j + 1) b) (n x b, pitch b).
 */
#ifndef NW_APP_LU_H
#define NW_APP_LU_H

#include "narwhal_app.h"

typedef struct lu_conf {
  uint64_t n, b, k; /* matrix side, block side, the diagonal block of this step */
} lu_conf;

/* Bound spaces of each kind, in binding order. lu-step (the paper's task per diagonal block)
 * is lu-diag binding R and C too, for the tasks it nests. */
enum { LU_DIAG_M = 0, LU_DIAG_D = 1, LU_STEP_R = 2, LU_STEP_C = 3 };
enum { LU_PANEL_M = 0, LU_PANEL_D = 1, LU_PANEL_R = 2, LU_PANEL_C = 3 };
enum { LU_UPDATE_M = 0, LU_UPDATE_R = 1, LU_UPDATE_C = 2 };

extern const nw_task_kind nw_lu_diag_kind, nw_lu_panel_kind, nw_lu_update_kind, nw_lu_step_kind;
/* lu-step's spawn callback (lu_main.c): submits the step's panel and update tasks nested in
 * it. */
nw_status lu_step_spawn(nw_task *self, const nw_task_info *t);
extern const nw_app nw_lu_app;

/* The block operations (lu_block.c), the same calls for every kernel and the reference. A
 * block of the matrix is at `m` with leading dimension `ldm` floats; everything else is a
 * packed b x b block (leading dimension b). Each first copies the matrix block into a packed
 * buffer, so BLAS sees the same arguments however the caller holds the matrix. */
void lu_diag_op(int b, float *m, int ldm, float *d);                /* d := LU */
void lu_row_op(int b, float *m, int ldm, const float *d, float *r); /* L^-1 A */
void lu_col_op(int b, float *m, int ldm, const float *d, float *c); /* A U^-1 */
void lu_update_op(int b, float *m, int ldm, const float *c, const float *r, float *scratch);

/* The GPU's operations on device pointers, issued on a cudaStream_t and finished on return:
 * lu_cuda.c (cuBLAS) where the program is built with CUDA, lu_nocuda.c otherwise. `m` has
 * leading dimension ldm floats, the rest are packed b x b. The diagonal block is factorised on
 * the host (one sequential subtask per step; cuBLAS has no LU without pivoting). */
void nw_lu_cuda_diag(int b, float *m, int ldm, float *d, void *stream);
void nw_lu_cuda_row(int b, float *m, int ldm, const float *d, float *r, void *stream);
void nw_lu_cuda_col(int b, float *m, int ldm, const float *d, float *c, void *stream);
void nw_lu_cuda_update(int b, float *m, int ldm, const float *c, const float *r, void *stream);
/* count trailing updates m[j] -= c[j] r[j] in one launch, every block packed (leading
 * dimension b); the pointer arrays are host memory. */
void nw_lu_cuda_update_batch(int b, float *const *m, float *const *c, float *const *r, int count,
                             void *stream);
/* Creates the calling thread's cuBLAS handle (cuBLAS starts slowly: not inside a timed run). */
void nw_lu_cuda_init(void);

#endif
