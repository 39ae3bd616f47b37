/* lu_kind.c: the LU's three task kinds (diagonal, panels, trailing update): subscriptions,
 * kernels, cost model.
 *
 * Why four spaces rather than the paper's one: a GPU holds, for each space a subtask
 * subscribes to, the bounding rectangle of its subscriptions there (README, "Data
 * semantics", GPU views). An update subtask (i, j) of step k reading A_ik and A_kj out of the
 * matrix itself would hold rows k..i and columns k..j of it: at the paper's shape (n = 65536,
 * b = 2048) the whole 16 GiB matrix for (31, 31) at k = 0, on 6 GiB GPUs, and every byte of
 * the rectangle copied over PCIe. So the diagonal subtask also writes L_kk U_kk to D, each
 * panel subtask also writes its result to its block of R or C, and the update subtask reads
 * those: every subscription is one b x b rectangle, as in the paper's runtime, where a GPU
 * held whole subscriptions (section 4.4). The matrix is still the one read-write space in
 * which the decomposition happens in place; R and C carry what ScaLAPACK broadcasts as panels.
 */
#include <stdio.h>
#include <stdlib.h>

#include "lu.h"

#define F ((uint64_t)sizeof(float))

/* Block (i, j) of the matrix: b rows of b floats, one rectangle (step = the row pitch). */
static nw_status sub_block(nw_subscriber *s, int space, nw_access acc, const lu_conf *c, uint64_t i,
                           uint64_t j) {
  uint64_t row = c->n * F;
  return nw_subscribe(s, space, acc, i * c->b * row + j * c->b * F, c->b * F, row, c->b);
}

static uint64_t block_at(const lu_conf *c, uint64_t i, uint64_t j) {
  return i * c->b * c->n * F + j * c->b * F;
}

/* Block j of R or C (or D, j = 0): b rows of the space's whole pitch b. */
static nw_status sub_packed(nw_subscriber *s, int space, nw_access acc, const lu_conf *c,
                            uint64_t j) {
  return nw_subscribe(s, space, acc, j * c->b * c->b * F, c->b * F, c->b * F, c->b);
}

static uint64_t packed_at(const lu_conf *c, uint64_t j) {
  return j * c->b * c->b * F;
}

/* Panel subtask s of step k: the row panel's block (k, k + 1 + s) for s below m = nb - k - 1,
 * then the column panel's (k + 1 + s - m, k). */
static int panel_is_row(const lu_conf *c, uint64_t s, uint64_t *other) {
  uint64_t m = c->n / c->b - c->k - 1;
  *other = c->k + 1 + (s < m ? s : s - m);
  return s < m;
}

static void update_block(const lu_conf *c, uint64_t s, uint64_t *i, uint64_t *j) {
  uint64_t m = c->n / c->b - c->k - 1;
  *i = c->k + 1 + s / m;
  *j = c->k + 1 + s % m;
}

/* A kernel has no status to return: running out of memory for its scratch block is fatal. */
static float *scratch_block(uint64_t b) {
  float *p = malloc(b * b * F);
  if (!p) {
    fprintf(stderr, "narwhal: lu: out of memory for a %llu x %llu block\n", (unsigned long long)b,
            (unsigned long long)b);
    abort();
  }
  return p;
}

/* ---- diagonal block ---- */

static nw_status diag_subscribe(nw_subscriber *s, const nw_task_info *t, uint64_t subtask) {
  (void)subtask;
  const lu_conf *c = t->conf;
  nw_status st = sub_block(s, LU_DIAG_M, NW_READ_WRITE, c, c->k, c->k);
  return st == NW_OK ? sub_packed(s, LU_DIAG_D, NW_WRITE_ONLY, c, 0) : st;
}

static void diag_cpu(const nw_task_info *t, uint64_t subtask, const nw_view *v) {
  (void)subtask;
  const lu_conf *c = t->conf;
  lu_diag_op((int)c->b, nw_view_at(&v[LU_DIAG_M], block_at(c, c->k, c->k)), (int)c->n,
             nw_view_at(&v[LU_DIAG_D], 0));
}

/* On a GPU each view holds its subscription's rectangle, packed (narwhal.h, nw_gpu_view): the
 * block's leading dimension is the view's pitch. */
static void diag_gpu_emulated(const nw_task_info *t, uint64_t subtask, const nw_gpu_view *v) {
  (void)subtask;
  const lu_conf *c = t->conf;
  lu_diag_op((int)c->b, nw_gpu_view_at(&v[LU_DIAG_M], block_at(c, c->k, c->k)),
             (int)(v[LU_DIAG_M].pitch / F), nw_gpu_view_at(&v[LU_DIAG_D], 0));
}

static void diag_cuda(const nw_task_info *t, uint64_t subtask, const nw_gpu_view *v, void *stream) {
  (void)subtask;
  const lu_conf *c = t->conf;
  nw_lu_cuda_diag((int)c->b, nw_gpu_view_at(&v[LU_DIAG_M], block_at(c, c->k, c->k)),
                  (int)(v[LU_DIAG_M].pitch / F), nw_gpu_view_at(&v[LU_DIAG_D], 0), stream);
}

