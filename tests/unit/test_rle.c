/* test_rle.c: the zero-run compression of reduction data (core/data/rle.h): random and
 * adversarial inputs survive a round trip within the bound; zero runs are coded exactly when
 * they reach the threshold, whatever their alignment (the same bytes as a byte-at-a-time
 * reference encoder); a 99%-zero uint64 array shrinks below 5%; every truncation and many
 * corruptions of valid encodings are refused (or decode to exactly n bytes) without touching a
 * byte out of bounds; decoding into rows a pitch apart (a GPU's result copied back to a
 * space's rectangle) writes the rows and nothing between or after them. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "rle.h"

enum { T = NW_RLE_MIN_ZERO_RUN, GUARD = 16 };

static uint64_t rng_state = 0x9e3779b97f4a7c15u;
static uint64_t rnd(uint64_t n) {
  rng_state ^= rng_state << 13;
  rng_state ^= rng_state >> 7;
  rng_state ^= rng_state << 17;
  return rng_state % n;
}

/* Buffers of exactly the size asked (malloc(0) may be NULL), so ASan sees any overrun. */
static unsigned char *alloc(size_t n) {
  unsigned char *p = malloc(n ? n : 1);
  if (!p) {
    fprintf(stderr, "test_rle: out of memory\n");
    exit(2);
  }
  return p;
}

/* Encodes, checks the bound, decodes, checks the bytes; also that n - 1 and n + 1 are refused.
 * Returns the encoded length. */
static size_t roundtrip(const unsigned char *in, size_t n, const char *what) {
  unsigned char *enc = alloc(nw_rle_bound(n));
  size_t len = nw_rle_encode(in, n, enc);
  unsigned char *out = alloc(n + 1);
  int ok = len >= 1 && len <= nw_rle_bound(n) && nw_rle_bound(n) == n + 1;
  ok = ok && nw_rle_decode(enc, len, out, n) == 0 && (n == 0 || memcmp(in, out, n) == 0);
  ok = ok && nw_rle_decode(enc, len, out, n + 1) == -1;
  ok = ok && (n == 0 || nw_rle_decode(enc, len, out, n - 1) == -1);
  CHECK(ok);
  if (!ok)
    fprintf(stderr, "  round trip of %s, n = %zu, encoded %zu\n", what, n, len);
  free(enc);
  free(out);
  return len;
}

/* n random bytes, each zero with probability zero_pct / 100. */
static void fill_random(unsigned char *b, size_t n, unsigned zero_pct) {
  for (size_t i = 0; i < n; i++)
    b[i] = rnd(100) < zero_pct ? 0 : (unsigned char)(1 + rnd(255));
}

static void random_roundtrips(void) {
  static const size_t sizes[] = {0, 1, 7, 8, 9, 15, 16, 17, 100, 1000, 4097, 65536, 1000000};
  static const unsigned pcts[] = {0, 50, 90, 99, 100};
  unsigned char *b = alloc(1000000);
  char what[64];
  for (size_t si = 0; si < sizeof sizes / sizeof *sizes; si++)
    for (size_t pi = 0; pi < sizeof pcts / sizeof *pcts; pi++) {
      fill_random(b, sizes[si], pcts[pi]);
      snprintf(what, sizeof what, "random bytes, %u%% zero", pcts[pi]);
      roundtrip(b, sizes[si], what);
    }
  free(b);
}

/* uint64 values (little-endian as the machine stores them), each non-zero with probability
 * 1 / every, below 2^value_bits: PageRank's fixed-point contributions. */
static void fill_sparse_u64(unsigned char *b, size_t words, uint64_t every, unsigned value_bits) {
  for (size_t w = 0; w < words; w++) {
    uint64_t v = rnd(every) == 0 ? 1 + rnd(((uint64_t)1 << value_bits) - 1) : 0;
    memcpy(b + 8 * w, &v, 8);
  }
}

