/* policy.c: what every policy may ask of the node: which messages are a policy's, whether
 * tasks run, the cluster's devices. (The policies by name: policy_table.c.) */

#include "policy.h"

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
