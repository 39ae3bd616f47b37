/* sweep_rows.h: a sweep's results, one row per point, as printed and as CSV: labels (one per
 * varied key), makespan_s, gflops, speedup (over the first point), steals_attempted,
 * steals_succeeded, bytes_network, verified, then the sweep's extra "columns". */
#ifndef NW_TOOL_SWEEP_ROWS_H
#define NW_TOOL_SWEEP_ROWS_H

#include <cjson/cJSON.h>
#include <stdio.h>

#include "sweep_grid.h"

#define SWEEP_COLUMNS_MAX 32

typedef struct sweep_row {
  int done;
  double makespan, gflops, steals_attempted, steals_succeeded, bytes_network;
  char verified[8]; /* true, false or null */
  double column[SWEEP_COLUMNS_MAX];
} sweep_row;

typedef struct sweep_table {
  const sweep_grid *grid;
  const cJSON *columns; /* the sweep's "columns" list, or NULL */
  int ncolumns;
  sweep_row *row; /* one per point */
} sweep_table;

/* Fills point p's row from its run's --json. */
void sweep_row_from_json(sweep_table *t, long p, const cJSON *result);
/* The speed-up column: the first point's makespan over p's, 0 where either is unknown. */
double sweep_speedup(const sweep_table *t, long p);
void sweep_print_header(const sweep_table *t);
void sweep_print_row(const sweep_table *t, long p);
void sweep_csv_header(const sweep_table *t, FILE *out);
void sweep_csv_row(const sweep_table *t, long p, FILE *out);
/* --resume: reads the rows of an earlier run of this sweep from the CSV at path into the table
 * (rows whose labels name no point are dropped); returns how many points it filled, or -1 with
 * a one-line reason when the file cannot be read or has other columns. A missing file fills
 * none. */
long sweep_csv_resume(sweep_table *t, const char *path, char *why, size_t len);

#endif
