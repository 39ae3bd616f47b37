/* inputs.c: see inputs.h. */
#include "inputs.h"

#include <stdio.h>

nw_status nw_app_check_grid(const char *app, const nw_app_args *a, char *why, size_t why_len) {
  if (a->n == 0 || a->block == 0) {
    snprintf(why, why_len, "%s: --n and --block must be positive", app);
    return NW_ERR_ARG;
  }
  if (a->n % a->block != 0) {
    snprintf(why, why_len, "%s: --block %llu does not divide --n %llu", app,
             (unsigned long long)a->block, (unsigned long long)a->n);
    return NW_ERR_ARG;
  }
  if (a->n > (1u << 20)) {
    snprintf(why, why_len, "%s: --n %llu is larger than 1048576", app, (unsigned long long)a->n);
    return NW_ERR_ARG;
  }
  uint64_t blocks = a->n / a->block;
  if (blocks > 4096) {
    snprintf(why, why_len, "%s: --n %llu / --block %llu gives %llu^2 subtasks; at most 4096^2", app,
             (unsigned long long)a->n, (unsigned long long)a->block, (unsigned long long)blocks);
    return NW_ERR_ARG;
  }
  return NW_OK;
}

/* The fills' stream: xorshift64 from the seed, one step per value. */
static uint64_t fill_first(uint64_t seed) {
  return seed * 0x9E3779B97F4A7C15ull + 1;
}
static uint64_t fill_next(uint64_t *x) {
  *x ^= *x << 13;
  *x ^= *x >> 7;
  *x ^= *x << 17;
  return *x;
}

void nw_app_fill_small_ints(float *m, uint64_t count, uint64_t seed) {
  uint64_t x = fill_first(seed);
  for (uint64_t i = 0; i < count; i++)
    m[i] = (float)((int)(fill_next(&x) % 9) - 4);
}

void nw_app_fill_bytes(unsigned char *m, uint64_t count, uint64_t seed) {
  uint64_t x = fill_first(seed);
  for (uint64_t i = 0; i < count; i++)
    m[i] = (unsigned char)(fill_next(&x) >> 56);
}

uint64_t nw_app_splitmix64(uint64_t x) {
  x += 0x9E3779B97F4A7C15ull;
  x = (x ^ (x >> 30)) * 0xBF58476D1CE4E5B9ull;
  x = (x ^ (x >> 27)) * 0x94D049BB133111EBull;
  return x ^ (x >> 31);
}

float nw_app_unit24(uint64_t hash) {
  return (float)(hash >> 40) * 0x1p-24f;
}
