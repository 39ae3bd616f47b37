/* app_params.c: the --app-param key/value list of nw_app_args (include/narwhal_app.h). */
#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
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

int nw_app_param_keys(const nw_app_args *a, const char *app, const char *keys, char *why,
                      size_t why_len) {
  for (int i = 0; i < a->nparams; i++) {
    const char *k = a->params[i].key;
    size_t len = strlen(k);
    const char *at = keys;
    int known = 0;
    while (!known && (at = strstr(at, k)) != NULL) {
      known = (at == keys || at[-1] == ',') && (at[len] == ',' || at[len] == '\0');
      at += len;
    }
    if (!known) {
      char list[256] = ""; /* "a,b" as "a, b" */
      for (size_t i = 0, at = 0; keys[i] && at + 3 < sizeof list; i++) {
        list[at++] = keys[i];
        if (keys[i] == ',')
          list[at++] = ' ';
        list[at] = '\0';
      }
      snprintf(why, why_len, "%s: --app-param %s: unknown key (%s)", app, k, list);
      return -1;
    }
  }
  return 0;
}

int nw_app_param_uint(const nw_app_args *a, const char *app, const char *key, uint64_t lo,
                      uint64_t hi, uint64_t dflt, uint64_t *out, char *why, size_t why_len) {
  const char *v = nw_app_param_get(a, key);
  *out = dflt;
  if (!v)
    return 0;
  char *end;
  errno = 0;
  unsigned long long u = strtoull(v, &end, 10);
  if (!isdigit((unsigned char)*v) || *end || errno || u < lo || u > hi) { /* not " -1" either */
    snprintf(why, why_len, "%s: --app-param %s=%s: not a whole number from %llu to %llu", app, key,
             v, (unsigned long long)lo, (unsigned long long)hi);
    return -1;
  }
  *out = u;
  return 0;
}
