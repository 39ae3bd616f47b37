/* The pool of private views (core/device/bufpool.h): a buffer made now is new, one taken back
 * and handed out again is not; the smallest that fits is used; a pool of sizes only (the
 * simulator's, phantom data) says the same without memory; a full pool keeps the larger. */
#include <stdint.h>

#include "bufpool.h"
#include "check.h"

int main(void) {
  for (int sizes_only = 0; sizes_only <= 1; sizes_only++) {
    nw_bufpool p = {.sizes_only = sizes_only};
    void *a, *b, *c;
    size_t ca, cb, cc;
    CHECK(nw_bufpool_get(&p, 1000, &a, &ca) == 1 && ca == 1000);
    CHECK(nw_bufpool_get(&p, 3000, &b, &cb) == 1 && cb == 3000);
    CHECK(sizes_only ? !a && !b : a && b);
    nw_bufpool_put(&p, a, ca);
    nw_bufpool_put(&p, b, cb);
    CHECK(p.n == 2);
    /* 900 bytes: the 1000-byte buffer, recycled (smallest fit), not new. */
    CHECK(nw_bufpool_get(&p, 900, &c, &cc) == 0 && cc == 1000 && c == a);
    /* 2000: the 3000 one; then 2000 again: nothing left that fits, a new one. */
    CHECK(nw_bufpool_get(&p, 2000, &a, &ca) == 0 && ca == 3000);
    CHECK(nw_bufpool_get(&p, 2000, &b, &cb) == 1 && cb == 2000);
    nw_bufpool_put(&p, c, cc);
    nw_bufpool_put(&p, a, ca);
    nw_bufpool_put(&p, b, cb);
    nw_bufpool_put(&p, NULL, 0); /* nothing */
    CHECK(p.n == 3);
    /* Full: a larger buffer replaces the smallest, a smaller one is let go. */
    void *held[NW_BUFPOOL_SLOTS];
    size_t hcap[NW_BUFPOOL_SLOTS];
    int extra = NW_BUFPOOL_SLOTS - p.n, made = 1;
    for (int i = 0; i < extra; i++) /* none of 1000, 2000, 3000 fits: each new */
      made &= nw_bufpool_get(&p, 10000 + (size_t)i, &held[i], &hcap[i]) == 1;
    CHECK(made);
    for (int i = 0; i < extra; i++)
      nw_bufpool_put(&p, held[i], hcap[i]);
    CHECK(p.n == NW_BUFPOOL_SLOTS);
    CHECK(nw_bufpool_get(&p, 100000, &a, &ca) == 1);
    CHECK(nw_bufpool_get(&p, 500, &b, &cb) == 0 && cb == 1000); /* ... and a 500: the 1000 */
    CHECK(p.n == NW_BUFPOOL_SLOTS - 1);
    nw_bufpool_put(&p, b, cb);                                 /* back: full again */
    nw_bufpool_put(&p, a, ca);                                 /* replaces the 1000 */
    CHECK(nw_bufpool_get(&p, 10, &c, &cc) == 0 && cc == 2000); /* the smallest now */
    nw_bufpool_put(&p, c, cc);
    int has_big = 0, has_1000 = 0;
    for (int i = 0; i < p.n; i++) {
      has_big |= p.cap[i] == 100000;
      has_1000 |= p.cap[i] == 1000;
    }
    CHECK(p.n == NW_BUFPOOL_SLOTS && has_big && !has_1000);
    nw_bufpool_free(&p);
    CHECK(p.n == 0);
  }
  return check_report("bufpool");
}
