/* real_cache.h: the message size beyond which a handler's copy no longer runs at the cache's
 * rate, for `narwhal calibrate`'s fit of handling costs (nw_rt_costs.cache_bytes) and the
 * simulator's rt_cache_bytes (backends/simgrid/sim_costs.h). */
#ifndef NW_REAL_CACHE_H
#define NW_REAL_CACHE_H

#include <stdint.h>

/* Half of what one core can keep close, its level-2 cache and the last-level cache (Linux:
 * /sys/devices/system/cpu/cpu0/cache, data or unified caches): a message handler copies what
 * the receive has just written, so source and destination both pass through them (17 MiB on
 * the 2-core AMD EPYC VM, 32 MiB of L3 and 1 MiB of L2: 16.8 MB tiles copied in at 0.47 ns a
 * byte, 18.9 MB results at 1.07; docs/experiments/bytes-beyond-cache.md); 0 where the cache
 * size is unknown (no split). */
uint64_t real_cache_knee_bytes(void);

#endif
