/* real_rle.cu: see real_rle.h; the per-thread arithmetic is real_rle_tile.h's.
 *
 * Each thread block handles a tile (RLE_TILE bytes, RLE_ITEMS per thread). Pass 1 records the
 * tile's last token start and first token end; exclusive scans over the tiles give each tile
 * the start of the token that crosses into it from the left (carry_start: the max of the starts
 * before) and the end of the one that crosses out to the right (carry_end: the min of the ends
 * after, scanned over the tiles in reverse order). Pass 2 sums the sizes of the tokens ending
 * in each tile (a token's size is known where it ends, its start coming from the left); an
 * inclusive scan makes those offsets. Pass 3 finds every byte's token again, writes each
 * header at its token's end position and each literal byte at its place, a tile's bytes in
 * striped order so that a warp writes consecutive addresses.
 */
#include <cuda_runtime.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cub/block/block_reduce.cuh>
#include <cub/block/block_scan.cuh>
#include <cub/device/device_scan.cuh>

#include "real_rle.h"
extern "C" {
#include "real_rle_tile.h"
}

namespace {

typedef unsigned long long u64;
typedef long long i64;
constexpr int THREADS = RLE_THREADS;
constexpr int ITEMS = RLE_ITEMS;
constexpr int TILE = RLE_TILE;
constexpr int HALO = RLE_HALO;
static_assert(sizeof(u64) == sizeof(uint64_t) && sizeof(i64) == sizeof(int64_t), "64-bit words");

struct MaxOp {
  __device__ __host__ i64 operator()(i64 a, i64 b) const {
    return a > b ? a : b;
  }
};
struct MinOp {
  __device__ __host__ u64 operator()(u64 a, u64 b) const {
    return a < b ? a : b;
  }
};

typedef cub::BlockReduce<i64, THREADS> ReduceStart;
typedef cub::BlockReduce<u64, THREADS> ReduceU64;
typedef cub::BlockScan<i64, THREADS> ScanStart;
typedef cub::BlockScan<u64, THREADS> ScanU64;

__device__ void load_tile(const unsigned char *src, u64 n, u64 t0, unsigned char *sh) {
  for (int x = threadIdx.x; x < TILE + 2 * HALO; x += THREADS)
    sh[x] = rle_tile_byte(src, n, t0, x - HALO);
}

/* Pass 1: the tile's last token start (-1 if none) and first token end (RLE_NONE if none), the
 * latter stored in reverse tile order for the reverse scan. */
__global__ void __launch_bounds__(THREADS)
    summarize(const unsigned char *src, u64 n, u64 tiles, i64 *last_start, u64 *first_end_rev) {
  __shared__ unsigned char sh[TILE + 2 * HALO];
  __shared__ union {
    ReduceStart::TempStorage start;
    ReduceU64::TempStorage end;
  } tmp;
  u64 tile = blockIdx.x, t0 = tile * TILE, at = t0 + threadIdx.x * ITEMS;
  load_tile(src, n, t0, sh);
  __syncthreads();
  rle_flags f = rle_classify(sh, threadIdx.x * ITEMS, t0, n);
  i64 tile_ls = ReduceStart(tmp.start).Reduce((i64)rle_last_start(f, at), MaxOp());
  __syncthreads();
  u64 tile_fe = ReduceU64(tmp.end).Reduce((u64)rle_first_end(f, at), MinOp());
  if (threadIdx.x == 0) {
    last_start[tile] = tile_ls;
    first_end_rev[tiles - 1 - tile] = tile_fe;
  }
}

struct TokenStorage {
  ScanStart::TempStorage start;
  ScanU64::TempStorage end;
  u64 rev[THREADS];
};

/* Each of the thread's positions' token, from the tile's bytes and the carries across tiles. */
__device__ rle_flags tokens(const unsigned char *sh, u64 n, u64 t0, i64 carry_start, u64 carry_end,
                            TokenStorage &ts, uint64_t *s, uint64_t *e) {
  u64 at = t0 + threadIdx.x * ITEMS;
  rle_flags f = rle_classify(sh, threadIdx.x * ITEMS, t0, n);
  i64 before;
  ScanStart(ts.start).ExclusiveScan((i64)rle_last_start(f, at), before, carry_start, MaxOp());
  /* The first end after this thread's positions: a min-scan over the threads in reverse order,
   * thread k answering for thread THREADS - 1 - k. */
  ts.rev[THREADS - 1 - threadIdx.x] = rle_first_end(f, at);
  __syncthreads();
  u64 after;
  ScanU64(ts.end).ExclusiveScan(ts.rev[threadIdx.x], after, carry_end, MinOp());
  __syncthreads();
  ts.rev[THREADS - 1 - threadIdx.x] = after;
  __syncthreads();
  after = ts.rev[threadIdx.x];
  rle_spans(f, at, (uint64_t)before, after, s, e);
  return f;
}

/* Pass 2: the sizes of the tokens that end in each tile. */
__global__ void __launch_bounds__(THREADS)
    sizes(const unsigned char *src, u64 n, const i64 *carry_start, const u64 *carry_end_rev,
          u64 tiles, u64 *tile_size) {
  __shared__ unsigned char sh[TILE + 2 * HALO];
  __shared__ TokenStorage ts;
  __shared__ ReduceU64::TempStorage red;
  u64 tile = blockIdx.x, t0 = tile * TILE;
  load_tile(src, n, t0, sh);
  __syncthreads();
  uint64_t s[ITEMS], e[ITEMS];
  rle_flags f = tokens(sh, n, t0, carry_start[tile], carry_end_rev[tiles - 1 - tile], ts, s, e);
  u64 sum = ReduceU64(red).Sum((u64)rle_thread_size(f, s, e));
  if (threadIdx.x == 0)
    tile_size[tile] = sum;
}

/* Pass 3: headers and literal bytes into out (the whole encoding; byte 0 is the host's). */
__global__ void __launch_bounds__(THREADS)
    write_tokens(const unsigned char *src, u64 n, const i64 *carry_start, const u64 *carry_end_rev,
                 u64 tiles, const u64 *tile_end, unsigned char *out) {
  __shared__ unsigned char sh[TILE + 2 * HALO];
  __shared__ TokenStorage ts;
  __shared__ uint64_t dest[TILE];
  u64 tile = blockIdx.x, t0 = tile * TILE, at = t0 + threadIdx.x * ITEMS;
  load_tile(src, n, t0, sh);
  __syncthreads();
  uint64_t s[ITEMS], e[ITEMS];
  rle_flags f = tokens(sh, n, t0, carry_start[tile], carry_end_rev[tiles - 1 - tile], ts, s, e);
  u64 p;
  __syncthreads(); /* ts.end is used again */
  ScanU64(ts.end).ExclusiveSum((u64)rle_thread_size(f, s, e), p);
  p += tile ? tile_end[tile - 1] : 0; /* the tokens ending before this thread's positions */
  rle_thread_write(f, at, n, s, e, p, out, dest + threadIdx.x * ITEMS);
  __syncthreads();
  for (int k = 0; k < ITEMS; k++) {
    int x = k * THREADS + threadIdx.x;
    if (dest[x] != RLE_NONE)
      out[dest[x]] = sh[HALO + x];
  }
}

} // namespace

