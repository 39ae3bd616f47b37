/* conv2d_kind.c: the conv2d task kind: subscriptions, kernels, cost model.
 *
 * Subtask s filters tile (s / tiles, s % tiles) of the image (with two tile sizes, the top
 * half's tiles come first, then the bottom half's: conv2d_tile_at). It reads its tile plus a halo
 * of radius pixels on each side, clipped to the image: one quad whose step is the row pitch, so one
 * rectangle in the directory (core/data/region.h). It writes its output tile (b segments of b
 * pixels). A pixel is `channels` interleaved floats (or bytes: CONV2D_BYTE_CHANNELS), so a channel
 * costs no extra subscription: the rectangles only widen. With the input tiles spread over the
 * nodes, nearly all of a subtask's data sits on the node owning its tile, which is what
 * locality-aware scheduling (paper 4.3.4) can exploit and a locality-oblivious split cannot.
 */
#include "conv2d.h"

/* The bottom half's tile side, 0 with one size. */
static uint64_t bottom_of(const void *conf, size_t conf_size) {
  return conf_size >= sizeof(conv2d_conf2) ? ((const conv2d_conf2 *)conf)->bottom : 0;
}

/* Tile s of those of side b that cut the image's rows from y on, numbered row-major from 0. */
static conv2d_tile_pos in_band(uint64_t n, uint64_t b, uint64_t y, uint64_t s) {
  uint64_t tiles = n / b;
  return (conv2d_tile_pos){y + s / tiles * b, s % tiles * b, b};
}

conv2d_tile_pos conv2d_tile_at(const void *conf, size_t conf_size, uint64_t s) {
  const conv2d_conf *c = conf;
  uint64_t bottom = bottom_of(conf, conf_size);
  if (!bottom)
    return in_band(c->n, c->b, 0, s);
  uint64_t top = c->n / 2 / c->b * (c->n / c->b);
  return s < top ? in_band(c->n, c->b, 0, s) : in_band(c->n, bottom, c->n / 2, s - top);
}

uint64_t conv2d_subtasks(const void *conf, size_t conf_size) {
  const conv2d_conf *c = conf;
  uint64_t bottom = bottom_of(conf, conf_size), n = c->n, b = c->b;
  return bottom ? n / 2 / b * (n / b) + n / 2 / bottom * (n / bottom) : (n / b) * (n / b);
}

void conv2d_halo(const conv2d_conf *c, conv2d_tile_pos p, uint64_t *r0, uint64_t *r1, uint64_t *c0,
                 uint64_t *c1) {
  uint64_t R = c->radius;
  *r0 = p.y0 >= R ? p.y0 - R : 0;
  *c0 = p.x0 >= R ? p.x0 - R : 0;
  *r1 = p.y0 + p.side + R < c->n ? p.y0 + p.side + R : c->n;
  *c1 = p.x0 + p.side + R < c->n ? p.x0 + p.side + R : c->n;
}

/* The box filter over an h x w rectangle, for both channel types: each output value is STORE of
 * the SUM_T sum of its channel's (2r+1)^2 neighbourhood, clipped to the image, added row by
 * row in the same order for every caller (so the distributed result equals the reference). */
#define CONV2D_BOX(SUM_T, STORE)                                                                   \
  for (uint64_t y = y0; y < y0 + h; y++) {                                                         \
    uint64_t ylo = y >= r ? y - r : 0, yhi = y + r < n ? y + r : n - 1;                            \
    for (uint64_t x = x0; x < x0 + w; x++) {                                                       \
      uint64_t xlo = x >= r ? x - r : 0, xhi = x + r < n ? x + r : n - 1;                          \
      for (uint64_t k = 0; k < ch; k++) {                                                          \
        SUM_T sum = 0;                                                                             \
        for (uint64_t yy = ylo; yy <= yhi; yy++)                                                   \
          for (uint64_t xx = xlo; xx <= xhi; xx++)                                                 \
            sum += in[(yy - r0) * ldi + (xx - c0) * ch + k];                                       \
        out[(y - y0) * ldo + (x - x0) * ch + k] = STORE;                                           \
      }                                                                                            \
    }                                                                                              \
  }

void conv2d_tile(uint64_t n, uint64_t r, uint64_t ch, uint64_t h, uint64_t w, uint64_t y0,
                 uint64_t x0, const float *in, uint64_t r0, uint64_t c0, uint64_t ldi, float *out,
                 uint64_t ldo) {
  CONV2D_BOX(float, sum)
}

void conv2d_tile_u8(uint64_t n, uint64_t r, uint64_t ch, uint64_t h, uint64_t w, uint64_t y0,
                    uint64_t x0, const uint8_t *in, uint64_t r0, uint64_t c0, uint64_t ldi,
                    uint8_t *out, uint64_t ldo) {
  uint32_t area = (uint32_t)((2 * r + 1) * (2 * r + 1)); /* <= 129^2: sums fit 32 bits */
  CONV2D_BOX(uint32_t, (uint8_t)((sum + area / 2) / area))
}

