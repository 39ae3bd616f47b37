/* bench_mtc.c MODE [WORKERS]: the many-task GPU engine (backends/real/real_mtc.h) on this
 * machine's GPU 0.
 *   check       every task comes back exactly once with the right value: 300,000 adder tasks
 *               in bundles of pseudo-random sizes (1 to 2,000), MDLite segments of 1 to 32
 *               particles bit for bit against the host's reference, sleep tasks; exit 0 or 1
 *   throughput  adder tasks per second for bundles of 1, 10, 100, 1,000 and 10,000 tasks
 *               (GeMTC's Fig. 9 measures 1 against 100), each the best of 3
 *   efficiency  sleep tasks of 1 us to 1 s, 4 per worker: efficiency = tasks x duration /
 *               (workers x makespan) (GeMTC's Figs. 18-21); and MDLite tasks per second for
 *               segments of 1 to 10,000 steps
 * Exits 77 (skipped) where no CUDA GPU is present. WORKERS: worker warps (default: all that
 * fit).
 */
#define _POSIX_C_SOURCE 200809L
#include <cuda_runtime.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "bench_clock.h"
#include "narwhal_mtc.h"
#include "real_mtc.h"

#define CAPACITY (1u << 20)
#define POOL (256ull << 20)

static uint64_t rng_state = 0x9E3779B97F4A7C15ull;
static uint64_t rng(void) { /* splitmix64 */
  uint64_t z = (rng_state += 0x9E3779B97F4A7C15ull);
  z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
  z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
  return z ^ (z >> 31);
}

static real_mtc_task *bundle;
static real_mtc_result *got;

/* Runs `total` tasks made by make(i) in bundles of size(i) (called per bundle); check(result)
 * is called on every result. Returns the seconds from the first submit to the last result, or
 * a negative number on an engine failure. */
typedef void (*make_fn)(uint64_t i, real_mtc_task *t);
typedef int (*check_fn)(const real_mtc_result *r);
static double run(real_mtc *m, uint64_t total, uint32_t (*size)(void), make_fn make, check_fn check,
                  int *bad) {
  uint64_t made = 0, done = 0;
  double t0 = bench_now();
  while (done < total) {
    uint32_t k = size();
    if (k > total - made)
      k = (uint32_t)(total - made);
    if (k > 0 && real_mtc_outstanding(m) + k <= CAPACITY) {
      for (uint32_t j = 0; j < k; j++)
        make(made + j, &bundle[j]);
      if (real_mtc_submit(m, bundle, k) != 0)
        return -1;
      made += k;
    }
    uint32_t n = real_mtc_collect(m, got, CAPACITY);
    for (uint32_t j = 0; j < n; j++)
      *bad += check(&got[j]) != 0;
    done += n;
  }
  return bench_now() - t0;
}

/* ---- the adder ---- */
static uint64_t next_id; /* the id each result must carry, in ticket order */
static uint64_t base;
static void make_add(uint64_t i, real_mtc_task *t) {
  *t = (real_mtc_task){.id = base + i, .kind = REAL_MTC_ADD, .a = 3 * (base + i), .b = 7};
}
static int check_add(const real_mtc_result *r) {
  int ok = r->id == next_id && r->value == 3 * r->id + 7;
  next_id++;
  return !ok;
}
static uint32_t fixed_size;
static uint32_t size_fixed(void) {
  return fixed_size;
}
static uint32_t size_random(void) {
  return 1 + (uint32_t)(rng() % 2000);
}

/* ---- sleep ---- */
static uint64_t sleep_ns;
static void make_sleep(uint64_t i, real_mtc_task *t) {
  *t = (real_mtc_task){.id = i, .kind = REAL_MTC_SLEEP, .a = sleep_ns};
}
static int check_sleep(const real_mtc_result *r) {
  return r->value != sleep_ns;
}

/* ---- MDLite ---- */
static void md_reference(real_mtc_particle *p, int n, uint64_t steps, float *sum) {
  real_mtc_particle q[REAL_MTC_MD_MAX];
  for (uint64_t s = 0; s < steps; s++) {
    memcpy(q, p, (size_t)n * sizeof *p);
    for (int i = 0; i < n; i++) {
      float fx = 0, fy = 0;
      for (int j = 0; j < n; j++)
        if (j != i)
          nw_mtc_md_pull(q[i].x, q[i].y, q[j].x, q[j].y, &fx, &fy);
      nw_mtc_md_move(&p[i].x, &p[i].y, &p[i].vx, &p[i].vy, fx, fy);
    }
  }
  *sum = 0;
  for (int j = 0; j < n; j++)
    *sum = NW_MTC_ADD(*sum, NW_MTC_ADD(p[j].x, p[j].y));
}

