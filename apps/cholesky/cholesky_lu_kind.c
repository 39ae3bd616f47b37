/* cholesky_lu_kind.c: the LU variant's four task kinds (`--app-param variant=lu`): GETRF of a
 * diagonal tile, the row panel's TRSM (k,j) := L_kk^-1 (k,j), the column panel's TRSM
 * (i,k) := (i,k) U_kk^-1, and the trailing GEMM (i,j) -= (i,k) (k,j), without pivoting.
 * Subscriptions, kernels, cost model and priorities, as the Cholesky's (cholesky_kind.c), on
 * every tile of the matrix rather than the lower triangle's.
 */
#include <stdio.h>

#include "cholesky_views.h"

static int priority(const nw_task_info *t, uint64_t subtask) {
  (void)subtask;
  return chol_priority(t->conf);
}

/* A zero pivot means a wrong input or a wrong earlier tile (the input's symmetric part is
 * positive definite, so no pivot of the exact factorisation is 0): said here, failed by the
 * check after the run. */
static void getrf_info(const nw_task_info *t, int info) {
  if (info != 0) {
    const chol_conf *c = t->conf;
    fprintf(stderr, "narwhal: cholesky: lu: tile (%llu, %llu) has a zero pivot (column %d)\n",
            (unsigned long long)c->k, (unsigned long long)c->k, info - 1);
  }
}

/* TRSMs read the diagonal tile and update one: three tiles moved. */
static double three_tiles(const nw_task_info *t, uint64_t subtask, nw_device_kind kind) {
  (void)subtask, (void)kind;
  return chol_tiles_bytes(t, 3);
}

static nw_status trsm_subscribe(nw_subscriber *s, const nw_task_info *t, uint64_t subtask) {
  (void)subtask;
  nw_status st = chol_sub_tile(s, CHOL_LU_TRSM_D, NW_READ_ONLY, t);
  return st == NW_OK ? chol_sub_tile(s, CHOL_LU_TRSM_A, NW_READ_WRITE, t) : st;
}

static double trsm_flops(const nw_task_info *t, uint64_t subtask, nw_device_kind kind) {
  (void)subtask, (void)kind;
  return chol_cube(t);
}

/* ---- GETRF(k): tile (k,k) := L and U ---- */

static nw_status getrf_subscribe(nw_subscriber *s, const nw_task_info *t, uint64_t subtask) {
  (void)subtask;
  return chol_sub_tile(s, CHOL_LU_GETRF_A, NW_READ_WRITE, t);
}

static void getrf_cpu(const nw_task_info *t, uint64_t subtask, const nw_view *v) {
  (void)subtask;
  getrf_info(t, chol_tile_getrf(chol_side(t), chol_cpu_tile(v, CHOL_LU_GETRF_A), chol_side(t)));
}

static void getrf_emulated(const nw_task_info *t, uint64_t subtask, const nw_gpu_view *v) {
  (void)subtask;
  getrf_info(t, chol_tile_getrf(chol_side(t), chol_gpu_tile(v, CHOL_LU_GETRF_A),
                                chol_gpu_ld(v, CHOL_LU_GETRF_A)));
}

static void getrf_cuda(const nw_task_info *t, uint64_t subtask, const nw_gpu_view *v,
                       void *stream) {
  (void)subtask;
  nw_chol_cuda_getrf(chol_side(t), chol_gpu_tile(v, CHOL_LU_GETRF_A),
                     chol_gpu_ld(v, CHOL_LU_GETRF_A), stream);
}

static double getrf_flops(const nw_task_info *t, uint64_t subtask, nw_device_kind kind) {
  (void)subtask, (void)kind;
  return 2.0 * chol_cube(t) / 3.0;
}

static double getrf_bytes(const nw_task_info *t, uint64_t subtask, nw_device_kind kind) {
  (void)subtask, (void)kind;
  return chol_tiles_bytes(t, 2);
}

/* ---- row TRSM: tile (k,j) := L_kk^-1 (k,j) ---- */

static void row_cpu(const nw_task_info *t, uint64_t subtask, const nw_view *v) {
  (void)subtask;
  int b = chol_side(t);
  chol_tile_trsm_row(b, chol_cpu_tile(v, CHOL_LU_TRSM_D), b, chol_cpu_tile(v, CHOL_LU_TRSM_A), b);
}

static void row_emulated(const nw_task_info *t, uint64_t subtask, const nw_gpu_view *v) {
  (void)subtask;
  chol_tile_trsm_row(chol_side(t), chol_gpu_tile(v, CHOL_LU_TRSM_D), chol_gpu_ld(v, CHOL_LU_TRSM_D),
                     chol_gpu_tile(v, CHOL_LU_TRSM_A), chol_gpu_ld(v, CHOL_LU_TRSM_A));
}

static void row_cuda(const nw_task_info *t, uint64_t subtask, const nw_gpu_view *v, void *stream) {
  (void)subtask;
  nw_chol_cuda_trsm_row(chol_side(t), chol_gpu_tile(v, CHOL_LU_TRSM_D),
                        chol_gpu_ld(v, CHOL_LU_TRSM_D), chol_gpu_tile(v, CHOL_LU_TRSM_A),
                        chol_gpu_ld(v, CHOL_LU_TRSM_A), stream);
}

/* ---- column TRSM: tile (i,k) := (i,k) U_kk^-1 ---- */

static void col_cpu(const nw_task_info *t, uint64_t subtask, const nw_view *v) {
  (void)subtask;
  int b = chol_side(t);
  chol_tile_trsm_col(b, chol_cpu_tile(v, CHOL_LU_TRSM_D), b, chol_cpu_tile(v, CHOL_LU_TRSM_A), b);
}

