/* test_cost_fit.c: the handling-cost fit of `narwhal calibrate` (tools/narwhal/cost_fit.h)
 * recovers known laws from the sums the real backend keeps: a + b * bytes + c * runs exactly,
 * a law without a run term, small messages (no byte slope), a negative intercept (through the
 * origin), wall times where no CPU time was taken, bytes beyond the cache and bytes gathered
 * into messages sent priced apart, the pages of copies of spaces written first, and the pages
 * of new views touched first. */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "cost_fit.h"

static int failed;

static void expect(const char *what, double got, double want, double tol) {
  int ok = fabs(got - want) <= tol * (fabs(want) > 0 ? fabs(want) : 1);
  printf("%s %s: %.6g (expected %.6g)\n", ok ? "ok  " : "FAIL", what, got, want);
  failed += !ok;
}

/* Adds an event of kind k moving x bytes (g of them gathered into messages sent) in z runs,
 * writing q pages of copies of spaces first and touching v pages of new views first, that took
 * y seconds of CPU (and of wall). */
static void add_viewed(nw_rt_costs *r, int k, double x, double g, double z, double q, double v,
                       double y, int cpu) {
  r->events[k]++;
  r->s[k] += y;
  r->bytes[k] += x;
  r->bytes_sq[k] += x * x;
  r->bytes_s[k] += x * y;
  if (cpu)
    nw_rt_costs_sample(r, k, x, g, z, q, v, y);
}

static void add_paged(nw_rt_costs *r, int k, double x, double g, double z, double q, double y,
                      int cpu) {
  add_viewed(r, k, x, g, z, q, 0, y, cpu);
}

static void add_gathered(nw_rt_costs *r, int k, double x, double g, double z, double y, int cpu) {
  add_paged(r, k, x, g, z, 0, y, cpu);
}

static void add(nw_rt_costs *r, int k, double x, double z, double y, int cpu) {
  add_gathered(r, k, x, 0, z, y, cpu);
}

static tool_event_cost fit;

/* Fits kind k of r into the globals the checks read. */
static void fit_kind(const nw_rt_costs *r, int k, double *a, double *b, double *c,
                     double d[NW_COST_CLASSES]) {
  tool_fit_event_cost(r, k, &fit);
  *a = fit.fixed, *b = fit.per_byte, *c = fit.per_run;
  for (int cls = 0; cls < NW_COST_CLASSES; cls++)
    d[cls] = fit.per_byte_class[cls];
}

