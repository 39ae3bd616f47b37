/* sim_faults.c: see sim_faults.h. Of the simulator's own files it calls only sim_world.c
 * (events, actors), never back into sim_backend.c, which drives it. */
#include "sim_faults.h"

#include <simgrid/engine.h>
#include <simgrid/link.h>
#include <stdio.h>
#include <string.h>
#include <xbt/sysdep.h>

int sim_faults_need_full_update(const nw_run_config *cfg) {
  for (int i = 0; i < cfg->faults.nlink; i++)
    if (cfg->faults.link[i].from_s > 0)
      return 1;
  return 0;
}

static void post_lost(sim_node *to, int node, double at_s) {
  nw_event *ev = sim_new_event(NW_EVENT_NODE_LOST);
  ev->src = node;
  ev->at_s = at_s;
  sim_post(to, ev);
}

/* Loses its node (the actor's data) at the plan's time; see sim_faults.h. */
static void lose_actor(int argc, char **argv) {
  (void)argc, (void)argv;
  sim_node *sn = sg_actor_self_get_data();
  sim_world *w = sn->w;
  const nw_fault_plan *p = &w->cfg->faults;
  double at = 0;
  for (int i = 0; i < p->nfail; i++)
    if (p->fail[i].node == sn->id)
      at = p->fail[i].at_s;
  sg_actor_sleep_for(at - simgrid_get_clock());
  if (w->driver_done || nw_node_finished(sn->node))
    return; /* the run was over */
  if (w->faults.nodes_lost++ == 0 || at < w->faults.first_loss_s)
    w->faults.first_loss_s = at;
  if (sn->id == 0) { /* the driver's node: the run ends with the reason */
    post_lost(sn, 0, at);
    return;
  }
  sn->lost = 1;
  sg_sem_release(sn->q.sem); /* its loop wakes, sees it, and ends */
  sg_actor_sleep_for(p->detect_s);
  if (w->driver_done)
    return;
  for (int i = 0; i < w->nodes; i++)
    if (!w->node[i].lost && !nw_node_finished(w->node[i].node))
      post_lost(&w->node[i], sn->id, at);
}

static void slow_link(sim_link_fault *f) {
  for (int h = 0; h < 2; h++)
    if (f->link[h])
      sg_link_set_bandwidth(f->link[h], sg_link_get_bandwidth(f->link[h]) / f->plan->factor);
  sim_world *w = f->w;
  for (int i = 0; i < w->nodes; i++) /* control messages' travel times are read again */
    if (w->node[i].route_bandwidth)
      memset(w->node[i].route_bandwidth, 0, (size_t)w->nodes * sizeof(double));
}

static void link_actor(int argc, char **argv) {
  (void)argc, (void)argv;
  sim_link_fault *f = sg_actor_self_get_data();
  sg_actor_sleep_for(f->plan->from_s - simgrid_get_clock());
  slow_link(f);
}

/* The platform's link `name`, or its halves name_UP and name_DOWN (a SPLITDUPLEX link). */
static int find_link(const char *name, sg_link_t out[2]) {
  size_t count = sg_link_count(), len = strlen(name);
  sg_link_t *all = sg_link_list();
  out[0] = out[1] = NULL;
  for (size_t i = 0; all && i < count; i++) {
    const char *ln = sg_link_get_name(all[i]);
    if (!strcmp(ln, name)) {
      out[0] = all[i];
      out[1] = NULL;
      break;
    }
    if (!strncmp(ln, name, len) && (!strcmp(ln + len, "_UP") || !strcmp(ln + len, "_DOWN")))
      out[ln[len + 1] == 'U' ? 0 : 1] = all[i];
  }
  xbt_free(all);
  return out[0] || out[1];
}

nw_status sim_faults_setup(sim_world *w, nw_run_result *res) {
  const nw_fault_plan *p = &w->cfg->faults;
  w->fault_rng = w->cfg->seed ^ 0xD1B54A32D192ED03ull;
  if (nw_fault_check_nodes(p, w->nodes, res->error, sizeof res->error) != NW_OK)
    return NW_ERR_ARG;
  for (int i = 0; i < w->cfg->nsimgrid_args && sim_faults_need_full_update(w->cfg); i++)
    if (!strncmp(w->cfg->simgrid_args[i], "--cfg=network/optim:", 20) &&
        strcmp(w->cfg->simgrid_args[i] + 20, "Full")) {
      snprintf(res->error, sizeof res->error,
               "%.100s: a link fault after the start (--fault link:...@S) needs SimGrid's full "
               "network updates (its lazy ones lose transfers when a link changes)",
               w->cfg->simgrid_args[i]);
      return NW_ERR_ARG;
    }
  for (int i = 0; i < p->nlink; i++) {
    sim_link_fault *f = &w->links[i];
    *f = (sim_link_fault){.w = w, .plan = &p->link[i]};
    if (!find_link(p->link[i].name, f->link)) {
      snprintf(res->error, sizeof res->error,
               "--fault link:%s: platform %.300s has no link of that name", p->link[i].name,
               w->cfg->platform);
      return NW_ERR_ARG;
    }
  }
  return NW_OK;
}

void sim_faults_start(sim_world *w) {
  const nw_fault_plan *p = &w->cfg->faults;
  for (int i = 0; i < p->nlink; i++) {
    if (p->link[i].from_s > 0)
      sim_spawn("fault-link", w->node[0].host, link_actor, &w->links[i], 1, STACK_SERVICE);
    else
      slow_link(&w->links[i]);
  }
  for (int i = 0; i < p->nfail; i++) {
    sim_node *sn = &w->node[p->fail[i].node];
    sim_spawn("fault-node", sn->host, lose_actor, sn, 1, STACK_SERVICE);
  }
}
