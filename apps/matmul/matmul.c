/* matmul.c: dense single-precision C = A x B, the program of paper Fig. 1.
 *
 * One subtask per b x b block of C. Subtask (i, j) reads block row i of A (b whole rows: one
 * contiguous quad), block column j of B (n segments of b floats, one per row: one quad with
 * step = row size) and writes block (i, j) of C (b segments). Spaces have a pitch of one
 * matrix row, so each subscription is a single rectangle in the directory.
 *
 * Inputs are small integers, so every sum is exact in float: the distributed result must then
 * equal the single-process reference bit for bit whatever order BLAS adds in, and any byte
 * that arrives wrong, late or stale shows.
 */
#include <cblas.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "../common/inputs.h"
#include "../common/place.h"
#include "matmul.h"

typedef struct matmul_conf {
  uint64_t n, b;
} matmul_conf;

static nw_status matmul_subscribe(nw_subscriber *s, const nw_task_info *t, uint64_t subtask) {
  const matmul_conf *c = t->conf;
  uint64_t blocks = c->n / c->b, row = c->n * sizeof(float), brow = c->b * sizeof(float);
  uint64_t bi = subtask / blocks, bj = subtask % blocks;
  nw_status st = nw_subscribe(s, 0, NW_READ_ONLY, bi * c->b * row, row, row, c->b);
  if (st == NW_OK)
    st = nw_subscribe(s, 1, NW_READ_ONLY, bj * brow, brow, row, c->n);
  if (st == NW_OK)
    st = nw_subscribe(s, 2, NW_WRITE_ONLY, bi * c->b * row + bj * brow, brow, row, c->b);
  return st;
}

/* One block of C: the same call whether a node or the reference makes it. */
static void multiply_block(uint64_t n, uint64_t b, uint64_t bi, uint64_t bj, const float *a_rows,
                           const float *b_cols, float *c_block) {
  (void)bi;
  (void)bj;
  cblas_sgemm(CblasRowMajor, CblasNoTrans, CblasNoTrans, (int)b, (int)b, (int)n, 1.0f, a_rows,
              (int)n, b_cols, (int)n, 0.0f, c_block, (int)n);
}

static void matmul_cpu(const nw_task_info *t, uint64_t subtask, const nw_view *v) {
  const matmul_conf *c = t->conf;
  uint64_t blocks = c->n / c->b, row = c->n * sizeof(float), brow = c->b * sizeof(float);
  uint64_t bi = subtask / blocks, bj = subtask % blocks;
  multiply_block(c->n, c->b, bi, bj, nw_view_at(&v[0], bi * c->b * row),
                 nw_view_at(&v[1], bj * brow), nw_view_at(&v[2], bi * c->b * row + bj * brow));
}

/* Work-item `item` of `items` (paper 4.3.1): its own band of the block's rows, a row band of
 * A times the same block column of B. The sums are the same as the whole block's. */
static void matmul_cpu_item(const nw_task_info *t, uint64_t subtask, int item, int items,
                            const nw_view *v) {
  const matmul_conf *c = t->conf;
  uint64_t blocks = c->n / c->b, row = c->n * sizeof(float), brow = c->b * sizeof(float);
  uint64_t bi = subtask / blocks, bj = subtask % blocks;
  uint64_t r0 = c->b * (uint64_t)item / (uint64_t)items;
  uint64_t r1 = c->b * (uint64_t)(item + 1) / (uint64_t)items;
  if (r1 == r0)
    return; /* more items than rows */
  uint64_t top = (bi * c->b + r0) * row;
  cblas_sgemm(CblasRowMajor, CblasNoTrans, CblasNoTrans, (int)(r1 - r0), (int)c->b, (int)c->n, 1.0f,
              nw_view_at(&v[0], top), (int)c->n, nw_view_at(&v[1], bj * brow), (int)c->n, 0.0f,
              nw_view_at(&v[2], top + bj * brow), (int)c->n);
}

/* On a GPU each view holds only the subscription's rectangle (narwhal.h, nw_gpu_view), so the
 * leading dimensions are the views' pitches: n for the block row of A, b for the block column of
 * B and the block of C. */
