/* platform_writer.c: see platform_writer.h. */
#include "platform_writer.h"

#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <string.h>

/* loop_shares: the event loop shares the cores (rt_pickup is written only then). */
static void write_app_costs(FILE *f, const tool_app_costs *c, int loop_shares) {
  for (int k = 1; k < NW_STATS_EVENT_KINDS; k++) {
    if (!c->events[k])
      continue;
    const char *e = nw_stats_event_name(k);
    const tool_event_cost *x = &c->event[k];
    fprintf(f,
            "\n        <prop id=\"rt_%s@%s\" value=\"%.6g\"/><prop id=\"rt_%s_per_byte@%s\" "
            "value=\"%.6g\"/><prop id=\"rt_%s_per_run@%s\" value=\"%.6g\"/>",
            e, c->name, x->fixed, e, c->name, x->per_byte, e, c->name, x->per_run);
    if (x->per_page > 0)
      fprintf(f, "<prop id=\"rt_%s_per_space_page@%s\" value=\"%.6g\"/>", e, c->name, x->per_page);
    if (x->per_view_page > 0)
      fprintf(f, "<prop id=\"rt_%s_per_view_page@%s\" value=\"%.6g\"/>", e, c->name,
              x->per_view_page);
    for (int cls = 0; cls < NW_COST_CLASSES; cls++)
      if (x->per_byte_class[cls] > 0)
        fprintf(f, "<prop id=\"rt_%s_per_byte%s@%s\" value=\"%.6g\"/>", e,
                nw_cost_class_suffix(cls), c->name, x->per_byte_class[cls]);
  }
  if (c->launch_s >= 0 && c->done_s >= 0)
    fprintf(f,
            "\n        <prop id=\"rt_launch@%s\" value=\"%.6g\"/><prop id=\"rt_done@%s\" "
            "value=\"%.6g\"/>",
            c->name, c->launch_s, c->name, c->done_s);
  if (loop_shares && c->pickup_s > 0)
    fprintf(f, "\n        <prop id=\"rt_pickup@%s\" value=\"%.6g\"/>", c->name, c->pickup_s);
  if (loop_shares && c->shm_poll_share > 0)
    fprintf(f, "<prop id=\"rt_shm_poll_share@%s\" value=\"%.6g\"/>", c->name, c->shm_poll_share);
  if (loop_shares && c->shm_poll_per_byte > 0)
    fprintf(f, "<prop id=\"rt_shm_poll_per_byte@%s\" value=\"%.6g\"/>", c->name,
            c->shm_poll_per_byte);
}

/* Whether a host name goes into an attribute as it is: letters, digits, '.', '-' and '_' (what
 * host names are made of); another one is left out, and its node shares no machine. */
static int name_ok(const char *s) {
  if (!*s)
    return 0;
  for (; *s; s++)
    if (!isalnum((unsigned char)*s) && *s != '.' && *s != '-' && *s != '_')
      return 0;
  return 1;
}

static void write_cpu_host(FILE *f, const tool_platform *p, int i) {
  fprintf(
      f, "      <host id=\"n%d-cpu\" speed=\"%.9gf\" core=\"%d\"><prop id=\"kind\" value=\"cpu\"/>",
      i, p->core_speed, p->cores);
  for (int k = 1; k < NW_STATS_EVENT_KINDS; k++)
    fprintf(
        f,
        "\n        <prop id=\"rt_%s\" value=\"%.6g\"/><prop id=\"rt_%s_per_byte\" value=\"%.6g\"/>",
        nw_stats_event_name(k), p->event[k].fixed, nw_stats_event_name(k), p->event[k].per_byte);
  for (int k = 1; k < NW_STATS_EVENT_KINDS; k++)
    if (p->event[k].per_run > 0)
      fprintf(f, "\n        <prop id=\"rt_%s_per_run\" value=\"%.6g\"/>", nw_stats_event_name(k),
              p->event[k].per_run);
  for (int k = 1; k < NW_STATS_EVENT_KINDS; k++)
    if (p->event[k].per_page > 0)
      fprintf(f, "\n        <prop id=\"rt_%s_per_space_page\" value=\"%.6g\"/>",
              nw_stats_event_name(k), p->event[k].per_page);
  for (int k = 1; k < NW_STATS_EVENT_KINDS; k++)
    if (p->event[k].per_view_page > 0)
      fprintf(f, "\n        <prop id=\"rt_%s_per_view_page\" value=\"%.6g\"/>",
              nw_stats_event_name(k), p->event[k].per_view_page);
  for (int k = 1; k < NW_STATS_EVENT_KINDS; k++)
    for (int cls = 0; cls < NW_COST_CLASSES; cls++)
      if (p->event[k].per_byte_class[cls] > 0)
        fprintf(f, "\n        <prop id=\"rt_%s_per_byte%s\" value=\"%.6g\"/>",
                nw_stats_event_name(k), nw_cost_class_suffix(cls), p->event[k].per_byte_class[cls]);
  if (p->cache_bytes > 0)
    fprintf(f, "\n        <prop id=\"rt_cache_bytes\" value=\"%.0f\"/>", p->cache_bytes);
  fprintf(f,
          "\n        <prop id=\"rt_launch\" value=\"%.6g\"/><prop id=\"rt_done\" value=\"%.6g\"/>",
          p->launch_s, p->done_s);
  if (p->loop_weight > 0)
    fprintf(f,
            "\n        <prop id=\"rt_loop_weight\" value=\"%.6g\"/><prop id=\"rt_spin\" "
            "value=\"%.6g\"/>",
            p->loop_weight, p->spin_s);
  if (p->loop_weight > 0 && p->spin_share > 0)
    fprintf(f, "<prop id=\"rt_spin_share\" value=\"%.6g\"/>", p->spin_share);
  if (p->loop_weight > 0 && p->pickup_s > 0)
    fprintf(f, "<prop id=\"rt_pickup\" value=\"%.6g\"/>", p->pickup_s);
  if (p->loop_weight > 0 && p->shm_poll_share > 0)
    fprintf(f, "<prop id=\"rt_shm_poll_share\" value=\"%.6g\"/>", p->shm_poll_share);
  if (p->loop_weight > 0 && p->shm_poll_per_byte > 0)
    fprintf(f, "<prop id=\"rt_shm_poll_per_byte\" value=\"%.6g\"/>", p->shm_poll_per_byte);
  if (p->machine && name_ok(p->machine[i]))
    fprintf(f, "\n        <prop id=\"rt_machine\" value=\"%s\"/>", p->machine[i]);
  if (p->control_behind > 0)
    fprintf(f, "\n        <prop id=\"rt_control_behind\" value=\"%.6g\"/>", p->control_behind);
  if (p->eager_bytes > 0)
    fprintf(f, "\n        <prop id=\"rt_eager_bytes\" value=\"%.0f\"/>", p->eager_bytes);
  if (p->page_fresh_s > 0)
    fprintf(f, "\n        <prop id=\"rt_page_fresh\" value=\"%.6g\"/>", p->page_fresh_s);
  for (int a = 0; a < p->apps; a++)
    write_app_costs(f, &p->app[a], p->loop_weight > 0);
  fprintf(f, "</host>\n");
}