struct real_rle {
  u64 tiles_cap;
  i64 *last_start, *carry_start;      /* per tile */
  u64 *first_end_rev, *carry_end_rev; /* per tile, in reverse tile order */
  u64 *tile_size, *tile_end;          /* per tile */
  void *temp;                         /* CUB's scans */
  size_t temp_bytes;
  unsigned char *stage, *stage_dev; /* page-locked, mapped: the packed encoding */
  size_t stage_cap;
  u64 *total; /* page-locked: the packed size */
};

static void free_tiles(real_rle *r) {
  cudaFree(r->last_start);
  cudaFree(r->carry_start);
  cudaFree(r->first_end_rev);
  cudaFree(r->carry_end_rev);
  cudaFree(r->tile_size);
  cudaFree(r->tile_end);
  cudaFree(r->temp);
  r->last_start = r->carry_start = NULL;
  r->first_end_rev = r->carry_end_rev = r->tile_size = r->tile_end = NULL;
  r->temp = NULL;
  r->tiles_cap = 0;
  r->temp_bytes = 0;
}

extern "C" real_rle *real_rle_new(void) {
  return (real_rle *)calloc(1, sizeof(real_rle));
}

extern "C" void real_rle_free(real_rle *r) {
  if (!r)
    return;
  free_tiles(r);
  cudaFreeHost(r->stage);
  cudaFreeHost(r->total);
  cudaGetLastError();
  free(r);
}

