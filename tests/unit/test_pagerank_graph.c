/* test_pagerank_graph.c: the PageRank app's random web graph (apps/pagerank/pagerank_graph.h)
 * is a pure function of (seed, page) with the paper's shape: 1 to 20 outlinks per page, and
 * 90% of links within the 0.1% window, 99% within the 1% window (Beri et al., "Unicorn: a
 * programming model and runtime for hybrid CPU-GPU clusters", IEEE TPDS, section 5.1). */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#include "check.h"
#include "pagerank/pagerank_graph.h"
#include "pagerank/pagerank_rank.h"
#include "pagerank/pagerank_ref.h"

/* Circular distance between pages a and b of n. */
static uint64_t distance(uint64_t a, uint64_t b, uint64_t n) {
  uint64_t d = a > b ? a - b : b - a;
  return d < n - d ? d : n - d;
}

/* Page p's links, as a sum that changes with any one of them. */
static uint64_t links_hash(const pr_graph *g, uint64_t p) {
  uint64_t h = pr_outdegree(g, p);
  for (uint32_t j = 0; j < pr_outdegree(g, p); j++)
    h = h * 1000003 + pr_target(g, p, j);
  return h;
}

static void determinism(void) {
  pr_graph a, b, other;
  pr_graph_init(&a, 1000000, 7);
  pr_graph_init(&b, 1000000, 7);
  pr_graph_init(&other, 1000000, 8);
  /* The same (seed, page) gives the same links whatever was drawn before, in any order. */
  uint64_t forward[64];
  for (uint64_t p = 0; p < 64; p++)
    forward[p] = links_hash(&a, p * 15601);
  int same = 1, differ = 0;
  for (uint64_t p = 64; p-- > 0;) {
    same &= links_hash(&b, p * 15601) == forward[p];
    differ += links_hash(&other, p * 15601) != forward[p];
  }
  CHECK(same);
  CHECK(differ > 60); /* another seed, another graph */
}

/* Outdegrees in [1, 20], each value drawn, mean 10.5; targets inside the graph, never the page
 * itself; the fractions of links within the two windows near the paper's 0.90 and 0.99, and
 * within sampling error of this model's exact expectation (a 1% link lands in the 0.1% window
 * with probability near/mid, a uniform one with (2 near + 1) / n). */
static void shape(uint64_t n, uint64_t seed) {
  pr_graph g;
  pr_graph_init(&g, n, seed);
  uint64_t links = 0, in_near = 0, in_mid = 0, bad_target = 0, self = 0, bad_degree = 0;
  uint64_t seen[PR_MAX_OUTDEGREE + 1] = {0};
  for (uint64_t p = 0; p < n; p++) {
    uint32_t deg = pr_outdegree(&g, p);
    if (deg < 1 || deg > PR_MAX_OUTDEGREE) {
      bad_degree++;
      continue;
    }
    seen[deg]++;
    for (uint32_t j = 0; j < deg; j++) {
      uint64_t q = pr_target(&g, p, j), d = distance(p, q, n);
      links++;
      bad_target += q >= n;
      self += q == p;
      in_near += d <= g.near;
      in_mid += d <= g.mid;
    }
  }
  CHECK(bad_degree == 0);
  CHECK(bad_target == 0);
  CHECK(self == 0);
  for (int k = 1; k <= PR_MAX_OUTDEGREE; k++)
    CHECK(seen[k] > 0);
  /* Five standard deviations of a mean of n uniform draws from 1..20 (sd 5.77). */
  double mean = (double)links / (double)n;
  CHECK(fabs(mean - 10.5) < 5 * 5.77 / sqrt((double)n));
  double f_near = (double)in_near / (double)links, f_mid = (double)in_mid / (double)links;
  double want_near =
      0.90 + 0.09 * (double)g.near / (double)g.mid + 0.01 * (double)(2 * g.near + 1) / (double)n;
  double want_mid = 0.99 + 0.01 * (double)(2 * g.mid + 1) / (double)n;
  /* Five standard deviations of a fraction of `links` independent draws. */
  double tol_near = 5 * sqrt(want_near * (1 - want_near) / (double)links);
  double tol_mid = 5 * sqrt(want_mid * (1 - want_mid) / (double)links);
  CHECK(fabs(f_near - want_near) < tol_near);
  CHECK(fabs(f_mid - want_mid) < tol_mid);
  /* The model's own excess over the paper's figures: about 0.09 near / mid = 0.009. */
  CHECK(fabs(f_near - 0.90) < 0.01 + tol_near);
  CHECK(fabs(f_mid - 0.99) < 0.001 + tol_mid);
  printf("n %llu: %.4f of links within 0.1%% (model %.4f), %.4f within 1%% (model %.4f)\n",
         (unsigned long long)n, f_near, want_near, f_mid, want_mid);
}

/* Tiny graphs stay inside themselves: a window of one page on each side, no division by 0. */
static void tiny(void) {
  for (uint64_t n = 1; n <= 5; n++) {
    pr_graph g;
    pr_graph_init(&g, n, 3);
    int ok = 1;
    for (uint64_t p = 0; p < n; p++)
      for (uint32_t j = 0; j < pr_outdegree(&g, p); j++)
        ok &= pr_target(&g, p, j) < n && (n == 1 || pr_target(&g, p, j) != p);
    CHECK(ok);
  }
}

/* README's claim about the fixed point: 25 iterations on 100000 pages stay within 1e-10
 * (relative, largest over the pages) of the same PageRank in double precision. */
static void fixed_point_close_to_double(void) {
  enum { N = 100000, ITERATIONS = 25 };
  pr_graph g;
  pr_graph_init(&g, N, 3);
  uint64_t *fixed = malloc(N * sizeof *fixed);
  double *x = malloc(N * sizeof *x), *y = malloc(N * sizeof *y);
  for (uint64_t p = 0; p < N; p++) {
    fixed[p] = pr_initial_rank(N);
    x[p] = 1.0 / N;
  }
  CHECK(pr_reference(&g, ITERATIONS, fixed) == 0);
  for (int it = 0; it < ITERATIONS; it++) {
    for (uint64_t q = 0; q < N; q++)
      y[q] = 0.15 / N;
    for (uint64_t p = 0; p < N; p++)
      for (uint32_t j = 0; j < pr_outdegree(&g, p); j++)
        y[pr_target(&g, p, j)] += 0.85 * x[p] / pr_outdegree(&g, p);
    double *t = x;
    x = y;
    y = t;
  }
  double worst = 0;
  for (uint64_t p = 0; p < N; p++) {
    double e = fabs((double)fixed[p] / (double)PR_ONE - x[p]) / x[p];
    worst = e > worst ? e : worst;
  }
  printf("fixed point against double: largest relative difference %.3g\n", worst);
  CHECK(worst < 1e-10);
  free(fixed);
  free(x);
  free(y);
}

int main(void) {
  fixed_point_close_to_double();
  determinism();
  shape(100000, 1);
  shape(100000, 2);
  shape(4096, 5);
  tiny();
  return check_report("test_pagerank_graph");
}
