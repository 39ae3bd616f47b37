/* sweep_shard.h: a sweep split into shards that run apart (as the elements of a Slurm job
 * array) and merged again.
 *
 * Shard K of N holds the points p with p mod N = K (round robin, so that shards of a sweep
 * whose points grow in cost get a like share of it). A shard's run writes its own CSV,
 * STEM.shard-K-of-N.csv (STEM: the sweep's CSV without .csv), and beside it
 * STEM.shard-K-of-N.csv.sweep, the sweep it is a shard of (its base, vary, columns, program
 * and args as one line of JSON). A merge takes the shards' CSVs (files, or folders holding
 * them), refuses a missing, duplicated, unfinished or foreign shard with one line, and fills
 * the sweep's table, which the sweep then writes and draws as a whole run would. */
#ifndef NW_TOOL_SWEEP_SHARD_H
#define NW_TOOL_SWEEP_SHARD_H

#include <cjson/cJSON.h>
#include <stddef.h>

#include "sweep_rows.h"

typedef struct sweep_shard {
  long k, n; /* n = 0: the whole sweep */
} sweep_shard;

/* "K/N", whole numbers with 0 <= K < N <= SWEEP_POINTS_MAX; 0, or 1 with a reason. */
int sweep_shard_parse(const char *text, sweep_shard *s, char *why, size_t len);
/* Whether point p belongs to the shard (every point, for the whole sweep). */
int sweep_shard_has(const sweep_shard *s, long p);
/* The shard's CSV for the sweep's CSV path: STEM.shard-K-of-N.csv. */
void sweep_shard_csv(const char *csv, const sweep_shard *s, char *out, size_t len);
/* What identifies a sweep's points and columns, as one line of JSON (malloc'd; NULL: no
 * memory). */
char *sweep_fingerprint(const cJSON *root);
/* Writes the fingerprint beside a shard's CSV (CSV.sweep); 0, or -1 with errno. */
int sweep_shard_mark(const char *shard_csv, const char *fingerprint);
/* Fills t (its rows empty) from the shards' CSVs named by paths (files or folders); returns
 * the number of shards, or -1 with a one-line reason. */
long sweep_merge(sweep_table *t, const char *fingerprint, char *const *paths, int npaths, char *why,
                 size_t len);

#endif
