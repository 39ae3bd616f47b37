/* cholesky_kind.c: the Cholesky's four task kinds (POTRF, TRSM, SYRK, GEMM): subscriptions,
 * kernels, cost model and priorities.
 *
 * Every task has one subtask and every bound space is one whole tile, subscribed whole: the
 * CPU view of a tile is the tile (leading dimension b), and a GPU view holds its subscription's
 * bounding rectangle packed (narwhal.h, nw_gpu_view), which for a whole tile is the tile again,
 * its leading dimension the view's pitch. So the CPU kernel, the modelled GPU's emulation and
 * the CUDA kernel make the same call on different pointers.
 */
#include <stdio.h>

#include "cholesky.h"

#define F ((uint64_t)sizeof(float))

static nw_status sub_tile(nw_subscriber *s, int space, nw_access acc, const nw_task_info *t) {
  uint64_t b = ((const chol_conf *)t->conf)->b;
  return nw_subscribe(s, space, acc, 0, b * F, b * F, b);
}

static float *cpu_tile(const nw_view *v, int space) {
  return nw_view_at(&v[space], 0);
}

static float *gpu_tile(const nw_gpu_view *v, int space) {
  return nw_gpu_view_at(&v[space], 0);
}

static int gpu_ld(const nw_gpu_view *v, int space) {
  return (int)(v[space].pitch / F);
}

static int side(const nw_task_info *t) {
  return (int)((const chol_conf *)t->conf)->b;
}

static double cube(const nw_task_info *t) {
  double b = (double)((const chol_conf *)t->conf)->b;
  return b * b * b;
}

static double tiles_bytes(const nw_task_info *t, double tiles) {
  double b = (double)((const chol_conf *)t->conf)->b;
  return tiles * b * b * (double)F;
}

/* StarPU's critical-path priorities (its Cholesky example's unbounded priorities): tasks of an
 * earlier step first, and within a step the ones nearer the next diagonal tile, which the
 * next POTRF waits for. POTRF(k) gets 2 nb - 2k, TRSM(k,i) 2 nb - 2k - i, SYRK(k,i)
 * 2 nb - 2k - 2i and GEMM(k,i,j) 2 nb - 2k - i - j: the formula 2 nb - 2k - i - j with
 * SYRK's j = i and POTRF's i + j taken as 0. */
int chol_priority(const chol_conf *c, int kind) {
  if (!c->prio)
    return 0;
  int64_t base = 2 * (int64_t)c->nb - 2 * (int64_t)c->k, i = (int64_t)c->i, j = (int64_t)c->j;
  switch (kind) {
  case CHOL_POTRF:
    return (int)base;
  case CHOL_TRSM:
    return (int)(base - i);
  case CHOL_SYRK:
    return (int)(base - 2 * i);
  default:
    return (int)(base - i - j);
  }
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
  return sub_tile(s, CHOL_POTRF_A, NW_READ_WRITE, t);
}

static void potrf_cpu(const nw_task_info *t, uint64_t subtask, const nw_view *v) {
  (void)subtask;
  potrf_info(t, chol_tile_potrf(side(t), cpu_tile(v, CHOL_POTRF_A), side(t)));
}

static void potrf_emulated(const nw_task_info *t, uint64_t subtask, const nw_gpu_view *v) {
  (void)subtask;
  potrf_info(t, chol_tile_potrf(side(t), gpu_tile(v, CHOL_POTRF_A), gpu_ld(v, CHOL_POTRF_A)));
}

static void potrf_cuda(const nw_task_info *t, uint64_t subtask, const nw_gpu_view *v,
                       void *stream) {
  (void)subtask;
  nw_chol_cuda_potrf(side(t), gpu_tile(v, CHOL_POTRF_A), gpu_ld(v, CHOL_POTRF_A), stream);
}

static double potrf_flops(const nw_task_info *t, uint64_t subtask, nw_device_kind kind) {
  (void)subtask, (void)kind;
  return cube(t) / 3.0;
}

static double potrf_bytes(const nw_task_info *t, uint64_t subtask, nw_device_kind kind) {
  (void)subtask, (void)kind;
  return tiles_bytes(t, 2); /* the tile read and written */
}

static int potrf_priority(const nw_task_info *t, uint64_t subtask) {
  (void)subtask;
  return chol_priority(t->conf, CHOL_POTRF);
}

/* ---- TRSM(k,i): tile (i,k) := (i,k) L_kk^-T ---- */

static nw_status trsm_subscribe(nw_subscriber *s, const nw_task_info *t, uint64_t subtask) {
  (void)subtask;
  nw_status st = sub_tile(s, CHOL_TRSM_L, NW_READ_ONLY, t);
  return st == NW_OK ? sub_tile(s, CHOL_TRSM_A, NW_READ_WRITE, t) : st;
}

static void trsm_cpu(const nw_task_info *t, uint64_t subtask, const nw_view *v) {
  (void)subtask;
  int b = side(t);
  chol_tile_trsm(b, cpu_tile(v, CHOL_TRSM_L), b, cpu_tile(v, CHOL_TRSM_A), b);
}

static void trsm_emulated(const nw_task_info *t, uint64_t subtask, const nw_gpu_view *v) {
  (void)subtask;
  chol_tile_trsm(side(t), gpu_tile(v, CHOL_TRSM_L), gpu_ld(v, CHOL_TRSM_L),
                 gpu_tile(v, CHOL_TRSM_A), gpu_ld(v, CHOL_TRSM_A));
}

