/* conv2d.h: image filtering, the paper's image convolution benchmark (Fig. 10). */
#ifndef NW_APP_CONV2D_H
#define NW_APP_CONV2D_H

#include "narwhal_app.h"

/* The box filter's radius and the image's channels when no --app-param sets them: each output
 * value is the sum of the (2R+1) x (2R+1) input values of its channel around it (zero outside
 * the image). The paper's configuration ("The Unicorn Runtime", section 5.1: a 24-bit RGB
 * image, a 31x31 filter) is radius=15 channels=3. */
#define CONV2D_RADIUS_DEFAULT 2
#define CONV2D_RADIUS_MAX 64
#define CONV2D_CHANNELS_DEFAULT 1
#define CONV2D_CHANNELS_MAX 4

/* With --app-param channel_bytes=1 a channel is an unsigned byte, as in the paper's 24-bit
 * image, instead of a float: the image moves a quarter of the bytes. The flag rides in the
 * conf's `channels` above the count, so the conf keeps its 16 bytes. A byte channel's output is
 * the neighbourhood's mean, (sum + area / 2) / area over the whole (2R+1)^2 area (zero outside
 * the image), which fits a byte again. */
#define CONV2D_BYTE_CHANNELS 0x8000u

/* 16 bytes, as it was before the radius and channels became options: the task's conf travels
 * in its creation message, so a default run sends exactly the bytes the recorded sweeps
 * measured. b fits 32 bits because it divides n <= 2^20 (nw_app_check_grid). */
typedef struct conv2d_conf {
  uint64_t n;        /* image n x n pixels */
  uint32_t b;        /* tiles b x b pixels (one subtask each) */
  uint16_t radius;   /* filter (2 radius + 1)^2 */
  uint16_t channels; /* values per pixel, interleaved, | CONV2D_BYTE_CHANNELS for bytes */
} conv2d_conf;

/* Two tile sizes (the paper's Fig. 11, "heterogeneous subtasks"): with --app-param
 * bottom_block=B2 the image's top half is cut into b x b tiles and its bottom half into B2 x B2
 * ones. The task's conf is then this struct, 24 bytes; a run of one tile size sends
 * conv2d_conf alone, the 16 bytes it always sent. */
typedef struct conv2d_conf2 {
  conv2d_conf c;
  uint64_t bottom; /* the bottom half's tile side, pixels */
} conv2d_conf2;

/* The conf's channels per pixel, and its bytes per pixel. */
static inline uint64_t conv2d_channels(const conv2d_conf *c) {
  return c->channels & ~CONV2D_BYTE_CHANNELS;
}
static inline uint64_t conv2d_pixel_bytes(const conv2d_conf *c) {
  return conv2d_channels(c) * (c->channels & CONV2D_BYTE_CHANNELS ? 1 : sizeof(float));
}

/* One subtask's tile: its top-left pixel and its side. */
typedef struct conv2d_tile_pos {
  uint64_t y0, x0, side;
} conv2d_tile_pos;

/* Subtask s's tile under a task's conf (conf_size bytes: a conv2d_conf or a conv2d_conf2).
 * Tiles are numbered row by row, left to right: the top half's first, then the bottom half's;
 * with one size, over the whole image. */
conv2d_tile_pos conv2d_tile_at(const void *conf, size_t conf_size, uint64_t s);
/* How many subtasks (tiles) that conf has. */
uint64_t conv2d_subtasks(const void *conf, size_t conf_size);

/* Filters the h x w rectangle whose top-left pixel is (y0, x0) of an n x n image of ch
 * interleaved channels (a tile, or a band of a tile's rows for a work-item) with a box of
 * radius r. `in` points at input pixel (r0, c0), rows ldi floats apart, and holds at least the
 * rectangle's rows and columns widened by the radius (clipped to the image); `out` points at
 * the rectangle's top-left output pixel, rows ldo floats apart. A node's kernels and the
 * single-process reference all call it, so both add in the same order. */
void conv2d_tile(uint64_t n, uint64_t r, uint64_t ch, uint64_t h, uint64_t w, uint64_t y0,
                 uint64_t x0, const float *in, uint64_t r0, uint64_t c0, uint64_t ldi, float *out,
                 uint64_t ldo);

/* conv2d_tile for byte channels: the same rectangle, rows ldi and ldo bytes apart, each output
 * the rounded mean of its neighbourhood. */
void conv2d_tile_u8(uint64_t n, uint64_t r, uint64_t ch, uint64_t h, uint64_t w, uint64_t y0,
                    uint64_t x0, const uint8_t *in, uint64_t r0, uint64_t c0, uint64_t ldi,
                    uint8_t *out, uint64_t ldo);

/* The rectangle of conf c's image at (y0, x0), h x w pixels, filtered from `in` (input pixel
 * (r0, c0)) into `out`, rows ldi and ldo bytes apart, in the conf's channel type. */
void conv2d_rect(const conv2d_conf *c, uint64_t h, uint64_t w, uint64_t y0, uint64_t x0,
                 const void *in, uint64_t r0, uint64_t c0, uint64_t ldi, void *out, uint64_t ldo);

/* The input rows [*r0, *r1) and pixel columns [*c0, *c1) that tile p of the configuration
 * reads: the tile widened by the radius, clipped to the image. */
void conv2d_halo(const conv2d_conf *c, conv2d_tile_pos p, uint64_t *r0, uint64_t *r1, uint64_t *c0,
                 uint64_t *c1);

extern const nw_task_kind nw_conv2d_kind;
extern const nw_app nw_conv2d_app;

#endif
