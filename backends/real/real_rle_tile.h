/* real_rle_tile.h: the per-thread steps of the GPU run-length encoder (real_rle.cu), as plain
 * functions that compile both as C11 and as CUDA, so that a unit test (tests/unit/
 * test_rle_tiles.c) runs the encoder's arithmetic tile by tile and thread by thread on the CPU
 * and compares it with nw_rle_encode on a machine without a GPU. What only the GPU does (the
 * block-wide scans and reductions, CUB's; the launches and copies) is in real_rle.cu.
 *
 * Names, for the n input bytes s[0, n) (R = NW_RLE_MIN_ZERO_RUN):
 *   w(j)  bytes j .. j + R - 1 are all zero (and inside the input);
 *   Z(i)  byte i lies in a zero run of at least R bytes: w(j) for some j in [i - R + 1, i]
 *         (a maximal zero run of length >= R holds a window of R zeros around each of its
 *         bytes, and a window of R zeros lies inside such a run);
 *   the tokens of nw_rle_encode are the maximal stretches of equal Z: zero runs where Z is
 *   set, literals between them. Position i starts a token if i == 0 or Z(i) != Z(i - 1), ends
 *   one if i == n - 1 or Z(i) != Z(i + 1).
 * A token [s, e] of kind k (1: zeros, 0: literal) takes varint(2 (e - s + 1) + k) header
 * bytes, plus its e - s + 1 bytes for a literal. Its header goes at 1 + P, P being the sizes of
 * all tokens ending before s; literal byte i at 1 + P + header + (i - s).
 *
 * A tile is RLE_TILE consecutive bytes (one thread block); thread k of it holds the RLE_ITEMS
 * positions from p0 = k RLE_ITEMS. The tile's bytes are read with RLE_HALO more on each side
 * into sh[RLE_HALO + x], x in [-RLE_HALO, RLE_TILE + RLE_HALO); bytes outside the input read
 * as 1 (non-zero), so no window reaches past either end.
 */
#ifndef NW_REAL_RLE_TILE_H
#define NW_REAL_RLE_TILE_H

#include <stdint.h>

#include "rle.h"

#ifdef __CUDACC__
#define RLE_FN static __host__ __device__ inline
#else
#define RLE_FN static inline
#endif
#ifdef __cplusplus
#define RLE_STATIC_ASSERT static_assert
#else
#define RLE_STATIC_ASSERT _Static_assert
#endif

enum {
  RLE_THREADS = 256,
  RLE_ITEMS = 16,
  RLE_TILE = RLE_THREADS * RLE_ITEMS,
  RLE_RUN = NW_RLE_MIN_ZERO_RUN,
  RLE_HALO = 16,
  RLE_WINDOW = RLE_ITEMS + 2 * RLE_RUN /* a thread's bytes and RLE_RUN more each side */
};
RLE_STATIC_ASSERT(RLE_RUN >= 1 && RLE_RUN <= RLE_HALO, "a tile's halo holds a zero run's window");
RLE_STATIC_ASSERT(RLE_WINDOW <= 64, "a thread's windows fit one 64-bit mask");
RLE_STATIC_ASSERT(RLE_ITEMS <= 32, "a thread's flags fit 32 bits");

#define RLE_NONE UINT64_MAX /* no token end (a min-scan's identity), no literal byte */

/* The byte at tile offset x of the tile from t0 (x may reach RLE_HALO outside it). */
RLE_FN unsigned char rle_tile_byte(const unsigned char *src, uint64_t n, uint64_t t0, int x) {
  if (x < 0 && (uint64_t)-x > t0)
    return 1;
  uint64_t g = x < 0 ? t0 - (uint64_t)-x : t0 + (uint64_t)x;
  return g < n ? src[g] : 1;
}

/* One thread's positions: bit j of start, end, lit says whether position t0 + p0 + j starts a
 * token, ends one, is in a literal. Positions at or past n have no bits. */
typedef struct rle_flags {
  uint32_t start, end, lit;
} rle_flags;

RLE_FN int rle_z_at(uint64_t w, int d) { /* Z at tile offset p0 + d, d in [-1, RLE_ITEMS] */
  const uint64_t mask = ((uint64_t)1 << RLE_RUN) - 1;
  return ((w >> (d + 1)) & mask) != 0;
}

