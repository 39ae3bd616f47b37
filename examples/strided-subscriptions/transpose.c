/* transpose.c: strided subscriptions. B = A^T for an n x n matrix of 32-bit integers, one
 * subtask per b x b tile: subtask (ty, tx) reads tile (ty, tx) of A and writes tile (tx, ty)
 * of B. A tile is not contiguous in a row-major matrix: it is b pieces of b elements, one per
 * row, each a row pitch further than the last. That is exactly one subscription quad:
 *
 *   nw_subscribe(s, space, access, offset = first byte of the tile's first row,
 *                length = b * 4 (one row of the tile), step = n * 4 (the row pitch),
 *                count = b (rows))
 *
 *   ./transpose --backend sim --platform platforms/small.xml --nodes 4 --n 1024 --block 128
 *   mpirun -np 2 ./transpose --backend real --n 1024 --block 128
 *
 * The check is exact: B[j][i] must be A[i][j], bit for bit. */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>

#include <narwhal.h>

#include "../common/own_options.h"

typedef struct conf {
  uint64_t n, b; /* matrix side, tile side (b divides n) */
} conf;

/* The quad of tile (row r, column c), in tiles, of an n x n matrix of uint32. */
static nw_status subscribe_tile(nw_subscriber *s, int space, nw_access access, const conf *c,
                                uint64_t r, uint64_t col) {
  uint64_t pitch = c->n * sizeof(uint32_t);
  uint64_t offset = r * c->b * pitch + col * c->b * sizeof(uint32_t);
  return nw_subscribe(s, space, access, offset, c->b * sizeof(uint32_t), pitch, c->b);
}

static nw_status subscribe(nw_subscriber *s, const nw_task_info *t, uint64_t i) {
  const conf *c = t->conf;
  uint64_t tiles = c->n / c->b, ty = i / tiles, tx = i % tiles;
  nw_status st = subscribe_tile(s, 0, NW_READ_ONLY, c, ty, tx);
  return st == NW_OK ? subscribe_tile(s, 1, NW_WRITE_ONLY, c, tx, ty) : st;
}

/* Views are addressed with space offsets (nw_view_at), so the kernel indexes the whole matrix
 * and never sees how little of it the view holds: B's write view spans only the b rows of
 * tile (tx, ty), and only the tile's bytes of them are committed. */
static void kernel(const nw_task_info *t, uint64_t i, const nw_view *views) {
  const conf *c = t->conf;
  uint64_t n = c->n, b = c->b, tiles = n / b, y0 = i / tiles * b, x0 = i % tiles * b;
  for (uint64_t y = y0; y < y0 + b; y++) {
    const uint32_t *a = nw_view_at(&views[0], (y * n + x0) * sizeof(uint32_t));
    for (uint64_t x = 0; x < b; x++)
      *(uint32_t *)nw_view_at(&views[1], ((x0 + x) * n + y) * sizeof(uint32_t)) = a[x];
  }
}

static double flops(const nw_task_info *t, uint64_t i, nw_device_kind kind) {
  (void)i, (void)kind;
  const conf *c = t->conf;
  return (double)(c->b * c->b); /* one move per element */
}

static const nw_task_kind tile_transpose = {
    .name = "tile-transpose", .subscribe = subscribe, .cpu_kernel = kernel, .flops = flops};

static nw_status check(const nw_app_args *a, char *why, size_t len) {
  if (a->n == 0 || a->block == 0 || a->n % a->block != 0 || a->n > 4096) {
    snprintf(why, len, "transpose: --block must divide --n, and --n be 1 to 4096");
    return NW_ERR_ARG;
  }
  return NW_OK;
}

static nw_status driver(nw_runtime *rt, const nw_app_args *a, nw_app_outcome *out) {
  uint64_t n = a->n, pitch = n * sizeof(uint32_t), bytes = n * pitch;
  uint32_t *m = malloc(bytes), *got = malloc(bytes);
  nw_space *sa = NULL, *sb = NULL;
  nw_task *t = NULL;
  conf c = {.n = n, .b = a->block};
  nw_status st = m && got ? NW_OK : NW_ERR_NOMEM;
  for (uint64_t k = 0; st == NW_OK && k < n * n; k++)
    m[k] = (uint32_t)(k * 2654435761u + a->seed);
  /* The spaces' pitch is the matrix's row pitch, the step of every quad above: each tile
   * then lies in the runtime's directory as one rectangle (narwhal.h, nw_space_create). */
  if (st == NW_OK)
    st = nw_space_create(rt, bytes, pitch, &sa);
  if (st == NW_OK)
    st = nw_space_create(rt, bytes, pitch, &sb);
  if (st == NW_OK)
    st = nw_space_write(sa, 0, m, bytes);
  if (st == NW_OK)
    st = nw_task_create(rt, &tile_transpose, (n / a->block) * (n / a->block), &c, sizeof c, &t);
  if (st == NW_OK)
    st = nw_task_bind(t, sa, NW_READ_ONLY);
  if (st == NW_OK)
    st = nw_task_bind(t, sb, NW_WRITE_ONLY);
  if (st == NW_OK)
    st = nw_task_submit(t);
  if (st == NW_OK)
    st = nw_task_wait(t);
  out->verified = -1; /* phantom data (--data phantom) has no bytes to compare */
  if (st == NW_OK && nw_runtime_functional(rt) &&
      (st = nw_space_read(sb, 0, got, bytes)) == NW_OK) {
    uint64_t wrong = 0;
    for (uint64_t y = 0; y < n; y++)
      for (uint64_t x = 0; x < n; x++)
        wrong += got[x * n + y] != m[y * n + x];
    out->verified = wrong == 0;
    printf("transpose: %" PRIu64 " x %" PRIu64 " in %" PRIu64 " tiles, %" PRIu64 " wrong\n", n, n,
           (n / a->block) * (n / a->block), wrong);
  }
  if (t)
    nw_task_destroy(t);
  if (sa)
    nw_space_destroy(sa);
  if (sb)
    nw_space_destroy(sb);
  free(m), free(got);
  return st;
}

static const nw_app transpose = {.name = "transpose",
                                 .kinds = (const nw_task_kind *const[]){&tile_transpose, NULL},
                                 .check_args = check,
                                 .main = driver};

int main(int argc, char **argv) {
  int own = 0;
  /* No options of its own: whatever nw_init left (a mistyped Narwhal option) is refused. */
  if (nw_init(&argc, &argv) == NW_OK && (own = own_options(argc, argv, "transpose", NULL)) == 0)
    nw_run_app(&transpose);
  int status = nw_finalize();
  return own == 2 ? 2 : status;
}
