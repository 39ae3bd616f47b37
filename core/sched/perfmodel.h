/* perfmodel.h: performance models of subtask durations, as StarPU builds them (Augonnet,
 * Thibault, Namyst, "StarPU: a Runtime System for Scheduling Tasks over Accelerator-Based
 * Multicore Machines", INRIA research report RR-7240, 2010, section 6.1; and StarPU 1.4's
 * model kinds: history-based, regression-based a*size^b, non-linear regression-based
 * a*size^b + c).
 *
 * A model set holds one table per (task kind name, arch). The arch is a short string the
 * caller builds for the device that ran the subtask: "cpu", "cpu4" (a CPU work-group of four
 * cores), "gpu". A table holds:
 *   - history: per footprint (a hash of the subtask's data sizes, nw_perf_footprint), the
 *     count, mean and standard deviation of the measured durations, updated incrementally
 *     (Welford). The paper's reasoning: a kernel whose control flow does not depend on the
 *     data's contents takes about the same time whenever it gets the same sizes.
 *   - two regressions over all the table's history entries, for footprints never measured:
 *     linear in log-log, t = a * x^b, and non-linear, t = a * x^b + c (the constant is a
 *     fixed cost, e.g. a kernel launch, that a pure power law cannot represent). x is the
 *     subtask's flops, as the kind's cost model declares them, where every entry has them
 *     (flops separate shapes that bytes do not: matmul's n and block can give the same bytes
 *     and different work), and its data bytes otherwise;
 *   - where the entries' x span less than NW_PERFMODEL_MIN_SPAN (sizes that differ by a halo,
 *     say), no exponent is fitted: a duration is the kind's cost-model flops over the rate
 *     the table measured for that kind and device ("scaled").
 * Outliers: the first NW_PERFMODEL_ROBUST samples recorded for a footprint are kept; from 8 on,
 * a sample further from their median than 6 robust standard deviations (1.4826 x the median
 * absolute deviation) and more than 3 times above or below it is left out of the entry's
 * statistics, and so is any kept sample that a later median shows to be one (a 70 ms sample
 * among 190 us ones, a preempted kernel, would otherwise move a mean a hundredfold).
 *
 * Measurements come from several nodes of a cluster; nw_perfmodel_merge adds one set into
 * another exactly (node 0 merges what the others measured). Saving and loading a set is the
 * narwhal tool's (lib/perfmodel_file.h): core/ stays free of any file format.
 *
 * Pure C11 + libc + libm. Not thread-safe: a set belongs to one node's logical thread.
 */
#ifndef NW_PERFMODEL_H
#define NW_PERFMODEL_H

#include <stddef.h>
#include <stdint.h>

#include "narwhal.h"

/* Samples a footprint needs before its history mean is trusted, and samples a table needs
 * before its regressions are: StarPU's calibration minimum. */
#define NW_PERFMODEL_MIN_SAMPLES 10
/* Samples a table needs before its measured rate (seconds per flop) prices a footprint it did
 * not measure: a calibration that keeps its best run has one run's samples of each size (8
 * row blocks of an FFT on two ranks), and a rate is a mean over all of them. */
#define NW_PERFMODEL_MIN_RATE_SAMPLES 4
/* The least ratio between the largest and smallest x of a table's entries for which a
 * regression is fitted: over a narrower span noise decides the exponent. */
#define NW_PERFMODEL_MIN_SPAN 2.0
/* Samples per footprint kept for its median and MAD (outlier rejection, above). */
#define NW_PERFMODEL_ROBUST 16
/* The longest kind name and arch string (bytes, without the terminating NUL). */
#define NW_PERFMODEL_KIND_MAX 63
#define NW_PERFMODEL_ARCH_MAX 15

typedef struct nw_perfmodel nw_perfmodel;

/* One history entry. stddev is the population standard deviation, sqrt(M2 / count): 0 for a
 * single sample, and what StarPU reports as the deviation. */
typedef struct nw_perf_entry {
  uint64_t footprint;
  uint64_t size; /* the subtask's data bytes */
  uint64_t count;
  double mean, stddev; /* seconds */
  double flops;        /* the kind's cost-model flops for a subtask of it; 0: not known */
} nw_perf_entry;