static double diag_flops(const nw_task_info *t, uint64_t subtask, nw_device_kind kind) {
  (void)subtask;
  (void)kind;
  double b = (double)((const lu_conf *)t->conf)->b;
  return 2.0 * b * b * b / 3.0;
}

/* ---- row and column panels ---- */

static nw_status panel_subscribe(nw_subscriber *s, const nw_task_info *t, uint64_t subtask) {
  const lu_conf *c = t->conf;
  uint64_t other;
  int row = panel_is_row(c, subtask, &other);
  nw_status st = row ? sub_block(s, LU_PANEL_M, NW_READ_WRITE, c, c->k, other)
                     : sub_block(s, LU_PANEL_M, NW_READ_WRITE, c, other, c->k);
  if (st == NW_OK)
    st = sub_packed(s, LU_PANEL_D, NW_READ_ONLY, c, 0);
  if (st == NW_OK)
    st = sub_packed(s, row ? LU_PANEL_R : LU_PANEL_C, NW_WRITE_ONLY, c, other);
  return st;
}

static void panel_cpu(const nw_task_info *t, uint64_t subtask, const nw_view *v) {
  const lu_conf *c = t->conf;
  uint64_t o;
  const float *d = nw_view_at(&v[LU_PANEL_D], 0);
  if (panel_is_row(c, subtask, &o))
    lu_row_op((int)c->b, nw_view_at(&v[LU_PANEL_M], block_at(c, c->k, o)), (int)c->n, d,
              nw_view_at(&v[LU_PANEL_R], packed_at(c, o)));
  else
    lu_col_op((int)c->b, nw_view_at(&v[LU_PANEL_M], block_at(c, o, c->k)), (int)c->n, d,
              nw_view_at(&v[LU_PANEL_C], packed_at(c, o)));
}

static void panel_gpu_emulated(const nw_task_info *t, uint64_t subtask, const nw_gpu_view *v) {
  const lu_conf *c = t->conf;
  uint64_t o;
  const float *d = nw_gpu_view_at(&v[LU_PANEL_D], 0);
  int ldm = (int)(v[LU_PANEL_M].pitch / F);
  if (panel_is_row(c, subtask, &o))
    lu_row_op((int)c->b, nw_gpu_view_at(&v[LU_PANEL_M], block_at(c, c->k, o)), ldm, d,
              nw_gpu_view_at(&v[LU_PANEL_R], packed_at(c, o)));
  else
    lu_col_op((int)c->b, nw_gpu_view_at(&v[LU_PANEL_M], block_at(c, o, c->k)), ldm, d,
              nw_gpu_view_at(&v[LU_PANEL_C], packed_at(c, o)));
}

static void panel_cuda(const nw_task_info *t, uint64_t subtask, const nw_gpu_view *v,
                       void *stream) {
  const lu_conf *c = t->conf;
  uint64_t o;
  const float *d = nw_gpu_view_at(&v[LU_PANEL_D], 0);
  int ldm = (int)(v[LU_PANEL_M].pitch / F);
  if (panel_is_row(c, subtask, &o))
    nw_lu_cuda_row((int)c->b, nw_gpu_view_at(&v[LU_PANEL_M], block_at(c, c->k, o)), ldm, d,
                   nw_gpu_view_at(&v[LU_PANEL_R], packed_at(c, o)), stream);
  else
    nw_lu_cuda_col((int)c->b, nw_gpu_view_at(&v[LU_PANEL_M], block_at(c, o, c->k)), ldm, d,
                   nw_gpu_view_at(&v[LU_PANEL_C], packed_at(c, o)), stream);
}

static double panel_flops(const nw_task_info *t, uint64_t subtask, nw_device_kind kind) {
  (void)subtask;
  (void)kind;
  double b = (double)((const lu_conf *)t->conf)->b;
  return b * b * b;
}

/* ---- trailing update ---- */

static nw_status update_subscribe(nw_subscriber *s, const nw_task_info *t, uint64_t subtask) {
  const lu_conf *c = t->conf;
  uint64_t i, j;
  update_block(c, subtask, &i, &j);
  nw_status st = sub_block(s, LU_UPDATE_M, NW_READ_WRITE, c, i, j);
  if (st == NW_OK)
    st = sub_packed(s, LU_UPDATE_R, NW_READ_ONLY, c, j);
  if (st == NW_OK)
    st = sub_packed(s, LU_UPDATE_C, NW_READ_ONLY, c, i);
  return st;
}

static void update_cpu(const nw_task_info *t, uint64_t subtask, const nw_view *v) {
  const lu_conf *c = t->conf;
  uint64_t i, j;
  update_block(c, subtask, &i, &j);
  float *scratch = scratch_block(c->b);
  lu_update_op((int)c->b, nw_view_at(&v[LU_UPDATE_M], block_at(c, i, j)), (int)c->n,
               nw_view_at(&v[LU_UPDATE_C], packed_at(c, i)),
               nw_view_at(&v[LU_UPDATE_R], packed_at(c, j)), scratch);
  free(scratch);
}

