/* policy.c: the policies by name, and the routing of their messages and timers. */
#include <stdio.h>
#include <string.h>

#include "policy.h"
#include "run.h"

const nw_policy *const nw_policies[] = {
#define NW_POLICY(x) &nw_policy_##x,
#include "policies.def"
#undef NW_POLICY
    NULL};

const nw_policy *nw_policy_find(const char *name) {
  for (int i = 0; name && nw_policies[i]; i++)
    if (strcmp(nw_policies[i]->name, name) == 0)
      return nw_policies[i];
  return NULL;
}

int nw_msg_is_policy(nw_msg_type type) {
  return type == MSG_STEAL_REQ || type == MSG_STEAL_RESP || type == MSG_COPY_FINISHED ||
         type == MSG_COPY_CANCEL || type == MSG_LOC_VECTOR || type == MSG_LOC_ASSIGN ||
         type == MSG_POLICY;
}

int nw_tasks_running(const nw_node *n) {
  return n->tasks_active > 0;
}

int nw_cluster_devices(const nw_node *n) {
  int total = 0;
  for (int k = 0; k < n->cfg.nodes; k++)
    total += n->cfg.devices_per_node[k];
  return total;
}

int nw_cluster_first_device(const nw_node *n, int node) {
  int g = 0;
  for (int k = 0; k < node; k++)
    g += n->cfg.devices_per_node[k];
  return g;
}

nw_device_desc nw_cluster_device(const nw_node *n, int g) {
  if (n->cfg.cluster)
    return n->cfg.cluster[g];
  int d = g - nw_cluster_first_device(n, n->cfg.id);
  if (d >= 0 && d < n->cfg.devices)
    return (nw_device_desc){.kind = n->cfg.device_kind[d],
                            .cores = n->cfg.device_cores[d],
                            .gpu = n->cfg.device_gpu[d]};
  return (nw_device_desc){.kind = NW_DEVICE_CPU, .cores = 1};
}

double nw_relative_speedup(nw_device_kind kind, int cores) {
  return kind == NW_DEVICE_GPU ? 13.33 : 1.0 * (cores > 1 ? cores : 1);
}

int nw_sched_policy_exists(const char *name) {
  return nw_policy_find(name) != NULL;
}

void nw_sched_policy_names(char *buf, size_t len) {
  size_t at = 0;
  if (len)
    buf[0] = '\0';
  for (int i = 0; nw_policies[i] && at < len; i++)
    at += (size_t)snprintf(buf + at, len - at, "%s%s", i ? ", " : "", nw_policies[i]->name);
}

void nw_sched_policy_help(FILE *out) {
  int width = 0;
  for (int i = 0; nw_policies[i]; i++)
    if ((int)strlen(nw_policies[i]->name) > width)
      width = (int)strlen(nw_policies[i]->name);
  fprintf(out, "scheduling policies (--sched NAME):\n");
  for (int i = 0; nw_policies[i]; i++)
    fprintf(out, "  %-*s  %s\n", width, nw_policies[i]->name, nw_policies[i]->summary);
}
