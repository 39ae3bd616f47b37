/* test_slowdown.c: how long a slowed node's work takes (--slow; core/node/run.h,
 * nw_slowdown_stretch), which the real backend holds each kernel of a slowed rank to: a
 * factor throughout, a slowdown that begins while the work runs, two that begin one after the
 * other, the largest of two at once, another node's slowdown, and work that is over before it. */
#include <math.h>
#include <string.h>

#include "check.h"
#include "run.h"

static int near(double a, double b) {
  return fabs(a - b) <= 1e-12 * (1 + fabs(b));
}

static nw_run_config parsed(const char *text) {
  static nw_run_config c; /* large: not on the stack */
  memset(&c, 0, sizeof c);
  char why[256];
  CHECK(nw_slowdown_parse(&c, text, why, sizeof why) == NW_OK);
  return c;
}

int main(void) {
  nw_run_config c = parsed("1:3");
  CHECK(near(nw_slowdown_stretch(&c, 1, 2.0, 0.5), 3.5)); /* 0.5 s of work, 3x: 1.5 s */
  CHECK(near(nw_slowdown_stretch(&c, 0, 2.0, 0.5), 2.5)); /* another node: unslowed */
  CHECK(near(nw_slowdown_stretch(&c, 1, 2.0, 0), 2.0));
  CHECK(near(nw_slowdown_stretch(&c, 1, 2.0, -1), 2.0)); /* a clock step back: no time */

  c = parsed("1:4@10");
  CHECK(near(nw_slowdown_stretch(&c, 1, 2.0, 1.0), 3.0));   /* over before 10 s */
  CHECK(near(nw_slowdown_stretch(&c, 1, 9.5, 1.0), 12.0));  /* 0.5 s at full speed, 0.5 s x4 */
  CHECK(near(nw_slowdown_stretch(&c, 1, 10.0, 1.0), 14.0)); /* begins as it does */

  c = parsed("0:2@1,0:5@2");
  /* From 0: 1 s at full speed, then x2 until 2 s (0.5 s of work), then x5 for the 0.5 left. */
  CHECK(near(nw_slowdown_stretch(&c, 0, 0.0, 2.0), 4.5));
  c = parsed("2:2,2:6");
  CHECK(near(nw_slowdown_stretch(&c, 2, 1.0, 1.0), 7.0)); /* the largest factor applies */
  return check_report("slowdown");
}
