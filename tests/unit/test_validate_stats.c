/* test_validate_stats.c: the figures of `narwhal validate` (tools/narwhal/validate_stats.h),
 * against values worked out by hand. */
#include <math.h>

#include "check.h"
#include "validate_stats.h"

static int near(double x, double want) {
  return fabs(x - want) <= 1e-12 * (fabs(want) + 1);
}

static void test_median_quantile(void) {
  double odd[] = {5, 1, 3}, even[] = {4, 1, 3, 2};
  CHECK(near(vs_median(odd, 3), 3) && near(vs_median(even, 4), 2.5));
  CHECK(odd[0] == 5 && even[0] == 4); /* left as they were */
  double v[24];
  for (int i = 0; i < 24; i++)
    v[i] = 24 - i;                               /* 24, 23, ..., 1 */
  CHECK(near(vs_quantile(v, 24, 0.95), 23));     /* rank ceil(22.8) = 23 */
  CHECK(near(vs_quantile(v, 20, 0.95), 24 - 1)); /* 24..5: rank 19 of 20 is 23 */
  CHECK(near(vs_quantile(v, 24, 1.0), 24) && near(vs_quantile(v, 24, 0.01), 1));
}

static void test_kendall(void) {
  double a[] = {1, 2, 3, 4}, same[] = {10, 20, 30, 40}, rev[] = {4, 3, 2, 1};
  CHECK(near(vs_kendall_tau(a, same, 4), 1) && near(vs_kendall_tau(a, rev, 4), -1));
  /* One swapped pair of six: (5 - 1) / 6. */
  double one[] = {1, 3, 2, 4};
  CHECK(near(vs_kendall_tau(a, one, 4), 4.0 / 6));
  /* Ties in b: pairs (0,1) tied; of the 5 others all concordant: 5 / sqrt(6 * 5). */
  double tied[] = {1, 1, 3, 4};
  CHECK(near(vs_kendall_tau(a, tied, 4), 5 / sqrt(30)));
  double flat[] = {2, 2, 2, 2};
  CHECK(vs_kendall_tau(a, flat, 4) == 0 && vs_kendall_tau(a, a, 1) == 0);
}

static void test_pairs(void) {
  /* Real 1.0, 1.05, 2.0 with spreads 0.1: (0,1) is within the noise; (0,2) and (1,2) are
   * decided. The simulation orders (0,2) right and (1,2) wrong. */
  double real[] = {1.0, 1.05, 2.0}, spread[] = {0.1, 0.1, 0.1}, sim[] = {1.0, 3.0, 2.5};
  int decided, agree;
  vs_pairs(real, spread, sim, 3, &decided, &agree);
  CHECK(decided == 2 && agree == 1);
  /* A spread larger than the difference on one side alone undecides the pair. */
  double wide[] = {0.1, 0.1, 1.5};
  vs_pairs(real, wide, sim, 3, &decided, &agree);
  CHECK(decided == 0 && agree == 0);
  CHECK(vs_argmin(real, 3) == 0 && vs_argmin(sim, 3) == 0 && vs_argmin(spread, 3) == 0);
  double later[] = {3, 1, 1};
  CHECK(vs_argmin(later, 3) == 1);
}

int main(void) {
  test_median_quantile();
  test_kendall();
  test_pairs();
  return check_report("validate_stats");
}
