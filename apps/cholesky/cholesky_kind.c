/* cholesky_kind.c: the Cholesky's four task kinds (POTRF, TRSM, SYRK, GEMM): subscriptions,
 * kernels, cost model and priorities. Every task has one subtask, and every bound space is one
 * whole tile (cholesky_views.h).
 */
#include <stdio.h>

#include "cholesky_views.h"

/* StarPU's critical-path priorities (its Cholesky example's unbounded priorities): larger runs
 * first, and a task's priority falls by 2 per step and by 1 per tile row or column it lies from
 * the start, so the diagonal tile's factorisation and the tasks near it, which the next steps
 * wait for, run before the updates far down the trailing matrix. POTRF(k) gets 2 nb - 2k,
 * TRSM(k,i) 2 nb - 2k - i, SYRK(k,i) 2 nb - 2k - 2i and GEMM(k,i,j) 2 nb - 2k - i - j: 2 nb - 2k
 * less each of i and j that lies past k. The LU variant's tasks get the same formula: GETRF(k)
 * 2 nb - 2k, the row TRSM of (k,j) 2 nb - 2k - j, the column TRSM of (i,k) 2 nb - 2k - i,
 * GEMM(k,i,j) 2 nb - 2k - i - j. */
int chol_priority(const chol_conf *c) {
  if (!c->prio)
    return 0;
  int64_t p = 2 * (int64_t)c->nb - 2 * (int64_t)c->k;
  p -= c->i > c->k ? (int64_t)c->i : 0;
  p -= c->j > c->k ? (int64_t)c->j : 0;
  return (int)p;
}

static int priority(const nw_task_info *t, uint64_t subtask) {
  (void)subtask;
  return chol_priority(t->conf);
}

/* A tile that is not positive definite means a wrong input or a wrong earlier tile: the kernel
 * cannot fail the run, so it says which tile, and the check after the run fails it. */
static void potrf_info(const nw_task_info *t, int info) {
  if (info != 0) {
    const chol_conf *c = t->conf;
    fprintf(stderr,
            "narwhal: cholesky: tile (%llu, %llu) is not positive definite (LAPACK info %d)\n",
            (unsigned long long)c->k, (unsigned long long)c->k, info);
  }
}

/* ---- POTRF(k): tile (k,k) := its Cholesky factor ---- */

static nw_status potrf_subscribe(nw_subscriber *s, const nw_task_info *t, uint64_t subtask) {
  (void)subtask;
  return chol_sub_tile(s, CHOL_POTRF_A, NW_READ_WRITE, t);
}

static void potrf_cpu(const nw_task_info *t, uint64_t subtask, const nw_view *v) {
  (void)subtask;
  potrf_info(t, chol_tile_potrf(chol_side(t), chol_cpu_tile(v, CHOL_POTRF_A), chol_side(t)));
}

static void potrf_emulated(const nw_task_info *t, uint64_t subtask, const nw_gpu_view *v) {
  (void)subtask;
  potrf_info(t, chol_tile_potrf(chol_side(t), chol_gpu_tile(v, CHOL_POTRF_A),
                                chol_gpu_ld(v, CHOL_POTRF_A)));
}

static void potrf_cuda(const nw_task_info *t, uint64_t subtask, const nw_gpu_view *v,
                       void *stream) {
  (void)subtask;
  nw_chol_cuda_potrf(chol_side(t), chol_gpu_tile(v, CHOL_POTRF_A), chol_gpu_ld(v, CHOL_POTRF_A),
                     stream);
}

static double potrf_flops(const nw_task_info *t, uint64_t subtask, nw_device_kind kind) {
  (void)subtask, (void)kind;
  return chol_cube(t) / 3.0;
}

static double potrf_bytes(const nw_task_info *t, uint64_t subtask, nw_device_kind kind) {
  (void)subtask, (void)kind;
  return chol_tiles_bytes(t, 2); /* the tile read and written */
}

/* ---- TRSM(k,i): tile (i,k) := (i,k) L_kk^-T ---- */

static nw_status trsm_subscribe(nw_subscriber *s, const nw_task_info *t, uint64_t subtask) {
  (void)subtask;
  nw_status st = chol_sub_tile(s, CHOL_TRSM_L, NW_READ_ONLY, t);
  return st == NW_OK ? chol_sub_tile(s, CHOL_TRSM_A, NW_READ_WRITE, t) : st;
}

