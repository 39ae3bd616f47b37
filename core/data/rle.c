/* rle.c: see rle.h. The encoder runs on every reduction message, so it looks at the input a
 * word at a time (memcpy loads: no unaligned-pointer access), finds the zero bytes at a word's
 * ends by arithmetic, and copies literals with memcpy. */
#include "rle.h"

#include <stdint.h>
#include <string.h>

enum { RLE_STORED = 0, RLE_PACKED = 1 };
enum { TOKEN_LITERAL = 0, TOKEN_ZEROS = 1 };
#define LOW7 UINT64_C(0x7f7f7f7f7f7f7f7f)

/* find_zero_run looks only at the zero bytes at either end of a non-zero word: a zero run
 * strictly inside a word is at most 6 bytes, so it can never be long enough. */
_Static_assert(NW_RLE_MIN_ZERO_RUN >= 7, "find_zero_run skips runs inside a word");

size_t nw_rle_bound(size_t n) {
  return n + 1;
}

static uint64_t load64(const unsigned char *p) {
  uint64_t w;
  memcpy(&w, p, sizeof w);
  return w;
}

/* Bytes set in a word that has only bits 7 of bytes set. */
static size_t count_bytes(uint64_t x) {
  return (size_t)(((x >> 7) * 0x0101010101010101u) >> 56);
}

/* The zero bytes at the low-address and high-address ends of a word, from nz (bit 7 set in
 * each non-zero byte, at least one). Branch-free: on dense data those ends are random, and
 * byte loops mispredicted at almost every word (a quarter of the speed on random bytes half
 * of them zero). */
static void zero_ends(uint64_t nz, size_t *lead, size_t *trail) {
  /* Smeared up, the bytes from the least significant non-zero one; down, those to the most. */
  uint64_t up = nz | nz << 8, down = nz | nz >> 8;
  up |= up << 16;
  up |= up << 32;
  down |= down >> 16;
  down |= down >> 32;
  size_t low = 8 - count_bytes(up), high = 8 - count_bytes(down);
  const uint16_t one = 1; /* the byte order; compilers fold this to a constant */
  unsigned char first;
  memcpy(&first, &one, 1);
  *lead = first ? low : high;
  *trail = first ? high : low;
}

/* The start of the first run of at least NW_RLE_MIN_ZERO_RUN zero bytes in s[i, n), or n. */
static size_t find_zero_run(const unsigned char *s, size_t i, size_t n) {
  size_t run = 0; /* zero bytes just before i */
  for (; i + 8 <= n; i += 8) {
    uint64_t w = load64(s + i);
    if (w == 0) {
      run += 8;
      if (run >= NW_RLE_MIN_ZERO_RUN)
        return i + 8 - run;
      continue;
    }
    /* Bit 7 of each non-zero byte: a byte's low 7 bits plus 0x7f reach bit 7 exactly when they
     * are not all zero, and never carry into the next byte. */
    uint64_t nz = (((w & LOW7) + LOW7) | w) & ~LOW7;
    if (nz == ~LOW7) { /* no zero byte: the common case of dense data */
      run = 0;
      continue;
    }
    size_t lead, trail;
    zero_ends(nz, &lead, &trail);
    if (run + lead >= NW_RLE_MIN_ZERO_RUN)
      return i - run;
    run = trail;
  }
  for (; i < n; i++) {
    run = s[i] ? 0 : run + 1;
    if (run >= NW_RLE_MIN_ZERO_RUN)
      return i + 1 - run;
  }
  return n;
}

/* The end of the zero bytes that start at s[i]. */
static size_t zero_run_end(const unsigned char *s, size_t i, size_t n) {
  while (i + 8 <= n && load64(s + i) == 0)
    i += 8;
  while (i < n && s[i] == 0)
    i++;
  return i;
}

static size_t varint_size(uint64_t v) {
  size_t k = 1;
  for (; v >= 0x80; v >>= 7)
    k++;
  return k;
}

/* Appends a token at d[*o]; -1, writing nothing, if it would take the output past cap. */
static int put_token(unsigned char *d, size_t *o, size_t cap, int kind, size_t len,
                     const unsigned char *literal) {
  uint64_t h = 2 * (uint64_t)len + (uint64_t)kind;
  size_t k = varint_size(h) + (kind == TOKEN_LITERAL ? len : 0);
  if (k > cap - *o)
    return -1;
  unsigned char *p = d + *o;
  for (; h >= 0x80; h >>= 7)
    *p++ = (unsigned char)(h | 0x80);
  *p++ = (unsigned char)h;
  if (kind == TOKEN_LITERAL)
    memcpy(p, literal, len);
  *o += k;
  return 0;
}

