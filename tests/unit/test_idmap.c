/* test_idmap.c: the id map (core/data/idmap.h) against a plain array of what it must hold,
 * over a long random sequence of puts, overwrites, removals and lookups (removed entries
 * force probes past them and rehashes that drop them). */
#include <stdlib.h>

#include "check.h"
#include "idmap.h"

enum { IDS = 5000, OPS = 200000 };

int main(void) {
  nw_idmap m = {0};
  static void *want[IDS + 1];
  uint64_t r = 88172645463325252ull;
  int wrong = 0;
  for (int op = 0; op < OPS; op++) {
    r ^= r << 13, r ^= r >> 7, r ^= r << 17;
    uint64_t id = 1 + r % IDS;
    switch ((r >> 32) % 3) {
    case 0:
      CHECK(nw_idmap_put(&m, id, &want[id]) == NW_OK);
      want[id] = &want[id];
      break;
    case 1:
      nw_idmap_remove(&m, id);
      want[id] = NULL;
      break;
    default:
      wrong += nw_idmap_get(&m, id) != want[id];
    }
  }
  size_t live = 0;
  for (uint64_t id = 1; id <= IDS; id++) {
    wrong += nw_idmap_get(&m, id) != want[id];
    live += want[id] != NULL;
  }
  CHECK(wrong == 0);
  CHECK(m.live == live);
  CHECK(m.cap < 16 * (live + 1) + 64); /* rehashes drop removed entries: no unbounded growth */
  CHECK(nw_idmap_get(&m, 0) == NULL && nw_idmap_put(&m, 0, &m) == NW_ERR_ARG);
  nw_idmap_free(&m);
  return check_report("idmap");
}
