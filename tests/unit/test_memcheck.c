/* test_memcheck.c: the memory a functional run's spaces need (core/node/memcheck.h): the two
 * floors, which one is named when, the message, and no overflow at absurd sizes. */
#include <stdint.h>
#include <string.h>

#include "check.h"
#include "memcheck.h"

#define GB 1000000000ull

/* The simulator: every node in this process. */
static nw_memory_room sim(uint64_t ram, uint64_t address, int nodes, uint64_t gpus) {
  return (nw_memory_room){.ram = ram,
                          .ram_nodes = nodes,
                          .address = address,
                          .address_nodes = nodes,
                          .address_backend = gpus,
                          .address_backend_what = "modelled GPU memory (--gpu-mem)"};
}

int main(void) {
  char why[512];
  /* Node 0's copy and the driver's, then a quarter of the data per other node; a whole copy
   * mapped per node, the driver's and the backend's own. */
  nw_memory_room r = sim(UINT64_MAX, UINT64_MAX, 4, 0);
  nw_memory_need need = nw_memcheck_need(&r, 4 * GB, 4, 0);
  CHECK(need.ram == 8 * GB + 3 * GB);
  CHECK(need.address == 5 * 4 * GB);
  r.address_backend = 6 * GB;
  CHECK(nw_memcheck_need(&r, 4 * GB, 4, 0).address == 26 * GB);
  /* A rank per node (the real backend), two ranks on node 0's host of 3 nodes. */
  nw_memory_room rank = {
      .ram = UINT64_MAX, .ram_nodes = 2, .address = UINT64_MAX, .address_nodes = 1};
  need = nw_memcheck_need(&rank, 3 * GB, 3, 0);
  CHECK(need.ram == 7 * GB && need.address == 6 * GB);
  /* Node counts out of range are taken as 1 and the run's own. */
  rank.ram_nodes = 0;
  rank.address_nodes = 99;
  need = nw_memcheck_need(&rank, 3 * GB, 3, 0);
  CHECK(need.ram == 6 * GB && need.address == 12 * GB);

  /* Unknown RAM and no limit: never refused, whatever the size. */
  r = sim(UINT64_MAX, UINT64_MAX, 4, 0);
  CHECK(nw_memcheck(&r, UINT64_MAX / 3, 3, 4, 0, why, sizeof why) == NW_OK);
  /* Sizes that overflow saturate and are refused. */
  r = sim(100 * GB, UINT64_MAX, 1024, 0);
  need = nw_memcheck_need(&r, UINT64_MAX / 2, 1024, 0);
  CHECK(need.ram == UINT64_MAX);
  CHECK(need.address == UINT64_MAX);
  CHECK(nw_memcheck(&r, UINT64_MAX / 2, 1, 1024, 0, why, sizeof why) == NW_ERR_ARG);

  /* RAM binds: the need, the spaces, the parts, what the machine has. */
  r = sim(10 * GB, UINT64_MAX, 4, 0);
  CHECK(nw_memcheck(&r, 3 * GB, 2, 4, 0, why, sizeof why) == NW_OK); /* 6 + 2.25 GB */
  CHECK(nw_memcheck(&r, 4 * GB, 3, 4, 0, why, sizeof why) == NW_ERR_ARG);
  CHECK(strcmp(why, "the run needs ~11 GB of memory for its 3 spaces of 4.0 GB (node 0's copy, "
                    "the driver's and the other 3 nodes' shares), this machine has 10 GB "
                    "available") == 0);
  r = sim(GB, UINT64_MAX, 1, 0);
  CHECK(nw_memcheck(&r, 600000000, 1, 1, 0, why, sizeof why) == NW_ERR_ARG);
  CHECK(strcmp(why, "the run needs ~1.2 GB of memory for its 1 space of 0.60 GB (node 0's copy "
                    "and the driver's), this machine has 1.0 GB available") == 0);
  r = sim(GB, UINT64_MAX, 2, 0);
  CHECK(nw_memcheck(&r, 600000000, 1, 2, 0, why, sizeof why) == NW_ERR_ARG);
  CHECK(strstr(why, "(node 0's copy, the driver's and the other node's share)") != NULL);

  /* The address-space limit binds, and is named before RAM when both do. */
  r = sim(GB, 2 * GB, 4, 0);
  CHECK(nw_memcheck(&r, GB, 1, 4, 0, why, sizeof why) == NW_ERR_ARG);
  CHECK(strcmp(why, "the run needs ~5.0 GB of address space for its 1 space of 1.0 GB (a copy "
                    "on each of 4 nodes in this process and the driver's), the address-space "
                    "limit (ulimit -v) leaves 2.0 GB") == 0);
  /* The backend's own mapping counts, and is named. */
  r = sim(UINT64_MAX, 2 * GB, 4, 4294967296ull);
  CHECK(nw_memcheck(&r, 4000000, 1, 4, 0, why, sizeof why) == NW_ERR_ARG);
  CHECK(strcmp(why, "the run needs ~4.3 GB of address space for its 1 space of 4 MB (a copy on "
                    "each of 4 nodes in this process, the driver's and 4.3 GB of modelled GPU "
                    "memory (--gpu-mem)), the address-space limit (ulimit -v) leaves 2.0 GB") == 0);
  rank = (nw_memory_room){.ram = UINT64_MAX, .ram_nodes = 1, .address = GB, .address_nodes = 1};
  CHECK(nw_memcheck(&rank, GB, 1, 3, 0, why, sizeof why) == NW_ERR_ARG);
  CHECK(strstr(why, "(node 0's copy and the driver's)") != NULL);
  /* Exactly at the room: it fits. */
  rank.address = 2 * GB;
  CHECK(nw_memcheck(&rank, GB, 1, 3, 0, why, sizeof why) == NW_OK);

  /* A resilient run: node 0's replica of every space, S more in both floors, and named. */
  r = sim(UINT64_MAX, UINT64_MAX, 4, 0);
  need = nw_memcheck_need(&r, 4 * GB, 4, 1);
  CHECK(need.ram == 12 * GB + 3 * GB);
  CHECK(need.address == 6 * 4 * GB);
  r = sim(10 * GB, UINT64_MAX, 4, 0);
  CHECK(nw_memcheck(&r, 3 * GB, 2, 4, 0, why, sizeof why) == NW_OK);      /* 8.25 GB */
  CHECK(nw_memcheck(&r, 3 * GB, 2, 4, 1, why, sizeof why) == NW_ERR_ARG); /* 11.25 GB */
  CHECK(strcmp(why, "the run needs ~11 GB of memory for its 2 spaces of 3.0 GB (node 0's copy, "
                    "the driver's, node 0's replica and the other 3 nodes' shares), this machine "
                    "has 10 GB available") == 0);
  r = sim(UINT64_MAX, 2 * GB, 4, 4294967296ull);
  CHECK(nw_memcheck(&r, 4000000, 1, 4, 1, why, sizeof why) == NW_ERR_ARG);
  CHECK(strstr(why, "(a copy on each of 4 nodes in this process, the driver's, node 0's replica "
                    "and 4.3 GB of modelled GPU memory (--gpu-mem))") != NULL);
  rank = (nw_memory_room){.ram = UINT64_MAX, .ram_nodes = 1, .address = 2 * GB, .address_nodes = 1};
  CHECK(nw_memcheck(&rank, GB, 1, 3, 0, why, sizeof why) == NW_OK);
  CHECK(nw_memcheck(&rank, GB, 1, 3, 1, why, sizeof why) == NW_ERR_ARG);
  CHECK(strstr(why, "(node 0's copy, the driver's and node 0's replica)") != NULL);

  nw_memcheck_gb(0, why, sizeof why);
  CHECK(strcmp(why, "0 MB") == 0);
  nw_memcheck_gb(99000000, why, sizeof why);
  CHECK(strcmp(why, "99 MB") == 0);
  nw_memcheck_gb(123000000000ull, why, sizeof why);
  CHECK(strcmp(why, "123 GB") == 0);
  return check_report("memcheck");
}
