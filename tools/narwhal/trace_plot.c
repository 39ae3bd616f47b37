/* trace_plot.c: see trace_plot.h. */
#define _POSIX_C_SOURCE 200809L
#include "trace_plot.h"

#include <cjson/cJSON.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "gnuplot.h"
#include "text_file.h"
#include "trace_read.h"

#define PLOT_USAGE "narwhal plot TRACE.json [--out FILE.png] [--size WxH]"
static const char plot_help[] =
    "usage: " PLOT_USAGE "\n"
    "Draws a Gantt chart of a `narwhal run --trace FILE` trace with gnuplot: a lane per\n"
    "device and its data waits, the copy engines and each node's messages\n"
    "(docs/guide/traces.md); the gnuplot script is written beside the PNG.\n"
    "  --out FILE.png  the picture (default: the trace's name with .png)\n"
    "  --size WxH      its size in pixels\n";
#define MAX_CLASSES 16 /* names beyond these are drawn as "other" */

typedef struct lane {
  int pid, tid;
  const char *name; /* its thread_name, or NULL */
} lane;

typedef struct mark {
  int pid, tid, cls, instant;
  double ts, dur; /* microseconds */
} mark;

static int lane_cmp(const void *a, const void *b) {
  const lane *x = a, *y = b;
  return x->pid != y->pid ? (x->pid > y->pid) - (x->pid < y->pid)
                          : (x->tid > y->tid) - (x->tid < y->tid);
}

/* Text for a gnuplot string in double quotes. */
static void quoted(FILE *f, const char *s) {
  fputc('"', f);
  for (; *s; s++) {
    if (*s == '"' || *s == '\\')
      fputc('\\', f);
    fputc((unsigned char)*s < 0x20 ? ' ' : *s, f);
  }
  fputc('"', f);
}

/* A class's colour: the lanes' own kinds of span keep theirs, task kinds take the palette's. */
static const char *colour(const char *name, int i) {
  static const char *const palette[] = {"#1f77b4", "#2ca02c", "#9467bd", "#8c564b",
                                        "#e377c2", "#bcbd22", "#17becf", "#7f7f7f"};
  static const struct {
    const char *name, *rgb;
  } fixed[] = {{"copy in", "#6baed6"},  {"copy out", "#08519c"}, {"data wait", "#ff9900"},
               {"transfer", "#aaaaaa"}, {"steal", "#d62728"},    {"multi-assign", "#ff00ff"},
               {"cancel", "#000000"}};
  for (size_t k = 0; k < sizeof fixed / sizeof *fixed; k++)
    if (!strcmp(name, fixed[k].name))
      return fixed[k].rgb;
  return palette[i % (int)(sizeof palette / sizeof *palette)];
}

static int parse_size(const char *s, int *w, int *h) {
  char *end;
  long x = strtol(s, &end, 10);
  if (end == s || (*end != 'x' && *end != 'X'))
    return -1;
  const char *at = end + 1;
  long y = strtol(at, &end, 10);
  if (end == at || *end || x < 100 || x > 10000 || y < 100 || y > 10000)
    return -1;
  *w = (int)x, *h = (int)y;
  return 0;
}

/* The class of a name: its index among the names seen so far, or a new one while there is room
 * (the last slot is "other"). */
static int class_of(const char *name, const char **names, int *n) {
  for (int i = 0; i < *n; i++)
    if (!strcmp(names[i], name))
      return i;
  if (*n < MAX_CLASSES - 1) {
    names[*n] = name;
    return (*n)++;
  }
  names[MAX_CLASSES - 1] = "other";
  *n = MAX_CLASSES;
  return MAX_CLASSES - 1;
}