int main(void) {
  const int k = 1;
  double a, b, c, d[NW_COST_CLASSES];
  nw_rt_costs r;

  /* 1. y = 2 us + 0.1 ns/B + 50 ns/run, bytes and runs varied independently. */
  memset(&r, 0, sizeof r);
  for (int i = 0; i < 40; i++) {
    double x = 8192.0 * (1 + i % 7), z = 1 + (i * 13) % 11 * 64;
    add(&r, k, x, z, 2e-6 + 1e-10 * x + 5e-8 * z, 1);
  }
  fit_kind(&r, k, &a, &b, &c, d);
  expect("1: intercept", a, 2e-6, 1e-6);
  expect("1: per byte", b, 1e-10, 1e-6);
  expect("1: per run", c, 5e-8, 1e-6);

  /* 2. No run term: y = 3 us + 2 ns/B, the runs unrelated. */
  memset(&r, 0, sizeof r);
  for (int i = 0; i < 40; i++) {
    double x = 4096.0 * (1 + i % 9), z = 1 + (i * 7) % 5;
    add(&r, k, x, z, 3e-6 + 2e-9 * x, 1);
  }
  fit_kind(&r, k, &a, &b, &c, d);
  expect("2: intercept", a, 3e-6, 1e-6);
  expect("2: per byte", b, 2e-9, 1e-6);
  expect("2: per run", c, 0, 1e-12);

  /* 3. Control messages (a mean under 4 KiB): no slope over bytes, even an exact one; the
   *    runs still give theirs. */
  memset(&r, 0, sizeof r);
  for (int i = 0; i < 40; i++) {
    double x = 64.0 * (1 + i % 5), z = i % 3;
    add(&r, k, x, z, 1e-6 + 1e-9 * x + 1e-7 * z, 1);
  }
  fit_kind(&r, k, &a, &b, &c, d);
  expect("3: per byte", b, 0, 1e-12);
  expect("3: per run", c, 1e-7, 0.2);

  /* 4. A negative intercept: y = 1 ns/B - 1 us goes through the origin instead. */
  memset(&r, 0, sizeof r);
  for (int i = 0; i < 40; i++) {
    double x = 8192.0 * (1 + i % 6);
    add(&r, k, x, 0, 1e-9 * x - 1e-6, 1);
  }
  fit_kind(&r, k, &a, &b, &c, d);
  expect("4: intercept", a, 0, 1e-12);
  expect("4: per byte (origin)", b, 1e-9, 0.05);

  /* 5. No CPU times: the wall times over bytes. */
  memset(&r, 0, sizeof r);
  for (int i = 0; i < 40; i++) {
    double x = 8192.0 * (1 + i % 6);
    add(&r, k, x, 0, 5e-6 + 3e-10 * x, 0);
  }
  fit_kind(&r, k, &a, &b, &c, d);
  expect("5: intercept (wall)", a, 5e-6, 1e-6);
  expect("5: per byte (wall)", b, 3e-10, 1e-6);
  expect("5: per run (wall)", c, 0, 1e-12);

  /* 6. Bytes beyond the cache (a knee of 16 MiB): square tiles of 1.6-15 MB, whose runs grow as
   *    the square root of their bytes, 2 us + 0.45 ns/B + 25 ns/run; halos of 8-16 KiB in
   *    1024-2048 runs, the same law; result halves of 32-128 MiB at 1.2 ns/B (+ 2 us + 25
   *    ns/run). One slope over all of them is set by the largest; split, each side gets its
   *    own, and d = 0 without a knee. */
  for (int knee = 1; knee >= 0; knee--) {
    memset(&r, 0, sizeof r);
    r.cache_bytes = knee ? 16777216.0 : 0;
    for (int i = 0; i < 60; i++) {
      double side = 640.0 * (1 + i % 3), x = side * side * 4, z = side;
      add(&r, k, x, z, 2e-6 + 4.5e-10 * x + 2.5e-8 * z, 1);
      x = 4096.0 * (2 + i % 3), z = 1024.0 * (1 + i % 2);
      add(&r, k, x, z, 2e-6 + 4.5e-10 * x + 2.5e-8 * z, 1);
    }
    for (int i = 0; i < 6; i++) {
      double x = 33554432.0 * (1 << (i % 3)), z = 2048.0 * (1 + i % 3);
      add(&r, k, x, z, 2e-6 + 1.2e-9 * x + 2.5e-8 * z, 1);
    }
    fit_kind(&r, k, &a, &b, &c, d);
    if (knee) {
      expect("6: intercept (split)", a, 2e-6, 1e-3);
      expect("6: per byte in the cache", b, 4.5e-10, 1e-3);
      expect("6: per run (split)", c, 2.5e-8, 1e-3);
      expect("6: per byte beyond it", d[NW_COST_BEYOND], 1.2e-9, 1e-3);
    } else {
      expect("6: no knee, no price beyond", d[NW_COST_BEYOND], 0, 1e-12);
      printf("%s 6: no knee, one slope set by the largest: %.3g (> 0.9 ns/B)\n",
             b > 9e-10 ? "ok  " : "FAIL", b);
      failed += !(b > 9e-10);
    }
  }

  /* 7. 5% noise on the split law: within 5%. */
  memset(&r, 0, sizeof r);
  r.cache_bytes = 16777216.0;
  unsigned seed = 12345;
  for (int i = 0; i < 200; i++) {
    seed = seed * 1103515245u + 12345u;
    double e = 1 + 0.05 * (((double)(seed >> 8 & 0xffff) / 65535.0) * 2 - 1);
    double side = 640.0 * (1 + i % 3), x = side * side * 4, z = side;
    add(&r, k, x, z, e * (2e-6 + 4.5e-10 * x + 2.5e-8 * z), 1);
    x = 4096.0 * (2 + i % 3), z = 1024.0 * (1 + i % 2);
    add(&r, k, x, z, e * (2e-6 + 4.5e-10 * x + 2.5e-8 * z), 1);
    if (i % 10 == 0) {
      x = 33554432.0 * (1 << (i / 10 % 3)), z = 2048.0 * (1 + i / 10 % 3);
      add(&r, k, x, z, e * (2e-6 + 1.2e-9 * x + 2.5e-8 * z), 1);
    }
  }
  fit_kind(&r, k, &a, &b, &c, d);
  expect("7: per byte in the cache (5% noise)", b, 4.5e-10, 0.05);
  expect("7: per byte beyond it (5% noise)", d[NW_COST_BEYOND], 1.2e-9, 0.05);

  /* 8. Gathers apart: the tiles and result halves of 6 gathered into replies (every byte
   *    gathered) at 0.07 ns/B in the cache and 0.37 beyond, the same law otherwise; each class
   *    its own price, the copies in as in 6. */
  memset(&r, 0, sizeof r);
  r.cache_bytes = 16777216.0;
  for (int i = 0; i < 60; i++) {
    double side = 640.0 * (1 + i % 3), x = side * side * 4, z = side;
    add(&r, k, x, z, 2e-6 + 4.5e-10 * x + 2.5e-8 * z, 1);
    add_gathered(&r, k, x, x, z, 2e-6 + 7e-11 * x + 2.5e-8 * z, 1);
    x = 4096.0 * (2 + i % 3), z = 1024.0 * (1 + i % 2);
    add(&r, k, x, z, 2e-6 + 4.5e-10 * x + 2.5e-8 * z, 1);
  }
  for (int i = 0; i < 6; i++) {
    double x = 33554432.0 * (1 << (i % 3)), z = 2048.0 * (1 + i % 3);
    add(&r, k, x, z, 2e-6 + 1.2e-9 * x + 2.5e-8 * z, 1);
    add_gathered(&r, k, x, x, z, 2e-6 + 3.7e-10 * x + 2.5e-8 * z, 1);
  }
  fit_kind(&r, k, &a, &b, &c, d);
  expect("8: per byte copied in", b, 4.5e-10, 1e-3);
  expect("8: per run", c, 2.5e-8, 1e-3);
  expect("8: per byte gathered", d[NW_COST_GATHER], 7e-11, 1e-3);
  expect("8: per byte copied in beyond the cache", d[NW_COST_BEYOND], 1.2e-9, 1e-3);
  expect("8: per byte gathered beyond the cache", d[NW_COST_GATHER_BEYOND], 3.7e-10, 1e-3);

  /* 9. Pages first written: received tiles of 1-9 MB copied at 0.1 ns/B, 2 us + 50 ns/run,
   *    whose pages were written before (0), partly (every third) or all fresh (one a 4 KiB page)
   *    at 2 us a page; the page price is recovered apart from the bytes', which without the
   *    page term came out at several times 0.1 ns/B. No page ever fresh: no page price. */
  for (int paged = 1; paged >= 0; paged--) {
    memset(&r, 0, sizeof r);
    for (int i = 0; i < 60; i++) {
      double x = 1048576.0 * (1 + i % 9), z = 256.0 * (1 + i % 4);
      double q = paged ? (i % 3 == 0 ? x / 4096 : i % 3 == 1 ? x / 12288 : 0) : 0;
      add_paged(&r, k, x, 0, z, q, 2e-6 + 1e-10 * x + 5e-8 * z + 2e-6 * q, 1);
    }
    fit_kind(&r, k, &a, &b, &c, d);
    if (paged) {
      expect("9: per byte, pages apart", b, 1e-10, 1e-3);
      expect("9: per page", fit.per_page, 2e-6, 1e-3);
      expect("9: per run, pages apart", c, 5e-8, 1e-3);
    } else {
      expect("9: no fresh page, no page price", fit.per_page, 0, 1e-12);
      expect("9: per byte, no fresh page", b, 1e-10, 1e-3);
    }
  }

  /* 10. New views' pages: commits of 0.3-2.6 MB at 0.22 ns/B, into a new view (a page each
   *     4 KiB, 0.8 us each above the probe's 1.5 us, which the samples are kept without) one
   *     time in three, into a recycled one otherwise, as LU's were; and, with 5% noise, within
   *     5%. No view ever new: no view price. A price above the probe's (3 us), or no probe to
   *     compare it with: no view price either (a fit to views that go with another cost). */
  for (int viewed = 4; viewed >= 0; viewed--) {
    memset(&r, 0, sizeof r);
    r.page_probes = viewed == 4 ? 0 : 2;
    r.page_probe_s = 3e-6;
    unsigned noise = 12345;
    for (int i = 0; i < 90; i++) {
      double x = 331776.0 * (1 + i % 8), v = viewed && i % 3 == 0 ? x / 4096 : 0;
      double y = 2.2e-10 * x + (viewed == 3 ? 3e-6 : 8e-7) * v;
      if (viewed == 1) {
        noise = noise * 1103515245u + 12345u;
        y *= 1 + 0.05 * ((double)(noise >> 16 & 0x7fff) / 16383.5 - 1);
      }
      add_viewed(&r, k, x, 0, 1, 0, v, y, 1);
    }
    fit_kind(&r, k, &a, &b, &c, d);
    if (viewed == 4) {
      expect("10: no probe, no view price", fit.per_view_page, 0, 1e-12);
    } else if (viewed == 3) {
      expect("10: above the probe's price, no view price", fit.per_view_page, 0, 1e-12);
    } else if (viewed == 2) {
      expect("10: per view page", fit.per_view_page, 8e-7, 1e-3);
      expect("10: per byte, view pages apart", b, 2.2e-10, 1e-3);
    } else if (viewed == 1) {
      expect("10: per view page, 5% noise", fit.per_view_page, 8e-7, 0.05);
      expect("10: per byte, 5% noise", b, 2.2e-10, 0.05);
    } else {
      expect("10: no new view, no view price", fit.per_view_page, 0, 1e-12);
      expect("10: per byte, no new view", b, 2.2e-10, 1e-3);
    }
  }

  printf("%s\n", failed ? "cost_fit: FAILED" : "cost_fit: all passed");
  return failed != 0;
}
