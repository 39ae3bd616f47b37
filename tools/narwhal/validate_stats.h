/* validate_stats.h: the figures `narwhal validate` reports (validate.h): how far simulated times
 * are from measured ones, and whether the simulator orders configurations as the hardware does.
 * Pure C, no I/O: unit-tested in tests/unit/test_validate_stats.c. */
#ifndef NW_TOOL_VALIDATE_STATS_H
#define NW_TOOL_VALIDATE_STATS_H

/* The median of v[0..n) (n >= 1); v is left as it was. */
double vs_median(const double *v, int n);
/* The nearest-rank p-quantile (0 < p <= 1) of v[0..n): the smallest value with at least
 * p x n values at or below it (the p95 of 24 values is the 23rd smallest). */
double vs_quantile(const double *v, int n, double p);

/* Kendall's tau-b between two orderings of the same n items (a[i] and b[i] are item i's
 * measured and simulated times): (concordant - discordant) pairs over the square root of the
 * pairs untied in a times those untied in b. 1: the same order; -1: reversed; 0 when either
 * side has every item tied, or n < 2 (nothing to order). */
double vs_kendall_tau(const double *a, const double *b, int n);

/* The pairs of a group that the hardware tells apart: |real[i] - real[j]| larger than both
 * configurations' spreads (max - min of their rounds, seconds). *decided counts them, *agree
 * those the simulation orders the same way (sim[i] - sim[j] of the sign of real[i] - real[j]). */
void vs_pairs(const double *real, const double *spread, const double *sim, int n, int *decided,
              int *agree);

/* The index of the smallest of v[0..n) (the winner: the fastest configuration); the first of
 * equals. */
int vs_argmin(const double *v, int n);

#endif
