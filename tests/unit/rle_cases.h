/* rle_cases.h: inputs on which another run-length encoder must write exactly nw_rle_encode's
 * bytes (core/data/rle.h): the GPU encoder's arithmetic on the CPU (test_rle_tiles.c) and the
 * GPU encoder itself (tests/gpu/test_gpu_rle.c). Random bytes of several zero densities at
 * sizes around the GPU encoder's tiles (real_rle_tile.h: 4096 bytes); sparse uint64 arrays as
 * PageRank writes; a zero run, or one non-zero byte, at every offset around a tile's edge; zero
 * runs and literals spanning many tiles; tokens whose headers change length (varints of 1 to
 * 4 bytes); inputs whose packed encoding is exactly n bytes (kept) or n + 1 (stored); and
 * thousands of random alternations of zero and non-zero runs, short and long. */
#ifndef NW_TEST_RLE_CASES_H
#define NW_TEST_RLE_CASES_H

#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "rle.h"

enum { RLE_CASE_EDGE = 4096, RLE_CASE_RUN = NW_RLE_MIN_ZERO_RUN, RLE_CASE_RANDOM = 3000 };

static uint64_t rle_case_rng;
static uint64_t rle_case_rnd(uint64_t n) {
  rle_case_rng ^= rle_case_rng << 13;
  rle_case_rng ^= rle_case_rng >> 7;
  rle_case_rng ^= rle_case_rng << 17;
  return rle_case_rng % n;
}

static unsigned char rle_case_nonzero(void) {
  return (unsigned char)(1 + rle_case_rnd(255));
}

static void rle_case_dense(unsigned char *b, size_t n) {
  for (size_t i = 0; i < n; i++)
    b[i] = rle_case_nonzero();
}

/* Appends len bytes, zeros or random non-zero ones, at b[*n] if they fit cap. */
static void rle_case_put(unsigned char *b, size_t *n, size_t cap, int zero, size_t len) {
  if (len > cap - *n)
    len = cap - *n;
  if (zero)
    memset(b + *n, 0, len);
  else
    rle_case_dense(b + *n, len);
  *n += len;
}

/* Fills b (room for cap bytes, at least 2^21 + 8300) with case i and returns its length; what
 * names it. Returns (size_t)-1 past the last case. */
