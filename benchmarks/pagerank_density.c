/* pagerank_density: how sparse one PageRank subtask's result is, and what run-length coding
 * makes of it, at any size, the paper's included.
 *
 * Usage: pagerank_density PAGES PAGES_PER_SUBTASK [SUBTASK [SEED]]
 *
 * Why: the Unicorn paper (Beri, Bansal, Kumar, TPDS, Fig. 18) reports a GPU->CPU compression
 * ratio of 44.6 for PageRank's subtask results at 250 million pages; Narwhal's runs at 1/244 of
 * that size get about 149. A ratio is set by two things: how many entries of a result are
 * nonzero (the data) and what the encoding spends on them (the format, which the paper does
 * not give; section 4.6 says only that runs of a frequent value such as zero are replaced by
 * their lengths). This program builds the result of one subtask in the first iteration (every
 * rank 1/N) with the app's own scatter (pr_scatter_host, apps/pagerank), and prints, one "key
 * value" a line: pages, pages_per_subtask, links        the subtask's size nonzero, nonzero_share,
 * nonzero_runs   entries that are not zero, their share of the array, and the maximal stretches of
 * them bytes_narwhal, ratio_narwhal           the array's encoding by core/data/rle.c (what a GPU
 *                                          ships to its host) and the array (8-byte fixed
 *                                          point) over it
 *   ratio_nonzero_bound                    the array over its nonzero entries alone: no coding
 *                                          that stores each nonzero value whole does better
 *   ratio_float_zero_runs                  4-byte float ranks (the paper's), zero runs replaced
 *                                          by a 4-byte length, other values stored each with a
 *                                          4-byte length per stretch (section 4.6 read literally)
 *   ratio_float_pairs                      4-byte floats as (value, count) pairs, 4 bytes each,
 *                                          one per run of equal values (classic RLE)
 * The emitter sets the whole array to 0 first, so the paper's size (250M pages, 2 GB of ranks)
 * needs about 2.5 GB. Bad arguments: one line, exit 2.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../apps/pagerank/pagerank.h"
#include "../apps/pagerank/pagerank_scatter.h"
#include "../core/data/rle.h"

static int number(const char *s, uint64_t *v) {
  char *end = NULL;
  errno = 0;
  unsigned long long x = strtoull(s, &end, 10);
  if (errno || end == s || *end || s[0] == '-')
    return -1;
  *v = x;
  return 0;
}

static int usage(const char *what) {
  fprintf(stderr,
          "pagerank_density: %s (usage: pagerank_density PAGES PAGES_PER_SUBTASK "
          "[SUBTASK [SEED]])\n",
          what);
  return 2;
}

static float as_float(uint64_t fixed) {
  return (float)((double)fixed / (double)PR_ONE);
}

int main(int argc, char **argv) {
  uint64_t n = 0, block = 0, subtask = 0, seed = 1;
  if (argc < 3 || argc > 5)
    return usage("two to four arguments");
  if (number(argv[1], &n) || n < 2 || n > ((uint64_t)1 << 32))
    return usage("PAGES: a whole number from 2 to 2^32");
  if (number(argv[2], &block) || block < 1 || block > n)
    return usage("PAGES_PER_SUBTASK: a whole number from 1 to PAGES");
  if (argc > 3 && (number(argv[3], &subtask) || subtask >= (n + block - 1) / block))
    return usage("SUBTASK: a whole number below PAGES / PAGES_PER_SUBTASK, rounded up");
  if (argc > 4 && number(argv[4], &seed))
    return usage("SEED: a whole number");
  uint64_t first = subtask * block, count = first + block <= n ? block : n - first;

  uint64_t *out = malloc(n * sizeof *out); /* the emitter zeroes it */
  uint64_t *ranks = malloc(count * sizeof *ranks);
  unsigned char *enc = out ? malloc(nw_rle_bound(n * sizeof *out)) : NULL;
  nw_emitter em;
  if (!out || !ranks || !enc || nw_emitter_init_buffer(&em, out, PR_OP, PR_TYPE, 0, n) != NW_OK) {
    fprintf(stderr, "pagerank_density: PAGES %" PRIu64 ": no memory for the array\n", n);
    return 2;
  }
  /* The first iteration: every rank 1/N. The app's own scatter (pr_scatter_host, as its CPU
   * kernel runs it) into an emitter over the array. */
  pr_scatter sc = {.first = first, .count = count, .in = ranks};
  pr_graph_init(&sc.g, n, seed);
  for (uint64_t i = 0; i < count; i++)
    ranks[i] = pr_initial_rank(n);
  uint64_t links = 0;
  for (uint64_t p = first; p < first + count; p++)
    links += pr_outdegree(&sc.g, p);
  if (pr_scatter_host(&sc, &em) != 0) {
    fprintf(stderr, "pagerank_density: a link left the pages\n");
    return 2;
  }

  uint64_t nonzero = 0, runs = 0, zero_runs = 0, pairs = 0;
  for (uint64_t q = 0; q < n; q++) {
    int nz = out[q] != 0, prev_nz = q > 0 && out[q - 1] != 0;
    nonzero += (uint64_t)nz;
    runs += (uint64_t)(nz && !prev_nz);
    zero_runs += (uint64_t)(!nz && (q == 0 || prev_nz));
    pairs += (uint64_t)(q == 0 || as_float(out[q]) != as_float(out[q - 1]));
  }
  size_t encoded = nw_rle_encode(out, n * sizeof *out, enc);
  /* Section 4.6 read literally, 4-byte floats: a zero run is its length; a stretch of other
   * values is a length and the values. Headers and values 4 bytes, like the ranks. */
  double float_zero_runs = 4.0 * (double)(zero_runs + runs) + 4.0 * (double)nonzero;
  printf("pages %" PRIu64 "\npages_per_subtask %" PRIu64 "\nlinks %" PRIu64 "\n", n, count, links);
  printf("nonzero %" PRIu64 "\nnonzero_share %.6f\nnonzero_runs %" PRIu64 "\n", nonzero,
         (double)nonzero / (double)n, runs);
  printf("bytes_narwhal %zu\n", encoded);
  printf("ratio_narwhal %.2f\n", (double)(n * sizeof *out) / (double)encoded);
  printf("ratio_nonzero_bound %.2f\n", (double)n / (double)nonzero);
  printf("ratio_float_zero_runs %.2f\n", 4.0 * (double)n / float_zero_runs);
  printf("ratio_float_pairs %.2f\n", 4.0 * (double)n / (8.0 * (double)pairs));
  free(enc);
  free(ranks);
  free(out);
  return 0;
}
