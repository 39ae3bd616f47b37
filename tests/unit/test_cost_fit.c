/* test_cost_fit.c: the handling-cost fit of `narwhal calibrate` (tools/narwhal/cost_fit.h)
 * recovers known laws from the sums the real backend keeps: a + b * bytes + c * runs exactly,
 * a law without a run term, small messages (no byte slope), a negative intercept (through the
 * origin), and wall times where no CPU time was taken. */
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

/* Adds an event of kind k moving x bytes in z runs that took y seconds of CPU (and of wall). */
static void add(nw_rt_costs *r, int k, double x, double z, double y, int cpu) {
  r->events[k]++;
  r->s[k] += y;
  r->bytes[k] += x;
  r->bytes_sq[k] += x * x;
  r->bytes_s[k] += x * y;
  if (!cpu)
    return;
  r->cpu_events[k]++;
  r->cpu_s[k] += y;
  r->bytes_cpu_s[k] += x * y;
  r->cpu_sq[k] += y * y;
  r->runs[k] += z;
  r->runs_sq[k] += z * z;
  r->runs_bytes[k] += z * x;
  r->runs_cpu_s[k] += z * y;
}

int main(void) {
  const int k = 1;
  double a, b, c;
  nw_rt_costs r;

  /* 1. y = 2 us + 0.1 ns/B + 50 ns/run, bytes and runs varied independently. */
  memset(&r, 0, sizeof r);
  for (int i = 0; i < 40; i++) {
    double x = 8192.0 * (1 + i % 7), z = 1 + (i * 13) % 11 * 64;
    add(&r, k, x, z, 2e-6 + 1e-10 * x + 5e-8 * z, 1);
  }
  tool_fit_event_cost(&r, k, &a, &b, &c);
  expect("1: intercept", a, 2e-6, 1e-6);
  expect("1: per byte", b, 1e-10, 1e-6);
  expect("1: per run", c, 5e-8, 1e-6);

  /* 2. No run term: y = 3 us + 2 ns/B, the runs unrelated. */
  memset(&r, 0, sizeof r);
  for (int i = 0; i < 40; i++) {
    double x = 4096.0 * (1 + i % 9), z = 1 + (i * 7) % 5;
    add(&r, k, x, z, 3e-6 + 2e-9 * x, 1);
  }
  tool_fit_event_cost(&r, k, &a, &b, &c);
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
  tool_fit_event_cost(&r, k, &a, &b, &c);
  expect("3: per byte", b, 0, 1e-12);
  expect("3: per run", c, 1e-7, 0.2);

  /* 4. A negative intercept: y = 1 ns/B - 1 us goes through the origin instead. */
  memset(&r, 0, sizeof r);
  for (int i = 0; i < 40; i++) {
    double x = 8192.0 * (1 + i % 6);
    add(&r, k, x, 0, 1e-9 * x - 1e-6, 1);
  }
  tool_fit_event_cost(&r, k, &a, &b, &c);
  expect("4: intercept", a, 0, 1e-12);
  expect("4: per byte (origin)", b, 1e-9, 0.05);

  /* 5. No CPU times: the wall times over bytes. */
  memset(&r, 0, sizeof r);
  for (int i = 0; i < 40; i++) {
    double x = 8192.0 * (1 + i % 6);
    add(&r, k, x, 0, 5e-6 + 3e-10 * x, 0);
  }
  tool_fit_event_cost(&r, k, &a, &b, &c);
  expect("5: intercept (wall)", a, 5e-6, 1e-6);
  expect("5: per byte (wall)", b, 3e-10, 1e-6);
  expect("5: per run (wall)", c, 0, 1e-12);

  printf("%s\n", failed ? "cost_fit: FAILED" : "cost_fit: all passed");
  return failed != 0;
}