/* Where a prediction came from (nw_perfmodel_predict_work); 0 is "none". */
typedef enum {
  NW_PRICE_UNCALIBRATED = 0, /* nothing measured applies: the caller's own guess */
  NW_PRICE_HISTORY,          /* the footprint's measured mean */
  NW_PRICE_REGRESSION,       /* one of the table's fits */
  NW_PRICE_SCALED,           /* the cost model's flops at the table's measured rate */
  NW_PRICE_SOURCES
} nw_price_source;
/* "uncalibrated", "history", "regression", "scaled": the --json names. */
const char *nw_price_source_name(nw_price_source s);

/* A fitted regression of a table: t = a * size^b + c (c is 0 for the linear one).
 * valid is 0 when it could not be fitted (see nw_perfmodel_fits). */
typedef struct nw_perf_fit {
  int valid;
  int on_flops; /* x is flops (1) or data bytes (0) */
  double a, b, c;
  uint64_t min_size, max_size; /* x of the entries it was fitted on (flops rounded) */
  uint64_t samples;            /* their total count */
} nw_perf_fit;

nw_status nw_perfmodel_create(nw_perfmodel **out);
void nw_perfmodel_free(nw_perfmodel *m);

/* A stable 64-bit hash of a subtask's per-space data sizes (FNV-1a over the sizes' 8-byte
 * little-endian encodings, in order): the same sizes give the same footprint on every
 * machine and in every run, so a saved model can be reused. As StarPU's footprint, a hash of
 * the buffer sizes. */
uint64_t nw_perf_footprint(const uint64_t *sizes, int n);
/* A footprint made specific to the subtask's cost-model flops as well (unchanged when flops is
 * 0): a kernel whose cost depends on a parameter besides its data sizes (Task Bench's
 * iterations, a stencil's radius) gets a footprint per cost, as StarPU lets a codelet add its
 * parameters to its footprint. */
uint64_t nw_perf_footprint_flops(uint64_t footprint, double flops);
/* The same, one size at a time: h from NW_PERF_FOOTPRINT_START through each size in order. */
#define NW_PERF_FOOTPRINT_START 14695981039346656037ull /* FNV-1a 64-bit offset basis */
uint64_t nw_perf_footprint_add(uint64_t h, uint64_t size);

/* Records one measured duration. kind: 1 to NW_PERFMODEL_KIND_MAX bytes; arch: 1 to
 * NW_PERFMODEL_ARCH_MAX bytes; seconds: finite, >= 0. NW_ERR_ARG for a bad argument, or for a
 * footprint already recorded with another size (a hash collision or a caller's mistake: the
 * entry would mix two workloads); NW_ERR_NOMEM. Nothing changes on error. */
nw_status nw_perfmodel_record(nw_perfmodel *m, const char *kind, const char *arch,
                              uint64_t footprint, uint64_t size, double seconds);
/* The same, with the subtask's cost-model flops (finite, >= 0; 0: not known). An entry keeps
 * the first non-zero flops it is given. A sample found to be an outlier (above) is counted
 * (nw_perfmodel_rejected) and left out. */
nw_status nw_perfmodel_record_work(nw_perfmodel *m, const char *kind, const char *arch,
                                   uint64_t footprint, uint64_t size, double flops, double seconds);
/* Samples left out as outliers since the set was created. */
uint64_t nw_perfmodel_rejected(const nw_perfmodel *m);

/* Adds a summarized entry (count samples of that mean and population stddev), combining it
 * exactly with an entry of the same footprint if there is one: what loading a saved model
 * does. NW_ERR_ARG for bad names, count 0, a mean or stddev negative or not finite, or a size
 * conflict as in nw_perfmodel_record; NW_ERR_NOMEM. Nothing changes on error. */
nw_status nw_perfmodel_add(nw_perfmodel *m, const char *kind, const char *arch,
                           const nw_perf_entry *e);

/* Adds every sample of src into dst, as if dst had recorded them too: per footprint, counts
 * add and means and M2 combine exactly (Chan et al.'s parallel form of Welford's update).
 * NW_ERR_ARG when a footprint of src has another size in dst, or src is dst; NW_ERR_NOMEM.
 * All or nothing: dst is unchanged on error. */
nw_status nw_perfmodel_merge(nw_perfmodel *dst, const nw_perfmodel *src);

/* Samples recorded for the footprint; 0 when none, or for a bad kind or arch. */
uint64_t nw_perfmodel_samples(const nw_perfmodel *m, const char *kind, const char *arch,
                              uint64_t footprint);

