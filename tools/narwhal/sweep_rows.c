/* sweep_rows.c: see sweep_rows.h. */
#define _POSIX_C_SOURCE 200809L
#include "sweep_rows.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

static double num(const cJSON *o, const char *key) {
  const cJSON *v = cJSON_GetObjectItemCaseSensitive(o, key);
  return cJSON_IsNumber(v) ? v->valuedouble : 0.0;
}

static const char *column_name(const sweep_table *t, int c) {
  return cJSON_GetArrayItem(t->columns, c)->valuestring;
}

static int column_width(const char *name) {
  int w = (int)strlen(name);
  return w > 12 ? w : 12;
}

void sweep_row_from_json(sweep_table *t, long p, const cJSON *r) {
  sweep_row *row = &t->row[p];
  row->done = 1;
  row->makespan = num(r, "makespan_s");
  row->gflops = num(r, "gflops");
  row->steals_attempted = num(r, "steals_attempted");
  row->steals_succeeded = num(r, "steals_succeeded");
  row->bytes_network = num(r, "bytes_network");
  const cJSON *verified = cJSON_GetObjectItemCaseSensitive(r, "verified");
  snprintf(row->verified, sizeof row->verified, "%s",
           cJSON_IsBool(verified) ? (cJSON_IsTrue(verified) ? "true" : "false") : "null");
  for (int c = 0; c < t->ncolumns; c++)
    row->column[c] = num(r, column_name(t, c));
}

double sweep_speedup(const sweep_table *t, long p) {
  const sweep_row *first = &t->row[0], *row = &t->row[p];
  return first->done && row->makespan > 0 ? first->makespan / row->makespan : 0.0;
}

void sweep_print_header(const sweep_table *t) {
  for (int k = 0; k < t->grid->nkeys; k++)
    printf("%s%10s", k ? " " : "", t->grid->key[k]);
  printf(" %14s %12s %9s %16s %12s", "simulated_s", "GFlop/s", "speed-up", "steals ok/tried",
         "GB moved");
  for (int c = 0; c < t->ncolumns; c++)
    printf(" %*s", column_width(column_name(t, c)), column_name(t, c));
  printf("\n");
}

void sweep_print_row(const sweep_table *t, long p) {
  const sweep_row *row = &t->row[p];
  for (int k = 0; k < t->grid->nkeys; k++) {
    char label[SWEEP_LABEL_MAX];
    sweep_value_text(sweep_grid_value(t->grid, p, k), label, sizeof label);
    printf("%s%10s", k ? " " : "", label);
  }
  printf(" %14.3f %12.1f %9.2f %7.0f/%-8.0f %12.1f", row->makespan, row->gflops,
         sweep_speedup(t, p), row->steals_succeeded, row->steals_attempted,
         row->bytes_network / 1e9);
  for (int c = 0; c < t->ncolumns; c++)
    printf(" %*.6g", column_width(column_name(t, c)), row->column[c]);
  printf("\n");
  fflush(stdout);
}

void sweep_csv_header(const sweep_table *t, FILE *out) {
  for (int k = 0; k < t->grid->nkeys; k++)
    fprintf(out, "%s,", t->grid->key[k]);
  fprintf(out, "makespan_s,gflops,speedup,steals_attempted,steals_succeeded,bytes_network,"
               "verified");
  for (int c = 0; c < t->ncolumns; c++)
    fprintf(out, ",%s", column_name(t, c));
  fprintf(out, "\n");
}

void sweep_csv_row(const sweep_table *t, long p, FILE *out) {
  const sweep_row *row = &t->row[p];
  for (int k = 0; k < t->grid->nkeys; k++) {
    char label[SWEEP_LABEL_MAX];
    sweep_value_text(sweep_grid_value(t->grid, p, k), label, sizeof label);
    fprintf(out, "%s,", label);
  }
  fprintf(out, "%.9g,%.9g,%.6g,%.0f,%.0f,%.0f,%s", row->makespan, row->gflops, sweep_speedup(t, p),
          row->steals_attempted, row->steals_succeeded, row->bytes_network, row->verified);
  for (int c = 0; c < t->ncolumns; c++)
    fprintf(out, ",%.17g", row->column[c]);
  fprintf(out, "\n");
  fflush(out);
}

long sweep_csv_resume(sweep_table *t, const char *path, char *why, size_t len) {
  FILE *f = fopen(path, "r");
  if (!f) {
    if (errno == ENOENT)
      return 0;
    snprintf(why, len, "--resume: cannot read %.300s: %s", path, strerror(errno));
    return -1;
  }
  char *want = NULL, *line = NULL;
  size_t want_len = 0, cap = 0;
  FILE *h = open_memstream(&want, &want_len);
  if (h) {
    sweep_csv_header(t, h);
    fclose(h);
  }
  long filled = 0;
  ssize_t n = getline(&line, &cap, f);
  if (!want || n < 0 || strcmp(line, want) != 0) {
    snprintf(why, len, "--resume: %.300s does not hold this sweep's columns (%s)", path,
             n < 0 ? "empty" : "its header differs");
    filled = -1;
  }
  int fields = t->grid->nkeys + 7 + t->ncolumns;
  while (filled >= 0 && (n = getline(&line, &cap, f)) > 0) {
    if (line[n - 1] != '\n') /* a torn last row (the sweep stopped while writing it): rerun */
      continue;
    line[--n] = '\0';
    char *field[SWEEP_KEYS_MAX + 7 + SWEEP_COLUMNS_MAX];
    int count = 0;
    for (char *s = line, *comma; count < fields; s = comma + 1) {
      field[count++] = s;
      if (!(comma = strchr(s, ',')))
        break;
      *comma = '\0';
    }
    if (count != fields)
      continue;
    long p = sweep_grid_find(t->grid, field);
    if (p < 0 || t->row[p].done)
      continue;
    char **v = field + t->grid->nkeys;
    sweep_row *row = &t->row[p];
    row->done = 1;
    row->makespan = strtod(v[0], NULL);
    row->gflops = strtod(v[1], NULL);
    row->steals_attempted = strtod(v[3], NULL);
    row->steals_succeeded = strtod(v[4], NULL);
    row->bytes_network = strtod(v[5], NULL);
    snprintf(row->verified, sizeof row->verified, "%s", v[6]);
    for (int c = 0; c < t->ncolumns; c++)
      row->column[c] = strtod(v[7 + c], NULL);
    filled++;
  }
  free(line);
  free(want);
  fclose(f);
  return filled;
}