static size_t rle_case(int i, unsigned char *b, size_t cap, char *what, size_t what_len) {
  static const size_t sizes[] = {0,    1,    2,    7,     8,     9,       15,     16,
                                 17,   31,   32,   33,    255,   4095,    4096,   4097,
                                 8191, 8192, 8193, 12289, 65539, 1000003, 2097159};
  static const unsigned per_mille[] = {0, 500, 900, 990, 999, 1000};
  enum { NS = sizeof sizes / sizeof *sizes, NP = sizeof per_mille / sizeof *per_mille };
  const size_t E = RLE_CASE_EDGE, R = RLE_CASE_RUN;
  rle_case_rng = 0x9e3779b97f4a7c15u ^ (uint64_t)(i + 1) * 0x2545f4914f6cdd1du;
  size_t n = 0;
  /* Random bytes, each zero with a probability in thousandths. */
  if (i < NS * NP) {
    n = sizes[i / NP];
    unsigned pm = per_mille[i % NP];
    for (size_t k = 0; k < n; k++)
      b[k] = rle_case_rnd(1000) < pm ? 0 : rle_case_nonzero();
    snprintf(what, what_len, "%zu random bytes, %u per mille zero", n, pm);
    return n;
  }
  i -= NS * NP;
  /* Sparse uint64 arrays: each word non-zero with probability 1 / every, below 2^24. */
  static const uint64_t every[] = {3, 50, 1000};
  if (i < 6) {
    size_t words = i < 3 ? 1 << 14 : 1 << 18;
    for (size_t w = 0; w < words; w++) {
      uint64_t v = rle_case_rnd(every[i % 3]) == 0 ? 1 + rle_case_rnd((1u << 24) - 1) : 0;
      memcpy(b + 8 * w, &v, 8);
    }
    snprintf(what, what_len, "%zu uint64 words, 1 in %llu non-zero", words,
             (unsigned long long)every[i % 3]);
    return 8 * words;
  }
  i -= 6;
  /* All zeros, all non-zero, alternating. */
  static const size_t zeros[] = {1, 7, 8, 9, 4096, 4097, 3 * 4096 + 1, 1 << 20};
  if (i < 8) {
    n = zeros[i];
    memset(b, 0, n);
    snprintf(what, what_len, "%zu zero bytes", n);
    return n;
  }
  i -= 8;
  if (i == 0) {
    n = 2 * E + 3;
    memset(b, 0xff, n);
    snprintf(what, what_len, "%zu bytes 0xff", n);
    return n;
  }
  if (i == 1) {
    n = 10001;
    for (size_t k = 0; k < n; k++)
      b[k] = k % 2 ? 0x33 : 0;
    snprintf(what, what_len, "%zu bytes alternating zero and non-zero", n);
    return n;
  }
  i -= 2;
  /* One zero run of z bytes starting at an offset around the first or second tile's edge, in
   * non-zero bytes. */
  static const size_t runs[] = {R - 1, R, R + 1, 2 * R, E - 1, E, E + 1, 5 * E / 2};
  enum { NR = sizeof runs / sizeof *runs, NOFF = 10 };
  if (i < NR * NOFF * 2) {
    size_t z = runs[i / (NOFF * 2)], edge = E * (1 + i % 2), k = (size_t)(i / 2 % NOFF);
    size_t offs[NOFF] = {edge - z - 1, edge - z, edge - z + 1, edge - R, edge - R + 1,
                         edge - 1,     edge,     edge + 1,     edge + R, edge > z ? 0 : 1};
    size_t at = offs[k] > edge + R ? 0 : offs[k]; /* an offset that underflowed: the start */
    n = 3 * E + 100 + z;
    rle_case_dense(b, n);
    memset(b + at, 0, z);
    snprintf(what, what_len, "a zero run of %zu at %zu in %zu non-zero bytes", z, at, n);
    return n;
  }
  i -= NR * NOFF * 2;
  /* One non-zero byte in zeros. */
  static const size_t ones[] = {0, 1, 7, 8, 4088, 4095, 4096, 4097, 4103, 3 * 4096 - 1};
  if (i < 10) {
    n = 3 * E;
    memset(b, 0, n);
    b[ones[i]] = 0x80;
    snprintf(what, what_len, "one non-zero byte at %zu in %zu zeros", ones[i], n);
    return n;
  }
  i -= 10;
  /* Headers of every length: a literal of L bytes and a zero run of L bytes around the
   * lengths where 2 L (+ 1) needs one more varint byte. */
  static const size_t lens[] = {63, 64, 65, 8191, 8192, 8193, (1u << 20) - 1, 1u << 20};
  if (i < 16) {
    size_t len = lens[i % 8];
    int zero = i >= 8;
    rle_case_put(b, &n, cap, 1, 100);
    rle_case_put(b, &n, cap, zero, len);
    rle_case_put(b, &n, cap, !zero, zero ? 5 : 3 * R);
    rle_case_put(b, &n, cap, zero, zero ? 5 : 3);
    snprintf(what, what_len, "a %s of %zu bytes", zero ? "zero run" : "literal", len);
    return n;
  }
  i -= 16;
  /* Packed encodings of exactly n bytes (kept) and n + 1 (stored): literals with 3- or 4-byte
   * headers around one zero run of R bytes. */
  static const size_t even[][2] = {
      {8192, 8192}, {1u << 20, 100}, {1u << 20, 8192}, {8192, 100}, {1u << 20, 1u << 20}};
  if (i < 5) {
    rle_case_put(b, &n, cap, 0, even[i][0]);
    rle_case_put(b, &n, cap, 1, R);
    rle_case_put(b, &n, cap, 0, even[i][1]);
    snprintf(what, what_len, "literals of %zu and %zu around %zu zeros (break-even)", even[i][0],
             even[i][1], (size_t)R);
    return n;
  }
  i -= 5;
  /* Random alternations of zero and non-zero runs: mostly around R, one in eight long. */
  if (i < RLE_CASE_RANDOM) {
    size_t want = rle_case_rnd(i % 4 == 0 ? 3 * E + 1 : 400);
    for (int zero = (int)rle_case_rnd(2); n < want; zero = !zero) {
      size_t len = rle_case_rnd(8) == 0 ? 1 + rle_case_rnd(2 * E) : 1 + rle_case_rnd(2 * R + 4);
      rle_case_put(b, &n, want, zero, len);
    }
    snprintf(what, what_len, "random runs, case %d, %zu bytes", i, n);
    return n;
  }
  return (size_t)-1;
}

#endif
