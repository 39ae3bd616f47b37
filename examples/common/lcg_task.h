/* lcg_task.h: the compute-only task two examples run, compare-policies/uneven.c (under two
 * scheduling policies) and custom-platform/spin.c (on a platform of its own): subtask i runs
 * some steps of a 64-bit linear congruential generator from a start that depends on i, and
 * writes the last value to out[i], 8 bytes, next to no data, so that what they show is where
 * and when the computation runs. What differs between them stays in each example: how many
 * steps subtask i runs, and what the simulator charges for them (the kind's flops). The rest,
 * the same in both, is here, so that the two cannot drift apart.
 *
 * A header of static functions rather than a library, so that an example still builds from
 * its one C file (examples/README.md, "Building one outside the tree"). */
#ifndef NW_EXAMPLE_LCG_TASK_H
#define NW_EXAMPLE_LCG_TASK_H

#include <stdint.h>

#include <narwhal.h>

/* The task's configuration bytes: kernels may run on another node (another process), so they
 * read nothing else. */
typedef struct lcg_conf {
  uint64_t block, seed;
} lcg_conf;

/* `steps` steps of the generator from subtask i's start. */
static inline uint64_t lcg(uint64_t i, uint64_t steps, uint64_t seed) {
  uint64_t x = seed ^ (i * 0x9E3779B97F4A7C15ull);
  for (uint64_t k = 0; k < steps; k++)
    x = x * 6364136223846793005ull + 1442695040888963407ull;
  return x;
}

/* The kind's subscribe: subtask i writes out[i] and reads nothing. */
static inline nw_status lcg_subscribe(nw_subscriber *s, const nw_task_info *t, uint64_t i) {
  (void)t;
  return nw_subscribe(s, 0, NW_WRITE_ONLY, i * 8, 8, 8, 1);
}

/* Runs one task of `kind` (subscribing with lcg_subscribe) over n subtasks writing out, a
 * space of n values, and reads out into got. *filled: 1 when got holds the values; 0 when the
 * run failed or its data are phantom (--data phantom: no bytes to read). */
static inline nw_status lcg_run(nw_runtime *rt, const nw_task_kind *kind, uint64_t n,
                                const lcg_conf *c, uint64_t *got, int *filled) {
  nw_space *out = NULL;
  nw_task *t = NULL;
  nw_status st = nw_space_create(rt, n * 8, 8, &out);
  if (st == NW_OK)
    st = nw_task_create(rt, kind, n, c, sizeof *c, &t);
  if (st == NW_OK)
    st = nw_task_bind(t, out, NW_WRITE_ONLY);
  if (st == NW_OK)
    st = nw_task_submit(t);
  if (st == NW_OK)
    st = nw_task_wait(t);
  *filled = 0;
  if (st == NW_OK && nw_runtime_functional(rt) && (st = nw_space_read(out, 0, got, n * 8)) == NW_OK)
    *filled = 1;
  if (t)
    nw_task_destroy(t);
  if (out)
    nw_space_destroy(out);
  return st;
}

#endif
