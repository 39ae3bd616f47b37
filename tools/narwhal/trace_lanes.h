/* trace_lanes.h: the rows of `narwhal plot`'s Gantt chart, laid out from a trace's lanes
 * (lib/trace_json.h numbers them; thread_name events name them).
 *
 * By default a node gets a row per device the trace names (idle ones too, in device order),
 * with the device's data waits drawn in it as a band; a row per GPU copy engine and direction;
 * and one row for everything it received (messages and network transfers). The trace's own
 * sub-lanes ("network #2") only exist because a trace viewer needs the spans of a lane nested;
 * a picture can let them overlap, and a reader then sees where the work was rather than where
 * the protocol was busy. With `all`, every lane of the trace is a row of its own, as named. */
#ifndef NW_TOOL_TRACE_LANES_H
#define NW_TOOL_TRACE_LANES_H

#include <cjson/cJSON.h>
#include <stddef.h>

typedef struct plot_row {
  int pid, group, index; /* the order: by node, then group (devices, copies, messages), index */
  const char *name;      /* a thread_name in the trace, or NULL: see plot_row_name */
} plot_row;

typedef struct plot_rows {
  plot_row *row;
  size_t n;
  int all; /* every trace lane a row of its own */
} plot_rows;

/* Lays the rows out from the trace's thread names and the lanes its events are on; 0, or -1
 * out of memory. Free with plot_rows_free. */
int plot_rows_build(const cJSON *events, int all, plot_rows *r);
void plot_rows_free(plot_rows *r);
/* Where in its row an event is drawn: the whole row; the upper four fifths (a device's own
 * events, in a row it shares with its data waits); the lower fifth (a data wait, a band under
 * the executions it delays); the upper half (a network transfer, in the row it shares with
 * the messages: the bytes arriving stay visible under the messages about them); the lower
 * half (a message). plots/gantt.gp draws them so. */
enum { PLOT_SHAPE_WHOLE, PLOT_SHAPE_TOP, PLOT_SHAPE_BAND, PLOT_SHAPE_UPPER, PLOT_SHAPE_LOWER };
/* The row of an event on lane (pid, tid), and its shape there in *shape; -1 for a lane the
 * rows do not have. */
long plot_rows_find(const plot_rows *r, int pid, int tid, int *shape);
/* A row's label: "node 0: device 2 (cpu)", "node 1: gpu0 copies in", ... */
void plot_row_name(const plot_row *row, char *out, size_t len);

#endif
