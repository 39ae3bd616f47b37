/* trace_classes.c: see trace_classes.h. */
#include "trace_classes.h"

#include <stdlib.h>
#include <string.h>

#include "trace_read.h"

/* Titles and colours of the entries after the kernels', in enum order. The kernels' palette is
 * saturated and the messages' light, so that work stands out from the protocol around it;
 * trace_classes.h promises no colour twice (sim.gantt_content checks the legend). */
static const char *const kernel_colour[PLOT_KERNELS] = {"#1f77b4", "#2ca02c", "#9467bd", "#8c564b",
                                                        "#e377c2", "#17becf", "#bcbd22", "#393b79"};
static const struct {
  const char *title, *colour;
} fixed[PLOT_CLASSES - PLOT_OTHER_KERNELS] = {
    {"other kernels", "#636363"}, {"data wait", "#ff7f0e"},     {"copy in", "#aec7e8"},
    {"copy out", "#c5b0d5"},      {"transfer", "#c7c7c7"},      {"placement", "#dbdb8d"},
    {"task control", "#ff9896"},  {"data protocol", "#98df8a"}, {"scheduling", "#9edae5"},
    {"recovery", "#843c39"},      {"other message", "#c49c94"}, {"other span", "#f7b6d2"},
    {"steal", "#d62728"},         {"multi-assign", "#ff00ff"},  {"cancel", "#000000"},
    {"other instant", "#7b4173"}};

/* The message types (nw_trace_message_name) by what they are for. */
static const struct {
  int cls;
  const char *names[9];
} message_groups[] = {
    {PLOT_PLACEMENT, {"place", "place in directory", "place ack"}},
    {PLOT_TASK_CONTROL,
     {"task start", "subtask done", "task finish", "master done", "end", "fail"}},
    {PLOT_DATA_PROTOCOL,
     {"fetch", "data", "ownership update", "ownership to previous owner", "previous owner's ack",
      "claim", "reduce", "backup"}},
    {PLOT_SCHEDULING,
     {"steal request", "steal response", "copy finished", "copy cancel", "locality vector",
      "locality assignment", "policy", "performance samples"}},
    {PLOT_RECOVERY, {"recover", "recover ready", "recover done"}},
};

static int message_class(const char *name) {
  for (size_t g = 0; g < sizeof message_groups / sizeof *message_groups; g++)
    for (size_t i = 0; i < 9 && message_groups[g].names[i]; i++)
      if (!strcmp(name, message_groups[g].names[i]))
        return message_groups[g].cls;
  return PLOT_OTHER_MESSAGE;
}

typedef struct kind_time {
  const char *name;
  double us;
} kind_time;

/* Busiest first; ties by name, so that a trace always gets the same colours. */
static int kind_time_cmp(const void *a, const void *b) {
  const kind_time *x = a, *y = b;
  return x->us != y->us ? (x->us < y->us) - (x->us > y->us) : strcmp(x->name, y->name);
}

int plot_kernels_rank(const cJSON *events, plot_kernels *k) {
  kind_time *kinds = malloc(((size_t)cJSON_GetArraySize(events) + 1) * sizeof *kinds);
  size_t n = 0;
  if (!kinds)
    return -1;
  const cJSON *e;
  cJSON_ArrayForEach(e, events) {
    trace_event f = trace_event_fields(e);
    if (!cJSON_IsString(f.ph) || strcmp(f.ph->valuestring, "X") || !cJSON_IsString(f.cat) ||
        strcmp(f.cat->valuestring, "exec") || !cJSON_IsString(f.name) || !cJSON_IsNumber(f.dur))
      continue;
    size_t i = 0;
    while (i < n && strcmp(kinds[i].name, f.name->valuestring))
      i++;
    if (i == n)
      kinds[n++] = (kind_time){f.name->valuestring, 0};
    kinds[i].us += f.dur->valuedouble;
  }
  qsort(kinds, n, sizeof *kinds, kind_time_cmp);
  k->n = n < PLOT_KERNELS ? (int)n : PLOT_KERNELS;
  for (int i = 0; i < k->n; i++)
    k->name[i] = kinds[i].name;
  free(kinds);
  return 0;
}

static int instant_class(const char *name) {
  static const char *const names[] = {"steal", "multi-assign", "cancel"};
  for (int i = 0; i < 3; i++)
    if (!strcmp(name, names[i]))
      return PLOT_STEAL + i;
  return PLOT_OTHER_INSTANT;
}

int plot_class_of(const plot_kernels *k, int instant, const char *cat, const char *name) {
  if (instant)
    return instant_class(name);
  if (!strcmp(cat, "exec")) {
    for (int i = 0; i < k->n; i++)
      if (!strcmp(name, k->name[i]))
        return PLOT_KERNEL + i;
    return PLOT_OTHER_KERNELS;
  }
  if (!strcmp(cat, "message"))
    return message_class(name);
  if (!strcmp(cat, "wait"))
    return PLOT_DATA_WAIT;
  if (!strcmp(cat, "transfer"))
    return PLOT_TRANSFER;
  if (!strcmp(cat, "copy"))
    return !strcmp(name, "copy out") ? PLOT_COPY_OUT : PLOT_COPY_IN;
  return PLOT_OTHER_SPAN;
}

int plot_class_is_instant(int c) {
  return c >= PLOT_STEAL;
}

const char *plot_class_title(const plot_kernels *k, int c) {
  return c < PLOT_KERNELS ? k->name[c] : fixed[c - PLOT_OTHER_KERNELS].title;
}

const char *plot_class_colour(int c) {
  return c < PLOT_KERNELS ? kernel_colour[c] : fixed[c - PLOT_OTHER_KERNELS].colour;
}
