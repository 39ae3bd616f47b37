/* test_rle_tiles.c: the GPU run-length encoder's arithmetic (backends/real/real_rle_tile.h),
 * run on the CPU tile by tile and thread by thread as real_rle.cu's three kernels run it, with
 * the block-wide and device-wide scans done one after another: on every input of rle_cases.h
 * its encoding must be nw_rle_encode's, byte for byte, and no two literal bytes or headers may
 * land on the same place. What this leaves out (CUB's scans, the launches, the copies to the
 * host) only a GPU runs: tests/gpu/test_gpu_rle.c. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "real_rle_tile.h"
#include "rle.h"
#include "rle_cases.h"

enum { CAP = (1 << 21) + 8300 };

static void *alloc(size_t n) {
  void *p = malloc(n ? n : 1);
  if (!p) {
    fprintf(stderr, "test_rle_tiles: out of memory\n");
    exit(2);
  }
  return p;
}

typedef struct tile_state {
  unsigned char sh[RLE_TILE + 2 * RLE_HALO];
  rle_flags f[RLE_THREADS];
  uint64_t s[RLE_THREADS][RLE_ITEMS], e[RLE_THREADS][RLE_ITEMS];
} tile_state;

/* load_tile */
static void load(tile_state *ts, const unsigned char *src, uint64_t n, uint64_t t0) {
  for (int x = 0; x < RLE_TILE + 2 * RLE_HALO; x++)
    ts->sh[x] = rle_tile_byte(src, n, t0, x - RLE_HALO);
}

/* tokens(): the block's exclusive max-scan of the threads' last starts from carry_start, and
 * min-scan of their first ends from the right from carry_end. */
static void tokens(tile_state *ts, uint64_t n, uint64_t t0, int64_t carry_start,
                   uint64_t carry_end) {
  int64_t before = carry_start;
  for (int k = 0; k < RLE_THREADS; k++) {
    uint64_t at = t0 + (uint64_t)k * RLE_ITEMS;
    ts->f[k] = rle_classify(ts->sh, k * RLE_ITEMS, t0, n);
    int64_t b = before, ls = rle_last_start(ts->f[k], at);
    before = ls > before ? ls : before;
    ts->s[k][0] = (uint64_t)b; /* kept until the spans below */
  }
  uint64_t after = carry_end;
  for (int k = RLE_THREADS - 1; k >= 0; k--) {
    uint64_t at = t0 + (uint64_t)k * RLE_ITEMS, a = after, fe = rle_first_end(ts->f[k], at);
    after = fe < after ? fe : after;
    rle_spans(ts->f[k], at, ts->s[k][0], a, ts->s[k], ts->e[k]);
  }
}

/* Marks the bytes the headers of a thread's tokens take (rle_thread_write's), p being the sizes
 * of the tokens before; *overlap when one was taken already or lies outside the encoding. */
static void mark_headers(rle_flags f, const uint64_t *s, const uint64_t *e, uint64_t p,
                         unsigned char *seen, uint64_t packed, int *overlap) {
  for (int j = 0; j < RLE_ITEMS; j++) {
    if (!(f.end >> j & 1))
      continue;
    int h;
    uint64_t size = rle_token_size(s[j], e[j], (int)(f.lit >> j & 1), &h);
    for (uint64_t x = 1 + p; x < 1 + p + (uint64_t)h; x++) {
      if (x >= packed) {
        *overlap = 1;
        break;
      }
      *overlap |= seen[x];
      seen[x] = 1;
    }
    p += size;
  }
}

