/* params.c: the --app-param key/value list of nw_app_args (include/narwhal_app.h). */
#include <string.h>

#include "narwhal_app.h"

const char *nw_app_param_get(const nw_app_args *a, const char *key) {
  for (int i = 0; i < a->nparams; i++)
    if (strcmp(a->params[i].key, key) == 0)
      return a->params[i].value;
  return NULL;
}

int nw_app_param_set(nw_app_args *a, const char *key, const char *value) {
  size_t k = strlen(key), v = strlen(value);
  if (k == 0 || k >= NW_APP_PARAM_KEY || v >= NW_APP_PARAM_VALUE)
    return -1;
  int i = 0;
  while (i < a->nparams && strcmp(a->params[i].key, key) != 0)
    i++;
  if (i == NW_APP_PARAMS_MAX)
    return -1;
  memcpy(a->params[i].key, key, k + 1);
  memcpy(a->params[i].value, value, v + 1);
  if (i == a->nparams)
    a->nparams++;
  return 0;
}