static void write_node(FILE *f, const tool_platform *p, int i) {
  fprintf(f, "    <zone id=\"n%d\" routing=\"Full\">\n", i);
  write_cpu_host(f, p, i);
  for (int k = 0; k < p->gpus; k++) {
    fprintf(f,
            "      <host id=\"n%d-gpu%d\" speed=\"%.9gf\"><prop id=\"kind\" value=\"gpu\"/><prop "
            "id=\"memsize\" value=\"%llu\"/>",
            i, k, p->gpu_speed, (unsigned long long)p->gpu_memory);
    if (p->copy_widths > 0) {
      fprintf(f, "<prop id=\"copy_row_rates\" value=\"");
      for (int w = 0; w < p->copy_widths; w++)
        fprintf(f, "%s%llu:%.6g", w ? "," : "", (unsigned long long)p->copy_width[w],
                p->copy_rate[w]);
      fprintf(f, "\"/>");
    }
    fprintf(f, "</host>\n");
  }
  for (int k = 0; k < p->gpus; k++)
    fprintf(f,
            "      <link id=\"n%d-pcie%d\" bandwidth=\"%.9gBps\" latency=\"%.6gs\" "
            "sharing_policy=\"SPLITDUPLEX\"/>\n",
            i, k, p->pcie_bandwidth, p->pcie_latency);
  for (int k = 0; k < p->gpus; k++) {
    fprintf(f,
            "      <route src=\"n%d-cpu\" dst=\"n%d-gpu%d\" symmetrical=\"NO\"><link_ctn "
            "id=\"n%d-pcie%d\" direction=\"UP\"/></route>\n",
            i, i, k, i, k);
    fprintf(f,
            "      <route src=\"n%d-gpu%d\" dst=\"n%d-cpu\" symmetrical=\"NO\"><link_ctn "
            "id=\"n%d-pcie%d\" direction=\"DOWN\"/></route>\n",
            i, k, i, i, k);
  }
  fprintf(f, "    </zone>\n");
}

int tool_platform_write(const tool_platform *p, const char *path, char *why, size_t why_len) {
  FILE *f = fopen(path, "w");
  if (!f) {
    snprintf(why, why_len, "%s: cannot write: %s", path, strerror(errno));
    return 1;
  }
  fprintf(
      f,
      "<?xml version=\"1.0\"?>\n<!DOCTYPE platform SYSTEM \"https://simgrid.org/simgrid.dtd\">\n");
  if (p->comment)
    fprintf(f, "<!--\n%s\n-->\n", p->comment);
  fprintf(f, "<platform version=\"4.1\">\n  <zone id=\"cluster\" routing=\"Full\">\n");
  for (int i = 0; i < p->nodes; i++)
    write_node(f, p, i);
  for (int i = 0; i < p->nodes && p->nodes > 1; i++)
    fprintf(f,
            "    <link id=\"n%d-nic\" bandwidth=\"%.9gBps\" latency=\"%.6gs\" "
            "sharing_policy=\"SPLITDUPLEX\"/>\n",
            i, p->nic_bandwidth, p->nic_latency);
  if (p->nodes > 1)
    fprintf(f,
            "    <link id=\"backbone\" bandwidth=\"%.9gBps\" latency=\"0s\" "
            "sharing_policy=\"FATPIPE\"/>\n",
            p->nic_bandwidth);
  for (int i = 0; i < p->nodes; i++)
    for (int j = 0; j < p->nodes; j++)
      if (i != j)
        fprintf(f,
                "    <zoneRoute src=\"n%d\" dst=\"n%d\" gw_src=\"n%d-cpu\" gw_dst=\"n%d-cpu\" "
                "symmetrical=\"NO\"><link_ctn id=\"n%d-nic\" direction=\"UP\"/><link_ctn "
                "id=\"backbone\"/><link_ctn id=\"n%d-nic\" direction=\"DOWN\"/></zoneRoute>\n",
                i, j, i, j, i, j);
  fprintf(f, "  </zone>\n</platform>\n");
  int bad = ferror(f);
  if (fclose(f) != 0 || bad) {
    snprintf(why, why_len, "%s: cannot write: %s", path, strerror(errno));
    return 1;
  }
  return 0;
}
