/* test_settle_memory.c: how much calibrate and validate settle before a run
 * (tools/narwhal/settle_memory.h): the floor kept, a quarter more than the pages a run
 * first-touched, no more than half the available memory per process settling at once; and the
 * touch count itself. */
#include <stdint.h>
#include <stdlib.h>
#include <unistd.h>

#include "check.h"
#include "settle_memory.h"

static void test_sizes(void) {
  uint64_t page = (uint64_t)sysconf(_SC_PAGESIZE);
  uint64_t avail = tool_memory_available_mib();
  CHECK(avail > 64); /* a machine that runs the tests has that */
  /* Below the floor: the floor. */
  CHECK(tool_settle_mib_for(768, 0, 1) == 768);
  CHECK(tool_settle_mib_for(768, (100ull << 20) / page, 1) == 768);
  /* 40 MiB of first touches: 50 MiB, a quarter more (avail / 2 is more than that here). */
  uint64_t forty = (40ull << 20) / page;
  CHECK(tool_settle_mib_for(1, forty, 1) == 50);
  CHECK(tool_settle_mib_for(0, forty, 1) == 50);
  /* Capped at half the available memory shared by the sharers, the floor kept even then. */
  uint64_t huge = ((avail * 4) << 20) / page;
  uint64_t one = tool_settle_mib_for(1, huge, 1), four = tool_settle_mib_for(1, huge, 4);
  CHECK(one <= avail / 2 + 64 && one >= avail / 2 - avail / 8); /* avail moves a little */
  CHECK(four <= one / 4 + 64 && four + 64 >= one / 4);
  CHECK(tool_settle_mib_for(avail * 3, huge, 4) == avail * 3);
}

static void test_touch_count(void) {
  /* Fresh pages written are counted as first touches (minor faults), at least nearly all. */
  size_t n = 2048;
  uint64_t page = (uint64_t)sysconf(_SC_PAGESIZE), t0 = tool_pages_touched(0);
  volatile char *p = malloc(n * page + page);
  CHECK(p != NULL);
  for (size_t i = 0; i < n; i++)
    p[i * page] = 1;
  uint64_t touched = tool_pages_touched(0) - t0;
  CHECK(touched >= n * 9 / 10);
  free((void *)p);
  /* Settling writes its pages and unmaps them: another 16 MiB of touches. */
  t0 = tool_pages_touched(0);
  tool_settle_memory(16);
  CHECK(tool_pages_touched(0) - t0 >= ((16ull << 20) / page) * 9 / 10);
}

int main(void) {
  test_sizes();
  test_touch_count();
  return check_report("settle_memory");
}
