/* md_data.c: see md_data.h. */
#include "md_data.h"

#include "../common/inputs.h"

void md_fill_state(const md_conf *c, uint64_t seed, float *pos, float *vel) {
  uint64_t count = c->grid * c->grid * c->ppc * 2;
  uint64_t at = nw_app_splitmix64(seed), speed = nw_app_splitmix64(seed + 1);
  for (uint64_t q = 0; q < count; q++) {
    pos[q] = nw_app_unit24(nw_app_splitmix64(at + q));
    /* 2u - 1 is exact (nw_app_unit24); the one rounding is the scaling's. */
    vel[q] = MD_SPEED_MAX * (2.0f * nw_app_unit24(nw_app_splitmix64(speed + q)) - 1.0f);
  }
}

float md_force_constant(uint64_t ppc) {
  return 1.0f / (float)ppc;
}