RLE_FN rle_flags rle_classify(const unsigned char *sh, int p0, uint64_t t0, uint64_t n) {
  /* Window index q covers tile offset p0 - RLE_RUN + q; bit q of w: w() there (set only where
   * all RLE_RUN bytes are inside the window, so the top RLE_RUN - 1 bits stay clear). Z at
   * offset p0 + d is w over q in [d + 1, d + RLE_RUN]. */
  const unsigned char *b = sh + RLE_HALO + p0 - RLE_RUN;
  uint64_t w = 0;
  int zr = 0; /* zero bytes from q rightwards, at most RLE_RUN */
  for (int q = RLE_WINDOW - 1; q >= 0; q--) {
    zr = b[q] == 0 ? (zr < RLE_RUN ? zr + 1 : RLE_RUN) : 0;
    if (zr >= RLE_RUN)
      w |= (uint64_t)1 << q;
  }
  rle_flags f = {0, 0, 0};
  int prev = rle_z_at(w, -1);
  for (int j = 0; j < RLE_ITEMS; j++) {
    uint64_t i = t0 + (uint64_t)p0 + (uint64_t)j;
    if (i >= n)
      break;
    int cur = rle_z_at(w, j), next = rle_z_at(w, j + 1);
    if (i == 0 || cur != prev)
      f.start |= 1u << j;
    if (i == n - 1 || cur != next)
      f.end |= 1u << j;
    if (!cur)
      f.lit |= 1u << j;
    prev = cur;
  }
  return f;
}

/* The thread's last token start, or -1; its first token end, or RLE_NONE (at: t0 + p0). */
RLE_FN int64_t rle_last_start(rle_flags f, uint64_t at) {
  for (int j = RLE_ITEMS - 1; j >= 0; j--)
    if (f.start >> j & 1)
      return (int64_t)(at + (uint64_t)j);
  return -1;
}

RLE_FN uint64_t rle_first_end(rle_flags f, uint64_t at) {
  for (int j = 0; j < RLE_ITEMS; j++)
    if (f.end >> j & 1)
      return at + (uint64_t)j;
  return RLE_NONE;
}

/* Each position's token [s[j], e[j]], from the last start before the thread's positions
 * (before) and the first end after them (after). */
RLE_FN void rle_spans(rle_flags f, uint64_t at, uint64_t before, uint64_t after, uint64_t *s,
                      uint64_t *e) {
  uint64_t x = before;
  for (int j = 0; j < RLE_ITEMS; j++) {
    if (f.start >> j & 1)
      x = at + (uint64_t)j;
    s[j] = x;
  }
  x = after;
  for (int j = RLE_ITEMS - 1; j >= 0; j--) {
    if (f.end >> j & 1)
      x = at + (uint64_t)j;
    e[j] = x;
  }
}

RLE_FN int rle_varint_size(uint64_t v) {
  int k = 1;
  for (; v >= 0x80; v >>= 7)
    k++;
  return k;
}

/* A token's bytes in the encoding, its header's in *header. */
RLE_FN uint64_t rle_token_size(uint64_t s, uint64_t e, int lit, int *header) {
  uint64_t len = e - s + 1;
  *header = rle_varint_size(2 * len + (lit ? 0u : 1u));
  return (uint64_t)*header + (lit ? len : 0);
}

/* The sizes of the tokens that end at the thread's positions. */
RLE_FN uint64_t rle_thread_size(rle_flags f, const uint64_t *s, const uint64_t *e) {
  uint64_t sum = 0;
  int h;
  for (int j = 0; j < RLE_ITEMS; j++)
    if (f.end >> j & 1)
      sum += rle_token_size(s[j], e[j], (int)(f.lit >> j & 1), &h);
  return sum;
}

/* Writes the headers of the tokens ending at the thread's positions into the encoding out,
 * p being the sizes of all tokens ending before them, and sets dest[j] to where the byte at
 * position j goes if it is a literal's (RLE_NONE otherwise). */
RLE_FN void rle_thread_write(rle_flags f, uint64_t at, uint64_t n, const uint64_t *s,
                             const uint64_t *e, uint64_t p, unsigned char *out, uint64_t *dest) {
  for (int j = 0; j < RLE_ITEMS; j++) {
    uint64_t i = at + (uint64_t)j;
    dest[j] = RLE_NONE;
    if (i >= n)
      continue;
    int lit = (int)(f.lit >> j & 1), h;
    uint64_t size = rle_token_size(s[j], e[j], lit, &h);
    if (lit) /* p: the tokens before this one (its own end, if here, is not added yet) */
      dest[j] = 1 + p + (uint64_t)h + (i - s[j]);
    if (f.end >> j & 1) {
      unsigned char *o = out + 1 + p;
      uint64_t v = 2 * (e[j] - s[j] + 1) + (lit ? 0u : 1u);
      for (; v >= 0x80; v >>= 7)
        *o++ = (unsigned char)(v | 0x80);
      *o = (unsigned char)v;
      p += size;
    }
  }
}

#undef RLE_FN
#undef RLE_STATIC_ASSERT
#endif