size_t nw_rle_encode(const void *src, size_t n, void *dst) {
  const unsigned char *s = src;
  unsigned char *d = dst;
  /* Packed output is kept only if smaller than stored (n + 1), so it may take n bytes. The
   * second test keeps 2 * len + kind inside 64 bits on any size_t. */
  size_t o = 1, cap = n, lit = 0; /* lit: start of the bytes not yet coded */
  if (n == 0 || (uint64_t)n > UINT64_MAX / 2)
    goto stored;
  d[0] = RLE_PACKED;
  while (lit < n) {
    size_t z0 = find_zero_run(s, lit, n);
    if (z0 == n)
      break;
    size_t z1 = zero_run_end(s, z0 + NW_RLE_MIN_ZERO_RUN, n);
    if (z0 > lit && put_token(d, &o, cap, TOKEN_LITERAL, z0 - lit, s + lit) != 0)
      goto stored;
    if (put_token(d, &o, cap, TOKEN_ZEROS, z1 - z0, NULL) != 0)
      goto stored;
    lit = z1;
  }
  if (lit < n && put_token(d, &o, cap, TOKEN_LITERAL, n - lit, s + lit) != 0)
    goto stored;
  return o;
stored:
  d[0] = RLE_STORED;
  if (n > 0)
    memcpy(d + 1, s, n);
  return n + 1;
}

/* Reads the varint at s[*i, len); -1 if it runs past len or past 64 bits. */
static int get_varint(const unsigned char *s, size_t len, size_t *i, uint64_t *v) {
  uint64_t x = 0;
  for (unsigned shift = 0; shift < 64; shift += 7) {
    if (*i == len)
      return -1;
    unsigned char b = s[(*i)++];
    if (shift == 63 && b > 1)
      return -1;
    x |= (uint64_t)(b & 0x7f) << shift;
    if (!(b & 0x80)) {
      *v = x;
      return 0;
    }
  }
  return -1;
}

/* Where decoded bytes go: rows of `width` bytes, `pitch` apart; the next byte is at column col
 * of the row starting at offset row. One row of n bytes is a plain buffer. */
typedef struct rows_out {
  unsigned char *d;
  size_t row, col, width, pitch;
} rows_out;

/* Writes k bytes (a literal's, or zeros when lit is NULL) at the next position, across rows. */
static void put_bytes(rows_out *w, const unsigned char *lit, size_t k) {
  while (k > 0) {
    size_t m = w->width - w->col < k ? w->width - w->col : k;
    if (lit) {
      memcpy(w->d + w->row + w->col, lit, m);
      lit += m;
    } else {
      memset(w->d + w->row + w->col, 0, m);
    }
    k -= m;
    w->col += m;
    if (w->col == w->width) {
      w->col = 0;
      w->row += w->pitch;
    }
  }
}

/* Decodes len bytes into n = rows x width bytes at w (the caller checked n). */
static int decode(const unsigned char *s, size_t len, rows_out *w, size_t n) {
  if (len == 0)
    return -1;
  if (s[0] == RLE_STORED) {
    if (len - 1 != n)
      return -1;
    put_bytes(w, s + 1, n);
    return 0;
  }
  if (s[0] != RLE_PACKED)
    return -1;
  size_t i = 1, o = 0;
  while (i < len) {
    uint64_t h;
    if (get_varint(s, len, &i, &h) != 0)
      return -1;
    uint64_t run = h >> 1;
    if (run == 0 || run > (uint64_t)(n - o))
      return -1;
    size_t k = (size_t)run;
    if ((h & 1) == TOKEN_ZEROS) {
      put_bytes(w, NULL, k);
    } else {
      if (k > len - i)
        return -1;
      put_bytes(w, s + i, k);
      i += k;
    }
    o += k;
  }
  return o == n ? 0 : -1;
}

int nw_rle_decode(const void *src, size_t len, void *dst, size_t n) {
  rows_out w = {dst, 0, 0, n, n};
  return decode(src, len, &w, n);
}

int nw_rle_decode_rows(const void *src, size_t len, void *dst, size_t rows, size_t width,
                       size_t pitch) {
  if (width > 0 && rows > SIZE_MAX / width)
    return -1;
  if (rows > 1 && pitch < width)
    return -1;
  rows_out w = {dst, 0, 0, width, pitch};
  return decode(src, len, &w, rows * width);
}
