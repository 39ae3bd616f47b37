/* test_validate_wall.c: a run's CPU kernels' wall time beyond their CPU time, from --json
 * output (validate_wall.h): the sum over CPU devices, and NAN wherever the two do not compare. */
#include <math.h>
#include <stdio.h>

#include "validate_wall.h"

static int failed;

static void near(const char *what, double got, double want) {
  if (!(fabs(got - want) < 1e-12)) {
    printf("FAIL %s: %.15g, wanted %.15g\n", what, got, want);
    failed++;
  }
}

static void nan_for(const char *what, const char *json) {
  double got = validate_wall_over_cpu(json);
  if (!isnan(got)) {
    printf("FAIL %s: %.15g, wanted NAN\n", what, got);
    failed++;
  }
}

int main(void) {
  /* Two CPU devices busy 1.1 s and 1.0 s for 2.0 s of kernels' CPU time: 5% beyond; an idle
   * GPU device (no subtasks) does not count. */
  near("two CPU devices",
       validate_wall_over_cpu(
           "{\"subtasks\": 8, \"kernels_compared\": 8, \"kernels_measured_s\": 2.0,"
           " \"devices\": [{\"kind\": \"cpu\", \"busy_s\": 1.1, \"subtasks\": 5},"
           " {\"kind\": \"cpu\", \"busy_s\": 1.0, \"subtasks\": 3},"
           " {\"kind\": \"gpu\", \"busy_s\": 0, \"subtasks\": 0}]}"),
       0.05);
  near("wall equal to CPU",
       validate_wall_over_cpu("{\"subtasks\": 1, \"kernels_compared\": 1, \"kernels_measured_s\": "
                              "0.5, \"devices\": [{\"kind\": \"cpu\", \"busy_s\": 0.5}]}"),
       0);
  nan_for("a GPU ran subtasks",
          "{\"subtasks\": 2, \"kernels_compared\": 2, \"kernels_measured_s\": 1.0,"
          " \"devices\": [{\"kind\": \"cpu\", \"busy_s\": 1, \"subtasks\": 1},"
          " {\"kind\": \"gpu\", \"busy_s\": 1, \"subtasks\": 1}]}");
  nan_for("the model timed fewer than ran",
          "{\"subtasks\": 3, \"kernels_compared\": 2, \"kernels_measured_s\": 1.0,"
          " \"devices\": [{\"kind\": \"cpu\", \"busy_s\": 1.2}]}");
  nan_for("no kernel time", "{\"subtasks\": 0, \"kernels_compared\": 0, \"kernels_measured_s\": "
                            "0, \"devices\": []}");
  nan_for("not JSON", "makespan 1.0");
  nan_for("no output", NULL);
  printf("validate_wall: %d failed\n", failed);
  return failed != 0;
}