void conv2d_rect(const conv2d_conf *c, uint64_t h, uint64_t w, uint64_t y0, uint64_t x0,
                 const void *in, uint64_t r0, uint64_t c0, uint64_t ldi, void *out, uint64_t ldo) {
  if (c->channels & CONV2D_BYTE_CHANNELS)
    conv2d_tile_u8(c->n, c->radius, conv2d_channels(c), h, w, y0, x0, in, r0, c0, ldi, out, ldo);
  else
    conv2d_tile(c->n, c->radius, conv2d_channels(c), h, w, y0, x0, in, r0, c0, ldi / sizeof(float),
                out, ldo / sizeof(float));
}

static conv2d_tile_pos tile_of(const nw_task_info *t, uint64_t subtask) {
  return conv2d_tile_at(t->conf, t->conf_size, subtask);
}

static nw_status conv2d_subscribe(nw_subscriber *s, const nw_task_info *t, uint64_t subtask) {
  const conv2d_conf *c = t->conf;
  conv2d_tile_pos p = tile_of(t, subtask);
  uint64_t px = conv2d_pixel_bytes(c), pitch = c->n * px, r0, r1, c0, c1;
  conv2d_halo(c, p, &r0, &r1, &c0, &c1);
  nw_status st =
      nw_subscribe(s, 0, NW_READ_ONLY, r0 * pitch + c0 * px, (c1 - c0) * px, pitch, r1 - r0);
  if (st == NW_OK)
    st = nw_subscribe(s, 1, NW_WRITE_ONLY, p.y0 * pitch + p.x0 * px, p.side * px, pitch, p.side);
  return st;
}

static void conv2d_cpu(const nw_task_info *t, uint64_t subtask, const nw_view *v) {
  const conv2d_conf *c = t->conf;
  conv2d_tile_pos p = tile_of(t, subtask);
  uint64_t px = conv2d_pixel_bytes(c), pitch = c->n * px, r0, r1, c0, c1;
  conv2d_halo(c, p, &r0, &r1, &c0, &c1);
  conv2d_rect(c, p.side, p.side, p.y0, p.x0, nw_view_at(&v[0], r0 * pitch + c0 * px), r0, c0, pitch,
              nw_view_at(&v[1], p.y0 * pitch + p.x0 * px), pitch);
}

/* Work-item `item` of `items` (paper 4.3.1): its own band of the tile's rows. */
static void conv2d_cpu_item(const nw_task_info *t, uint64_t subtask, int item, int items,
                            const nw_view *v) {
  const conv2d_conf *c = t->conf;
  conv2d_tile_pos p = tile_of(t, subtask);
  uint64_t px = conv2d_pixel_bytes(c), pitch = c->n * px, r0, r1, c0, c1;
  conv2d_halo(c, p, &r0, &r1, &c0, &c1);
  uint64_t top = p.y0 + p.side * (uint64_t)item / (uint64_t)items;
  uint64_t end = p.y0 + p.side * (uint64_t)(item + 1) / (uint64_t)items;
  conv2d_rect(c, end - top, p.side, top, p.x0, nw_view_at(&v[0], r0 * pitch + c0 * px), r0, c0,
              pitch, nw_view_at(&v[1], top * pitch + p.x0 * px), pitch);
}

/* On a (modelled) GPU each view holds only its subscription's rectangle, rows `pitch` bytes
 * apart (narwhal.h, nw_gpu_view). */
static void conv2d_gpu_emulated(const nw_task_info *t, uint64_t subtask, const nw_gpu_view *v) {
  const conv2d_conf *c = t->conf;
  conv2d_tile_pos p = tile_of(t, subtask);
  uint64_t px = conv2d_pixel_bytes(c), pitch = c->n * px, r0, r1, c0, c1;
  conv2d_halo(c, p, &r0, &r1, &c0, &c1);
  conv2d_rect(c, p.side, p.side, p.y0, p.x0, nw_gpu_view_at(&v[0], r0 * pitch + c0 * px), r0, c0,
              v[0].pitch, nw_gpu_view_at(&v[1], p.y0 * pitch + p.x0 * px), v[1].pitch);
}

/* An add per neighbourhood value, counted as a multiply-add as a general convolution would:
 * 2 (2R+1)^2 per output value, `channels` values per pixel. Every factor is an integer and the
 * product stays far below 2^53, so the default (R = 2, one channel) gives the same double as
 * before the options existed. */
static double conv2d_flops(const nw_task_info *t, uint64_t subtask, nw_device_kind kind) {
  (void)kind;
  const conv2d_conf *c = t->conf;
  double side = 2.0 * c->radius + 1, b = (double)tile_of(t, subtask).side;
  return 2.0 * side * side * (double)conv2d_channels(c) * b * b;
}

/* No CUDA kernel: the real backend refuses --devices gpu for this kind; the simulator runs the
 * host emulation above on its modelled GPUs. */
const nw_task_kind nw_conv2d_kind = {
    .name = "conv2d",
    .subscribe = conv2d_subscribe,
    .cpu_kernel = conv2d_cpu,
    .cpu_work_item = conv2d_cpu_item,
    .flops = conv2d_flops,
    .gpu_emulated_kernel = conv2d_gpu_emulated,
};
