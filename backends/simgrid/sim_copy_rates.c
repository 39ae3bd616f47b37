/* sim_copy_rates.c: see sim_copy_rates.h. */
#include "sim_copy_rates.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

int sim_copy_rates_parse(const char *text, sim_copy_rates *t, char *why, size_t why_len) {
  t->n = 0;
  const char *p = text;
  while (*p) {
    if (t->n == SIM_COPY_RATES_MAX) {
      snprintf(why, why_len, "more than %d width:rate pairs", SIM_COPY_RATES_MAX);
      return -1;
    }
    char *end;
    errno = 0;
    double w = strtod(p, &end);
    if (end == p || *end != ':' || errno || !isfinite(w) || w < 1) {
      snprintf(why, why_len, "'%.40s' is not WIDTH:RATE (a width in bytes >= 1)", p);
      return -1;
    }
    p = end + 1;
    double r = strtod(p, &end);
    if (end == p || (*end && *end != ',') || errno || !isfinite(r) || r <= 0) {
      snprintf(why, why_len, "'%.40s': the rate is not a number of bytes/s > 0", p);
      return -1;
    }
    if (t->n > 0 && w <= t->width[t->n - 1]) {
      snprintf(why, why_len, "width %.0f does not follow %.0f: widths must increase", w,
               t->width[t->n - 1]);
      return -1;
    }
    t->width[t->n] = w;
    t->rate[t->n] = r;
    t->n++;
    p = *end ? end + 1 : end;
  }
  return 0;
}

double sim_copy_rates_at(const sim_copy_rates *t, uint64_t rows, uint64_t width,
                         uint64_t host_pitch) {
  if (t->n == 0 || rows < 2 || host_pitch == width || width == 0)
    return 0;
  double w = (double)width;
  if (w <= t->width[0])
    return t->rate[0];
  for (int i = 1; i < t->n; i++)
    if (w <= t->width[i]) {
      double f = log(w / t->width[i - 1]) / log(t->width[i] / t->width[i - 1]);
      double spb = (1 - f) / t->rate[i - 1] + f / t->rate[i]; /* seconds per byte */
      return 1 / spb;
    }
  return t->rate[t->n - 1];
}

uint64_t sim_copy_rates_wire_bytes(const sim_copy_rates *t, uint64_t raw, uint64_t rows,
                                   uint64_t width, uint64_t host_pitch, double link_bw) {
  double rate = sim_copy_rates_at(t, rows, width, host_pitch);
  if (rate <= 0 || link_bw <= 0 || rate >= link_bw)
    return raw;
  return (uint64_t)llround((double)raw * (link_bw / rate));
}
