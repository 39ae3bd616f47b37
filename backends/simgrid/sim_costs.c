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

/* Whether the host has key@app (the application's own fit); own receives that name. */
static int has_own(sg_host_t h, const char *key, const char *app, char *own, size_t len) {
  return app && app[0] && (size_t)snprintf(own, len, "%s@%s", key, app) < len &&
         sg_host_get_property_value(h, own) != NULL;
}

/* key, or key@app where the host has that property (the application's own fit). */
static nw_status read_cost(sg_host_t h, const char *platform, const char *key, const char *app,
                           double *out, char *why, size_t why_len) {
  char own[160];
  if (has_own(h, key, app, own, sizeof own))
    return read_one(h, platform, own, out, why, why_len);
  return read_one(h, platform, key, out, why, why_len);
}

/* One part of an event kind's price. Where the application has its own fit of the kind (own:
 * rt_KIND@app is there, as `narwhal calibrate` writes it), every part is that fit's, absent
 * meaning 0: calibrate writes a fit's prices per page and per class only where they are above
 * 0, and a fit that put a kind's page faults into its price per byte (conv2d's commits, whose
 * pages grow with their bytes) would otherwise pay them twice, by the byte and again at the
 * pooled price per page (two-rank conv2d 6144/1536 simulated 10% slow). Otherwise key@app
 * where the host has it (a part written for the application alone), else the pooled key. */
static nw_status read_part(sg_host_t h, const char *platform, const char *key, const char *app,
                           int own, double *out, char *why, size_t why_len) {
  char name[160];
  if (!own)
    return read_cost(h, platform, key, app, out, why, why_len);
  if ((size_t)snprintf(name, sizeof name, "%s@%s", key, app) >= sizeof name) {
    *out = 0;
    return NW_OK;
  }
  return read_one(h, platform, name, out, why, why_len); /* absent: 0 */
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
    char own_name[160];
    int own = has_own(h, key, app, own_name, sizeof own_name);
    st = read_part(h, platform, key, app, own, &c->event_s[k], why, why_len);
    if (st == NW_OK)
      st = read_part(h, platform, per_byte, app, own, &c->event_s_per_byte[k], why, why_len);
    if (st == NW_OK)
      st = read_part(h, platform, per_run, app, own, &c->event_s_per_run[k], why, why_len);
    if (st == NW_OK)
      st = read_part(h, platform, per_page, app, own, &c->event_s_per_space_page[k], why, why_len);
    if (st == NW_OK)
      st = read_part(h, platform, per_view, app, own, &c->event_s_per_view_page[k], why, why_len);
    for (int cls = 0; cls < NW_COST_CLASSES && st == NW_OK; cls++) {
      char priced[64];
      snprintf(priced, sizeof priced, "%s%s", per_byte, nw_cost_class_suffix(cls));
      st = read_part(h, platform, priced, app, own, &c->event_s_per_byte_class[cls][k], why,
                     why_len);
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
