/* sweep_grid.c: see sweep_grid.h. */
#include "sweep_grid.h"

#include <stdio.h>
#include <string.h>

int sweep_grid_init(sweep_grid *g, const cJSON *vary, char *why, size_t len) {
  memset(g, 0, sizeof *g);
  g->points = 1;
  for (const cJSON *k = vary ? vary->child : NULL; k; k = k->next) {
    if (g->nkeys == SWEEP_KEYS_MAX) {
      snprintf(why, len, "\"vary\" has more than %d keys", SWEEP_KEYS_MAX);
      return -1;
    }
    for (int i = 0; i < g->nkeys; i++)
      if (!strcmp(g->key[i], k->string)) {
        snprintf(why, len, "\"vary\" names '%.100s' twice", k->string);
        return -1;
      }
    if (!cJSON_IsArray(k) || cJSON_GetArraySize(k) == 0) {
      snprintf(why, len, "\"vary\": '%.100s' needs a non-empty list of values", k->string);
      return -1;
    }
    if (!strcmp(k->string, SWEEP_OPTIONS_KEY))
      for (const cJSON *v = k->child; v; v = v->next)
        if (!cJSON_IsObject(v) || !v->child ||
            cJSON_GetObjectItemCaseSensitive(v, SWEEP_OPTIONS_KEY)) {
          snprintf(why, len,
                   "\"vary\": each value of '" SWEEP_OPTIONS_KEY
                   "' must be an object of run keys set together, e.g. {\"gpu-mode\": "
                   "\"many-task\", \"gpu-streams\": 256}");
          return -1;
        }
    g->key[g->nkeys] = k->string;
    g->values[g->nkeys] = k;
    g->size[g->nkeys] = cJSON_GetArraySize(k);
    g->points *= g->size[g->nkeys++];
    if (g->points > SWEEP_POINTS_MAX) {
      snprintf(why, len, "\"vary\" makes more than %d points", SWEEP_POINTS_MAX);
      return -1;
    }
  }
  /* A key set by "options" and varied on its own: which value wins would hang on the order. */
  for (int k = 0; k < g->nkeys; k++)
    if (!strcmp(g->key[k], SWEEP_OPTIONS_KEY))
      for (const cJSON *v = g->values[k]->child; v; v = v->next)
        for (const cJSON *m = v->child; m; m = m->next)
          for (int j = 0; j < g->nkeys; j++)
            if (!strcmp(g->key[j], m->string)) {
              snprintf(why, len,
                       "\"vary\": '%.100s' is varied and set by '" SWEEP_OPTIONS_KEY "' too",
                       m->string);
              return -1;
            }
  if (g->nkeys == 0) {
    snprintf(why, len, "needs \"base\": {run keys} and \"vary\": {\"KEY\": [values...], ...}");
    return -1;
  }
  return 0;
}

const cJSON *sweep_grid_value(const sweep_grid *g, long p, int k) {
  long stride = 1;
  for (int j = g->nkeys - 1; j > k; j--)
    stride *= g->size[j];
  return cJSON_GetArrayItem(g->values[k], (int)((p / stride) % g->size[k]));
}

cJSON *sweep_grid_point(const sweep_grid *g, const cJSON *base, long p) {
  cJSON *point = cJSON_Duplicate(base, 1);
  if (!point)
    return NULL;
  cJSON_DeleteItemFromObjectCaseSensitive(point, "json");
  for (int k = 0; k < g->nkeys; k++) {
    const cJSON *v = sweep_grid_value(g, p, k);
    int merge = !strcmp(g->key[k], SWEEP_OPTIONS_KEY); /* its members are the point's keys */
    for (const cJSON *m = merge ? v->child : v; m; m = merge ? m->next : NULL) {
      const char *key = merge ? m->string : g->key[k];
      cJSON_DeleteItemFromObjectCaseSensitive(point, key);
      cJSON_AddItemToObject(point, key, cJSON_Duplicate(m, 1));
    }
  }
  return point;
}

void sweep_value_text(const cJSON *v, char *out, size_t len) {
  if (cJSON_IsString(v))
    snprintf(out, len, "%s", v->valuestring);
  else if (cJSON_IsNumber(v))
    snprintf(out, len, "%.17g", v->valuedouble);
  else if (cJSON_IsObject(v)) {
    size_t at = 0;
    out[0] = '\0';
    for (const cJSON *c = v->child; c && at < len; c = c->next) {
      char one[64];
      sweep_value_text(c, one, sizeof one);
      at +=
          (size_t)snprintf(out + at, len - at, "%s%s=%s", c == v->child ? "" : ";", c->string, one);
    }
  } else
    snprintf(out, len, "%s", cJSON_IsTrue(v) ? "true" : "false");
}

long sweep_grid_find(const sweep_grid *g, char *const *labels) {
  long p = 0;
  for (int k = 0; k < g->nkeys; k++) {
    int found = -1;
    for (int i = 0; i < g->size[k] && found < 0; i++) {
      char label[SWEEP_LABEL_MAX];
      sweep_value_text(cJSON_GetArrayItem(g->values[k], i), label, sizeof label);
      if (!strcmp(label, labels[k]))
        found = i;
    }
    if (found < 0)
      return -1;
    p = p * g->size[k] + found; /* the first key varies slowest */
  }
  return p;
}

void sweep_grid_describe(const sweep_grid *g, long p, char *out, size_t len) {
  size_t at = 0;
  out[0] = '\0';
  for (int k = 0; k < g->nkeys && at < len; k++) {
    char label[SWEEP_LABEL_MAX];
    sweep_value_text(sweep_grid_value(g, p, k), label, sizeof label);
    at += (size_t)snprintf(out + at, len - at, "%s%s = %s", k ? ", " : "", g->key[k], label);
  }
}
