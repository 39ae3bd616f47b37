/* real_staging.c: the staging pipeline of narrow-row GPU copies (see real_staging.h). */
#include "real_staging.h"

#include <string.h>

void real_staging_pack(unsigned char *dst, const unsigned char *src, uint64_t src_pitch,
                       uint64_t rows, uint64_t width) {
  for (uint64_t r = 0; r < rows; r++)
    memcpy(dst + r * width, src + r * src_pitch, (size_t)width);
}

void real_staging_unpack(unsigned char *dst, uint64_t dst_pitch, const unsigned char *src,
                         uint64_t rows, uint64_t width) {
  for (uint64_t r = 0; r < rows; r++)
    memcpy(dst + r * dst_pitch, src + r * width, (size_t)width);
}

int real_staging_wanted(uint64_t rows, uint64_t width, uint64_t host_pitch) {
  return rows > 1 && width < REAL_STAGING_ROW_MAX && host_pitch != width;
}

real_staging_mode real_staging_mode_parse(const char *value) {
  if (value && !strcmp(value, "on"))
    return REAL_STAGING_ON;
  if (value && !strcmp(value, "kernel"))
    return REAL_STAGING_KERNEL;
  return REAL_STAGING_OFF;
}

real_copy_path_t real_copy_path(real_staging_mode mode, int narrow, int gatherable) {
  if (narrow && mode == REAL_STAGING_ON)
    return REAL_COPY_STAGED;
  if (narrow && mode == REAL_STAGING_KERNEL && gatherable)
    return REAL_COPY_KERNEL;
  return REAL_COPY_2D;
}

/* The chunks: `per` whole rows each, the last one possibly fewer. */
typedef struct {
  uint64_t rows, width, per;
} chunking;

static uint64_t chunk_rows(const chunking *c, uint64_t k) {
  uint64_t first = k * c->per;
  return c->rows - first < c->per ? c->rows - first : c->per;
}

/* Host to device: a buffer is packed again only once its previous transfer has finished; the
 * other buffer's transfer runs meanwhile. */
static int copy_in(const real_staging_ops *ops, void *ctx, const chunking *c, unsigned char *dev,
                   const unsigned char *host, uint64_t host_pitch, unsigned char *const stage[2],
                   int pending[2]) {
  uint64_t chunks = (c->rows + c->per - 1) / c->per;
  for (uint64_t k = 0; k < chunks; k++) {
    int b = (int)(k & 1);
    if (pending[b]) {
      pending[b] = 0;
      int rc = ops->wait(ctx, b);
      if (rc)
        return rc;
    }
    uint64_t first = k * c->per, n = chunk_rows(c, k);
    real_staging_pack(stage[b], host + first * host_pitch, host_pitch, n, c->width);
    int rc = ops->start(ctx, b, 1, dev + first * c->width, stage[b], n * c->width);
    if (rc)
      return rc;
    pending[b] = 1;
  }
  return 0;
}

/* Device to host: the next chunk's transfer into the other buffer (whose previous chunk was
 * unpacked in the step before) is started before this chunk is waited for and unpacked. */
static int copy_out(const real_staging_ops *ops, void *ctx, const chunking *c, unsigned char *dev,
                    unsigned char *host, uint64_t host_pitch, unsigned char *const stage[2],
                    int pending[2]) {
  uint64_t chunks = (c->rows + c->per - 1) / c->per;
  int rc = ops->start(ctx, 0, 0, dev, stage[0], chunk_rows(c, 0) * c->width);
  if (rc)
    return rc;
  pending[0] = 1;
  for (uint64_t k = 0; k < chunks; k++) {
    int b = (int)(k & 1);
    if (k + 1 < chunks) {
      uint64_t next = (k + 1) * c->per;
      rc = ops->start(ctx, 1 - b, 0, dev + next * c->width, stage[1 - b],
                      chunk_rows(c, k + 1) * c->width);
      if (rc)
        return rc;
      pending[1 - b] = 1;
    }
    pending[b] = 0;
    rc = ops->wait(ctx, b);
    if (rc)
      return rc;
    uint64_t first = k * c->per;
    real_staging_unpack(host + first * host_pitch, host_pitch, stage[b], chunk_rows(c, k),
                        c->width);
  }
  return 0;
}

int real_staging_copy(const real_staging_ops *ops, void *ctx, int to_device, unsigned char *dev,
                      unsigned char *host, uint64_t host_pitch, uint64_t rows, uint64_t width,
                      unsigned char *const stage[2], uint64_t stage_bytes) {
  if (rows == 0 || width == 0)
    return 0;
  if (width > stage_bytes)
    return -1;
  chunking c = {rows, width, stage_bytes / width};
  int pending[2] = {0, 0};
  int rc = to_device ? copy_in(ops, ctx, &c, dev, host, host_pitch, stage, pending)
                     : copy_out(ops, ctx, &c, dev, host, host_pitch, stage, pending);
  /* Every transfer still in flight ends before the buffers go back to the caller, on success
   * (host to device leaves the last two running) and on failure alike. */
  for (int b = 0; b < 2; b++) {
    if (pending[b]) {
      int w = ops->wait(ctx, b);
      if (!rc)
        rc = w;
    }
  }
  return rc;
}
