/* test_staging.c: the staging pipeline of narrow-row GPU copies (backends/real/real_staging.h),
 * on the host.
 *
 * The "device" is host memory and the transfers are fakes that model the DMA's asynchrony:
 * start() only records what its buffer is to move, and wait() moves it. So a driver that packs a
 * buffer again before waiting for its transfer, starts a buffer still in flight, unpacks before
 * the wait or returns with a transfer pending leaves wrong bytes, which the checks compare bit
 * for bit: the device block, the host rows and the host bytes between rows (untouched). The
 * fakes also count those misuses directly, and every op's failure must come back as the
 * driver's result with no transfer left in flight. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "real_staging.h"

static int cases, failures;

/* Distinct, position-dependent bytes; a different seed for each buffer. */
static void fill(unsigned char *p, uint64_t n, uint64_t seed) {
  uint64_t x = seed * 0x9E3779B97F4A7C15ull + 1;
  for (uint64_t i = 0; i < n; i += 8) { /* a word at a time: the test's time is mostly this */
    x = x * 6364136223846793005ull + 1442695040888963407ull;
    uint64_t v = x ^ (x >> 29);
    memcpy(p + i, &v, n - i < 8 ? (size_t)(n - i) : 8);
  }
}

static void *xmalloc(uint64_t n) {
  void *p = malloc(n ? (size_t)n : 1);
  if (!p) {
    fprintf(stderr, "staging: out of memory\n");
    exit(2);
  }
  return p;
}

/* The fake transfers: one pending transfer per buffer at most. */
typedef struct {
  unsigned char *stage[2]; /* the buffers the driver was given */
  uint64_t stage_bytes;
  unsigned char *dev_lo, *dev_hi; /* the device block */
  int armed[2], to_device[2];
  unsigned char *dev[2];
  uint64_t len[2];
  int starts, waits;
  int fail_start, fail_wait; /* that call (1 = the first) fails; 0: none does */
  int failed;
  int misuse; /* a start on a buffer in flight, a wait on an idle one, bad arguments, a start
               * after a failure */
} fake;

enum { START_ERR = 7, WAIT_ERR = 9 };

static int fake_start(void *ctx, int buf, int to_device, unsigned char *dev, unsigned char *stage,
                      uint64_t len) {
  fake *f = ctx;
  f->starts++;
  if (buf < 0 || buf > 1 || stage != f->stage[buf] || len > f->stage_bytes || len == 0 ||
      dev < f->dev_lo || dev + len > f->dev_hi || f->armed[buf] || f->failed)
    f->misuse++;
  if (buf < 0 || buf > 1)
    return 0;
  if (f->starts == f->fail_start) {
    f->failed = 1;
    return START_ERR;
  }
  /* A start over a pending one replaces it, as a buffer's bytes would be overwritten. */
  f->armed[buf] = 1;
  f->to_device[buf] = to_device;
  f->dev[buf] = dev;
  f->len[buf] = len;
  return 0;
}

static int fake_wait(void *ctx, int buf) {
  fake *f = ctx;
  f->waits++;
  if (buf < 0 || buf > 1 || !f->armed[buf]) {
    f->misuse++;
    return 0;
  }
  if (f->to_device[buf])
    memcpy(f->dev[buf], f->stage[buf], (size_t)f->len[buf]);
  else
    memcpy(f->stage[buf], f->dev[buf], (size_t)f->len[buf]);
  f->armed[buf] = 0;
  if (f->waits == f->fail_wait) {
    f->failed = 1;
    return WAIT_ERR;
  }
  return 0;
}

static const real_staging_ops fake_ops = {fake_start, fake_wait};

#define FAIL(...)                                                                                  \
  do {                                                                                             \
    failures++;                                                                                    \
    fprintf(stderr, "staging: FAILED ");                                                           \
    fprintf(stderr, __VA_ARGS__);                                                                  \
    fprintf(stderr, "\n");                                                                         \
  } while (0)

static int first_diff(const unsigned char *a, const unsigned char *b, uint64_t n, uint64_t *at) {
  if (memcmp(a, b, (size_t)n) == 0)
    return 0;
  for (uint64_t i = 0; i < n; i++)
    if (a[i] != b[i]) {
      *at = i;
      return 1;
    }
  return 0;
}

/* Pack then unpack: the packed rows, and the unpacked block with its gaps untouched. */
static void pack_round_trip(uint64_t width, uint64_t rows, uint64_t pitch) {
  cases++;
  uint64_t span = rows * pitch;
  unsigned char *src = xmalloc(span), *packed = xmalloc(rows * width), *dst = xmalloc(span),
                *want = xmalloc(span);
  fill(src, span, 1 + width + rows);
  fill(dst, span, 2 + width * rows);
  memcpy(want, dst, (size_t)span);
  real_staging_pack(packed, src, pitch, rows, width);
  for (uint64_t r = 0; r < rows; r++) {
    memcpy(want + r * pitch, src + r * pitch, (size_t)width);
    uint64_t at;
    if (first_diff(packed + r * width, src + r * pitch, width, &at)) {
      FAIL("pack width=%llu rows=%llu pitch=%llu: row %llu byte %llu", (unsigned long long)width,
           (unsigned long long)rows, (unsigned long long)pitch, (unsigned long long)r,
           (unsigned long long)at);
      break;
    }
  }
  real_staging_unpack(dst, pitch, packed, rows, width);
  uint64_t at;
  if (first_diff(dst, want, span, &at))
    FAIL("unpack width=%llu rows=%llu pitch=%llu: byte %llu (row %llu, column %llu)",
         (unsigned long long)width, (unsigned long long)rows, (unsigned long long)pitch,
         (unsigned long long)at, (unsigned long long)(at / pitch),
         (unsigned long long)(at % pitch));
  free(src);
  free(packed);
  free(dst);
  free(want);
}