/* The expected duration of a subtask of `kind` on `arch` with that footprint and data size.
 * Returns 1 and sets *seconds from the first of these that applies, else returns 0 and leaves
 * *seconds alone ("uncalibrated": the caller should run the subtask to measure it):
 *   1. history: the footprint has at least NW_PERFMODEL_MIN_SAMPLES samples: their mean.
 *   2. non-linear regression: fitted, size within [min_size / 2, max_size * 2] of the entries
 *      it was fitted on, and the prediction is > 0. Inside and near the sampled range its
 *      three parameters follow a fixed cost that the power law alone misses; far outside,
 *      the fitted b and c trade off against each other (they are correlated), so its
 *      extrapolation is not to be trusted.
 *   3. linear regression (log-log), at any size: a two-parameter power law, StarPU's
 *      regression model, is the steadier extrapolation.
 * A footprint with fewer samples, outside both fits, is uncalibrated: a mean of a few samples
 * is not trusted, as in StarPU. So is size 0 without history: no power law speaks of it.
 * predict keeps its fits and refits lazily, when the table gained an entry (maybe a new size),
 * had too few samples at the last fit, or has more than an eighth more samples since then: a fit
 * costs thousands of passes over the entries, and more samples of known footprints move it little.
 * That is why m is not const. 0 for bad names or a missing table. */
int nw_perfmodel_predict(nw_perfmodel *m, const char *kind, const char *arch, uint64_t footprint,
                         uint64_t size, double *seconds);
/* The same with the subtask's cost-model flops (0: not known), returning where *seconds came
 * from (NW_PRICE_UNCALIBRATED: nothing, *seconds untouched):
 *   1. history, as above;
 *   2. a table whose entries all have flops (so x is flops) and whose x span less than
 *      NW_PERFMODEL_MIN_SPAN: flops x (the entries' summed seconds / their summed flops, each
 *      weighted by its count) when the table has NW_PERFMODEL_MIN_RATE_SAMPLES samples
 *      (scaled);
 *   3. the regressions, as above, over x (flops, or bytes for a table without flops), when
 *      the span is at least NW_PERFMODEL_MIN_SPAN; a linear fit whose exponent is not in
 *      (0, 4] is not used, and the flops' rate answers instead where it can (scaled).
 * nw_perfmodel_predict is this with flops 0, answering 1 for any source. */
nw_price_source nw_perfmodel_predict_work(nw_perfmodel *m, const char *kind, const char *arch,
                                          uint64_t footprint, uint64_t size, double flops,
                                          double *seconds);

/* The table's two regressions (either pointer may be NULL), computed afresh (predict keeps
 * its own, refitted as nw_perfmodel_predict says). Entries with size 0 or mean 0
 * take no part (no logarithm; and the non-linear fit weighs residuals relative to the mean).
 * The fits are over x as predict says (the fit's on_flops). The linear fit is weighted least
 * squares on (ln x, ln mean), each entry weighted by its
 * count, as StarPU's regression model; it needs at least 2 distinct sizes. The non-linear fit
 * has three parameters and needs at least 3 distinct sizes (with two, every b fits exactly).
 * Both also need NW_PERFMODEL_MIN_SAMPLES samples in all. Otherwise, and for a table that
 * does not exist, the fit's valid is 0. Method of the non-linear fit: in perfmodel.c.
 * NW_ERR_ARG for bad names. */
nw_status nw_perfmodel_fits(const nw_perfmodel *m, const char *kind, const char *arch,
                            nw_perf_fit *linear, nw_perf_fit *nonlinear);

/* How far table t's regression (the non-linear one where fitted, else the linear one) misses
 * its own entries: the largest |fit - mean| / mean over them, and in *worst_size the x
 * (flops, or bytes) of that entry; -1 when the table has no fit. A calibration warns above 10%:
 * the kind's durations do not follow one power law over the sizes measured (a cache edge
 * between them, say), and sizes between them will be priced less well. */
double nw_perfmodel_fit_miss(const nw_perfmodel *m, size_t t, double *worst_x);

/* Walking a set (to save it): its tables in (kind, arch) order (strcmp), each table's
 * entries in footprint order. Every table has at least one entry. */
size_t nw_perfmodel_tables(const nw_perfmodel *m);
/* Table t (0 <= t < nw_perfmodel_tables): its kind, arch and number of entries. */
void nw_perfmodel_table(const nw_perfmodel *m, size_t t, const char **kind, const char **arch,
                        size_t *entries);
/* Entry i of table t. */
nw_perf_entry nw_perfmodel_entry(const nw_perfmodel *m, size_t t, size_t i);

#endif
