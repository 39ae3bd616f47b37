/* policy_table.c: the policies by name, from policies.def (one line a policy), and the help
 * and lists the tool prints from them. It names every policy's table; no policy names it, so
 * that a policy's calls to policy.c's helpers close no circle. */
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
