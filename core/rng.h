/* rng.h: splitmix64, the small seeded generator the backends use for nw_backend_ops.random so
 * that a simulated run is reproducible from its seed. Pure arithmetic. */
#ifndef NW_RNG_H
#define NW_RNG_H

#include <stdint.h>

static inline uint64_t nw_rng_next(uint64_t *state) {
  uint64_t z = (*state += 0x9E3779B97F4A7C15ull);
  z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
  z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
  return z ^ (z >> 31);
}

#endif
