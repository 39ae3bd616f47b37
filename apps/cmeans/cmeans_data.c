/* cmeans_data.c: see cmeans_data.h. */
#include "cmeans_data.h"

#include "../common/inputs.h"

void cm_fill_points(float *x, uint64_t n, uint32_t clusters, uint32_t dims, uint64_t seed) {
  /* Three streams of the seed: the true centres, each point's cluster, the noise. */
  uint64_t centre = nw_app_splitmix64(seed), which = nw_app_splitmix64(seed + 1),
           noise = nw_app_splitmix64(seed + 2);
  for (uint64_t i = 0; i < n; i++) {
    uint64_t j = nw_app_splitmix64(which + i) % clusters;
    for (uint32_t k = 0; k < dims; k++) {
      /* 2u - 1 is exact in float (nw_app_unit24), and so are both scalings: one rounding,
       * in the sum, keeps |x| <= 68. */
      float c = 64.0f * (2.0f * nw_app_unit24(nw_app_splitmix64(centre + j * dims + k)) - 1.0f);
      float e = 4.0f * (2.0f * nw_app_unit24(nw_app_splitmix64(noise + i * dims + k)) - 1.0f);
      x[i * dims + k] = c + e;
    }
  }
}

void cm_update_centres(const int64_t *sums, uint32_t clusters, uint32_t dims, float *centres) {
  for (uint32_t j = 0; j < clusters; j++) {
    const int64_t *s = sums + (uint64_t)j * (dims + 1);
    if (s[dims] == 0)
      continue;
    /* Both sums carry the same scale, which the division cancels. */
    double weight = (double)s[dims];
    for (uint32_t k = 0; k < dims; k++)
      centres[(uint64_t)j * dims + k] = (float)((double)s[k] / weight);
  }
}