#define TRY(call)                                                                                  \
  do {                                                                                             \
    cudaError_t err_ = (call);                                                                     \
    if (err_ != cudaSuccess) {                                                                     \
      snprintf(why, why_len, "%s: %s", #call, cudaGetErrorString(err_));                           \
      return 0;                                                                                    \
    }                                                                                              \
  } while (0)

/* Room for `tiles` tiles' summaries and the scans over them. */
static int reserve_tiles(real_rle *r, u64 tiles, cudaStream_t st, char *why, size_t why_len) {
  if (tiles <= r->tiles_cap)
    return 1;
  free_tiles(r);
  size_t b8 = (size_t)tiles * 8, a = 0, b = 0, c = 0;
  TRY(cudaMalloc((void **)&r->last_start, b8));
  TRY(cudaMalloc((void **)&r->carry_start, b8));
  TRY(cudaMalloc((void **)&r->first_end_rev, b8));
  TRY(cudaMalloc((void **)&r->carry_end_rev, b8));
  TRY(cudaMalloc((void **)&r->tile_size, b8));
  TRY(cudaMalloc((void **)&r->tile_end, b8));
  TRY(cub::DeviceScan::ExclusiveScan(nullptr, a, r->last_start, r->carry_start, MaxOp(), (i64)-1,
                                     (i64)tiles, st));
  TRY(cub::DeviceScan::ExclusiveScan(nullptr, b, r->first_end_rev, r->carry_end_rev, MinOp(),
                                     (u64)RLE_NONE, (i64)tiles, st));
  TRY(cub::DeviceScan::InclusiveSum(nullptr, c, r->tile_size, r->tile_end, (i64)tiles, st));
  r->temp_bytes = a > b ? a : b;
  r->temp_bytes = r->temp_bytes > c ? r->temp_bytes : c;
  TRY(cudaMalloc(&r->temp, r->temp_bytes ? r->temp_bytes : 1));
  r->tiles_cap = tiles;
  return 1;
}

static int reserve_stage(real_rle *r, size_t bytes, char *why, size_t why_len) {
  if (!r->total)
    TRY(cudaHostAlloc((void **)&r->total, sizeof *r->total, cudaHostAllocPortable));
  if (bytes <= r->stage_cap)
    return 1;
  cudaFreeHost(r->stage);
  r->stage = r->stage_dev = NULL;
  r->stage_cap = 0;
  TRY(cudaHostAlloc((void **)&r->stage, bytes, cudaHostAllocMapped | cudaHostAllocPortable));
  TRY(cudaHostGetDevicePointer((void **)&r->stage_dev, r->stage, 0));
  r->stage_cap = bytes;
  return 1;
}

extern "C" uint64_t real_rle_encode(real_rle *r, const void *src, uint64_t n, unsigned char *out,
                                    void *stream, char *why, size_t why_len) {
  cudaStream_t st = (cudaStream_t)stream;
  const unsigned char *s = (const unsigned char *)src;
  if (n == 0) {
    out[0] = 0; /* stored, nothing follows: as nw_rle_encode */
    return 1;
  }
  u64 tiles = (n + TILE - 1) / TILE;
  if (tiles > 0x7fffffffu) {
    snprintf(why, why_len, "%llu bytes is more than the encoder's grid covers",
             (unsigned long long)n);
    return 0;
  }
  if (!reserve_tiles(r, tiles, st, why, why_len) || !reserve_stage(r, 1, why, why_len))
    return 0;
  size_t tb = r->temp_bytes;
  summarize<<<(unsigned)tiles, THREADS, 0, st>>>(s, n, tiles, r->last_start, r->first_end_rev);
  TRY(cudaGetLastError());
  TRY(cub::DeviceScan::ExclusiveScan(r->temp, tb, r->last_start, r->carry_start, MaxOp(), (i64)-1,
                                     (i64)tiles, st));
  tb = r->temp_bytes;
  TRY(cub::DeviceScan::ExclusiveScan(r->temp, tb, r->first_end_rev, r->carry_end_rev, MinOp(),
                                     (u64)RLE_NONE, (i64)tiles, st));
  sizes<<<(unsigned)tiles, THREADS, 0, st>>>(s, n, r->carry_start, r->carry_end_rev, tiles,
                                             r->tile_size);
  TRY(cudaGetLastError());
  tb = r->temp_bytes;
  TRY(cub::DeviceScan::InclusiveSum(r->temp, tb, r->tile_size, r->tile_end, (i64)tiles, st));
  TRY(cudaMemcpyAsync(r->total, r->tile_end + tiles - 1, sizeof *r->total, cudaMemcpyDeviceToHost,
                      st));
  TRY(cudaStreamSynchronize(st));
  u64 packed = 1 + *r->total;
  if (packed > n) { /* stored, as nw_rle_encode: the raw bytes after a 0 */
    TRY(cudaMemcpyAsync(out + 1, s, n, cudaMemcpyDeviceToHost, st));
    TRY(cudaStreamSynchronize(st));
    out[0] = 0;
    return n + 1;
  }
  if (!reserve_stage(r, (size_t)packed, why, why_len))
    return 0;
  write_tokens<<<(unsigned)tiles, THREADS, 0, st>>>(s, n, r->carry_start, r->carry_end_rev, tiles,
                                                    r->tile_end, r->stage_dev);
  TRY(cudaGetLastError());
  TRY(cudaStreamSynchronize(st));
  r->stage[0] = 1; /* packed */
  memcpy(out, r->stage, (size_t)packed);
  return packed;
}
