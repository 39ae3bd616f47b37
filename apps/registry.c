/* registry.c: the applications compiled into this build, found by name. */
#include <string.h>

#include "matmul/matmul.h"

static const nw_app *const apps[] = {&nw_matmul_app, NULL};

const nw_app *nw_app_find(const char *name) {
  for (const nw_app *const *a = apps; *a; a++)
    if (strcmp((*a)->name, name) == 0)
      return *a;
  return NULL;
}

const nw_task_kind *nw_app_kind(const nw_app *app, const char *kind_name) {
  for (const nw_task_kind *const *k = app->kinds; *k; k++)
    if (strcmp((*k)->name, kind_name) == 0)
      return *k;
  return NULL;
}