static void trsm_cpu(const nw_task_info *t, uint64_t subtask, const nw_view *v) {
  (void)subtask;
  int b = chol_side(t);
  chol_tile_trsm(b, chol_cpu_tile(v, CHOL_TRSM_L), b, chol_cpu_tile(v, CHOL_TRSM_A), b);
}

static void trsm_emulated(const nw_task_info *t, uint64_t subtask, const nw_gpu_view *v) {
  (void)subtask;
  chol_tile_trsm(chol_side(t), chol_gpu_tile(v, CHOL_TRSM_L), chol_gpu_ld(v, CHOL_TRSM_L),
                 chol_gpu_tile(v, CHOL_TRSM_A), chol_gpu_ld(v, CHOL_TRSM_A));
}

static void trsm_cuda(const nw_task_info *t, uint64_t subtask, const nw_gpu_view *v, void *stream) {
  (void)subtask;
  nw_chol_cuda_trsm(chol_side(t), chol_gpu_tile(v, CHOL_TRSM_L), chol_gpu_ld(v, CHOL_TRSM_L),
                    chol_gpu_tile(v, CHOL_TRSM_A), chol_gpu_ld(v, CHOL_TRSM_A), stream);
}

static double trsm_flops(const nw_task_info *t, uint64_t subtask, nw_device_kind kind) {
  (void)subtask, (void)kind;
  return chol_cube(t);
}

/* TRSM and SYRK alike: one tile read, one read and written. */
static double three_tiles(const nw_task_info *t, uint64_t subtask, nw_device_kind kind) {
  (void)subtask, (void)kind;
  return chol_tiles_bytes(t, 3);
}

/* ---- SYRK(k,i): tile (i,i) -= (i,k) (i,k)^T, lower triangle ---- */

static nw_status syrk_subscribe(nw_subscriber *s, const nw_task_info *t, uint64_t subtask) {
  (void)subtask;
  nw_status st = chol_sub_tile(s, CHOL_SYRK_L, NW_READ_ONLY, t);
  return st == NW_OK ? chol_sub_tile(s, CHOL_SYRK_A, NW_READ_WRITE, t) : st;
}

static void syrk_cpu(const nw_task_info *t, uint64_t subtask, const nw_view *v) {
  (void)subtask;
  int b = chol_side(t);
  chol_tile_syrk(b, chol_cpu_tile(v, CHOL_SYRK_L), b, chol_cpu_tile(v, CHOL_SYRK_A), b);
}

static void syrk_emulated(const nw_task_info *t, uint64_t subtask, const nw_gpu_view *v) {
  (void)subtask;
  chol_tile_syrk(chol_side(t), chol_gpu_tile(v, CHOL_SYRK_L), chol_gpu_ld(v, CHOL_SYRK_L),
                 chol_gpu_tile(v, CHOL_SYRK_A), chol_gpu_ld(v, CHOL_SYRK_A));
}

static void syrk_cuda(const nw_task_info *t, uint64_t subtask, const nw_gpu_view *v, void *stream) {
  (void)subtask;
  nw_chol_cuda_syrk(chol_side(t), chol_gpu_tile(v, CHOL_SYRK_L), chol_gpu_ld(v, CHOL_SYRK_L),
                    chol_gpu_tile(v, CHOL_SYRK_A), chol_gpu_ld(v, CHOL_SYRK_A), stream);
}

/* b^3 as StarPU counts a SYRK of b x b tiles (b^2 (b + 1), taken as b^3), so the four kinds add
 * up to the factorisation's n^3 / 3 exactly. */
static double syrk_flops(const nw_task_info *t, uint64_t subtask, nw_device_kind kind) {
  (void)subtask, (void)kind;
  return chol_cube(t);
}

/* ---- GEMM(k,i,j): tile (i,j) -= (i,k) (j,k)^T ---- */