static void adversarial_roundtrips(void) {
  enum { N = 100000 };
  unsigned char *b = alloc(N);

  CHECK(nw_rle_encode(NULL, 0, b) == 1 && b[0] == 0);
  CHECK(nw_rle_decode(b, 1, NULL, 0) == 0);
  CHECK(roundtrip(b, 0, "empty") == 1);

  b[0] = 0;
  CHECK(roundtrip(b, 1, "one zero byte") == 2);
  b[0] = 0x5a;
  CHECK(roundtrip(b, 1, "one non-zero byte") == 2);

  /* All zeros: one token whatever the size. */
  memset(b, 0, N);
  for (size_t n = 1; n <= N; n *= 10)
    CHECK(roundtrip(b, n, "all zeros") <= (n < T ? n + 1 : 5));

  memset(b, 0xff, N);
  CHECK(roundtrip(b, N, "all 0xff") == N + 1);

  for (size_t i = 0; i < 256; i++)
    b[i] = (unsigned char)i;
  CHECK(roundtrip(b, 256, "bytes 0..255") == 257);
  for (size_t i = 0; i < N; i++)
    b[i] = (unsigned char)((i * 2654435761u) >> 13);
  roundtrip(b, N, "a hashed sequence");

  for (size_t i = 0; i < N; i++)
    b[i] = i % 2 ? 0x33 : 0;
  CHECK(roundtrip(b, N, "alternating zero, non-zero") == N + 1);

  /* One non-zero byte then z zeros, repeated: stored below the threshold, packed from it. */
  for (size_t z = T - 1; z <= T + 1; z++) {
    size_t n = 0;
    for (; n + z + 1 <= N; n += z + 1) {
      b[n] = 0x77;
      memset(b + n + 1, 0, z);
    }
    size_t len = roundtrip(b, n, "repeated zero runs at the threshold");
    CHECK(z < T ? len == n + 1 : len <= 3 * (n / (z + 1)) + 1);
  }

  /* One run of z zeros at every offset of 64 non-zero bytes, across word boundaries: coded as a
   * run exactly when z >= T, so the length is exact (every header here fits one byte). */
  for (size_t z = T - 1; z <= T + 9; z++)
    for (size_t off = 0; off + z <= 64; off++) {
      memset(b, 0xee, 64);
      memset(b + off, 0, z);
      size_t rest = 64 - off - z;
      size_t want = z < T ? 65 : 1 + (off ? 1 + off : 0) + 1 + (rest ? 1 + rest : 0);
      size_t len = roundtrip(b, 64, "a zero run in non-zero bytes");
      CHECK(len == want);
      if (len != want)
        fprintf(stderr, "  zero run %zu at offset %zu: %zu bytes, want %zu\n", z, off, len, want);
    }

  /* Zero runs of T - 1, T, T + 1 at the start and end, and a T - 1 run just before the end of
   * a word-sized tail. */
  for (size_t z = T - 1; z <= T + 1; z++) {
    memset(b, 0x11, 3 * T);
    memset(b, 0, z);
    roundtrip(b, 3 * T, "leading zero run");
    memset(b, 0x11, 3 * T);
    memset(b + 3 * T - z, 0, z);
    roundtrip(b, 3 * T, "trailing zero run");
  }

  fill_sparse_u64(b, N / 8, 50, 12);
  roundtrip(b, N / 8 * 8, "a sparse uint64 array of small values");
  fill_sparse_u64(b, N / 8, 3, 40);
  roundtrip(b, N / 8 * 8, "a half-full uint64 array");
  free(b);
}

/* The encoder's rule, a byte at a time: every maximal zero run of at least T bytes is a run
 * token, the bytes between are literals, and the input is stored unless that is smaller. */
