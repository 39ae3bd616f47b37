/* cholesky_views.h: what the Cholesky's and the LU variant's task kinds share: a whole tile's
 * subscription, the tile in a CPU or GPU view, and the cost model's units.
 *
 * Every bound space is one whole tile, subscribed whole: the CPU view of a tile is the tile
 * (leading dimension b), and a GPU view holds its subscription's bounding rectangle packed
 * (narwhal.h, nw_gpu_view), which for a whole tile is the tile again, its leading dimension the
 * view's pitch. So the CPU kernel, the modelled GPU's emulation and the CUDA kernel make the
 * same call on different pointers.
 */
#ifndef NW_APP_CHOLESKY_VIEWS_H
#define NW_APP_CHOLESKY_VIEWS_H

#include "cholesky.h"

#define CHOL_F ((uint64_t)sizeof(float))

static inline nw_status chol_sub_tile(nw_subscriber *s, int space, nw_access acc,
                                      const nw_task_info *t) {
  uint64_t b = ((const chol_conf *)t->conf)->b;
  return nw_subscribe(s, space, acc, 0, b * CHOL_F, b * CHOL_F, b);
}

static inline float *chol_cpu_tile(const nw_view *v, int space) {
  return nw_view_at(&v[space], 0);
}

static inline float *chol_gpu_tile(const nw_gpu_view *v, int space) {
  return nw_gpu_view_at(&v[space], 0);
}

static inline int chol_gpu_ld(const nw_gpu_view *v, int space) {
  return (int)(v[space].pitch / CHOL_F);
}

static inline int chol_side(const nw_task_info *t) {
  return (int)((const chol_conf *)t->conf)->b;
}

/* b^3, the unit of every kind's flops. */
static inline double chol_cube(const nw_task_info *t) {
  double b = (double)((const chol_conf *)t->conf)->b;
  return b * b * b;
}

/* The bytes of `tiles` tiles moved between memory and a device. */
static inline double chol_tiles_bytes(const nw_task_info *t, double tiles) {
  double b = (double)((const chol_conf *)t->conf)->b;
  return tiles * b * b * (double)CHOL_F;
}

#endif