static void gpu_operands(const nw_task_info *t, uint64_t subtask, const nw_gpu_view *v,
                         matmul_gemm *g) {
  const matmul_conf *c = t->conf;
  uint64_t blocks = c->n / c->b, row = c->n * sizeof(float), brow = c->b * sizeof(float);
  uint64_t bi = subtask / blocks, bj = subtask % blocks;
  *g = (matmul_gemm){.m = (int)c->b,
                     .n = (int)c->b,
                     .k = (int)c->n,
                     .a = nw_gpu_view_at(&v[0], bi * c->b * row),
                     .lda = (int)(v[0].pitch / sizeof(float)),
                     .b = nw_gpu_view_at(&v[1], bj * brow),
                     .ldb = (int)(v[1].pitch / sizeof(float)),
                     .c = nw_gpu_view_at(&v[2], bi * c->b * row + bj * brow),
                     .ldc = (int)(v[2].pitch / sizeof(float))};
}

static void matmul_gpu_emulated(const nw_task_info *t, uint64_t subtask, const nw_gpu_view *v) {
  matmul_gemm g;
  gpu_operands(t, subtask, v, &g);
  cblas_sgemm(CblasRowMajor, CblasNoTrans, CblasNoTrans, g.m, g.n, g.k, 1.0f, g.a, g.lda, g.b,
              g.ldb, 0.0f, g.c, g.ldc);
}

static void matmul_cuda(const nw_task_info *t, uint64_t subtask, const nw_gpu_view *v,
                        void *stream) {
  matmul_gemm g;
  gpu_operands(t, subtask, v, &g);
  nw_matmul_cuda_sgemm(&g, stream);
}

static void matmul_cuda_init(void) {
  nw_matmul_cuda_init();
}

static double matmul_flops(const nw_task_info *t, uint64_t subtask, nw_device_kind kind) {
  (void)subtask;
  (void)kind;
  const matmul_conf *c = t->conf;
  return 2.0 * (double)c->b * (double)c->b * (double)c->n;
}

const nw_task_kind nw_matmul_kind = {
    .name = "matmul",
    .subscribe = matmul_subscribe,
    .cpu_kernel = matmul_cpu,
    .cpu_work_item = matmul_cpu_item,
    .flops = matmul_flops,
    .cuda_kernel = matmul_cuda,
    .gpu_emulated_kernel = matmul_gpu_emulated,
    .cuda_thread_init = matmul_cuda_init,
};

/* --app-param copies=K: K multiplications of the same A and B into K result matrices, each
 * its own task, submitted together and then waited for. The tasks share only read-only spaces,
 * so they run at once (paper section 2), unless --concurrent-tasks off. */
#define COPIES_MAX 16

static nw_status matmul_check(const nw_app_args *a, char *why, size_t why_len) {
  uint64_t copies;
  if (nw_app_param_keys(a, "matmul", "copies", why, why_len) != 0 ||
      nw_app_param_uint(a, "matmul", "copies", 1, COPIES_MAX, 1, &copies, why, why_len) != 0)
    return NW_ERR_ARG;
  return nw_app_check_grid("matmul", a, why, why_len);
}

static nw_status verify(nw_space *c_space, const float *a, const float *b, uint64_t n, uint64_t bs,
                        int *equal) {
  uint64_t count = n * n;
  float *c = malloc(count * sizeof *c), *ref = malloc(count * sizeof *ref);
  nw_status st = (c && ref) ? nw_space_read(c_space, 0, c, count * sizeof *c) : NW_ERR_NOMEM;
  if (st == NW_OK) {
    /* The run is over and its sums are exact: the reference may take every core (a real
     * run's devices leave OpenBLAS one thread each, and 12288^3 on one core takes 45 s). */
    int threads = openblas_get_num_threads();
    long cores = sysconf(_SC_NPROCESSORS_ONLN);
    openblas_set_num_threads(cores > threads ? (int)cores : threads);
    uint64_t blocks = n / bs;
    for (uint64_t bi = 0; bi < blocks; bi++)
      for (uint64_t bj = 0; bj < blocks; bj++)
        multiply_block(n, bs, bi, bj, a + bi * bs * n, b + bj * bs, ref + bi * bs * n + bj * bs);
    openblas_set_num_threads(threads);
    *equal = memcmp(c, ref, count * sizeof *c) == 0;
  }
  free(c);
  free(ref);
  return st;
}

