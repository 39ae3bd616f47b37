/* sweep_shard.c: see sweep_shard.h. */
#define _POSIX_C_SOURCE 200809L
#include "sweep_shard.h"

#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "text_file.h"

#define SHARD_FILES_MAX 4096

int sweep_shard_parse(const char *text, sweep_shard *s, char *why, size_t len) {
  char *end;
  errno = 0;
  long k = strtol(text, &end, 10);
  int ok = end != text && *end == '/' && k >= 0 && !errno;
  const char *at = ok ? end + 1 : text;
  long n = ok ? strtol(at, &end, 10) : 0;
  ok = ok && end != at && !*end && !errno && n >= 1 && n <= SWEEP_POINTS_MAX && k < n;
  if (!ok) {
    snprintf(why, len, "--shard '%.40s': K/N, whole numbers with 0 <= K < N <= %d", text,
             SWEEP_POINTS_MAX);
    return 1;
  }
  s->k = k, s->n = n;
  return 0;
}

int sweep_shard_has(const sweep_shard *s, long p) {
  return s->n == 0 || p % s->n == s->k;
}

void sweep_shard_csv(const char *csv, const sweep_shard *s, char *out, size_t len) {
  size_t n = strlen(csv);
  int stem = n > 4 && !strcmp(csv + n - 4, ".csv") ? (int)n - 4 : (int)n;
  snprintf(out, len, "%.*s.shard-%ld-of-%ld.csv", stem, csv, s->k, s->n);
}

char *sweep_fingerprint(const cJSON *root) {
  static const char *const keys[] = {"base", "vary", "columns", "program", "args", NULL};
  cJSON *id = cJSON_CreateObject();
  for (int i = 0; id && keys[i]; i++) {
    const cJSON *v = cJSON_GetObjectItemCaseSensitive(root, keys[i]);
    if (v)
      cJSON_AddItemToObject(id, keys[i], cJSON_Duplicate(v, 1));
  }
  char *text = id ? cJSON_PrintUnformatted(id) : NULL;
  cJSON_Delete(id);
  return text;
}

int sweep_shard_mark(const char *shard_csv, const char *fingerprint) {
  char path[1200];
  snprintf(path, sizeof path, "%s.sweep", shard_csv);
  FILE *f = fopen(path, "w");
  if (!f)
    return -1;
  fprintf(f, "%s\n", fingerprint);
  return fclose(f);
}

/* K and N of a shard's CSV from its name (...shard-K-of-N.csv); 0, or -1 when it is not one. */
static int shard_of_name(const char *path, sweep_shard *s) {
  const char *at = strstr(path, ".shard-");
  for (const char *next; at && (next = strstr(at + 1, ".shard-"));)
    at = next;
  char tail[8];
  return at && sscanf(at, ".shard-%ld-of-%ld%7s", &s->k, &s->n, tail) == 3 &&
                 !strcmp(tail, ".csv") && s->n >= 1 && s->k >= 0 && s->k < s->n
             ? 0
             : -1;
}

static int by_name(const void *a, const void *b) {
  return strcmp(*(char *const *)a, *(char *const *)b);
}

/* The shards' CSVs the paths name: a file as given, a folder's *.shard-K-of-N.csv files in
 * name order. Returns how many (malloc'd names in files), or -1 with a reason. */
static int shard_files(char *const *paths, int npaths, char **files, char *why, size_t len) {
  int n = 0;
  for (int i = 0; i < npaths; i++) {
    struct stat st;
    if (stat(paths[i], &st) != 0) {
      snprintf(why, len, "--merge %.300s: %s", paths[i], strerror(errno));
      return -1;
    }
    if (!S_ISDIR(st.st_mode)) {
      if (n < SHARD_FILES_MAX)
        files[n++] = strdup(paths[i]);
      continue;
    }
    DIR *d = opendir(paths[i]);
    int first = n;
    for (struct dirent *e; d && (e = readdir(d)) && n < SHARD_FILES_MAX;) {
      sweep_shard s;
      if (shard_of_name(e->d_name, &s) != 0)
        continue;
      char *path = malloc(strlen(paths[i]) + strlen(e->d_name) + 2);
      if (path)
        sprintf(path, "%s/%s", paths[i], e->d_name);
      files[n++] = path;
    }
    if (d)
      closedir(d);
    qsort(files + first, (size_t)(n - first), sizeof *files, by_name);
  }
  for (int i = 0; i < n; i++)
    if (!files[i]) {
      snprintf(why, len, "--merge: out of memory");
      return -1;
    }
  if (n == 0)
    snprintf(why, len, "--merge: no shard's CSV (NAME.shard-K-of-N.csv) in what it was given");
  return n ? n : -1;
}

