/* bench_region.c [N] [REPS]: region-set throughput (core/data/region.h) on two workloads: a
 * space one row wide (pitch = size) fragmented by N short ranges, and a matmul's 65536-row
 * column of blocks (a few big rectangles). Prints rectangles per second for each step, best of
 * REPS runs; it never fails. The old pairwise code cannot be timed beside the new in one
 * binary; on the one-row workload it took hours at N = 200000. Last, a node's resident bytes
 * under a scattered placement (docs/experiments/sim-scale-data-sets.md): a plain region against
 * the chunked set (core/data/chunked.h), interleaved, with their ratio. */
#define _POSIX_C_SOURCE 200809L
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#include "bench_clock.h"
#include "chunked.h"
#include "region.h"

static uint64_t rng = 88172645463325252ull;
static uint64_t rnd(uint64_t n) {
  rng ^= rng << 13;
  rng ^= rng >> 7;
  rng ^= rng << 17;
  return rng % n;
}

static void shuffle(uint64_t *v, size_t n) {
  for (size_t i = n; i > 1; i--) {
    size_t j = (size_t)rnd(i);
    uint64_t t = v[i - 1];
    v[i - 1] = v[j];
    v[j] = t;
  }
}

static void must(nw_status st) {
  if (st != NW_OK) {
    fprintf(stderr, "bench_region: region operation failed (%d)\n", (int)st);
    exit(1);
  }
}

/* rects: the rectangles the step took in; result: what it gave (rectangles, bytes, a truth). */
static void report(const char *what, double rects, double best, size_t result, const char *unit) {
  printf("%-58s %9.3f ms %12.0f rects/s  (result: %zu %s)\n", what, best * 1e3, rects / best,
         result, unit);
}

/* The one-row space: 2^40 bytes, pitch = size. Slot k is bytes [8k, 8k + len). */
static const uint64_t ROW = 1ull << 40;

/* N ranges of len bytes at 8k + shift, added one call each in the order of slots[]. */
static void add_each(nw_region *s, const uint64_t *slots, size_t n, uint64_t shift, uint64_t len) {
  for (size_t i = 0; i < n; i++)
    must(nw_region_add_range(s, 8 * slots[i] + shift, 8 * slots[i] + shift + len));
}

/* The same ranges one call each into a staging set merged into s every `first` ranges, or (with
 * `second` > 0) into a middle set merged into s when it holds `second` rectangles: how a caller
 * adds many scattered pieces (the array is sorted, so a middle insert costs a memmove). */
static void add_staged(nw_region *s, const uint64_t *slots, size_t n, uint64_t shift, uint64_t len,
                       size_t first, size_t second) {
  nw_region stage, mid;
  nw_region_init(&stage, s->pitch);
  nw_region_init(&mid, s->pitch);
  nw_region *into = second ? &mid : s;
  for (size_t i = 0; i < n; i++) {
    must(nw_region_add_range(&stage, 8 * slots[i] + shift, 8 * slots[i] + shift + len));
    if (stage.n >= first || i + 1 == n) {
      must(nw_region_add(into, &stage));
      nw_region_clear(&stage);
    }
    if (second && (mid.n >= second || i + 1 == n)) {
      must(nw_region_add(s, &mid));
      nw_region_clear(&mid);
    }
  }
  nw_region_free(&stage);
  nw_region_free(&mid);
}

