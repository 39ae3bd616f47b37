/* test_directory.c: the master directory's bookkeeping (paper section 3, steps 2-4). */
#include "check.h"
#include "directory.h"

int main(void) {
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