/* Writes the script for the marks; 0, or -1 with errno. */
static int write_script(const char *gp, const char *png, const char *title, int w, int h,
                        const lane *lanes, size_t nlanes, const mark *m, size_t nm,
                        const char **names, int nclasses) {
  FILE *f = fopen(gp, "w");
  if (!f)
    return -1;
  double t0 = 0;
  for (size_t i = 0; i < nm; i++)
    if (i == 0 || m[i].ts < t0)
      t0 = m[i].ts;
  fprintf(f, "# Written by `narwhal plot`; redraw with: gnuplot %s\n", gp);
  fprintf(f, "set terminal pngcairo size %d,%d noenhanced font \",9\"\nset output ", w, h);
  quoted(f, png);
  fprintf(f, "\nset title ");
  quoted(f, title);
  fprintf(f,
          "\nset xlabel \"time (ms)\"\nset xrange [0:*]\nset yrange [%zu.5:-0.5]\n"
          "set grid x\nset key outside right\nset style fill solid 1.0 noborder\nset ytics (",
          nlanes - 1);
  for (size_t i = 0; i < nlanes; i++) {
    char label[200];
    if (lanes[i].name)
      snprintf(label, sizeof label, "node %d: %.150s", lanes[i].pid, lanes[i].name);
    else
      snprintf(label, sizeof label, "node %d: lane %d", lanes[i].pid, lanes[i].tid);
    fprintf(f, "%s", i ? ", " : "");
    quoted(f, label);
    fprintf(f, " %zu", i);
  }
  fprintf(f, ")\n");
  /* A data block per class and shape: x (ms), row, half the width (ms). */
  int used[MAX_CLASSES][2] = {{0}};
  for (int c = 0; c < nclasses; c++)
    for (int inst = 0; inst < 2; inst++) {
      for (size_t i = 0; i < nm; i++) {
        if (m[i].cls != c || m[i].instant != inst)
          continue;
        if (!used[c][inst])
          fprintf(f, "$%c%d << EOD\n", inst ? 'i' : 's', c);
        used[c][inst] = 1;
        lane key = {m[i].pid, m[i].tid, NULL};
        const lane *row = bsearch(&key, lanes, nlanes, sizeof *lanes, lane_cmp);
        double x = (m[i].ts - t0) / 1e3, half = m[i].dur / 2e3;
        fprintf(f, "%.6f %td %.6f\n", x + half, row - lanes, half);
      }
      if (used[c][inst])
        fprintf(f, "EOD\n");
    }
  fprintf(f, "plot");
  int first = 1;
  for (int inst = 0; inst < 2; inst++)
    for (int c = 0; c < nclasses; c++) {
      if (!used[c][inst])
        continue;
      fprintf(f, "%s", first ? " " : ", \\\n     ");
      first = 0;
      if (inst)
        fprintf(f, "$i%d using 1:2 with points pt 7 ps 0.6 lc rgb \"%s\" title ", c,
                colour(names[c], c));
      else
        fprintf(f, "$s%d using 1:2:3:(0.35) with boxxyerror lc rgb \"%s\" title ", c,
                colour(names[c], c));
      quoted(f, names[c]);
    }
  fprintf(f, "\n");
  return fclose(f);
}