static void trsm_cuda(const nw_task_info *t, uint64_t subtask, const nw_gpu_view *v, void *stream) {
  (void)subtask;
  nw_chol_cuda_trsm(side(t), gpu_tile(v, CHOL_TRSM_L), gpu_ld(v, CHOL_TRSM_L),
                    gpu_tile(v, CHOL_TRSM_A), gpu_ld(v, CHOL_TRSM_A), stream);
}

static double trsm_flops(const nw_task_info *t, uint64_t subtask, nw_device_kind kind) {
  (void)subtask, (void)kind;
  return cube(t);
}

/* TRSM and SYRK alike: one tile read, one read and written. */
static double three_tiles(const nw_task_info *t, uint64_t subtask, nw_device_kind kind) {
  (void)subtask, (void)kind;
  return tiles_bytes(t, 3);
}

static int trsm_priority(const nw_task_info *t, uint64_t subtask) {
  (void)subtask;
  return chol_priority(t->conf, CHOL_TRSM);
}

/* ---- SYRK(k,i): tile (i,i) -= (i,k) (i,k)^T, lower triangle ---- */

static nw_status syrk_subscribe(nw_subscriber *s, const nw_task_info *t, uint64_t subtask) {
  (void)subtask;
  nw_status st = sub_tile(s, CHOL_SYRK_L, NW_READ_ONLY, t);
  return st == NW_OK ? sub_tile(s, CHOL_SYRK_A, NW_READ_WRITE, t) : st;
}

static void syrk_cpu(const nw_task_info *t, uint64_t subtask, const nw_view *v) {
  (void)subtask;
  int b = side(t);
  chol_tile_syrk(b, cpu_tile(v, CHOL_SYRK_L), b, cpu_tile(v, CHOL_SYRK_A), b);
}

static void syrk_emulated(const nw_task_info *t, uint64_t subtask, const nw_gpu_view *v) {
  (void)subtask;
  chol_tile_syrk(side(t), gpu_tile(v, CHOL_SYRK_L), gpu_ld(v, CHOL_SYRK_L),
                 gpu_tile(v, CHOL_SYRK_A), gpu_ld(v, CHOL_SYRK_A));
}

static void syrk_cuda(const nw_task_info *t, uint64_t subtask, const nw_gpu_view *v, void *stream) {
  (void)subtask;
  nw_chol_cuda_syrk(side(t), gpu_tile(v, CHOL_SYRK_L), gpu_ld(v, CHOL_SYRK_L),
                    gpu_tile(v, CHOL_SYRK_A), gpu_ld(v, CHOL_SYRK_A), stream);
}

/* b^3 as StarPU counts a SYRK of b x b tiles (b^2 (b + 1), taken as b^3), so the four kinds add
 * up to the factorisation's n^3 / 3 exactly. */
static double syrk_flops(const nw_task_info *t, uint64_t subtask, nw_device_kind kind) {
  (void)subtask, (void)kind;
  return cube(t);
}

static int syrk_priority(const nw_task_info *t, uint64_t subtask) {
  (void)subtask;
  return chol_priority(t->conf, CHOL_SYRK);
}

/* ---- GEMM(k,i,j): tile (i,j) -= (i,k) (j,k)^T ---- */

static nw_status gemm_subscribe(nw_subscriber *s, const nw_task_info *t, uint64_t subtask) {
  (void)subtask;
  nw_status st = sub_tile(s, CHOL_GEMM_LI, NW_READ_ONLY, t);
  if (st == NW_OK)
    st = sub_tile(s, CHOL_GEMM_LJ, NW_READ_ONLY, t);
  return st == NW_OK ? sub_tile(s, CHOL_GEMM_A, NW_READ_WRITE, t) : st;
}

static void gemm_cpu(const nw_task_info *t, uint64_t subtask, const nw_view *v) {
  (void)subtask;
  int b = side(t);
  chol_tile_gemm(b, cpu_tile(v, CHOL_GEMM_LI), b, cpu_tile(v, CHOL_GEMM_LJ), b,
                 cpu_tile(v, CHOL_GEMM_A), b);
}

static void gemm_emulated(const nw_task_info *t, uint64_t subtask, const nw_gpu_view *v) {
  (void)subtask;
  chol_tile_gemm(side(t), gpu_tile(v, CHOL_GEMM_LI), gpu_ld(v, CHOL_GEMM_LI),
                 gpu_tile(v, CHOL_GEMM_LJ), gpu_ld(v, CHOL_GEMM_LJ), gpu_tile(v, CHOL_GEMM_A),
                 gpu_ld(v, CHOL_GEMM_A));
}

static void gemm_cuda(const nw_task_info *t, uint64_t subtask, const nw_gpu_view *v, void *stream) {
  (void)subtask;
  nw_chol_cuda_gemm(side(t), gpu_tile(v, CHOL_GEMM_LI), gpu_ld(v, CHOL_GEMM_LI),
                    gpu_tile(v, CHOL_GEMM_LJ), gpu_ld(v, CHOL_GEMM_LJ), gpu_tile(v, CHOL_GEMM_A),
                    gpu_ld(v, CHOL_GEMM_A), stream);
}

static double gemm_flops(const nw_task_info *t, uint64_t subtask, nw_device_kind kind) {
  (void)subtask, (void)kind;
  return 2.0 * cube(t);
}

static double gemm_bytes(const nw_task_info *t, uint64_t subtask, nw_device_kind kind) {
  (void)subtask, (void)kind;
  return tiles_bytes(t, 4); /* two tiles read, one read and written */
}

static int gemm_priority(const nw_task_info *t, uint64_t subtask) {
  (void)subtask;
  return chol_priority(t->conf, CHOL_GEMM);
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
    .priority = potrf_priority,
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
    .priority = trsm_priority,
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
    .priority = syrk_priority,
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
    .priority = gemm_priority,
    .bytes = gemm_bytes,
};