enum { GUARD = 64 }; /* device bytes past the block that no copy may touch */

typedef struct {
  int to_device;
  uint64_t width, rows, pitch, stage_bytes;
  int fail_start, fail_wait;
} copy_case;

static void describe(char *s, size_t n, const copy_case *k) {
  snprintf(s, n, "%s width=%llu rows=%llu pitch=%llu stage=%llu fail_start=%d fail_wait=%d",
           k->to_device ? "to-device" : "to-host", (unsigned long long)k->width,
           (unsigned long long)k->rows, (unsigned long long)k->pitch,
           (unsigned long long)k->stage_bytes, k->fail_start, k->fail_wait);
}

/* One copy through the driver and the fakes; the fake's counts go to *out. Returns the driver's
 * result. With no failure planted, checks every byte of both sides. */
static int run_copy(const copy_case *k, fake *out) {
  cases++;
  char name[200];
  describe(name, sizeof name, k);
  uint64_t span = k->rows * k->pitch, block = k->rows * k->width;
  unsigned char *host = xmalloc(span), *host0 = xmalloc(span);
  unsigned char *dev = xmalloc(block + GUARD), *dev0 = xmalloc(block + GUARD);
  unsigned char *s0 = xmalloc(k->stage_bytes), *s1 = xmalloc(k->stage_bytes);
  fill(host, span, 11 + k->width + 3 * k->rows);
  fill(dev, block + GUARD, 12 + 5 * k->width + k->rows);
  /* Filler that only a transfer of a buffer not yet packed would move. */
  memset(s0, 0xA5, (size_t)k->stage_bytes);
  memset(s1, 0x5A, (size_t)k->stage_bytes);
  memcpy(host0, host, (size_t)span);
  memcpy(dev0, dev, (size_t)(block + GUARD));
  fake f = {.stage = {s0, s1},
            .stage_bytes = k->stage_bytes,
            .dev_lo = dev,
            .dev_hi = dev + block,
            .fail_start = k->fail_start,
            .fail_wait = k->fail_wait};
  unsigned char *const stage[2] = {s0, s1};
  int rc = real_staging_copy(&fake_ops, &f, k->to_device, dev, host, k->pitch, k->rows, k->width,
                             stage, k->stage_bytes);
  if (f.misuse)
    FAIL("%s: %d misuses of the transfers", name, f.misuse);
  if (f.armed[0] || f.armed[1])
    FAIL("%s: returned with a transfer in flight", name);
  if (!k->fail_start && !k->fail_wait) {
    if (rc != 0)
      FAIL("%s: returned %d", name, rc);
    /* The expected sides: the block's rows copied across, all else as it was. */
    unsigned char *want_host = xmalloc(span), *want_dev = xmalloc(block + GUARD);
    memcpy(want_host, host0, (size_t)span);
    memcpy(want_dev, dev0, (size_t)(block + GUARD));
    if (k->to_device)
      real_staging_pack(want_dev, host0, k->pitch, k->rows, k->width);
    else
      real_staging_unpack(want_host, k->pitch, dev0, k->rows, k->width);
    uint64_t at;
    if (first_diff(dev, want_dev, block + GUARD, &at))
      FAIL("%s: device byte %llu (row %llu, column %llu%s)", name, (unsigned long long)at,
           (unsigned long long)(at / k->width), (unsigned long long)(at % k->width),
           at >= block ? ", past the block" : "");
    if (first_diff(host, want_host, span, &at))
      FAIL("%s: host byte %llu (row %llu, column %llu%s)", name, (unsigned long long)at,
           (unsigned long long)(at / k->pitch), (unsigned long long)(at % k->pitch),
           at % k->pitch >= k->width ? ", between rows" : "");
    free(want_host);
    free(want_dev);
  }
  *out = f;
  free(host);
  free(host0);
  free(dev);
  free(dev0);
  free(s0);
  free(s1);
  return rc;
}

static void copy_ok(const copy_case *k) {
  fake f;
  run_copy(k, &f);
}

/* Every start and every wait of a copy failing in turn: the driver returns that op's error,
 * starts nothing after it and leaves nothing in flight (run_copy checks the last two). */
