/* validate_wall.c: see validate_wall.h. */
#include "validate_wall.h"

#include <cjson/cJSON.h>
#include <math.h>
#include <string.h>

static int number(const cJSON *o, const char *key, double *x) {
  const cJSON *v = cJSON_GetObjectItemCaseSensitive(o, key);
  if (!cJSON_IsNumber(v))
    return 0;
  *x = v->valuedouble;
  return 1;
}

double validate_wall_over_cpu(const char *json) {
  cJSON *j = json ? cJSON_Parse(json) : NULL;
  const cJSON *devices = cJSON_GetObjectItemCaseSensitive(j, "devices"), *d;
  double cpu = 0, compared = 0, subtasks = 0, busy = 0, x = NAN;
  int like = number(j, "kernels_measured_s", &cpu) && cpu > 0 &&
             number(j, "kernels_compared", &compared) && number(j, "subtasks", &subtasks) &&
             compared == subtasks && cJSON_IsArray(devices);
  const cJSON *list = devices;
  if (!like)
    list = NULL;
  cJSON_ArrayForEach(d, list) {
    const cJSON *kind = cJSON_GetObjectItemCaseSensitive(d, "kind");
    double b = 0, n = 0;
    int is_cpu = cJSON_IsString(kind) && !strcmp(kind->valuestring, "cpu");
    if (!is_cpu && number(d, "subtasks", &n) && n > 0)
      like = 0;
    else if (is_cpu && number(d, "busy_s", &b))
      busy += b;
  }
  if (like)
    x = busy / cpu - 1;
  cJSON_Delete(j);
  return x;
}