static nw_status matmul_main(nw_runtime *rt, const nw_app_args *args, nw_app_outcome *out) {
  uint64_t n = args->n, bs = args->block, bytes = n * n * sizeof(float), copies = 1;
  char why[160];
  if (nw_app_param_uint(args, "matmul", "copies", 1, COPIES_MAX, 1, &copies, why, sizeof why))
    return NW_ERR_ARG; /* matmul_check refused it already */
  int functional = nw_runtime_functional(rt);
  out->verified = -1; /* phantom mode has no bytes to check; the tool rejects --verify there */
  nw_space *sa = NULL, *sb = NULL, *sc[COPIES_MAX] = {NULL};
  nw_task *task[COPIES_MAX] = {NULL};
  float *a = NULL, *b = NULL;
  matmul_conf conf = {n, bs};
  nw_status st = nw_space_create(rt, bytes, n * sizeof(float), &sa);
  if (st == NW_OK)
    st = nw_space_create(rt, bytes, n * sizeof(float), &sb);
  for (uint64_t k = 0; k < copies && st == NW_OK; k++)
    st = nw_space_create(rt, bytes, n * sizeof(float), &sc[k]);
  if (st == NW_OK && functional) {
    a = malloc(bytes);
    b = malloc(bytes);
    if (!a || !b)
      st = NW_ERR_NOMEM;
    if (st == NW_OK) {
      nw_app_fill_small_ints(a, n * n, args->seed);
      nw_app_fill_small_ints(b, n * n, args->seed + 1);
      st = nw_space_write(sa, 0, a, bytes);
    }
    if (st == NW_OK)
      st = nw_space_write(sb, 0, b, bytes);
  }
  if (st == NW_OK && args->spread && nw_runtime_nodes(rt) > 1) {
    /* The paper's fifth scheme of Fig. 13: A by rows of blocks, B by columns of blocks. */
    nw_app_placement pa = args->placement, pb = args->placement;
    if (pa == NW_PLACEMENT_ROWS_COLUMNS) {
      pa = NW_PLACEMENT_ROWS;
      pb = NW_PLACEMENT_COLUMNS;
    }
    st = nw_app_place_pixel_blocks(rt, sa, n, bs, sizeof(float), args->seed, pa);
    if (st == NW_OK)
      st = nw_app_place_pixel_blocks(rt, sb, n, bs, sizeof(float), args->seed + 1, pb);
  }
  for (uint64_t k = 0; k < copies && st == NW_OK; k++) {
    st = nw_task_create(rt, &nw_matmul_kind, (n / bs) * (n / bs), &conf, sizeof conf, &task[k]);
    if (st == NW_OK)
      st = nw_task_bind(task[k], sa, NW_READ_ONLY);
    if (st == NW_OK)
      st = nw_task_bind(task[k], sb, NW_READ_ONLY);
    if (st == NW_OK)
      st = nw_task_bind(task[k], sc[k], NW_WRITE_ONLY);
    if (st == NW_OK)
      st = nw_task_submit(task[k]);
  }
  for (uint64_t k = 0; k < copies && st == NW_OK; k++)
    st = nw_task_wait(task[k]);
  for (uint64_t k = 0; k < copies && st == NW_OK && functional && args->verify != 0; k++) {
    int equal = 0;
    st = verify(sc[k], a, b, n, bs, &equal);
    out->verified = (out->verified != 0) && equal;
  }
  for (uint64_t k = 0; k < copies; k++) {
    nw_task_destroy(task[k]);
    nw_space_destroy(sc[k]);
  }
  nw_space_destroy(sa);
  nw_space_destroy(sb);
  free(a);
  free(b);
  return st;
}

const nw_app nw_matmul_app = {
    .name = "matmul",
    .kinds = (const nw_task_kind *const[]){&nw_matmul_kind, NULL},
    .check_args = matmul_check,
    .main = matmul_main,
};
