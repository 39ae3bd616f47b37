/* real_staging.h: host<->GPU copies of narrow rows through contiguous staging buffers.
 *
 * A block of a row-major matrix crosses the link as `rows` rows of `width` bytes, its host rows
 * host_pitch bytes apart. As one cudaMemcpy2DAsync such a copy is slow when the rows are short:
 * on an H100, 8 KB rows of a wider matrix moved at ~3 GB/s where one contiguous copy of the same
 * bytes moved at 23 GB/s. So real_gpu.c packs the rows into pinned staging buffers on the host
 * and moves each buffer with one contiguous copy, two buffers alternating so that the CPU packs
 * (or unpacks) one while the DMA engine moves the other.
 *
 * The pipeline here knows nothing of CUDA: it drives a transfer through two callbacks, so that
 * tests/real/test_staging.c checks its order of operations on the host. The device side is
 * packed, as nw_copy's is (core/backend.h): row r of the block at dev + r * width. */
#ifndef NW_REAL_STAGING_H
#define NW_REAL_STAGING_H

#include <stdint.h>

/* Rows at least this wide go as one 2D copy: the slow copies measured were of 8 KB rows, and a
 * row of 64 KiB already keeps the DMA engine busy on its own. Staging buffers must hold one such
 * row less a byte (real_gpu.c's hold 4 MiB). */
#define REAL_STAGING_ROW_MAX 65536

/* Rows of width bytes from src (rows src_pitch apart) one after another into dst. */
void real_staging_pack(unsigned char *dst, const unsigned char *src, uint64_t src_pitch,
                       uint64_t rows, uint64_t width);
/* The reverse: rows of width bytes one after another in src into dst, rows dst_pitch apart;
 * dst's bytes between rows are left alone. */
void real_staging_unpack(unsigned char *dst, uint64_t dst_pitch, const unsigned char *src,
                         uint64_t rows, uint64_t width);

/* 1 when a copy of that shape should be staged: more than one row, each narrower than
 * REAL_STAGING_ROW_MAX, the host rows not already one after another (a contiguous block goes as
 * one plain copy anyway). */
int real_staging_wanted(uint64_t rows, uint64_t width, uint64_t host_pitch);

/* One staging buffer's transfer. start begins moving len bytes between stage and dev (to_device:
 * stage to dev; else dev to stage) on buffer buf (0 or 1); wait(buf) returns once the transfer
 * that buffer last started has finished. Both return 0, or nonzero on failure. */
typedef struct {
  int (*start)(void *ctx, int buf, int to_device, unsigned char *dev, unsigned char *stage,
               uint64_t len);
  int (*wait)(void *ctx, int buf);
} real_staging_ops;

/* Copies the block (rows of width bytes; host rows host_pitch apart, device rows packed) through
 * stage[0] and stage[1], stage_bytes each, in chunks of whole rows, double-buffered. Returns 0,
 * the first nonzero an op returned (after waiting for every transfer still in flight, so the
 * buffers are free again), or -1 without copying when a row is wider than stage_bytes. */
int real_staging_copy(const real_staging_ops *ops, void *ctx, int to_device, unsigned char *dev,
                      unsigned char *host, uint64_t host_pitch, uint64_t rows, uint64_t width,
                      unsigned char *const stage[2], uint64_t stage_bytes);

#endif