/* real_rle_encode, with the kernels' blocks and threads taken in turn. */
static uint64_t emulate(const unsigned char *src, uint64_t n, unsigned char *out, int *overlap) {
  *overlap = 0;
  if (n == 0) {
    out[0] = 0;
    return 1;
  }
  uint64_t tiles = (n + RLE_TILE - 1) / RLE_TILE;
  int64_t *last_start = alloc(tiles * 8), *carry_start = alloc(tiles * 8);
  uint64_t *first_end_rev = alloc(tiles * 8), *carry_end_rev = alloc(tiles * 8);
  uint64_t *tile_end = alloc(tiles * 8);
  tile_state *ts = alloc(sizeof *ts);
  for (uint64_t t = 0; t < tiles; t++) { /* summarize */
    uint64_t t0 = t * RLE_TILE;
    load(ts, src, n, t0);
    int64_t ls = -1;
    uint64_t fe = RLE_NONE;
    for (int k = 0; k < RLE_THREADS; k++) {
      uint64_t at = t0 + (uint64_t)k * RLE_ITEMS;
      rle_flags f = rle_classify(ts->sh, k * RLE_ITEMS, t0, n);
      int64_t a = rle_last_start(f, at);
      uint64_t b = rle_first_end(f, at);
      ls = a > ls ? a : ls;
      fe = b < fe ? b : fe;
    }
    last_start[t] = ls;
    first_end_rev[tiles - 1 - t] = fe;
  }
  carry_start[0] = -1; /* the exclusive scans */
  carry_end_rev[0] = RLE_NONE;
  for (uint64_t t = 1; t < tiles; t++) {
    carry_start[t] =
        last_start[t - 1] > carry_start[t - 1] ? last_start[t - 1] : carry_start[t - 1];
    carry_end_rev[t] =
        first_end_rev[t - 1] < carry_end_rev[t - 1] ? first_end_rev[t - 1] : carry_end_rev[t - 1];
  }
  uint64_t sum = 0;
  for (uint64_t t = 0; t < tiles; t++) { /* sizes, then the inclusive scan */
    load(ts, src, n, t * RLE_TILE);
    tokens(ts, n, t * RLE_TILE, carry_start[t], carry_end_rev[tiles - 1 - t]);
    for (int k = 0; k < RLE_THREADS; k++)
      sum += rle_thread_size(ts->f[k], ts->s[k], ts->e[k]);
    tile_end[t] = sum;
  }
  uint64_t packed = 1 + sum, len = n + 1;
  if (packed > n) {
    out[0] = 0;
    memcpy(out + 1, src, n);
  } else { /* write_tokens, noting every byte of the encoding written */
    unsigned char *seen = calloc(packed, 1);
    uint64_t dest[RLE_TILE];
    for (uint64_t t = 0; t < tiles; t++) {
      uint64_t t0 = t * RLE_TILE, p = t ? tile_end[t - 1] : 0;
      load(ts, src, n, t0);
      tokens(ts, n, t0, carry_start[t], carry_end_rev[tiles - 1 - t]);
      for (int k = 0; k < RLE_THREADS; k++) {
        rle_thread_write(ts->f[k], t0 + (uint64_t)k * RLE_ITEMS, n, ts->s[k], ts->e[k], p, out,
                         dest + k * RLE_ITEMS);
        mark_headers(ts->f[k], ts->s[k], ts->e[k], p, seen, packed, overlap);
        p += rle_thread_size(ts->f[k], ts->s[k], ts->e[k]);
      }
      for (int x = 0; x < RLE_TILE; x++) /* the striped copy of literal bytes */
        if (dest[x] != RLE_NONE) {
          if (dest[x] >= packed) {
            *overlap = 1;
            continue;
          }
          *overlap |= seen[dest[x]];
          seen[dest[x]] = 1;
          out[dest[x]] = ts->sh[RLE_HALO + x];
        }
    }
    for (uint64_t x = 1; x < packed; x++)
      *overlap |= !seen[x]; /* and none left unwritten */
    out[0] = 1;
    len = packed;
    free(seen);
  }
  free(last_start);
  free(carry_start);
  free(first_end_rev);
  free(carry_end_rev);
  free(tile_end);
  free(ts);
  return len;
}

int main(void) {
  unsigned char *in = alloc(CAP), *want = alloc(CAP + 1), *got = alloc(CAP + 1);
  char what[128];
  int cases = 0, wrong = 0, stored = 0;
  size_t n;
  for (int i = 0; (n = rle_case(i, in, CAP, what, sizeof what)) != (size_t)-1; i++) {
    int overlap;
    size_t wlen = nw_rle_encode(in, n, want);
    uint64_t glen = emulate(in, n, got, &overlap);
    int ok = glen == wlen && memcmp(got, want, wlen) == 0 && !overlap;
    cases++;
    stored += want[0] == 0;
    if (!ok && wrong++ < 10) {
      size_t at = 0;
      while (at < wlen && at < glen && got[at] == want[at])
        at++;
      fprintf(stderr, "  %s: %llu bytes against %zu, first difference at %zu%s\n", what,
              (unsigned long long)glen, wlen, at, overlap ? ", overlapping writes" : "");
    }
  }
  CHECK(wrong == 0);
  CHECK(cases > 3000 && stored > 10 && cases - stored > 10);
  printf("rle_tiles: %d inputs (%d stored), %d encoded otherwise than nw_rle_encode\n", cases,
         stored, wrong);
  free(in);
  free(want);
  free(got);
  return check_report("rle_tiles");
}
