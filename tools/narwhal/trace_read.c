/* trace_read.c: see trace_read.h. */
#include "trace_read.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "text_file.h"

cJSON *trace_read(const char *command, const char *path, const cJSON **events) {
  FILE *f = fopen(path, "rb");
  if (!f) {
    tool_say("%s %s: %s", command, path, strerror(errno));
    return NULL;
  }
  char unread[128];
  char *text = tool_read_json_text(f, unread, sizeof unread);
  fclose(f);
  if (!text) {
    tool_say("%s %s: %s", command, path, unread);
    return NULL;
  }
  cJSON *root = cJSON_ParseWithOpts(text, NULL, 1);
  free(text);
  *events = cJSON_GetObjectItemCaseSensitive(root, "traceEvents");
  if (!cJSON_IsArray(*events)) {
    tool_say("%s %s: not a Chrome trace (a JSON object with a traceEvents list; narwhal run "
             "--trace FILE writes one)",
             command, path);
    cJSON_Delete(root);
    return NULL;
  }
  return root;
}

trace_event trace_event_fields(const cJSON *e) {
  return (trace_event){
      cJSON_GetObjectItemCaseSensitive(e, "ph"),   cJSON_GetObjectItemCaseSensitive(e, "cat"),
      cJSON_GetObjectItemCaseSensitive(e, "name"), cJSON_GetObjectItemCaseSensitive(e, "pid"),
      cJSON_GetObjectItemCaseSensitive(e, "tid"),  cJSON_GetObjectItemCaseSensitive(e, "ts"),
      cJSON_GetObjectItemCaseSensitive(e, "dur"),  cJSON_GetObjectItemCaseSensitive(e, "args")};
}