/* Whether the shard's CSV was written by a shard of this sweep (its .sweep file). */
static int same_sweep(const char *file, const char *fingerprint) {
  char path[1200];
  snprintf(path, sizeof path, "%s.sweep", file);
  FILE *f = fopen(path, "r");
  char *text = f ? tool_read_stream(f) : NULL;
  if (f)
    fclose(f);
  size_t n = text ? strlen(text) : 0;
  int same = text && n == strlen(fingerprint) + 1 && !strncmp(text, fingerprint, n - 1) &&
             text[n - 1] == '\n';
  free(text);
  return same;
}

/* The data lines of a CSV (every line after the header). */
static long data_lines(const char *file) {
  FILE *f = fopen(file, "r");
  long lines = -1;
  for (int c; f && (c = fgetc(f)) != EOF;)
    lines += c == '\n';
  if (f)
    fclose(f);
  return lines < 0 ? 0 : lines;
}

/* Reads one shard's rows into t; 0, or -1 with a reason. */
static int merge_one(sweep_table *t, const char *file, const sweep_shard *s, char *why,
                     size_t len) {
  sweep_table one = *t;
  one.row = calloc((size_t)t->grid->points, sizeof *one.row);
  if (!one.row) {
    snprintf(why, len, "--merge: out of memory");
    return -1;
  }
  long filled = sweep_csv_resume(&one, file, why, len), expected = 0;
  if (filled < 0 && !strncmp(why, "--resume: ", 10))
    memcpy(why, "--merge: ", 9), memmove(why + 9, why + 10, strlen(why + 10) + 1);
  for (long p = 0; p < t->grid->points; p++)
    expected += sweep_shard_has(s, p);
  int bad = filled < 0;
  for (long p = 0; !bad && p < t->grid->points; p++)
    if (one.row[p].done && !sweep_shard_has(s, p)) {
      snprintf(why, len, "--merge %.300s: holds a point of another shard", file);
      bad = 1;
    }
  if (!bad && filled != data_lines(file)) {
    snprintf(why, len, "--merge %.300s: %ld of its rows are no point of this sweep, or repeat one",
             file, data_lines(file) - filled);
    bad = 1;
  }
  if (!bad && filled != expected) {
    snprintf(why, len,
             "--merge %.300s: %ld of the shard's %ld points (an unfinished shard: run it again "
             "with --resume)",
             file, filled, expected);
    bad = 1;
  }
  for (long p = 0; !bad && p < t->grid->points; p++)
    if (one.row[p].done)
      t->row[p] = one.row[p];
  free(one.row);
  return bad ? -1 : 0;
}

long sweep_merge(sweep_table *t, const char *fingerprint, char *const *paths, int npaths, char *why,
                 size_t len) {
  char **files = calloc(SHARD_FILES_MAX, sizeof *files);
  int n = files ? shard_files(paths, npaths, files, why, len) : -1;
  if (!files)
    snprintf(why, len, "--merge: out of memory");
  sweep_shard *of = n > 0 ? calloc((size_t)n, sizeof *of) : NULL;
  long shards = n > 0 && of ? 0 : -1;
  for (int i = 0; shards >= 0 && i < n; i++) {
    if (shard_of_name(files[i], &of[i]) != 0) {
      snprintf(why, len, "--merge %.300s: not a shard's CSV (NAME.shard-K-of-N.csv)", files[i]);
      shards = -1;
    } else if (of[i].n != of[0].n) {
      snprintf(why, len, "--merge %.300s: a shard of %ld where %.300s is one of %ld", files[i],
               of[i].n, files[0], of[0].n);
      shards = -1;
    } else if (!same_sweep(files[i], fingerprint)) {
      snprintf(why, len, "--merge %.300s: a shard of another sweep (its .sweep file differs)",
               files[i]);
      shards = -1;
    }
    for (int j = 0; shards >= 0 && j < i; j++)
      if (of[j].k == of[i].k) {
        snprintf(why, len, "--merge: shard %ld of %ld given twice (%.300s and %.300s)", of[i].k,
                 of[i].n, files[j], files[i]);
        shards = -1;
      }
  }
  if (shards >= 0 && n != of[0].n) {
    long missing = 0; /* the first K no file is shard K of */
    for (int found = 1; found && missing < of[0].n;) {
      found = 0;
      for (int i = 0; i < n; i++)
        found |= of[i].k == missing;
      missing += found;
    }
    snprintf(why, len, "--merge: shard %ld of %ld is missing (%d of %ld given)", missing, of[0].n,
             n, of[0].n);
    shards = -1;
  }
  for (int i = 0; shards >= 0 && i < n; i++)
    if (merge_one(t, files[i], &of[i], why, len) != 0)
      shards = -1;
  for (int i = 0; files && i < n; i++)
    free(files[i]);
  free(files);
  free(of);
  return shards < 0 ? -1 : n;
}
