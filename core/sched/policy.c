/* policy.c: the policies by name, and the routing of their messages and timers. */
#include <stdio.h>
#include <string.h>

#include "policy.h"
#include "run.h"

const nw_policy *const nw_policies[] = {&nw_policy_unicorn,
                                        &nw_policy_eager,
                                        &nw_policy_prio,
                                        &nw_policy_random,
                                        &nw_policy_ws,
                                        &nw_policy_lws,
                                        &nw_policy_dm,
                                        &nw_policy_dmda,
                                        &nw_policy_dmdar,
                                        &nw_policy_dmdas,
                                        &nw_policy_heft,
                                        &nw_policy_roofline,
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

/* Device indices fit in 16 bits (NW_MAX_DEVICES_PER_NODE); task ids in the other 48. */
uint64_t nw_policy_token(uint64_t task, int d) {
  return (task << 16) | (uint64_t)d;
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