static nw_status gemm_subscribe(nw_subscriber *s, const nw_task_info *t, uint64_t subtask) {
  (void)subtask;
  nw_status st = chol_sub_tile(s, CHOL_GEMM_LI, NW_READ_ONLY, t);
  if (st == NW_OK)
    st = chol_sub_tile(s, CHOL_GEMM_LJ, NW_READ_ONLY, t);
  return st == NW_OK ? chol_sub_tile(s, CHOL_GEMM_A, NW_READ_WRITE, t) : st;
}

static void gemm_cpu(const nw_task_info *t, uint64_t subtask, const nw_view *v) {
  (void)subtask;
  int b = chol_side(t);
  chol_tile_gemm(b, chol_cpu_tile(v, CHOL_GEMM_LI), b, chol_cpu_tile(v, CHOL_GEMM_LJ), b,
                 chol_cpu_tile(v, CHOL_GEMM_A), b);
}

static void gemm_emulated(const nw_task_info *t, uint64_t subtask, const nw_gpu_view *v) {
  (void)subtask;
  chol_tile_gemm(chol_side(t), chol_gpu_tile(v, CHOL_GEMM_LI), chol_gpu_ld(v, CHOL_GEMM_LI),
                 chol_gpu_tile(v, CHOL_GEMM_LJ), chol_gpu_ld(v, CHOL_GEMM_LJ),
                 chol_gpu_tile(v, CHOL_GEMM_A), chol_gpu_ld(v, CHOL_GEMM_A));
}

static void gemm_cuda(const nw_task_info *t, uint64_t subtask, const nw_gpu_view *v, void *stream) {
  (void)subtask;
  nw_chol_cuda_gemm(chol_side(t), chol_gpu_tile(v, CHOL_GEMM_LI), chol_gpu_ld(v, CHOL_GEMM_LI),
                    chol_gpu_tile(v, CHOL_GEMM_LJ), chol_gpu_ld(v, CHOL_GEMM_LJ),
                    chol_gpu_tile(v, CHOL_GEMM_A), chol_gpu_ld(v, CHOL_GEMM_A), stream);
}

static double gemm_flops(const nw_task_info *t, uint64_t subtask, nw_device_kind kind) {
  (void)subtask, (void)kind;
  return 2.0 * chol_cube(t);
}

static double gemm_bytes(const nw_task_info *t, uint64_t subtask, nw_device_kind kind) {
  (void)subtask, (void)kind;
  return chol_tiles_bytes(t, 4); /* two tiles read, one read and written */
}

static void chol_cuda_init(void) {
  nw_chol_cuda_init();
}

/* No cpu_work_item: a work-group runs each tile whole, on one core. */
const nw_task_kind nw_chol_potrf_kind = {
    .name = "chol-potrf",
    .subscribe = potrf_subscribe,
    .cpu_kernel = potrf_cpu,
    .flops = potrf_flops,
    .cuda_kernel = potrf_cuda,
    .gpu_emulated_kernel = potrf_emulated,
    .cuda_thread_init = chol_cuda_init,
    .priority = priority,
    .bytes = potrf_bytes,
};

const nw_task_kind nw_chol_trsm_kind = {
    .name = "chol-trsm",
    .subscribe = trsm_subscribe,
    .cpu_kernel = trsm_cpu,
    .flops = trsm_flops,
    .cuda_kernel = trsm_cuda,
    .gpu_emulated_kernel = trsm_emulated,
    .cuda_thread_init = chol_cuda_init,
    .priority = priority,
    .bytes = three_tiles,
};

const nw_task_kind nw_chol_syrk_kind = {
    .name = "chol-syrk",
    .subscribe = syrk_subscribe,
    .cpu_kernel = syrk_cpu,
    .flops = syrk_flops,
    .cuda_kernel = syrk_cuda,
    .gpu_emulated_kernel = syrk_emulated,
    .cuda_thread_init = chol_cuda_init,
    .priority = priority,
    .bytes = three_tiles,
};

const nw_task_kind nw_chol_gemm_kind = {
    .name = "chol-gemm",
    .subscribe = gemm_subscribe,
    .cpu_kernel = gemm_cpu,
    .flops = gemm_flops,
    .cuda_kernel = gemm_cuda,
    .gpu_emulated_kernel = gemm_emulated,
    .cuda_thread_init = chol_cuda_init,
    .priority = priority,
    .bytes = gemm_bytes,
};