static void md_init(real_mtc_particle *p, int n) {
  for (int i = 0; i < n; i++)
    p[i] = (real_mtc_particle){(float)(rng() % 1000) / 100.0f, (float)(rng() % 1000) / 100.0f,
                               (float)(rng() % 100) / 1000.0f, 0};
}

#define MD_TASKS 256
static int check_mdlite(real_mtc *m) {
  static real_mtc_particle p[MD_TASKS][REAL_MTC_MD_MAX], back[REAL_MTC_MD_MAX];
  real_mtc_task t[MD_TASKS];
  uint64_t off[MD_TASKS];
  for (int k = 0; k < MD_TASKS; k++) {
    int n = 1 + k % REAL_MTC_MD_MAX;
    md_init(p[k], n);
    if (real_mtc_alloc(m, sizeof p[k], &off[k]) != 0 ||
        real_mtc_write(m, off[k], p[k], (uint64_t)n * sizeof p[k][0]) != 0)
      return 1;
    t[k] = (real_mtc_task){.id = (uint64_t)k,
                           .kind = REAL_MTC_MDLITE,
                           .n = (uint32_t)n,
                           .a = off[k],
                           .b = 1 + (uint64_t)(k % 7) * 50};
  }
  if (real_mtc_submit(m, t, MD_TASKS) != 0)
    return 1;
  int bad = 0, done = 0;
  real_mtc_result r[MD_TASKS];
  while (done < MD_TASKS) {
    uint32_t n = real_mtc_collect(m, r, MD_TASKS);
    for (uint32_t j = 0; j < n; j++, done++) {
      int k = (int)r[j].id, np = (int)t[k].n;
      float sum;
      uint32_t bits;
      md_reference(p[k], np, t[k].b, &sum);
      memcpy(&bits, &sum, sizeof bits);
      if (real_mtc_read(m, off[k], back, (uint64_t)np * sizeof back[0]) != 0)
        return 1;
      if (k != done || r[j].value != bits || memcmp(back, p[k], (size_t)np * sizeof back[0])) {
        if (bad++ < 3)
          fprintf(stderr, "mdlite task %d (%d particles, %" PRIu64 " steps): differs\n", k, np,
                  t[k].b);
      }
      real_mtc_release(m, off[k], sizeof p[k]);
    }
  }
  return bad;
}

static real_mtc *open_engine(uint32_t workers) {
  char why[256];
  real_mtc *m = real_mtc_open(0, POOL, CAPACITY, workers, 1, why, sizeof why);
  if (!m)
    fprintf(stderr, "bench_mtc: %s\n", why);
  return m;
}

static int mode_check(uint32_t workers) {
  real_mtc *m = open_engine(workers);
  if (!m)
    return 1;
  int bad = 0;
  next_id = base = 0;
  double s = run(m, 300000, size_random, make_add, check_add, &bad);
  printf("adder: 300000 tasks in random bundles, %d wrong or out of order (%.3f s)\n", bad, s);
  int md = check_mdlite(m);
  printf("mdlite: %d tasks of 1 to 32 particles, %d differ from the reference\n", MD_TASKS, md);
  int sl = 0;
  sleep_ns = 10000;
  fixed_size = 64;
  double ss = run(m, 4 * (uint64_t)real_mtc_workers(m), size_fixed, make_sleep, check_sleep, &sl);
  printf("sleep: %u tasks of 10 us, %d wrong (%.4f s)\n", 4 * real_mtc_workers(m), sl, ss);
  real_mtc_close(m);
  int ok = bad == 0 && md == 0 && sl == 0 && s >= 0 && ss >= 0;
  printf("bench_mtc check: %s\n", ok ? "passed" : "FAILED");
  return ok ? 0 : 1;
}

