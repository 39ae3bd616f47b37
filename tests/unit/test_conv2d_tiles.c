/* test_conv2d_tiles.c: conv2d's tiles with two sizes (--app-param bottom_block, the Unicorn
 * paper's Fig. 11): the subtask count, each tile's place and side, every pixel of the image in
 * exactly one tile, the bottom half's tiles four times the top's work at twice the side, and a
 * run of one size numbered as it always was (a 16-byte conf); byte channels (channel_bytes=1):
 * a pixel's bytes, the flops of the float image's, and the filter's rounded means by hand. */
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

  /* Byte channels: 3 bytes a pixel where the floats take 12, the same flops. */
  conv2d_conf rgb = {.n = 96, .b = 32, .radius = 15, .channels = 3};
  conv2d_conf rgb8 = rgb;
  rgb8.channels |= CONV2D_BYTE_CHANNELS;
  CHECK(conv2d_channels(&rgb8) == 3 && conv2d_pixel_bytes(&rgb8) == 3);
  CHECK(conv2d_pixel_bytes(&rgb) == 12);
  CHECK(flops_of(&rgb8, sizeof rgb8, 4) == flops_of(&rgb, sizeof rgb, 4));
  /* A 3 x 3 image of one channel, radius 1 (area 9, zero outside): the corner (0, 0) sums
   * 10 + 20 + 40 + 50 = 120, 120 / 9 = 13.3 -> 13; the centre sums all 450 -> 50; the edge
   * (1, 2) sums 20 + 30 + 50 + 60 + 80 + 90 = 330 -> 36.7 -> 37 (rounded, not truncated). */
  const uint8_t img[9] = {10, 20, 30, 40, 50, 60, 70, 80, 90};
  uint8_t res[9] = {0};
  conv2d_conf tiny = {.n = 3, .b = 3, .radius = 1, .channels = 1 | CONV2D_BYTE_CHANNELS};
  conv2d_rect(&tiny, 3, 3, 0, 0, img, 0, 0, 3, res, 3);
  CHECK(res[0] == 13 && res[4] == 50 && res[5] == 37);
  /* The same rectangle cut in two bands (a work-group's items) gives the same bytes. */
  uint8_t band[9] = {0};
  conv2d_rect(&tiny, 1, 3, 0, 0, img, 0, 0, 3, band, 3);
  conv2d_rect(&tiny, 2, 3, 1, 0, img, 0, 0, 3, band + 3, 3);
  int same = 1;
  for (int i = 0; i < 9; i++)
    same &= band[i] == res[i];
  CHECK(same);
  return check_report("conv2d_tiles");
}
