/* conv2d.h: image filtering, the paper's image convolution benchmark (Fig. 10). */
#ifndef NW_APP_CONV2D_H
#define NW_APP_CONV2D_H

#include "narwhal_app.h"

/* The box filter's radius: each output pixel is the sum of the (2R+1) x (2R+1) input pixels
 * around it (zero outside the image). Fixed, so that the filter needs no option of its own. */
#define CONV2D_RADIUS 2

typedef struct conv2d_conf {
  uint64_t n, b; /* image n x n floats, tiles b x b (one subtask each) */
} conv2d_conf;

/* Filters the h x w rectangle whose top-left pixel is (y0, x0) of an n x n image (a tile, or
 * a band of a tile's rows for a work-item). `in` points at input pixel (r0, c0), rows ldi
 * floats apart, and holds at least the rectangle's rows and columns widened by the radius
 * (clipped to the image); `out` points at the rectangle's top-left output pixel, rows ldo
 * floats apart. A node's kernels and the single-process reference all call it. */
void conv2d_tile(uint64_t n, uint64_t h, uint64_t w, uint64_t y0, uint64_t x0, const float *in,
                 uint64_t r0, uint64_t c0, uint64_t ldi, float *out, uint64_t ldo);

/* The input rows [*r0, *r1) and columns [*c0, *c1) that subtask s of the configuration reads:
 * its tile widened by the radius, clipped to the image. */
void conv2d_halo(const conv2d_conf *c, uint64_t s, uint64_t *r0, uint64_t *r1, uint64_t *c0,
                 uint64_t *c1);

extern const nw_task_kind nw_conv2d_kind;
extern const nw_app nw_conv2d_app;

#endif