static int mode_throughput(uint32_t workers) {
  real_mtc *m = open_engine(workers);
  if (!m)
    return 1;
  printf("workers (warps): %u\n", real_mtc_workers(m));
  static const uint32_t sizes[] = {1, 10, 100, 1000, 10000};
  static const uint64_t totals[] = {20000, 100000, 1000000, 4000000, 8000000};
  int bad = 0;
  double first = 0;
  for (size_t i = 0; i < sizeof sizes / sizeof *sizes; i++) {
    double best = 1e30;
    for (int rep = 0; rep < 3; rep++) {
      fixed_size = sizes[i];
      base = next_id;
      double s = run(m, totals[i], size_fixed, make_add, check_add, &bad);
      if (s < 0)
        return 1;
      best = s < best ? s : best;
    }
    double rate = (double)totals[i] / best;
    if (i == 0)
      first = rate;
    printf("bundle %5u: %10.0f tasks/s (%" PRIu64 " tasks, best of 3), %.1fx bundle 1\n", sizes[i],
           rate, totals[i], rate / first);
  }
  real_mtc_close(m);
  printf("wrong results: %d\n", bad);
  return bad != 0;
}

static int mode_efficiency(uint32_t workers) {
  real_mtc *m = open_engine(workers);
  if (!m)
    return 1;
  uint32_t w = real_mtc_workers(m);
  printf("workers (warps): %u; sleep tasks, 4 per worker, bundles of 1000\n", w);
  int bad = 0;
  for (uint64_t ns = 1000; ns <= 1000000000ull; ns *= 10) {
    sleep_ns = ns;
    fixed_size = 1000;
    uint64_t total = 4 * (uint64_t)w;
    double s = run(m, total, size_fixed, make_sleep, check_sleep, &bad);
    if (s < 0)
      return 1;
    printf("task %10.6f s: makespan %8.4f s, efficiency %5.1f%%\n", 1e-9 * (double)ns, s,
           100.0 * (double)total * 1e-9 * (double)ns / ((double)w * s));
  }
  /* MDLite: 32 particles, segments of 1 to 10,000 steps, 2 tasks per worker. */
  static real_mtc_particle p[REAL_MTC_MD_MAX];
  md_init(p, REAL_MTC_MD_MAX);
  for (uint64_t steps = 1; steps <= 10000; steps *= 10) {
    uint64_t total = 2 * (uint64_t)w, off;
    real_mtc_task *t = bundle;
    uint64_t *offs = malloc(total * sizeof *offs);
    for (uint64_t k = 0; k < total; k++) {
      if (!offs || real_mtc_alloc(m, sizeof p, &off) != 0 ||
          real_mtc_write(m, off, p, sizeof p) != 0)
        return 1;
      offs[k] = off;
      t[k] = (real_mtc_task){
          .id = k, .kind = REAL_MTC_MDLITE, .n = REAL_MTC_MD_MAX, .a = off, .b = steps};
    }
    double t0 = bench_now();
    if (real_mtc_submit(m, t, (uint32_t)total) != 0)
      return 1;
    uint64_t done = 0;
    while (done < total)
      done += real_mtc_collect(m, got, CAPACITY);
    double s = bench_now() - t0;
    printf("mdlite %5" PRIu64 " steps: %8.4f s for %" PRIu64 " tasks, %10.0f tasks/s\n", steps, s,
           total, (double)total / s);
    for (uint64_t k = 0; k < total; k++)
      real_mtc_release(m, offs[k], sizeof p);
    free(offs);
  }
  real_mtc_close(m);
  return bad != 0;
}

int main(int argc, char **argv) {
  const char *mode = argc > 1 ? argv[1] : "";
  uint32_t workers = argc > 2 ? (uint32_t)strtoul(argv[2], NULL, 10) : 0;
  if (strcmp(mode, "check") && strcmp(mode, "throughput") && strcmp(mode, "efficiency")) {
    fprintf(stderr, "usage: bench_mtc check|throughput|efficiency [WORKERS]\n");
    return 2;
  }
  int n = 0;
  if (cudaGetDeviceCount(&n) != cudaSuccess || n == 0) {
    printf("bench_mtc: skipped: no CUDA GPU on this machine\n");
    return 77;
  }
  bundle = malloc(CAPACITY * sizeof *bundle);
  got = malloc(CAPACITY * sizeof *got);
  if (!bundle || !got) {
    fprintf(stderr, "bench_mtc: out of host memory\n");
    return 1;
  }
  int rc = !strcmp(mode, "check")        ? mode_check(workers)
           : !strcmp(mode, "throughput") ? mode_throughput(workers)
                                         : mode_efficiency(workers);
  free(bundle);
  free(got);
  return rc;
}
