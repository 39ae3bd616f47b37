/* real_staging.h: host<->GPU copies of narrow rows through contiguous staging buffers, and the
 * choice of a copy's path.
 *
 * A block of a row-major matrix crosses the link as `rows` rows of `width` bytes, its host rows
 * host_pitch bytes apart. On an H100, 8 KB rows of a wider matrix seemed to move at ~3 GB/s as
 * one cudaMemcpy2DAsync where one contiguous copy of the same bytes moved at 23 GB/s (inferred
 * from a run's totals, never isolated). The staging path packs the rows into pinned buffers on
 * the host and moves each buffer with one contiguous copy, two buffers alternating so that the
 * CPU packs (or unpacks) one while the DMA engine moves the other. On an H200, measured row
 * width by row width, the 2D copy was the faster (real_copy_path): staging is now a path to ask
 * for (NARWHAL_GPU_STAGING=on), not the default.
 *
 * The pipeline here knows nothing of CUDA: it drives a transfer through two callbacks, so that
 * tests/real/test_staging.c checks its order of operations on the host. The device side is
 * packed, as nw_copy's is (core/backend.h): row r of the block at dev + r * width. */
#ifndef NW_REAL_STAGING_H
#define NW_REAL_STAGING_H

#include <stdint.h>

/* Rows at least this wide always go as one 2D copy: the slow copies seen on an H100 were of 8 KB
 * rows, and a row of 64 KiB already keeps the DMA engine busy on its own. Staging buffers must hold
 * one such row less a byte (real_gpu.c's hold 4 MiB). */
#define REAL_STAGING_ROW_MAX 65536

/* Rows of width bytes from src (rows src_pitch apart) one after another into dst. */
void real_staging_pack(unsigned char *dst, const unsigned char *src, uint64_t src_pitch,
                       uint64_t rows, uint64_t width);
/* The reverse: rows of width bytes one after another in src into dst, rows dst_pitch apart;
 * dst's bytes between rows are left alone. */
void real_staging_unpack(unsigned char *dst, uint64_t dst_pitch, const unsigned char *src,
                         uint64_t rows, uint64_t width);

/* 1 when a copy of that shape is narrow, the shape the paths other than a 2D copy take
 * (real_copy_path): more than one row, each narrower than REAL_STAGING_ROW_MAX, the host rows not
 * already one after another (a contiguous block goes as one plain copy anyway). */
int real_staging_wanted(uint64_t rows, uint64_t width, uint64_t host_pitch);

/* One staging buffer's transfer. start begins moving len bytes between stage and dev (to_device:
 * stage to dev; else dev to stage) on buffer buf (0 or 1); wait(buf) returns once the transfer
 * that buffer last started has finished. Both return 0, or nonzero on failure. */
typedef struct {
  int (*start)(void *ctx, int buf, int to_device, unsigned char *dev, unsigned char *stage,
               uint64_t len);
  int (*wait)(void *ctx, int buf);
} real_staging_ops;

/* How a block's copy crosses the link (real_copy_path). */
typedef enum {
  REAL_COPY_2D = 0,     /* one cudaMemcpy2DAsync (a contiguous block is a 2D copy of one row) */
  REAL_COPY_STAGED = 1, /* packed into pinned staging buffers on a CPU (real_staging_copy) */
  REAL_COPY_KERNEL = 2  /* gathered or scattered by a kernel (real_gather.h) */
} real_copy_path_t;

/* NARWHAL_GPU_STAGING's values: unset (or "off", or anything else) the default, "on", "kernel". */
typedef enum { REAL_STAGING_OFF = 0, REAL_STAGING_ON, REAL_STAGING_KERNEL } real_staging_mode;
real_staging_mode real_staging_mode_parse(const char *value);

/* The path of one copy: narrow (real_staging_wanted), gatherable (a kernel may reach the host
 * rows: real_gather_usable). By default every block goes as one 2D copy: on an H200 the DMA
 * engine moved rows of 64 B to 16 KB at 42-54 GB/s that way, while staging them on a CPU ran
 * at 6.7-11.7 GB/s (one core's packing) and a gathering kernel at 12-50 GB/s
 * (docs/experiments/h200.md). "on" stages narrow blocks (the default before that measurement,
 * from an H100's slow narrow copies whose cause was never isolated), "kernel" gathers them
 * where it can. */
real_copy_path_t real_copy_path(real_staging_mode mode, int narrow, int gatherable);

/* Copies the block (rows of width bytes; host rows host_pitch apart, device rows packed) through
 * stage[0] and stage[1], stage_bytes each, in chunks of whole rows, double-buffered. Returns 0,
 * the first nonzero an op returned (after waiting for every transfer still in flight, so the
 * buffers are free again), or -1 without copying when a row is wider than stage_bytes. */
int real_staging_copy(const real_staging_ops *ops, void *ctx, int to_device, unsigned char *dev,
                      unsigned char *host, uint64_t host_pitch, uint64_t rows, uint64_t width,
                      unsigned char *const stage[2], uint64_t stage_bytes);

#endif
