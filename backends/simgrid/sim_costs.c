/* sim_costs.c: see sim_costs.h. */
#include "sim_costs.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static nw_status read_as(sg_host_t h, const char *platform, const char *key, const char *what,
                         double *out, char *why, size_t why_len) {
  const char *v = sg_host_get_property_value(h, key);
  *out = 0;
  if (!v)
    return NW_OK;
  char *end;
  double x = strtod(v, &end);
  if (end == v || *end || !isfinite(x) || x < 0) {
    snprintf(why, why_len, "platform %.300s: host %s: property %s='%.40s' is not a %s >= 0",
             platform, sg_host_get_name(h), key, v, what);
    return NW_ERR_ARG;
  }
  *out = x;
  return NW_OK;
}

static nw_status read_one(sg_host_t h, const char *platform, const char *key, double *out,
                          char *why, size_t why_len) {
  return read_as(h, platform, key, "number of seconds", out, why, why_len);
}

/* key, or key@app where the host has that property (the application's own fit). */
static nw_status read_cost(sg_host_t h, const char *platform, const char *key, const char *app,
                           double *out, char *why, size_t why_len) {
  char own[160];
  if (app && app[0] && (size_t)snprintf(own, sizeof own, "%s@%s", key, app) < sizeof own &&
      sg_host_get_property_value(h, own))
    return read_one(h, platform, own, out, why, why_len);
  return read_one(h, platform, key, out, why, why_len);
}

/* A share of a core is at most 1. */
static nw_status share_ok(sg_host_t h, const char *platform, const char *key, double share,
                          char *why, size_t why_len) {
  if (share <= 1)
    return NW_OK;
  snprintf(why, why_len,
           "platform %.300s: host %s: property %s=%g is not a share of a core (0 to 1)", platform,
           sg_host_get_name(h), key, share);
  return NW_ERR_ARG;
}

nw_status sim_costs_read(sg_host_t h, const char *platform, const char *app, sim_costs *c,
                         char *why, size_t why_len) {
  memset(c, 0, sizeof *c);
  nw_status st = NW_OK;
  for (int k = 1; k < NW_STATS_EVENT_KINDS && st == NW_OK; k++) {
    char key[24], per_byte[40], per_run[40], per_page[48], per_view[48];
    snprintf(key, sizeof key, "rt_%s", nw_stats_event_name(k));
    snprintf(per_byte, sizeof per_byte, "%s_per_byte", key);
    snprintf(per_run, sizeof per_run, "%s_per_run", key);
    snprintf(per_page, sizeof per_page, "%s_per_space_page", key);
    snprintf(per_view, sizeof per_view, "%s_per_view_page", key);
    st = read_cost(h, platform, key, app, &c->event_s[k], why, why_len);
    if (st == NW_OK)
      st = read_cost(h, platform, per_byte, app, &c->event_s_per_byte[k], why, why_len);
    if (st == NW_OK)
      st = read_cost(h, platform, per_run, app, &c->event_s_per_run[k], why, why_len);
    if (st == NW_OK)
      st = read_cost(h, platform, per_page, app, &c->event_s_per_space_page[k], why, why_len);
    if (st == NW_OK)
      st = read_cost(h, platform, per_view, app, &c->event_s_per_view_page[k], why, why_len);
    for (int cls = 0; cls < NW_COST_CLASSES && st == NW_OK; cls++) {
      char priced[64];
      snprintf(priced, sizeof priced, "%s%s", per_byte, nw_cost_class_suffix(cls));
      st = read_cost(h, platform, priced, app, &c->event_s_per_byte_class[cls][k], why, why_len);
    }
    c->any |= c->event_s[k] > 0 || c->event_s_per_byte[k] > 0 || c->event_s_per_run[k] > 0;
    c->space_pages_priced |= c->event_s_per_space_page[k] > 0;
    for (int cls = 0; cls < NW_COST_CLASSES; cls++)
      c->any |= c->event_s_per_byte_class[cls][k] > 0;
  }
  if (st == NW_OK)
    st = read_cost(h, platform, "rt_launch", app, &c->launch_s, why, why_len);
  if (st == NW_OK)
    st = read_cost(h, platform, "rt_done", app, &c->done_s, why, why_len);
  if (st == NW_OK)
    st = read_one(h, platform, "rt_reduce_per_byte", &c->reduce_s_per_byte, why, why_len);
  if (st == NW_OK)
    st = read_one(h, platform, "rt_rle_per_byte", &c->rle_s_per_byte, why, why_len);
  if (st == NW_OK)
    st = read_as(h, platform, "rt_loop_weight", "number", &c->loop_weight, why, why_len);
  if (st == NW_OK)
    st = read_one(h, platform, "rt_spin", &c->spin_s, why, why_len);
  if (st == NW_OK)
    st = read_one(h, platform, "rt_spin_share", &c->spin_share, why, why_len);
  if (st == NW_OK)
    st = read_cost(h, platform, "rt_shm_poll_share", app, &c->shm_poll_share, why, why_len);
  if (st == NW_OK)
    st = read_cost(h, platform, "rt_shm_poll_per_byte", app, &c->shm_poll_per_byte, why, why_len);
  if (st == NW_OK)
    st = read_cost(h, platform, "rt_pickup", app, &c->pickup_s, why, why_len);
  if (st == NW_OK)
    st = read_one(h, platform, "rt_page_fresh", &c->page_fresh_s, why, why_len);
  if (st == NW_OK)
    st = read_as(h, platform, "rt_control_behind", "number of bytes", &c->control_behind, why,
                 why_len);
  if (st == NW_OK)
    st = read_as(h, platform, "rt_eager_bytes", "number of bytes", &c->eager_bytes, why, why_len);
  if (st == NW_OK)
    st = read_as(h, platform, "rt_cache_bytes", "number of bytes", &c->cache_bytes, why, why_len);
  c->kernel_scale = 1; /* absent: the model's own times */
  if (st == NW_OK && sg_host_get_property_value(h, "rt_kernel_scale")) {
    st = read_as(h, platform, "rt_kernel_scale", "number", &c->kernel_scale, why, why_len);
    if (st == NW_OK && !(c->kernel_scale > 0)) {
      snprintf(why, why_len,
               "platform %.300s: host %s: property rt_kernel_scale is not a number above 0",
               platform, sg_host_get_name(h));
      st = NW_ERR_ARG;
    }
  }
  if (st == NW_OK)
    st = share_ok(h, platform, "rt_spin_share", c->spin_share, why, why_len);
  if (st == NW_OK)
    st = share_ok(h, platform, "rt_shm_poll_share", c->shm_poll_share, why, why_len);
  if (c->loop_weight <= 0)
    c->spin_s = c->pickup_s = 0; /* a loop with a core of its own polls on that core */
  c->any |= c->space_pages_priced || c->launch_s > 0 || c->done_s > 0 || c->reduce_s_per_byte > 0 ||
            c->rle_s_per_byte > 0 || c->spin_s > 0 || c->page_fresh_s > 0;
  return st;
}