static void copy_failures(copy_case k) {
  fake clean;
  if (run_copy(&k, &clean) != 0)
    return; /* reported */
  char name[200];
  for (int i = 1; i <= clean.starts + clean.waits; i++) {
    k.fail_start = i <= clean.starts ? i : 0;
    k.fail_wait = i <= clean.starts ? 0 : i - clean.starts;
    fake f;
    int rc = run_copy(&k, &f);
    describe(name, sizeof name, &k);
    if (rc != (k.fail_start ? START_ERR : WAIT_ERR))
      FAIL("%s: returned %d", name, rc);
  }
}

int main(void) {
  static const uint64_t widths[] = {4, 7, 64, 1000, 4096, 8192, 65535, 65536};
  static const uint64_t row_counts[] = {1, 2, 3, 17, 1000};
  const uint64_t max_block = 8u << 20; /* bigger blocks add time, not cases */
  for (size_t wi = 0; wi < sizeof widths / sizeof *widths; wi++) {
    uint64_t w = widths[wi];
    for (size_t ri = 0; ri < sizeof row_counts / sizeof *row_counts; ri++) {
      uint64_t rows = row_counts[ri];
      if (rows * w > max_block)
        continue;
      const uint64_t pitches[] = {w, w + 3, 2 * w};
      /* One row a chunk; two rows and a spare byte; five rows (17 rows: a partial last chunk);
       * the whole block; real_gpu.c's 4 MiB where that is less than the block (more would be
       * the whole-block case again, only slower). */
      const uint64_t stages[] = {w, 3 * w - 1, 5 * w, rows * w, 4u << 20};
      size_t n_stages = rows * w > stages[4] ? 5 : 4;
      for (size_t pi = 0; pi < 3; pi++) {
        pack_round_trip(w, rows, pitches[pi]);
        for (size_t si = 0; si < n_stages; si++)
          for (int dir = 0; dir < 2; dir++)
            copy_ok(&(copy_case){dir, w, rows, pitches[pi], stages[si], 0, 0});
      }
    }
  }
  /* Many chunks with the last one partial: 1000 rows of 7 bytes, 3 rows a chunk. */
  for (int dir = 0; dir < 2; dir++)
    copy_ok(&(copy_case){dir, 7, 1000, 19, 21, 0, 0});
  /* A row wider than a buffer: refused before any transfer. */
  for (int dir = 0; dir < 2; dir++) {
    cases++;
    unsigned char a[64] = {0}, b[64] = {0}, s0[8], s1[8];
    unsigned char *const stage[2] = {s0, s1};
    fake f = {.stage = {s0, s1}, .stage_bytes = 8};
    if (real_staging_copy(&fake_ops, &f, dir, a, b, 16, 2, 9, stage, 8) != -1 || f.starts ||
        f.waits)
      FAIL("%s: a 9-byte row through 8-byte buffers was not refused",
           dir ? "to-device" : "to-host");
  }
  /* Errors, each op failing in turn: one chunk, two, and nine (the last partial). */
  for (int dir = 0; dir < 2; dir++) {
    copy_failures((copy_case){dir, 64, 1, 64, 256, 0, 0});
    copy_failures((copy_case){dir, 64, 2, 100, 64, 0, 0});
    copy_failures((copy_case){dir, 64, 17, 100, 128, 0, 0});
  }
  /* Which shapes are staged. */
  cases++;
  if (!real_staging_wanted(2, 8192, 65536) || real_staging_wanted(1, 8192, 65536) ||
      real_staging_wanted(2, 8192, 8192) || real_staging_wanted(2, REAL_STAGING_ROW_MAX, 1 << 20) ||
      !real_staging_wanted(2, REAL_STAGING_ROW_MAX - 1, 1 << 20))
    FAIL("real_staging_wanted");
  /* Which path a copy takes: a 2D copy unless NARWHAL_GPU_STAGING asks for another, and then
   * only for narrow blocks (and a kernel only where it can reach the rows). */
  static const struct {
    const char *env;
    int narrow, gatherable;
    real_copy_path_t want;
  } paths[] = {
      {NULL, 1, 1, REAL_COPY_2D},     {"off", 1, 1, REAL_COPY_2D},
      {"junk", 1, 1, REAL_COPY_2D},   {"on", 1, 0, REAL_COPY_STAGED},
      {"on", 0, 0, REAL_COPY_2D},     {"kernel", 1, 1, REAL_COPY_KERNEL},
      {"kernel", 1, 0, REAL_COPY_2D}, {"kernel", 0, 1, REAL_COPY_2D},
      {"ON", 1, 1, REAL_COPY_2D}, /* the values are lower case, as documented */
  };
  for (size_t i = 0; i < sizeof paths / sizeof *paths; i++) {
    cases++;
    real_copy_path_t got =
        real_copy_path(real_staging_mode_parse(paths[i].env), paths[i].narrow, paths[i].gatherable);
    if (got != paths[i].want) {
      fprintf(stderr, "staging: NARWHAL_GPU_STAGING=%s narrow %d gatherable %d: path %d, not %d\n",
              paths[i].env ? paths[i].env : "(unset)", paths[i].narrow, paths[i].gatherable,
              (int)got, (int)paths[i].want);
      failures++;
    }
  }
  printf("staging: %d cases, %d failed\n", cases, failures);
  return failures ? 1 : 0;
}
