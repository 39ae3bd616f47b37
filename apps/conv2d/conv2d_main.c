/* conv2d_main.c: the conv2d application's driver: an image of small integers, its tiles
 * spread over the nodes, one task that filters every tile, and a bit-for-bit check against a
 * single-process reference.
 *
 * Inputs are integers in [-4, 4], so every sum of at most (2R+1)^2 of them (129^2 * 4 < 2^24 at
 * the largest radius) is exact in float whatever the order: the distributed result must equal
 * the reference bit for bit, and any halo byte that arrives wrong, late or stale shows. Byte
 * channels (channel_bytes=1) hold any byte and are filtered in integers: exact as well.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../common/inputs.h"
#include "../common/place.h"
#include "conv2d.h"

/* Reads --app-param radius, channels, channel_bytes and bottom_block into conf (defaults otherwise:
 * one tile size, bottom 0); 0, or -1 with a one-line reason. The grid must be checked first. */
static int conv2d_params(const nw_app_args *a, conv2d_conf2 *conf, char *why, size_t len) {
  uint64_t radius, channels, channel_bytes, bottom, n = a->n, b = a->block;
  if (nw_app_param_keys(a, "conv2d", "radius,channels,channel_bytes,bottom_block", why, len) != 0 ||
      nw_app_param_uint(a, "conv2d", "radius", 1, CONV2D_RADIUS_MAX, CONV2D_RADIUS_DEFAULT, &radius,
                        why, len) != 0 ||
      nw_app_param_uint(a, "conv2d", "channels", 1, CONV2D_CHANNELS_MAX, CONV2D_CHANNELS_DEFAULT,
                        &channels, why, len) != 0 ||
      nw_app_param_uint(a, "conv2d", "channel_bytes", 1, 4, 4, &channel_bytes, why, len) != 0 ||
      nw_app_param_uint(a, "conv2d", "bottom_block", 1, n / 2, 0, &bottom, why, len) != 0)
    return -1;
  if (channel_bytes != 1 && channel_bytes != 4) {
    snprintf(why, len, "conv2d: channel_bytes %llu: 1 (a byte a channel) or 4 (a float)",
             (unsigned long long)channel_bytes);
    return -1;
  }
  /* Both halves whole tiles of their size: n / 2 a multiple of each side. */
  if (bottom && (n % 2 || (n / 2) % b || (n / 2) % bottom)) {
    snprintf(why, len,
             "conv2d: --n %llu / 2 must be a multiple of --block %llu and of bottom_block %llu",
             (unsigned long long)n, (unsigned long long)b, (unsigned long long)bottom);
    return -1;
  }
  if (bottom && n / bottom > 4096) {
    snprintf(why, len, "conv2d: --n %llu / bottom_block %llu gives more than 4096 tiles a row",
             (unsigned long long)n, (unsigned long long)bottom);
    return -1;
  }
  conf->c.n = n;
  conf->c.b = (uint32_t)b;
  conf->c.radius = (uint16_t)radius;
  conf->c.channels = (uint16_t)(channels | (channel_bytes == 1 ? CONV2D_BYTE_CHANNELS : 0));
  conf->bottom = bottom;
  return 0;
}

/* The conf the task sends: conv2d_conf alone with one tile size (conv2d.h). */
static size_t conf_size(const conv2d_conf2 *conf) {
  return conf->bottom ? sizeof *conf : sizeof conf->c;
}

static nw_status conv2d_check(const nw_app_args *a, char *why, size_t why_len) {
  conv2d_conf2 conf;
  nw_status st = nw_app_check_grid("conv2d", a, why, why_len);
  if (st == NW_OK && conv2d_params(a, &conf, why, why_len))
    return NW_ERR_ARG;
  return st;
}

/* The reference filters the image in --block tiles whatever the run's tiles (bottom_block):
 * each output value is the same sum in the same order however the image is cut, so a tile
 * the run left out, wrote twice or placed wrong shows as a difference. */
static nw_status verify(nw_space *out_space, const unsigned char *in, const conv2d_conf *c,
                        int *equal) {
  uint64_t n = c->n, b = c->b, px = conv2d_pixel_bytes(c), row = n * px, bytes = n * row;
  unsigned char *out = malloc(bytes), *ref = malloc(bytes);
  nw_status st = (out && ref) ? nw_space_read(out_space, 0, out, bytes) : NW_ERR_NOMEM;
  if (st == NW_OK) {
    for (uint64_t y0 = 0; y0 < n; y0 += b)
      for (uint64_t x0 = 0; x0 < n; x0 += b)
        conv2d_rect(c, b, b, y0, x0, in, 0, 0, row, ref + y0 * row + x0 * px, row);
    *equal = memcmp(out, ref, bytes) == 0;
  }
  free(out);
  free(ref);
  return st;
}

static nw_status conv2d_main(nw_runtime *rt, const nw_app_args *args, nw_app_outcome *out) {
  conv2d_conf2 conf2 = {0};
  char why[160];
  if (conv2d_params(args, &conf2, why, sizeof why))
    return NW_ERR_ARG; /* conv2d_check has said why */
  conv2d_conf conf = conf2.c;
  uint64_t n = conf.n, b = conf.b, px = conv2d_pixel_bytes(&conf), row = n * px, bytes = n * row;
  int functional = nw_runtime_functional(rt);
  out->verified = -1; /* phantom mode has no bytes to check; the tool rejects --verify there */
  nw_space *in_space = NULL, *out_space = NULL;
  nw_task *task = NULL;
  unsigned char *in = NULL;
  nw_status st = nw_space_create(rt, bytes, row, &in_space);
  if (st == NW_OK)
    st = nw_space_create(rt, bytes, row, &out_space);
  if (st == NW_OK && functional) {
    in = malloc(bytes);
    st = in ? NW_OK : NW_ERR_NOMEM;
    if (st == NW_OK) {
      if (conf.channels & CONV2D_BYTE_CHANNELS)
        nw_app_fill_bytes(in, bytes, args->seed);
      else
        nw_app_fill_small_ints((float *)in, n * n * conv2d_channels(&conf), args->seed);
      st = nw_space_write(in_space, 0, in, bytes);
    }
  }
  /* Each input tile (or row or column of tiles: --placement) on a random node (paper section
   * 5's set-up); the output starts on node 0 and each tile's ownership moves to the node that
   * writes it. */
  if (st == NW_OK && args->spread && nw_runtime_nodes(rt) > 1)
    st = nw_app_place_pixel_blocks(rt, in_space, n, b, px, args->seed, args->placement);
  if (st == NW_OK)
    st = nw_task_create(rt, &nw_conv2d_kind, conv2d_subtasks(&conf2, conf_size(&conf2)), &conf2,
                        conf_size(&conf2), &task);
  if (st == NW_OK)
    st = nw_task_bind(task, in_space, NW_READ_ONLY);
  if (st == NW_OK)
    st = nw_task_bind(task, out_space, NW_WRITE_ONLY);
  if (st == NW_OK)
    st = nw_task_submit(task);
  if (st == NW_OK)
    st = nw_task_wait(task);
  if (st == NW_OK && functional && args->verify != 0) {
    int equal = 0;
    st = verify(out_space, in, &conf, &equal);
    out->verified = equal;
  }
  nw_task_destroy(task);
  nw_space_destroy(in_space);
  nw_space_destroy(out_space);
  free(in);
  return st;
}

const nw_app nw_conv2d_app = {
    .name = "conv2d",
    .kinds = (const nw_task_kind *const[]){&nw_conv2d_kind, NULL},
    .check_args = conv2d_check,
    .main = conv2d_main,
};
