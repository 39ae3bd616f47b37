/* trace_classes.h: the legend of `narwhal plot`'s Gantt chart: which entry each span or instant
 * of a trace (lib/trace_json.h) is drawn as, and each entry's title and colour. Every entry has
 * a colour of its own, so that a reader can tell any two apart: the task kinds take a palette
 * kept for kernels (the busiest first; those beyond it share "other kernels"), the ~30 message
 * types fall into six groups by what they are for, and the rest are fixed. */
#ifndef NW_TOOL_TRACE_CLASSES_H
#define NW_TOOL_TRACE_CLASSES_H

#include <cjson/cJSON.h>

#define PLOT_KERNELS 8 /* task kinds with an entry of their own */

/* The entries, in legend order; only those drawn appear. */
enum {
  PLOT_KERNEL = 0, /* PLOT_KERNEL + k: the k-th busiest task kind */
  PLOT_OTHER_KERNELS = PLOT_KERNELS,
  PLOT_DATA_WAIT,
  PLOT_COPY_IN,
  PLOT_COPY_OUT,
  PLOT_TRANSFER,
  PLOT_PLACEMENT, /* the input's placement; before the first task, not drawn by default */
  PLOT_TASK_CONTROL,
  PLOT_DATA_PROTOCOL,
  PLOT_SCHEDULING,
  PLOT_RECOVERY,
  PLOT_OTHER_MESSAGE,
  PLOT_OTHER_SPAN,
  PLOT_STEAL, /* the instants from here on */
  PLOT_MULTI_ASSIGN,
  PLOT_CANCEL,
  PLOT_OTHER_INSTANT,
  PLOT_CLASSES
};

/* The task kinds with entries of their own: the PLOT_KERNELS with the most execution time
 * (names point into the trace). */
typedef struct plot_kernels {
  const char *name[PLOT_KERNELS];
  int n;
} plot_kernels;

/* Ranks the task kinds of the trace's events (exec spans); 0, or -1 out of memory. */
int plot_kernels_rank(const cJSON *events, plot_kernels *k);

/* The entry of one event: ph "X" (a span) or an instant, its cat and name. */
int plot_class_of(const plot_kernels *k, int instant, const char *cat, const char *name);
int plot_class_is_instant(int c);
/* Its legend title and colour ("#rrggbb", none repeated). */
const char *plot_class_title(const plot_kernels *k, int c);
const char *plot_class_colour(int c);

#endif
