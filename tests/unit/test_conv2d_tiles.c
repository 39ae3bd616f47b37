/* test_conv2d_tiles.c: conv2d's tiles with two sizes (--app-param bottom_block, the Unicorn
 * paper's Fig. 11): the subtask count, each tile's place and side, every pixel of the image in
 * exactly one tile, the bottom half's tiles four times the top's work at twice the side, and a
 * run of one size numbered as it always was (a 16-byte conf). */
#include <stdlib.h>

#include "check.h"
#include "conv2d/conv2d.h"

/* Whether the tiles of conf cover the n x n image exactly once each pixel. */
static int partition(const void *conf, size_t size, uint64_t n) {
  unsigned char *seen = calloc(n * n, 1);
  int ok = seen != NULL;
  uint64_t count = conv2d_subtasks(conf, size);
  for (uint64_t s = 0; ok && s < count; s++) {
    conv2d_tile_pos p = conv2d_tile_at(conf, size, s);
    for (uint64_t y = p.y0; ok && y < p.y0 + p.side; y++)
      for (uint64_t x = p.x0; ok && x < p.x0 + p.side; x++)
        ok = y < n && x < n && seen[y * n + x]++ == 0;
  }
  for (uint64_t i = 0; ok && i < n * n; i++)
    ok = seen[i] == 1;
  free(seen);
  return ok;
}

static double flops_of(const void *conf, size_t size, uint64_t s) {
  nw_task_info t = {.conf = conf, .conf_size = size, .subtasks = conv2d_subtasks(conf, size)};
  return nw_conv2d_kind.flops(&t, s, NW_DEVICE_CPU);
}

int main(void) {
  /* The paper's shape at 1/256 of its side: 512 tiles of 8 above, 128 of 16 below. */
  conv2d_conf2 two = {{.n = 256, .b = 8, .radius = 2, .channels = 1}, 16};
  CHECK(conv2d_subtasks(&two, sizeof two) == 640);
  conv2d_tile_pos p = conv2d_tile_at(&two, sizeof two, 511); /* the top half's last */
  CHECK(p.y0 == 120 && p.x0 == 248 && p.side == 8);
  p = conv2d_tile_at(&two, sizeof two, 512); /* the bottom half's first */
  CHECK(p.y0 == 128 && p.x0 == 0 && p.side == 16);
  p = conv2d_tile_at(&two, sizeof two, 529); /* its second row's second */
  CHECK(p.y0 == 144 && p.x0 == 16 && p.side == 16);
  p = conv2d_tile_at(&two, sizeof two, 639);
  CHECK(p.y0 == 240 && p.x0 == 240 && p.side == 16);
  CHECK(partition(&two, sizeof two, 256));
  CHECK(flops_of(&two, sizeof two, 512) == 4 * flops_of(&two, sizeof two, 0));
  CHECK(flops_of(&two, sizeof two, 0) == 2.0 * 25 * 8 * 8);

  /* Smaller tiles below than above. */
  conv2d_conf2 finer = {{.n = 96, .b = 48, .radius = 1, .channels = 2}, 8};
  CHECK(conv2d_subtasks(&finer, sizeof finer) == 2 + 6 * 12);
  CHECK(partition(&finer, sizeof finer, 96));

  /* One size: the 16-byte conf, tiles row-major over the whole image, as before. */
  conv2d_conf one = {.n = 96, .b = 32, .radius = 2, .channels = 1};
  CHECK(conv2d_subtasks(&one, sizeof one) == 9);
  p = conv2d_tile_at(&one, sizeof one, 5);
  CHECK(p.y0 == 32 && p.x0 == 64 && p.side == 32);
  CHECK(partition(&one, sizeof one, 96));
  return check_report("conv2d_tiles");
}