static void one_row(size_t n, int reps) {
  uint64_t *slots = malloc(n * sizeof *slots);
  if (!slots)
    exit(1);
  for (size_t i = 0; i < n; i++)
    slots[i] = i;
  shuffle(slots, n);
  char what[128];
  double best;
  nw_region a, b, c;

  /* One call per range straight into the set: O(log n) search plus a memmove of the tail,
   * so quadratic in bytes moved; shown up to 100000 ranges, where it still takes about a
   * second. */
  size_t sizes[] = {10000, 50000, 100000};
  for (int k = 0; k < 3; k++) {
    size_t m = sizes[k] < n ? sizes[k] : n;
    if (k > 0 && sizes[k - 1] >= n)
      break;
    best = 1e30;
    for (int r = 0; r < reps; r++) {
      nw_region_init(&a, ROW);
      double t0 = bench_now();
      add_each(&a, slots, m, 0, 3);
      double t = bench_now() - t0;
      best = t < best ? t : best;
      if (r + 1 < reps)
        nw_region_free(&a);
    }
    snprintf(what, sizeof what, "one row: %zu ranges, one add_range each, random", m);
    report(what, (double)m, best, a.n, "rects");
    nw_region_free(&a);
  }

  /* Staged: the same calls, merged 1024 at a time, or 64 then 4096 at a time. */
  for (int two = 0; two < 2; two++) {
    best = 1e30;
    for (int r = 0; r < reps; r++) {
      nw_region_init(&a, ROW);
      double t0 = bench_now();
      add_staged(&a, slots, n, 0, 3, two ? 64 : 1024, two ? 4096 : 0);
      double t = bench_now() - t0;
      best = t < best ? t : best;
      if (r + 1 < reps)
        nw_region_free(&a);
    }
    snprintf(what, sizeof what, "one row: %zu ranges, staged by %s, random", n,
             two ? "64 then 4096" : "1024");
    report(what, (double)n, best, a.n, "rects");
    if (!two)
      nw_region_free(&a); /* the second build is a, kept for the set operations */
  }

  /* One quad of n segments (the per-segment loop of nw_region_add_quad). */
  best = 1e30;
  for (int r = 0; r < reps; r++) {
    nw_region_init(&c, ROW);
    double t0 = bench_now();
    must(nw_region_add_quad(&c, (nw_quad){2, 5, 8, n}));
    double t = bench_now() - t0;
    best = t < best ? t : best;
    if (r + 1 < reps)
      nw_region_free(&c);
  }
  snprintf(what, sizeof what, "one row: one quad of %zu segments", n);
  report(what, (double)n, best, c.n, "rects");
  nw_region_free(&c);

  /* Set operations between two fragmented sets: a = [8k, 8k+3), b = [8k+2, 8k+7). */
  nw_region_init(&b, ROW);
  add_staged(&b, slots, n, 2, 5, 64, 4096);
  nw_region u; /* a | b, for a contains that has to look at every rectangle */
  must(nw_region_copy(&u, &a));
  must(nw_region_add(&u, &b));
  const char *names[] = {"union", "subtract", "intersect", "overlap_bytes", "contains"};
  for (int op = 0; op < 5; op++) {
    best = 1e30;
    size_t out_n = 0;
    for (int r = 0; r < reps; r++) {
      nw_region_init(&c, ROW);
      if (op < 2)
        must(nw_region_copy(&c, &a));
      double t0 = bench_now();
      if (op == 0)
        must(nw_region_add(&c, &b));
      else if (op == 1)
        must(nw_region_subtract(&c, &b));
      else if (op == 2)
        must(nw_region_intersect(&c, &a, &b));
      else if (op == 3)
        out_n = (size_t)nw_region_overlap_bytes(&a, &b);
      else
        out_n = (size_t)nw_region_contains(&u, &a);
      double t = bench_now() - t0;
      best = t < best ? t : best;
      if (op < 3)
        out_n = c.n;
      nw_region_free(&c);
    }
    if (op == 4)
      snprintf(what, sizeof what, "one row: contains(a | b, a), %zu-range sets", n);
    else
      snprintf(what, sizeof what, "one row: %s of two %zu-range sets", names[op], n);
    report(what, (double)(a.n + b.n), best, out_n,
           op < 3    ? "rects"
           : op == 3 ? "bytes"
                     : "(1 = contained)");
  }
  nw_region_free(&a);
  nw_region_free(&b);
  nw_region_free(&u);
  free(slots);
}

/* A 65536 x 65536 float matrix, blocks of 2048: block columns are quads with step = pitch
 * (one rectangle each), block rows contiguous. The directory's moves: add each column in random
 * order, intersect with each block row, subtract each column. */
static void matmul_like(int reps) {
  const uint64_t n = 65536, b = 2048, row = n * 4, brow = b * 4, blocks = n / b;
  uint64_t order[32];
  for (uint64_t j = 0; j < blocks; j++)
    order[j] = j;
  shuffle(order, blocks);
  double best = 1e30;
  size_t ops = 0, left = 0;
  for (int r = 0; r < reps; r++) {
    nw_region s, part, q;
    nw_region_init(&s, row);
    nw_region_init(&part, row);
    double t0 = bench_now();
    ops = 0;
    for (int pass = 0; pass < 100; pass++) {
      for (uint64_t j = 0; j < blocks; j++, ops++)
        must(nw_region_add_quad(&s, (nw_quad){order[j] * brow, brow, row, n}));
      for (uint64_t i = 0; i < blocks; i++, ops++) {
        nw_region_init(&q, row);
        must(nw_region_add_quad(&q, (nw_quad){i * b * row, row, row, b}));
        must(nw_region_intersect(&part, &s, &q));
        nw_region_free(&q);
      }
      for (uint64_t j = 0; j < blocks; j += 2, ops++) {
        nw_region_init(&q, row);
        must(nw_region_add_quad(&q, (nw_quad){order[j] * brow, brow, row, n}));
        must(nw_region_subtract(&s, &q));
        nw_region_free(&q);
      }
    }
    double t = bench_now() - t0;
    best = t < best ? t : best;
    left = s.n;
    nw_region_free(&s);
    nw_region_free(&part);
  }
  report("matmul-like: 65536-row block columns: add/intersect/subtract", (double)ops, best, left,
         "rects left");
}

