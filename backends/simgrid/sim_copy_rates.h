/* sim_copy_rates.h: what a GPU copy of short rows costs, as calibrated.
 *
 * A block of a row-major space is copied to or from a GPU as `rows` rows of `width` bytes that
 * lie `host_pitch` apart in host memory. On hardware such a copy is far slower per byte than
 * one contiguous copy when its rows are short (an H100 moved 8 KB rows at about 3 GB/s where a
 * contiguous copy ran at 23 GB/s), whether the driver copies row by row or the runtime packs
 * them into a staging buffer first. `narwhal calibrate` times the real backend's copy path at
 * a few row widths and writes the rates as the GPU host's property
 *   copy_row_rates="W1:R1,W2:R2,..."   (widths in bytes, increasing; rates in bytes/s)
 * and the simulator charges a copy of rows of width w at the rate interpolated there
 * (platforms/README.md). Pure C: no SimGrid here, so the table is unit-tested alone. */
#ifndef NW_SIM_COPY_RATES_H
#define NW_SIM_COPY_RATES_H

#include <stddef.h>
#include <stdint.h>

#define SIM_COPY_RATES_MAX 16

typedef struct sim_copy_rates {
  int n; /* 0: no table, every copy moves at the link's rate */
  double width[SIM_COPY_RATES_MAX], rate[SIM_COPY_RATES_MAX];
} sim_copy_rates;

/* Parses the property's text into t. 0, or -1 with the problem in why (widths not increasing,
 * a rate not > 0, more than SIM_COPY_RATES_MAX entries, text that is not W:R pairs). */
int sim_copy_rates_parse(const char *text, sim_copy_rates *t, char *why, size_t why_len);

/* The bytes/s of a copy of rows of `width` bytes, `host_pitch` apart: 0 when the table does
 * not apply (no table, one row, or contiguous rows: those move at the link's rate). Between
 * two calibrated widths the time per byte is interpolated linearly in log(width); below the
 * narrowest and above the widest, the nearest one's rate holds. */
double sim_copy_rates_at(const sim_copy_rates *t, uint64_t rows, uint64_t width,
                         uint64_t host_pitch);

/* The bytes to put on a link of `link_bw` bytes/s so that a copy of `raw` bytes takes as long
 * as at the calibrated rate: raw * link_bw / rate when the rate is below the link's, raw
 * otherwise (a calibrated rate never makes a copy faster than the link). */
uint64_t sim_copy_rates_wire_bytes(const sim_copy_rates *t, uint64_t raw, uint64_t rows,
                                   uint64_t width, uint64_t host_pitch, double link_bw);

#endif
