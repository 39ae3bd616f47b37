/* trace_lanes.c: see trace_lanes.h. */
#include "trace_lanes.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "trace_json.h"
#include "trace_read.h"

enum { GROUP_DEVICE, GROUP_COPY, GROUP_MESSAGES, GROUP_LANE /* a trace lane as it is */ };

/* The row that lane (pid, tid) is drawn in, and the shape there; *own: whether the lane's
 * name is the row's. */
static plot_row row_of(int all, int pid, int tid, int *shape, int *own) {
  trace_lane l;
  *shape = PLOT_SHAPE_WHOLE, *own = 1;
  if (all || trace_lane_of_tid(pid, tid, &l) != 0)
    return (plot_row){pid, GROUP_LANE, tid, NULL};
  *own = l.cls == TRACE_LANE_DEVICE;
  if (l.cls == TRACE_LANE_DEVICE || l.cls == TRACE_LANE_WAIT) {
    *shape = l.cls == TRACE_LANE_WAIT ? PLOT_SHAPE_BAND : PLOT_SHAPE_TOP;
    return (plot_row){pid, GROUP_DEVICE, l.device, NULL};
  }
  if (l.cls == TRACE_LANE_COPY_IN || l.cls == TRACE_LANE_COPY_OUT)
    return (plot_row){pid, GROUP_COPY, 2 * l.device + (l.cls == TRACE_LANE_COPY_OUT), NULL};
  *shape = l.cls == TRACE_LANE_NETWORK ? PLOT_SHAPE_UPPER : PLOT_SHAPE_LOWER;
  return (plot_row){pid, GROUP_MESSAGES, 0, NULL};
}

static int row_cmp(const void *a, const void *b) {
  const plot_row *x = a, *y = b;
  if (x->pid != y->pid)
    return (x->pid > y->pid) - (x->pid < y->pid);
  if (x->group != y->group)
    return (x->group > y->group) - (x->group < y->group);
  return (x->index > y->index) - (x->index < y->index);
}

/* The row of an event's lane, named where the event names it; 0, or -1 for no lane. */
static int event_row(const cJSON *e, int all, plot_row *row) {
  trace_event f = trace_event_fields(e);
  if (!cJSON_IsString(f.ph) || !cJSON_IsNumber(f.pid) || !cJSON_IsNumber(f.tid))
    return -1; /* process names, and events of no lane */
  const char *ph = f.ph->valuestring;
  int shape, own;
  *row = row_of(all, f.pid->valueint, f.tid->valueint, &shape, &own);
  if (!strcmp(ph, "M")) {
    const cJSON *label = cJSON_GetObjectItemCaseSensitive(f.args, "name");
    if (!cJSON_IsString(f.name) || strcmp(f.name->valuestring, "thread_name") ||
        !cJSON_IsString(label))
      return -1;
    row->name = own ? label->valuestring : NULL;
    return 0;
  }
  /* the events drawn (trace_plot.c): complete ones and instants */
  return strcmp(ph, "X") && strcmp(ph, "i") && strcmp(ph, "I") ? -1 : 0;
}

int plot_rows_build(const cJSON *events, int all, plot_rows *r) {
  *r = (plot_rows){malloc(((size_t)cJSON_GetArraySize(events) + 1) * sizeof *r->row), 0, all};
  if (!r->row)
    return -1;
  const cJSON *e;
  cJSON_ArrayForEach(e, events) {
    if (event_row(e, all, &r->row[r->n]) == 0)
      r->n++;
  }
  qsort(r->row, r->n, sizeof *r->row, row_cmp);
  size_t u = 0;
  for (size_t i = 0; i < r->n; i++) {
    if (u > 0 && row_cmp(&r->row[i], &r->row[u - 1]) == 0) {
      if (!r->row[u - 1].name) /* a row is named by the lane that names it, seen anywhere */
        r->row[u - 1].name = r->row[i].name;
    } else
      r->row[u++] = r->row[i];
  }
  r->n = u;
  return 0;
}

void plot_rows_free(plot_rows *r) {
  free(r->row);
  *r = (plot_rows){NULL, 0, 0};
}

long plot_rows_find(const plot_rows *r, int pid, int tid, int *shape) {
  int own;
  plot_row key = row_of(r->all, pid, tid, shape, &own);
  const plot_row *at = bsearch(&key, r->row, r->n, sizeof *r->row, row_cmp);
  return at ? at - r->row : -1;
}

void plot_row_name(const plot_row *row, char *out, size_t len) {
  if (row->name)
    snprintf(out, len, "node %d: %.150s", row->pid, row->name);
  else if (row->group == GROUP_DEVICE)
    snprintf(out, len, "node %d: device %d", row->pid, row->index);
  else if (row->group == GROUP_COPY)
    snprintf(out, len, "node %d: gpu%d copies %s", row->pid, row->index / 2,
             row->index % 2 ? "out" : "in");
  else if (row->group == GROUP_MESSAGES)
    snprintf(out, len, "node %d: messages and network", row->pid);
  else
    snprintf(out, len, "node %d: lane %d", row->pid, row->index);
}
