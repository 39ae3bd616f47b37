/* test_copy_rates.c: the calibrated copy rates of short rows (sim_copy_rates.h): parsing, the
 * interpolation in log(width), and the bytes a copy is charged on a link. */
#include <math.h>
#include <stdio.h>

#include "sim_copy_rates.h"

static int fails;

static void near(const char *what, double got, double want) {
  if (fabs(got - want) > 1e-9 * fabs(want)) {
    printf("FAIL: %s: %.12g, wanted %.12g\n", what, got, want);
    fails++;
  }
}

static void refused(const char *text) {
  sim_copy_rates t;
  char why[100] = "";
  if (sim_copy_rates_parse(text, &t, why, sizeof why) == 0 || !why[0]) {
    printf("FAIL: '%s' was accepted\n", text);
    fails++;
  }
}

int main(void) {
  sim_copy_rates t;
  char why[100];
  if (sim_copy_rates_parse("1024:1e8,65536:1.6e9,1048576:2e9", &t, why, sizeof why) != 0 ||
      t.n != 3) {
    printf("FAIL: a valid table refused: %s\n", why);
    return 1;
  }
  /* At a calibrated width, its rate; between two, seconds per byte linear in log(width):
   * 8192 is half way from 1024 to 65536 (2^10, 2^13, 2^16). */
  near("at 1024", sim_copy_rates_at(&t, 4, 1024, 4096), 1e8);
  near("at 65536", sim_copy_rates_at(&t, 4, 65536, 1 << 20), 1.6e9);
  near("at 8192", sim_copy_rates_at(&t, 4, 8192, 1 << 20), 1 / (0.5 / 1e8 + 0.5 / 1.6e9));
  near("below the narrowest", sim_copy_rates_at(&t, 4, 16, 64), 1e8);
  near("above the widest", sim_copy_rates_at(&t, 4, 4 << 20, 8 << 20), 2e9);
  /* One row, or rows that touch, are one contiguous copy: the link's rate (0 here). */
  near("one row", sim_copy_rates_at(&t, 1, 1024, 4096), 0);
  near("contiguous", sim_copy_rates_at(&t, 8, 1024, 1024), 0);
  /* On a 1 GB/s link a 4x slower copy counts 4x its bytes; a faster one its own. */
  near("wire bytes, slow", (double)sim_copy_rates_wire_bytes(&t, 1000, 4, 1024, 4096, 4e8), 4000);
  near("wire bytes, fast", (double)sim_copy_rates_wire_bytes(&t, 1000, 4, 65536, 1 << 20, 1e9),
       1000);
  near("wire bytes, contiguous", (double)sim_copy_rates_wire_bytes(&t, 1000, 4, 1024, 1024, 1e9),
       1000);
  sim_copy_rates none = {0};
  near("no table", (double)sim_copy_rates_wire_bytes(&none, 1000, 4, 1024, 4096, 1e9), 1000);
  refused("1024");
  refused("1024:");
  refused("1024:0");
  refused("1024:-5");
  refused("0:1e9");
  refused("4096:1e9,1024:1e9");
  refused("4096:1e9,4096:2e9");
  refused("1024:1e9;2048:1e9");
  refused("1:1,2:1,3:1,4:1,5:1,6:1,7:1,8:1,9:1,10:1,11:1,12:1,13:1,14:1,15:1,16:1,17:1");
  printf("copy_rates: %s\n", fails ? "FAILED" : "all passed");
  return fails != 0;
}