/* A node's resident bytes under a scattered placement: half of the 32 x 32-float blocks of a
 * square float matrix with `side` columns, in random order, each added and then checked in one
 * call each (as a fetch's arrival and a subtask's readiness test do); side 0: scattered ranges
 * in a space one row wide, where a chunked set is one band and cannot be cut. Into a plain
 * region or a chunked set; returns the seconds, and the rectangles held (0 if a check failed). */
static double fill(int chunked, uint64_t side, const uint64_t *slots, size_t n, size_t *rects) {
  const uint64_t pitch = side ? side * 4 : ROW, bw = 32 * 4, across = side / 32;
  nw_region flat, piece;
  nw_chunked ch;
  nw_region_init(&flat, pitch);
  nw_chunked_init(&ch, pitch);
  int all_in = 1;
  double t0 = bench_now();
  for (size_t i = 0; i < n; i++) {
    nw_region_init(&piece, pitch);
    if (!side) {
      must(nw_region_add_range(&piece, 8 * slots[i], 8 * slots[i] + 3));
    } else {
      uint64_t row = slots[i] / across * 32, col = slots[i] % across * bw;
      must(nw_region_add_rect(&piece, (nw_rect){row, row + 32, col, col + bw}));
    }
    must(chunked ? nw_chunked_add(&ch, &piece) : nw_region_add(&flat, &piece));
    all_in &= chunked ? nw_chunked_contains(&ch, &piece) : nw_region_contains(&flat, &piece);
    nw_region_free(&piece);
  }
  double t = bench_now() - t0;
  *rects = all_in ? (chunked ? nw_chunked_rects(&ch) : flat.n) : 0;
  nw_region_free(&flat);
  nw_chunked_free(&ch);
  return t;
}

/* fill() into both, interleaved (plain, chunked, plain, ...), best of reps, and the ratio. */
static void chunked_vs_flat(int reps) {
  const uint64_t sides[] = {8192, 16384, 0};
  uint64_t *slots = malloc(512 * 512 * sizeof *slots);
  if (!slots)
    exit(1);
  for (int k = 0; k < 3; k++) {
    size_t all = sides[k] ? (size_t)(sides[k] / 32 * (sides[k] / 32)) : 60000;
    for (size_t i = 0; i < all; i++)
      slots[i] = i;
    shuffle(slots, all);
    size_t n = sides[k] ? all / 2 : all;
    double best[2] = {1e30, 1e30};
    size_t rects[2];
    for (int r = 0; r < reps; r++)
      for (int c = 0; c < 2; c++) {
        double t = fill(c, sides[k], slots, n, &rects[c]);
        best[c] = t < best[c] ? t : best[c];
      }
    char what[96];
    if (sides[k])
      snprintf(what, sizeof what, "resident: %llu^2 floats, %zu scattered 32x32 blocks",
               (unsigned long long)sides[k], n);
    else
      snprintf(what, sizeof what, "resident: one row, %zu scattered ranges", n);
    printf("%-58s plain %.3f s, chunked %.3f s, plain/chunked %.2f (rects %zu, %zu)\n", what,
           best[0], best[1], best[0] / best[1], rects[0], rects[1]);
  }
  free(slots);
}

int main(int argc, char **argv) {
  long n = argc > 1 ? atol(argv[1]) : 200000;
  int reps = argc > 2 ? atoi(argv[2]) : 3;
  if (n < 1 || reps < 1) {
    fprintf(stderr, "usage: bench_region [N] [REPS]\n");
    return 2;
  }
  one_row((size_t)n, reps);
  matmul_like(reps);
  chunked_vs_flat(reps);
  return 0;
}
