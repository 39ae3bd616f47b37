/* sweep_grid.h: the points of a sweep: every combination of the values of its varied keys
 * ("vary": {"nodes": [1, 2], "sched": ["unicorn", "dmda"]}), the first key varying slowest, so
 * a one-key sweep's points are its values in order. */
#ifndef NW_TOOL_SWEEP_GRID_H
#define NW_TOOL_SWEEP_GRID_H

#include <cjson/cJSON.h>
#include <stddef.h>

#define SWEEP_KEYS_MAX 4
#define SWEEP_POINTS_MAX 100000
#define SWEEP_LABEL_MAX 128
/* A varied key whose values are objects of run keys that a point sets together (two keys that
 * must change in step, as --gpu-mode and --gpu-streams): "vary": {"options": [{"gpu-mode":
 * "launch", "gpu-streams": 32}, {"gpu-mode": "many-task", "gpu-streams": 256}]}. Its label is
 * key=value;... as an app-param's. */
#define SWEEP_OPTIONS_KEY "options"

typedef struct sweep_grid {
  int nkeys;
  const char *key[SWEEP_KEYS_MAX];
  const cJSON *values[SWEEP_KEYS_MAX]; /* each a non-empty array */
  int size[SWEEP_KEYS_MAX];
  long points;
} sweep_grid;

/* Reads "vary" (an object of 1 to SWEEP_KEYS_MAX distinct keys, each a non-empty list; the
 * values of SWEEP_OPTIONS_KEY objects); 0, or -1 with a one-line reason. */
int sweep_grid_init(sweep_grid *g, const cJSON *vary, char *why, size_t len);
/* Point p's value of key k. */
const cJSON *sweep_grid_value(const sweep_grid *g, long p, int k);
/* Base with point p's values set (and no "json"); the caller deletes it. NULL: no memory. */
cJSON *sweep_grid_point(const sweep_grid *g, const cJSON *base, long p);
/* A value as a table or CSV label: strings bare, numbers in full, app-param objects as
 * key=value;... (no comma: a label is a CSV field). */
void sweep_value_text(const cJSON *v, char *out, size_t len);
/* The point whose values have these labels (one per key, as sweep_value_text writes them), or
 * -1 when one names no value of its key. */
long sweep_grid_find(const sweep_grid *g, char *const *labels);
/* "KEY = VALUE, KEY = VALUE" for messages. */
void sweep_grid_describe(const sweep_grid *g, long p, char *out, size_t len);

#endif