static size_t put_varint(unsigned char *d, uint64_t v) {
  size_t k = 0;
  for (; v >= 0x80; v >>= 7)
    d[k++] = (unsigned char)(v | 0x80);
  d[k++] = (unsigned char)v;
  return k;
}
static size_t reference_encode(const unsigned char *s, size_t n, unsigned char *d) {
  size_t o = 1, lit = 0, i = 0;
  while (i < n) {
    size_t z = i;
    while (z < n && s[z] == 0)
      z++;
    if (z - i >= T) {
      if (i > lit) {
        o += put_varint(d + o, 2 * (uint64_t)(i - lit));
        memcpy(d + o, s + lit, i - lit);
        o += i - lit;
      }
      o += put_varint(d + o, 2 * (uint64_t)(z - i) + 1);
      lit = z;
    }
    i = z > i ? z : i + 1;
  }
  if (n > lit) {
    o += put_varint(d + o, 2 * (uint64_t)(n - lit));
    memcpy(d + o, s + lit, n - lit);
    o += n - lit;
  }
  if (o <= n) {
    d[0] = 1;
    return o;
  }
  d[0] = 0;
  memcpy(d + 1, s, n);
  return n + 1;
}

/* Alternating zero and non-zero runs of random lengths around T, at every alignment: the word
 * scan must choose exactly the reference's tokens. */
static void matches_reference(void) {
  enum { MAXN = 400, TRIALS = 20000 };
  unsigned char in[MAXN], got[MAXN + 1], want[MAXN + 32];
  int mismatches = 0;
  for (int t = 0; t < TRIALS; t++) {
    size_t n = rnd(MAXN + 1), i = 0;
    for (int zero = (int)rnd(2); i < n; zero = !zero) {
      size_t len = 1 + rnd(2 * T + 4);
      for (size_t k = 0; k < len && i < n; k++, i++)
        in[i] = zero ? 0 : (unsigned char)(1 + rnd(255));
    }
    size_t len = nw_rle_encode(in, n, got), wlen = reference_encode(in, n, want);
    if (len != wlen || memcmp(got, want, len) != 0)
      mismatches++;
  }
  CHECK(mismatches == 0);
  if (mismatches)
    fprintf(stderr, "  %d of %d encodings differ from the reference\n", mismatches, TRIALS);
}

static void sparse_u64_ratio(void) {
  enum { BYTES = 1 << 20 };
  unsigned char *b = alloc(BYTES);
  fill_sparse_u64(b, BYTES / 8, 100, 32);
  size_t len = roundtrip(b, BYTES, "a 99%-zero uint64 array");
  double ratio = (double)len / BYTES;
  printf("rle: 99%%-zero uint64 array, %d bytes -> %zu (%.2f%%)\n", BYTES, len, 100 * ratio);
  CHECK(ratio < 0.05);
  free(b);
}

/* Decodes enc[0, len) from a buffer of exactly len bytes into n bytes followed by a guard;
 * returns the decoder's answer, or 1 if it wrote past n. */
static int decode_guarded(const unsigned char *enc, size_t len, size_t n) {
  unsigned char *in = alloc(len), *out = alloc(n + GUARD);
  if (len)
    memcpy(in, enc, len);
  memset(out + n, 0xa5, GUARD);
  int rc = nw_rle_decode(in, len, out, n);
  for (size_t i = n; i < n + GUARD; i++)
    if (out[i] != 0xa5)
      rc = 1;
  free(in);
  free(out);
  return rc;
}

