/* test_directory.c: the master directory's bookkeeping (paper section 3, steps 2-4). */
#define _DEFAULT_SOURCE /* rand_r */
#include <stdlib.h>

#include "check.h"
#include "directory.h"

/* Random quads of a space of 64 rows of pitch 40 (blocks, rows, columns, odd pieces). */
static nw_quad random_quad(unsigned *seed) {
  uint64_t pitch = 40, rows = 64;
  uint64_t row = (uint64_t)rand_r(seed) % rows, col = (uint64_t)rand_r(seed) % pitch;
  uint64_t len = 1 + (uint64_t)rand_r(seed) % (pitch - col);
  uint64_t count = 1 + (uint64_t)rand_r(seed) % (rows - row);
  if (rand_r(seed) % 4 == 0) /* a run of bytes across rows */
    return (nw_quad){row * pitch + col, 1 + (uint64_t)rand_r(seed) % (pitch * 3), 0, 1};
  return (nw_quad){row * pitch + col, len, pitch, count};
}

/* Splits after many assignments (from the fourth split on, the directory's index answers)
 * equal need intersected with every owner's set, owner by owner, for random layouts whose
 * owners' rows interleave. */
static void split_matches_owner_sets(void) {
  unsigned seed = 7;
  int nodes = 5;
  for (int round = 0; round < 40; round++) {
    nw_directory *d;
    CHECK(nw_directory_create(nodes, 40, 64 * 40, round % nodes, &d) == NW_OK);
    nw_region w, lost[5], parts[5], want;
    nw_region_init(&w, 40);
    nw_region_init(&want, 40);
    for (int k = 0; k < nodes; k++) {
      nw_region_init(&lost[k], 40);
      nw_region_init(&parts[k], 40);
    }
    for (int a = 0; a < 1 + round; a++) {
      nw_quad q = random_quad(&seed);
      if (q.offset + q.length > 64 * 40)
        q.length = 64 * 40 - q.offset;
      nw_region_clear(&w);
      CHECK(nw_region_add_quad(&w, q) == NW_OK);
      CHECK(nw_directory_assign(d, rand_r(&seed) % nodes, &w, lost) == NW_OK);
    }
    for (int f = 0; f < 12; f++) {
      nw_quad q = random_quad(&seed);
      if (q.offset + q.length > 64 * 40)
        q.length = 64 * 40 - q.offset;
      nw_region_clear(&w);
      CHECK(nw_region_add_quad(&w, q) == NW_OK);
      CHECK(nw_directory_split(d, &w, parts) == NW_OK);
      uint64_t total = 0;
      for (int k = 0; k < nodes; k++) {
        CHECK(nw_region_intersect(&want, &w, nw_directory_owned_by(d, k)) == NW_OK);
        CHECK(parts[k].n == want.n);
        for (size_t i = 0; i < want.n && i < parts[k].n; i++)
          CHECK(parts[k].r[i].row0 == want.r[i].row0 && parts[k].r[i].row1 == want.r[i].row1 &&
                parts[k].r[i].col0 == want.r[i].col0 && parts[k].r[i].col1 == want.r[i].col1);
        total += nw_region_bytes(&parts[k]);
      }
      CHECK(total == nw_region_bytes(&w)); /* the owners cover the space */
    }
    CHECK(d->index != NULL); /* the later splits searched the index */
    for (int k = 0; k < nodes; k++) {
      nw_region_free(&lost[k]);
      nw_region_free(&parts[k]);
    }
    nw_region_free(&w);
    nw_region_free(&want);
    nw_directory_free(d);
  }
}

int main(void) {
  split_matches_owner_sets();
  /* A 16 x 16-byte space (pitch 16), created on node 0, 3 nodes. */
  nw_directory *d;
  CHECK(nw_directory_create(3, 16, 256, 0, &d) == NW_OK);
  CHECK(nw_region_bytes(nw_directory_owned_by(d, 0)) == 256);
  CHECK(nw_region_empty(nw_directory_owned_by(d, 1)));

  nw_region parts[3], lost[3], w1, w2, need;
  for (int k = 0; k < 3; k++) {
    nw_region_init(&parts[k], 16);
    nw_region_init(&lost[k], 16);
  }
  /* Node 1 writes rows 0-7, node 2 writes the right half of rows 8-15. */
  nw_region_init(&w1, 16);
  nw_region_add_range(&w1, 0, 128);
  nw_region_init(&w2, 16);
  nw_region_add_quad(&w2, (nw_quad){8 * 16 + 8, 8, 16, 8});
  CHECK(nw_directory_assign(d, 1, &w1, lost) == NW_OK);
  CHECK(nw_directory_assign(d, 2, &w2, lost) == NW_OK);
  /* Node 0, the previous owner, lost exactly what the two wrote; nobody else lost anything. */
  CHECK(nw_region_bytes(&lost[0]) == 128 + 64);
  CHECK(nw_region_empty(&lost[1]) && nw_region_empty(&lost[2]));
  CHECK(nw_region_bytes(nw_directory_owned_by(d, 0)) == 64);
  CHECK(nw_region_bytes(nw_directory_owned_by(d, 1)) == 128);
  CHECK(nw_region_bytes(nw_directory_owned_by(d, 2)) == 64);

  /* A fetch of one whole column of 4 bytes splits by owner: rows 0-7 from node 1, rows 8-15
   * from node 0 (left half) — the column sits in bytes 4-7 of each row. */
  nw_region_init(&need, 16);
  nw_region_add_quad(&need, (nw_quad){4, 4, 16, 16});
  CHECK(nw_directory_split(d, &need, parts) == NW_OK);
  CHECK(nw_region_bytes(&parts[1]) == 32);
  CHECK(nw_region_bytes(&parts[0]) == 32);
  CHECK(nw_region_empty(&parts[2]));

  /* A later task: node 2 overwrites what node 1 owned. Node 1 is now the previous owner. */
  for (int k = 0; k < 3; k++)
    nw_region_clear(&lost[k]);
  CHECK(nw_directory_assign(d, 2, &w1, lost) == NW_OK);
  CHECK(nw_region_bytes(&lost[1]) == 128);
  CHECK(nw_region_empty(&lost[0]));
  CHECK(nw_region_empty(nw_directory_owned_by(d, 1)));
  CHECK(nw_region_bytes(nw_directory_owned_by(d, 2)) == 192);
  /* Owners always partition the space. */
  uint64_t total = 0;
  for (int k = 0; k < 3; k++)
    total += nw_region_bytes(nw_directory_owned_by(d, k));
  CHECK(total == 256);

  /* In one update round node 1 takes bytes node 2 owns, then node 2 takes
   * them back (the master applies updates in arrival order). Node 2 still owns them, so it
   * must not be among those told to drop them; node 1 never kept them. */
  for (int k = 0; k < 3; k++)
    nw_region_clear(&lost[k]);
  CHECK(nw_directory_assign(d, 1, &w2, lost) == NW_OK);
  CHECK(nw_directory_assign(d, 2, &w2, lost) == NW_OK);
  CHECK(nw_region_empty(&lost[2]));
  CHECK(nw_region_empty(&lost[0]));
  CHECK(nw_region_bytes(&lost[1]) == 64);
  CHECK(nw_region_bytes(nw_directory_owned_by(d, 2)) == 192);

  for (int k = 0; k < 3; k++) {
    nw_region_free(&parts[k]);
    nw_region_free(&lost[k]);
  }
  nw_region_free(&w1);
  nw_region_free(&w2);
  nw_region_free(&need);
  nw_directory_free(d);
  return check_report("directory");
}
