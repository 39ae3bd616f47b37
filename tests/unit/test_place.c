/* test_place.c: where apps/common/place.c puts an app's inputs (the paper's Fig. 13 schemes).
 *
 * place.c is compiled here alone, against stand-ins for nw_space_place and nw_runtime_nodes
 * that paint each placed byte with its node, so the test sees exactly which bytes went where:
 * every byte placed once; blocks, rows and columns of blocks each on one node; each unit's
 * node the seed's draw in order (so `spread`, the recorded experiments' placement, keeps its
 * stream); `local` ranges in contiguous equal shares, node 0 first (the PRS paper's SPMD
 * nodes); and which apps refuse which schemes (nw_app_check_placement).
 */
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "place.h"

enum { NODES = 5, N = 24, BS = 4, BLOCKS = N / BS, PX = 3, ROW = N * PX, SIZE = N * ROW };

static int owner[N * N * 4]; /* the node each byte was placed on, -1 none (pixels up to 4 B) */
static int twice;            /* bytes placed more than once */

int nw_runtime_nodes(const nw_runtime *rt) {
  (void)rt;
  return NODES;
}

nw_status nw_space_place(nw_space *s, uint64_t offset, uint64_t length, uint64_t step,
                         uint64_t count, int node) {
  (void)s;
  for (uint64_t k = 0; k < count; k++)
    for (uint64_t b = offset + k * step; b < offset + k * step + length; b++) {
      if (b >= sizeof owner / sizeof owner[0])
        return NW_ERR_RANGE;
      twice += owner[b] >= 0;
      owner[b] = node;
    }
  return NW_OK;
}

/* The placement's stream of nodes, written out again: the k-th unit's node (place.c). */
static int draw(uint64_t seed, int k) {
  uint64_t x = seed * 0xD1B54A32D192ED03ull + 0x9E3779B97F4A7C15ull;
  for (int i = 0; i <= k; i++) {
    x ^= x << 13;
    x ^= x >> 7;
    x ^= x << 17;
  }
  return (int)(x % NODES);
}

static void reset(void) {
  for (size_t b = 0; b < sizeof owner / sizeof owner[0]; b++)
    owner[b] = -1;
  twice = 0;
}

/* The node of every byte of block (bi, bj) if they agree, else -2. */
static int block_node(int bi, int bj) {
  int node = owner[bi * BS * ROW + bj * BS * PX];
  for (int r = bi * BS; r < (bi + 1) * BS; r++)
    for (int c = bj * BS * PX; c < (bj + 1) * BS * PX; c++)
      if (owner[r * ROW + c] != node)
        return -2;
  return node;
}

static int all_placed(void) {
  for (int b = 0; b < SIZE; b++)
    if (owner[b] < 0)
      return 0;
  return twice == 0;
}

static void check_scheme(nw_app_placement how, uint64_t seed) {
  reset();
  nw_space *s = NULL; /* the stand-in never looks at it */
  CHECK(nw_app_place_pixel_blocks(NULL, s, N, BS, PX, seed, how) == NW_OK);
  CHECK(all_placed());
  int used[NODES] = {0}, distinct = 0;
  for (int bi = 0; bi < BLOCKS; bi++)
    for (int bj = 0; bj < BLOCKS; bj++) {
      int node = block_node(bi, bj);
      /* blocks: block (bi, bj) is unit bi * BLOCKS + bj; rows: row bi; columns: column bj */
      int unit = how == NW_PLACEMENT_ROWS      ? bi
                 : how == NW_PLACEMENT_COLUMNS ? bj
                                               : bi * BLOCKS + bj;
      CHECK(node == draw(seed, unit));
      if (node >= 0 && !used[node]++)
        distinct++;
    }
  CHECK(distinct > 1); /* spread, not centralised */
}

