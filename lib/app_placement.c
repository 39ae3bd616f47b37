/* app_placement.c: which `--placement` schemes an application honours (include/narwhal_app.h).
 *
 * Kept here rather than in nw_app: an app's table is initialised positionally in places (the
 * tests' apps), and an app nobody taught a scheme must refuse it rather than place its inputs
 * in blocks while the run says rows. */
#include <stdio.h>
#include <string.h>

#include "narwhal_app.h"

#define ROWS (1u << NW_PLACEMENT_ROWS)
#define COLUMNS (1u << NW_PLACEMENT_COLUMNS)
#define ROWS_COLUMNS (1u << NW_PLACEMENT_ROWS_COLUMNS)
#define LOCAL (1u << NW_PLACEMENT_LOCAL)

/* Beyond blocks: rows-columns needs two inputs (matmul's A and B); the others have one. local
 * is taught to the SPMD apps whose subtasks each read their own slice of one input (place.h:
 * nw_app_place_ranges). */
static const struct {
  const char *app;
  unsigned placements;
} takes[] = {
    {"matmul", ROWS | COLUMNS | ROWS_COLUMNS},
    {"conv2d", ROWS | COLUMNS},
    {"lu", ROWS | COLUMNS},
    {"fft2d", ROWS | COLUMNS},
    {"cmeans", LOCAL},
    {"gmm", LOCAL},
    {"gemv", LOCAL},
};

const char *nw_app_placement_name(nw_app_placement p) {
  switch (p) {
  case NW_PLACEMENT_ROWS:
    return "rows";
  case NW_PLACEMENT_COLUMNS:
    return "columns";
  case NW_PLACEMENT_ROWS_COLUMNS:
    return "rows-columns";
  case NW_PLACEMENT_LOCAL:
    return "local";
  case NW_PLACEMENT_BLOCKS:
    break;
  }
  return "blocks";
}

int nw_app_check_placement(const nw_app *app, const nw_app_args *a, char *why, size_t why_len) {
  unsigned placements = 0;
  for (size_t i = 0; i < sizeof takes / sizeof takes[0]; i++)
    if (strcmp(takes[i].app, app->name) == 0)
      placements = takes[i].placements;
  if (!a->spread || a->placement == NW_PLACEMENT_BLOCKS || (placements & (1u << a->placement)))
    return 0;
  char list[96] = "spread, blocks, node0";
  for (int p = NW_PLACEMENT_ROWS; p <= NW_PLACEMENT_LOCAL; p++)
    if (placements & (1u << p)) {
      size_t at = strlen(list);
      snprintf(list + at, sizeof list - at, ", %s", nw_app_placement_name((nw_app_placement)p));
    }
  snprintf(why, why_len, "--placement %s: %s cannot place its inputs that way (it takes %s)",
           nw_app_placement_name(a->placement), app->name, list);
  return -1;
}