static void malformed(void) {
  struct {
    const char *what;
    unsigned char enc[16];
    size_t len, n;
    int rc;
  } cases[] = {
      {"no format byte", {0}, 0, 0, -1},
      {"unknown format 2", {2}, 1, 0, -1},
      {"unknown format 0xff", {0xff, 8}, 2, 1, -1},
      {"stored, one byte short", {0, 1, 2}, 3, 3, -1},
      {"stored, one byte over", {0, 1, 2}, 3, 1, -1},
      {"varint past 64 bits",
       {1, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0x01},
       11,
       8,
       -1},
      /* A zero run of 4 if bit 64 wrapped away. */
      {"varint bit 64", {1, 0x89, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x02}, 11, 4, -1},
      {"run of 2^62", {1, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x01}, 11, 8, -1},
      {"varint cut", {1, 0x80}, 2, 8, -1},
      {"zero run past n", {1, 2 * 5 + 1}, 2, 4, -1},
      {"literal past n", {1, 2 * 5, 1, 2, 3, 4, 5}, 7, 4, -1},
      {"literal cut", {1, 2 * 4, 'a', 'b'}, 4, 4, -1},
      {"short of n", {1, 2 * 3 + 1}, 2, 4, -1},
      {"trailing byte", {1, 2 * 4 + 1, 3}, 3, 4, -1},
      {"trailing zero byte", {1, 2 * 4 + 1, 0}, 3, 4, -1},
      {"empty zero run", {1, 1, 2 * 4 + 1}, 3, 4, -1},
      {"empty literal", {1, 0, 2 * 4 + 1}, 3, 4, -1},
      {"packed, no tokens, n = 0", {1}, 1, 0, 0},
      {"packed, adjacent runs", {1, 2 * 2 + 1, 2 * 1, 9, 2 * 1 + 1}, 5, 4, 0},
      {"overlong varint", {1, 2 * 4 + 1 + 0x80, 0x00}, 3, 4, 0},
  };
  for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
    int rc = decode_guarded(cases[i].enc, cases[i].len, cases[i].n);
    CHECK(rc == cases[i].rc);
    if (rc != cases[i].rc)
      fprintf(stderr, "  %s: decode returned %d\n", cases[i].what, rc);
  }
}

/* Every strict prefix of a valid encoding is refused; random corruptions are refused or decode
 * to n bytes, never past them. */
static void truncations_and_corruptions(void) {
  enum { MAXN = 1500, TRIALS = 3000 };
  static const size_t sizes[] = {0, 1, 9, 64, 700, MAXN};
  /* Byte zero densities; the last (101) stands for a sparse uint64 array. */
  static const unsigned pcts[] = {0, 50, 90, 99, 100, 101};
  unsigned char *in = alloc(MAXN), *enc = alloc(MAXN + 1), *bad = alloc(MAXN + 1 + 8);
  int prefix_ok = 1, corrupt_ok = 1;
  size_t accepted = 0, refused = 0;
  for (size_t si = 0; si < sizeof sizes / sizeof *sizes; si++)
    for (size_t pi = 0; pi < sizeof pcts / sizeof *pcts; pi++) {
      size_t n = sizes[si];
      if (pcts[pi] > 100) {
        memset(in, 0, n);
        fill_sparse_u64(in, n / 8, 8, 16);
      } else {
        fill_random(in, n, pcts[pi]);
      }
      size_t len = nw_rle_encode(in, n, enc);
      for (size_t p = 0; p < len; p++)
        if (decode_guarded(enc, p, n) != -1) {
          prefix_ok = 0;
          fprintf(stderr, "  prefix %zu of %zu (n = %zu) not refused\n", p, len, n);
        }
      for (int t = 0; t < TRIALS; t++) {
        size_t blen = len;
        memcpy(bad, enc, len);
        for (int k = 1 + (int)rnd(3); k > 0; k--) {
          size_t at = rnd(blen);
          bad[at] = rnd(2) ? (unsigned char)rnd(256) : bad[at] ^ (unsigned char)(1u << rnd(8));
        }
        if (rnd(4) == 0)
          blen = rnd(blen + 1);
        else if (rnd(4) == 0)
          for (size_t k = 1 + rnd(8); k > 0; k--)
            bad[blen++] = (unsigned char)rnd(256);
        int rc = decode_guarded(bad, blen, n);
        if (rc == 0)
          accepted++;
        else if (rc == -1)
          refused++;
        else
          corrupt_ok = 0;
      }
    }
  CHECK(prefix_ok);
  CHECK(corrupt_ok);
  CHECK(refused > 0);
  printf("rle: corrupted encodings: %zu refused, %zu still valid\n", refused, accepted);
  free(in);
  free(enc);
  free(bad);
}