int trace_plot_main(int argc, char **argv) {
  const char *path = NULL, *out = NULL, *size = NULL;
  for (int i = 0; i < argc; i++) {
    if (!strcmp(argv[i], "--help") || !strcmp(argv[i], "-h")) {
      fputs(plot_help, stdout);
      return 0;
    }
    if (!strcmp(argv[i], "--out") && i + 1 < argc) {
      out = argv[++i];
      if (!*out) {
        tool_say("plot: --out: the value is empty");
        return 2;
      }
    } else if (!strcmp(argv[i], "--size") && i + 1 < argc)
      size = argv[++i];
    else if (!path && argv[i][0] != '-')
      path = argv[i];
    else {
      tool_say("plot: unexpected argument '%.200s' (" PLOT_USAGE ")", argv[i]);
      return 2;
    }
  }
  if (!path) {
    tool_say("plot: missing TRACE (" PLOT_USAGE ")");
    return 2;
  }
  int w = 1200, h = 0;
  if (size && parse_size(size, &w, &h) != 0) {
    tool_say("plot: --size '%.40s': not WxH in pixels, each from 100 to 10000", size);
    return 2;
  }
  char png[1100], gp[1100];
  size_t n = strlen(out ? out : path);
  if (n > 1000) {
    tool_say("plot: %s: the path is too long", out ? "--out" : "TRACE");
    return 2;
  }
  if (out)
    snprintf(png, sizeof png, "%s", out);
  else {
    snprintf(png, sizeof png, "%s", path);
    if (n > 5 && !strcmp(png + n - 5, ".json"))
      png[n - 5] = '\0';
    strcat(png, ".png");
  }
  snprintf(gp, sizeof gp, "%s", png);
  n = strlen(gp);
  if (n > 4 && !strcmp(gp + n - 4, ".png"))
    gp[n - 4] = '\0';
  strcat(gp, ".gp");
  if (strchr(gp, '\'')) { /* not quotable in the shell line */
    tool_say("plot: %s: a path with a ' cannot be handed to gnuplot", png);
    return 2;
  }
  const cJSON *events;
  cJSON *root = trace_read("plot", path, &events);
  if (!root)
    return 2;
  size_t cap = (size_t)cJSON_GetArraySize(events) + 1, nl = 0, nm = 0;
  lane *named = malloc(cap * sizeof *named), *lanes = malloc(cap * sizeof *lanes);
  mark *m = malloc(cap * sizeof *m);
  const char *names[MAX_CLASSES];
  int nclasses = 0, code = 0;
  if (!named || !lanes || !m) {
    tool_say("plot %s: out of memory", path);
    code = 1;
    goto done;
  }
  size_t nnamed = 0;
  const cJSON *e;
  cJSON_ArrayForEach(e, events) {
    trace_event f = trace_event_fields(e);
    const cJSON *ph = f.ph, *name = f.name, *pid = f.pid, *tid = f.tid, *ts = f.ts, *dur = f.dur;
    if (!cJSON_IsString(ph) || !cJSON_IsString(name) || !cJSON_IsNumber(pid) ||
        !cJSON_IsNumber(tid))
      continue; /* process names and events of no lane */
    if (!strcmp(ph->valuestring, "M")) {
      const cJSON *label = cJSON_GetObjectItemCaseSensitive(f.args, "name");
      if (!strcmp(name->valuestring, "thread_name") && cJSON_IsString(label))
        named[nnamed++] = (lane){pid->valueint, tid->valueint, label->valuestring};
      continue;
    }
    int instant = !strcmp(ph->valuestring, "i") || !strcmp(ph->valuestring, "I");
    if ((!instant && strcmp(ph->valuestring, "X")) || !cJSON_IsNumber(ts) ||
        (!instant && !cJSON_IsNumber(dur)))
      continue; /* only complete events and instants are drawn */
    m[nm++] = (mark){pid->valueint, tid->valueint,   class_of(name->valuestring, names, &nclasses),
                     instant,       ts->valuedouble, instant ? 0 : dur->valuedouble};
    lanes[nl++] = (lane){pid->valueint, tid->valueint, NULL};
  }
  if (nm == 0) {
    tool_say("plot %s: no spans or instants to draw", path);
    code = 2;
    goto done;
  }
  qsort(lanes, nl, sizeof *lanes, lane_cmp);
  qsort(named, nnamed, sizeof *named, lane_cmp);
  size_t u = 0;
  for (size_t i = 0; i < nl; i++)
    if (u == 0 || lane_cmp(&lanes[i], &lanes[u - 1]) != 0) {
      lanes[u] = lanes[i];
      const lane *k = bsearch(&lanes[i], named, nnamed, sizeof *named, lane_cmp);
      lanes[u++].name = k ? k->name : NULL;
    }
  if (!h) /* a row of about 16 pixels per lane */
    h = (int)(u > 240 ? 4000 : 160 + 16 * u);
  if (!gnuplot_installed()) {
    tool_say("plot: gnuplot is not installed (nothing drawn)");
    code = 1;
    goto done;
  }
  const char *slash = strrchr(path, '/');
  if (write_script(gp, png, slash ? slash + 1 : path, w, h, lanes, u, m, nm, names, nclasses)) {
    tool_say("plot: %s: %s", gp, strerror(errno));
    code = 1;
    goto done;
  }
  char cmd[1200];
  snprintf(cmd, sizeof cmd, "gnuplot '%s' 2>/dev/null", gp);
  remove(png); /* what is there afterwards is gnuplot's */
  FILE *drawn = system(cmd) == 0 ? fopen(png, "rb") : NULL;
  if (!drawn || fgetc(drawn) == EOF) {
    tool_say("plot: gnuplot failed to draw %s (the script is %s)", png, gp);
    code = 1;
  } else
    printf("plotted %s (%zu lanes, %zu spans and instants)\n", png, u, nm);
  if (drawn)
    fclose(drawn);
done:
  free(named), free(lanes), free(m);
  cJSON_Delete(root);
  return code;
}