static void col_emulated(const nw_task_info *t, uint64_t subtask, const nw_gpu_view *v) {
  (void)subtask;
  chol_tile_trsm_col(chol_side(t), chol_gpu_tile(v, CHOL_LU_TRSM_D), chol_gpu_ld(v, CHOL_LU_TRSM_D),
                     chol_gpu_tile(v, CHOL_LU_TRSM_A), chol_gpu_ld(v, CHOL_LU_TRSM_A));
}

static void col_cuda(const nw_task_info *t, uint64_t subtask, const nw_gpu_view *v, void *stream) {
  (void)subtask;
  nw_chol_cuda_trsm_col(chol_side(t), chol_gpu_tile(v, CHOL_LU_TRSM_D),
                        chol_gpu_ld(v, CHOL_LU_TRSM_D), chol_gpu_tile(v, CHOL_LU_TRSM_A),
                        chol_gpu_ld(v, CHOL_LU_TRSM_A), stream);
}

/* ---- GEMM(k,i,j): tile (i,j) -= (i,k) (k,j) ---- */

static nw_status gemm_subscribe(nw_subscriber *s, const nw_task_info *t, uint64_t subtask) {
  (void)subtask;
  nw_status st = chol_sub_tile(s, CHOL_LU_GEMM_L, NW_READ_ONLY, t);
  if (st == NW_OK)
    st = chol_sub_tile(s, CHOL_LU_GEMM_U, NW_READ_ONLY, t);
  return st == NW_OK ? chol_sub_tile(s, CHOL_LU_GEMM_A, NW_READ_WRITE, t) : st;
}

static void gemm_cpu(const nw_task_info *t, uint64_t subtask, const nw_view *v) {
  (void)subtask;
  int b = chol_side(t);
  chol_tile_lu_gemm(b, chol_cpu_tile(v, CHOL_LU_GEMM_L), b, chol_cpu_tile(v, CHOL_LU_GEMM_U), b,
                    chol_cpu_tile(v, CHOL_LU_GEMM_A), b);
}

static void gemm_emulated(const nw_task_info *t, uint64_t subtask, const nw_gpu_view *v) {
  (void)subtask;
  chol_tile_lu_gemm(chol_side(t), chol_gpu_tile(v, CHOL_LU_GEMM_L), chol_gpu_ld(v, CHOL_LU_GEMM_L),
                    chol_gpu_tile(v, CHOL_LU_GEMM_U), chol_gpu_ld(v, CHOL_LU_GEMM_U),
                    chol_gpu_tile(v, CHOL_LU_GEMM_A), chol_gpu_ld(v, CHOL_LU_GEMM_A));
}

static void gemm_cuda(const nw_task_info *t, uint64_t subtask, const nw_gpu_view *v, void *stream) {
  (void)subtask;
  nw_chol_cuda_lu_gemm(chol_side(t), chol_gpu_tile(v, CHOL_LU_GEMM_L),
                       chol_gpu_ld(v, CHOL_LU_GEMM_L), chol_gpu_tile(v, CHOL_LU_GEMM_U),
                       chol_gpu_ld(v, CHOL_LU_GEMM_U), chol_gpu_tile(v, CHOL_LU_GEMM_A),
                       chol_gpu_ld(v, CHOL_LU_GEMM_A), stream);
}

static double gemm_flops(const nw_task_info *t, uint64_t subtask, nw_device_kind kind) {
  (void)subtask, (void)kind;
  return 2.0 * chol_cube(t);
}

static double gemm_bytes(const nw_task_info *t, uint64_t subtask, nw_device_kind kind) {
  (void)subtask, (void)kind;
  return chol_tiles_bytes(t, 4);
}

static void lu_cuda_init(void) {
  nw_chol_cuda_init();
}

const nw_task_kind nw_chol_lu_getrf_kind = {
    .name = "chol-lu-getrf",
    .subscribe = getrf_subscribe,
    .cpu_kernel = getrf_cpu,
    .flops = getrf_flops,
    .cuda_kernel = getrf_cuda,
    .gpu_emulated_kernel = getrf_emulated,
    .cuda_thread_init = lu_cuda_init,
    .priority = priority,
    .bytes = getrf_bytes,
};

const nw_task_kind nw_chol_lu_trsm_row_kind = {
    .name = "chol-lu-trsm-row",
    .subscribe = trsm_subscribe,
    .cpu_kernel = row_cpu,
    .flops = trsm_flops,
    .cuda_kernel = row_cuda,
    .gpu_emulated_kernel = row_emulated,
    .cuda_thread_init = lu_cuda_init,
    .priority = priority,
    .bytes = three_tiles,
};

const nw_task_kind nw_chol_lu_trsm_col_kind = {
    .name = "chol-lu-trsm-col",
    .subscribe = trsm_subscribe,
    .cpu_kernel = col_cpu,
    .flops = trsm_flops,
    .cuda_kernel = col_cuda,
    .gpu_emulated_kernel = col_emulated,
    .cuda_thread_init = lu_cuda_init,
    .priority = priority,
    .bytes = three_tiles,
};

const nw_task_kind nw_chol_lu_gemm_kind = {
    .name = "chol-lu-gemm",
    .subscribe = gemm_subscribe,
    .cpu_kernel = gemm_cpu,
    .flops = gemm_flops,
    .cuda_kernel = gemm_cuda,
    .gpu_emulated_kernel = gemm_emulated,
    .cuda_thread_init = lu_cuda_init,
    .priority = priority,
    .bytes = gemm_bytes,
};
