/* trace_read.h: a Chrome trace written by --trace (lib/trace_json.h), read back for the tool's
 * commands that work on one (plot, critical-path). */
#ifndef NW_TOOL_TRACE_READ_H
#define NW_TOOL_TRACE_READ_H

#include <cjson/cJSON.h>

/* The trace at path, parsed (free with cJSON_Delete); *events is its traceEvents list. NULL
 * after one line on stderr naming `command` and the file when it cannot be read or is not a
 * Chrome trace. */
cJSON *trace_read(const char *command, const char *path, const cJSON **events);

/* One event's fields, each NULL where the event has none (types unchecked). */
typedef struct trace_event {
  const cJSON *ph, *cat, *name, *pid, *tid, *ts, *dur, *args;
} trace_event;
trace_event trace_event_fields(const cJSON *e);

#endif