static void update_gpu_emulated(const nw_task_info *t, uint64_t subtask, const nw_gpu_view *v) {
  const lu_conf *c = t->conf;
  uint64_t i, j;
  update_block(c, subtask, &i, &j);
  float *scratch = scratch_block(c->b);
  lu_update_op((int)c->b, nw_gpu_view_at(&v[LU_UPDATE_M], block_at(c, i, j)),
               (int)(v[LU_UPDATE_M].pitch / F), nw_gpu_view_at(&v[LU_UPDATE_C], packed_at(c, i)),
               nw_gpu_view_at(&v[LU_UPDATE_R], packed_at(c, j)), scratch);
  free(scratch);
}

static void update_cuda(const nw_task_info *t, uint64_t subtask, const nw_gpu_view *v,
                        void *stream) {
  const lu_conf *c = t->conf;
  uint64_t i, j;
  update_block(c, subtask, &i, &j);
  nw_lu_cuda_update((int)c->b, nw_gpu_view_at(&v[LU_UPDATE_M], block_at(c, i, j)),
                    (int)(v[LU_UPDATE_M].pitch / F),
                    nw_gpu_view_at(&v[LU_UPDATE_C], packed_at(c, i)),
                    nw_gpu_view_at(&v[LU_UPDATE_R], packed_at(c, j)), stream);
}

/* Agglomerated trailing updates (--agglomerate; the paper's CharmLU offloads them so:
 * Lifflander, Evans, Arya, Kale, "Dynamic Scheduling for Work Agglomeration on Heterogeneous
 * Clusters", section V-B). Host emulation: each block as update_gpu_emulated does it, so a batch
 * writes the same bytes as its subtasks one by one. */
static void update_gpu_emulated_batch(const nw_task_info *t, const uint64_t *subtasks, int count,
                                      const nw_gpu_view *const *views) {
  for (int j = 0; j < count; j++)
    update_gpu_emulated(t, subtasks[j], views[j]);
}

/* One cublasSgemmBatched over the blocks: every view of an update holds one packed b x b block
 * (its subscription's rectangle), so one leading dimension b serves them all. */
static void update_cuda_batch(const nw_task_info *t, const uint64_t *subtasks, int count,
                              const nw_gpu_view *const *views, void *stream) {
  const lu_conf *c = t->conf;
  float **m = malloc((size_t)count * 3 * sizeof *m);
  if (!m) {
    fprintf(stderr, "narwhal: lu: out of memory for a batched update's pointers\n");
    exit(1);
  }
  for (int j = 0; j < count; j++) {
    uint64_t i, k;
    update_block(c, subtasks[j], &i, &k);
    const nw_gpu_view *v = views[j];
    m[j] = nw_gpu_view_at(&v[LU_UPDATE_M], block_at(c, i, k));
    m[count + j] = nw_gpu_view_at(&v[LU_UPDATE_C], packed_at(c, i));
    m[2 * count + j] = nw_gpu_view_at(&v[LU_UPDATE_R], packed_at(c, k));
  }
  nw_lu_cuda_update_batch((int)c->b, m, m + count, m + 2 * count, count, stream);
  free(m);
}

static double update_flops(const nw_task_info *t, uint64_t subtask, nw_device_kind kind) {
  (void)subtask;
  (void)kind;
  double b = (double)((const lu_conf *)t->conf)->b;
  return 2.0 * b * b * b;
}

static void lu_cuda_init(void) {
  nw_lu_cuda_init();
}

/* No cpu_work_item: a work-group runs each block whole, on one core. */
const nw_task_kind nw_lu_diag_kind = {
    .name = "lu-diag",
    .subscribe = diag_subscribe,
    .cpu_kernel = diag_cpu,
    .flops = diag_flops,
    .cuda_kernel = diag_cuda,
    .gpu_emulated_kernel = diag_gpu_emulated,
    .cuda_thread_init = lu_cuda_init,
};

const nw_task_kind nw_lu_step_kind = {
    .name = "lu-step",
    .subscribe = diag_subscribe,
    .cpu_kernel = diag_cpu,
    .flops = diag_flops,
    .cuda_kernel = diag_cuda,
    .gpu_emulated_kernel = diag_gpu_emulated,
    .cuda_thread_init = lu_cuda_init,
    .spawn = lu_step_spawn,
};

const nw_task_kind nw_lu_panel_kind = {
    .name = "lu-panel",
    .subscribe = panel_subscribe,
    .cpu_kernel = panel_cpu,
    .flops = panel_flops,
    .cuda_kernel = panel_cuda,
    .gpu_emulated_kernel = panel_gpu_emulated,
    .cuda_thread_init = lu_cuda_init,
};

const nw_task_kind nw_lu_update_kind = {
    .name = "lu-update",
    .subscribe = update_subscribe,
    .cpu_kernel = update_cpu,
    .flops = update_flops,
    .cuda_kernel = update_cuda,
    .gpu_emulated_kernel = update_gpu_emulated,
    .cuda_batch_kernel = update_cuda_batch,
    .gpu_emulated_batch_kernel = update_gpu_emulated_batch,
    .cuda_thread_init = lu_cuda_init,
};