static void check_refusals(void) {
  char why[256] = "";
  nw_app conv2d = {.name = "conv2d"}, matmul = {.name = "matmul"}, chain = {.name = "chain"};
  nw_app_args a = {.spread = 1, .placement = NW_PLACEMENT_ROWS_COLUMNS};
  CHECK(nw_app_check_placement(&matmul, &a, why, sizeof why) == 0);
  CHECK(nw_app_check_placement(&conv2d, &a, why, sizeof why) == -1);
  CHECK(strcmp(why, "--placement rows-columns: conv2d cannot place its inputs that way (it takes "
                    "spread, blocks, node0, rows, columns)") == 0);
  a.placement = NW_PLACEMENT_COLUMNS;
  CHECK(nw_app_check_placement(&conv2d, &a, why, sizeof why) == 0);
  CHECK(nw_app_check_placement(&chain, &a, why, sizeof why) == -1);
  CHECK(strstr(why, "it takes spread, blocks, node0)") != NULL);
  a.placement = NW_PLACEMENT_BLOCKS; /* every app places blocks, or keeps all on node 0 */
  CHECK(nw_app_check_placement(&chain, &a, why, sizeof why) == 0);
  a.spread = 0;
  CHECK(nw_app_check_placement(&chain, &a, why, sizeof why) == 0);
  /* local: the SPMD apps whose subtasks read their own slice; matmul's blocks cannot. */
  nw_app cmeans = {.name = "cmeans"}, gemv = {.name = "gemv"};
  a = (nw_app_args){.spread = 1, .placement = NW_PLACEMENT_LOCAL};
  CHECK(nw_app_check_placement(&cmeans, &a, why, sizeof why) == 0);
  CHECK(nw_app_check_placement(&gemv, &a, why, sizeof why) == 0);
  CHECK(nw_app_check_placement(&matmul, &a, why, sizeof why) == -1);
  CHECK(strcmp(why, "--placement local: matmul cannot place its inputs that way (it takes spread, "
                    "blocks, node0, rows, columns, rows-columns)") == 0);
  CHECK(nw_app_check_placement(&conv2d, &a, why, sizeof why) == -1);
}

/* `local`: `ranges` ranges of 3 bytes over the 5 nodes; node j's share is the ranges k with
 * k * 5 / ranges == j, so each node's bytes are one contiguous run, nodes in order, their
 * counts `want`. Any other scheme is the seed's draw per range (nw_app_spread_ranges). */
static void check_local_ranges(uint64_t ranges, const int want[NODES]) {
  reset();
  CHECK(nw_app_place_ranges(NULL, NULL, ranges, 3, 7, NW_PLACEMENT_LOCAL) == NW_OK);
  int count[NODES] = {0};
  for (uint64_t k = 0; k < ranges; k++) {
    int node = owner[k * 3];
    CHECK(node >= 0 && node < NODES && owner[k * 3 + 1] == node && owner[k * 3 + 2] == node);
    CHECK(k == 0 || owner[k * 3 - 1] <= node); /* contiguous, node 0 first */
    if (node >= 0 && node < NODES)
      count[node]++;
  }
  CHECK(owner[ranges * 3] == -1 && twice == 0);
  for (int j = 0; j < NODES; j++)
    CHECK(count[j] == want[j]);
  reset();
  CHECK(nw_app_place_ranges(NULL, NULL, ranges, 3, 7, NW_PLACEMENT_ROWS) == NW_OK);
  for (uint64_t k = 0; k < ranges; k++)
    CHECK(owner[k * 3] == draw(7, (int)k));
}

int main(void) {
  for (uint64_t seed = 1; seed <= 3; seed++) {
    check_scheme(NW_PLACEMENT_BLOCKS, seed);
    check_scheme(NW_PLACEMENT_ROWS, seed);
    check_scheme(NW_PLACEMENT_COLUMNS, seed);
    /* `spread` is the blocks scheme over 4-byte elements: the same nodes, block by block. */
    reset();
    CHECK(nw_app_spread_blocks(NULL, NULL, N, BS, seed) == NW_OK);
    int same = 1;
    for (int bi = 0; bi < BLOCKS; bi++)
      for (int bj = 0; bj < BLOCKS; bj++)
        same &= owner[bi * BS * N * 4 + bj * BS * 4] == draw(seed, bi * BLOCKS + bj);
    CHECK(same);
  }
  check_refusals();
  check_local_ranges(10, (const int[NODES]){2, 2, 2, 2, 2});
  check_local_ranges(12, (const int[NODES]){3, 2, 3, 2, 2});
  check_local_ranges(3, (const int[NODES]){1, 1, 0, 1, 0});
  return check_report("place");
}
