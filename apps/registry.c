/* registry.c: the applications compiled into this build (apps/apps.def), found by name. */
#include <stdio.h>
#include <string.h>

#include "narwhal_app.h"

/* Each application's table, declared from the one list (its own header need not be here). */
#define NW_APP(name) extern const nw_app nw_##name##_app;
#include "apps.def"
#undef NW_APP

static const nw_app *const apps[] = {
#define NW_APP(name) &nw_##name##_app,
#include "apps.def"
#undef NW_APP
    NULL};

void nw_app_names(char *buf, size_t len) {
  size_t at = 0;
  buf[0] = '\0';
  for (const nw_app *const *a = apps; *a && at < len; a++)
    at += (size_t)snprintf(buf + at, len - at, "%s%s", a == apps ? "" : ", ", (*a)->name);
}

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