/* Decoded into rows of `width` bytes `pitch` apart, the bytes land in their rows, the gaps and
 * what follows the last row keep their fill, and any prefix of the encoding is refused. */
static void rows_case(const unsigned char *in, size_t rows, size_t width, size_t pitch,
                      const char *what) {
  size_t n = rows * width, span = rows ? (rows - 1) * pitch + width : 0;
  unsigned char *enc = alloc(nw_rle_bound(n)), *out = alloc(span + GUARD);
  size_t len = nw_rle_encode(in, n, enc);
  memset(out, 0xa5, span + GUARD);
  int ok = nw_rle_decode_rows(enc, len, out, rows, width, pitch) == 0;
  for (size_t r = 0; ok && r < rows; r++) {
    ok = memcmp(out + r * pitch, in + r * width, width) == 0;
    for (size_t c = width; ok && r + 1 < rows && c < pitch; c++)
      ok = out[r * pitch + c] == 0xa5;
  }
  for (size_t i = span; ok && i < span + GUARD; i++)
    ok = out[i] == 0xa5;
  for (size_t p = 0; ok && p < len; p++)
    ok = nw_rle_decode_rows(enc, p, out, rows, width, pitch) == -1;
  CHECK(ok);
  if (!ok)
    fprintf(stderr, "  rows: %s, %zu x %zu, pitch %zu, encoded %zu\n", what, rows, width, pitch,
            len);
  free(enc);
  free(out);
}

static void decode_rows(void) {
  static const size_t shapes[][3] = {{1, 1, 1},   {1, 100, 100},  {3, 8, 8},     {3, 8, 9},
                                     {5, 7, 64},  {16, 9, 23},    {40, 64, 200}, {7, 1, 3},
                                     {2, 33, 33}, {64, 128, 1000}};
  static const unsigned pcts[] = {0, 50, 90, 99, 100};
  unsigned char *in = alloc(64 * 128);
  char what[64];
  for (size_t si = 0; si < sizeof shapes / sizeof *shapes; si++)
    for (size_t pi = 0; pi < sizeof pcts / sizeof *pcts; pi++) {
      fill_random(in, shapes[si][0] * shapes[si][1], pcts[pi]);
      snprintf(what, sizeof what, "random bytes, %u%% zero", pcts[pi]);
      rows_case(in, shapes[si][0], shapes[si][1], shapes[si][2], what);
    }
  /* Zero runs and literals that cross rows: one run over three whole rows and into a fourth. */
  memset(in, 0x42, 6 * 16);
  memset(in + 10, 0, 3 * 16 + 4);
  rows_case(in, 6, 16, 40, "a zero run across rows");
  fill_sparse_u64(in, 64 * 128 / 8, 20, 24);
  rows_case(in, 64, 128, 4096, "a sparse uint64 array in rows");
  unsigned char enc[4] = {1, 2 * 4 + 1}, out[8];
  CHECK(nw_rle_decode_rows(enc, 2, out, 2, 2, 1) == -1);        /* pitch below width */
  CHECK(nw_rle_decode_rows(enc, 2, out, SIZE_MAX, 2, 2) == -1); /* rows x width overflows */
  CHECK(nw_rle_decode_rows(enc, 2, out, 1, 4, 1) == 0);         /* one row: pitch unused */
  CHECK(nw_rle_decode_rows(enc, 2, out, 2, 2, 3) == 0 && !out[0] && !out[1] && !out[3]);
  free(in);
}

int main(void) {
  random_roundtrips();
  adversarial_roundtrips();
  matches_reference();
  sparse_u64_ratio();
  malformed();
  truncations_and_corruptions();
  decode_rows();
  return check_report("rle");
}
