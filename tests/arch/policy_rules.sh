#!/usr/bin/env bash
# policy_rules.sh SRC_DIR: the policy table's two rules (core/sched/policy.h, core/README.md).
#  1. No code under core/ asks which policy it runs: it never compares n->policy (or a table)
#     with a policy table, nor compares a policy's name with strcmp. A variant of a shared file
#     (dmda beside dm, lws beside ws) reads what its table carries (nw_policy.variant); any
#     other choice is a hook of the table. nw_policy_find, the lookup by name, is not a test
#     of which policy runs: it compares the registered tables' names with the one asked for.
#  2. No file under core/sched/ reaches into a device's queue (nw_queue's entry array and
#     counters, device/queue.h): a policy changes and reads it through queue.h's calls only,
#     so the queue's representation stays queue.c's to change.
# Prints each offending line; fails if there is one.
set -u
src=${1:?usage: policy_rules.sh SRC_DIR}
[ -d "$src/core/sched" ] || { echo "policy_rules: no core/sched/ under $src"; exit 2; }
cd "$src" || exit 2

# A table compared: `->policy ==`, `== n->policy`, `== &nw_policy_x`, `&nw_policy_x !=`, ...
# (a GPU cache's `policy`, an enum, is compared with its NW_CACHE_ constants: not a table).
identity='(->policy[[:space:]]*[!=]=[[:space:]]*[^A-Z[:space:]])|([!=]=[[:space:]]*[[:alnum:]_.>-]*->policy\b)|([!=]=[[:space:]]*&?[[:space:]]*nw_policy_[[:alnum:]_]+\b)|(&?nw_policy_[[:alnum:]_]+[[:space:]]*[!=]=)'
# A policy's name compared: strcmp/strncmp/memcmp over ->policy->name or the configured name.
by_name='(str(n|case)?cmp|memcmp)[[:space:]]*\([^;]*(policy->name|sched\.policy|sched->policy|policies\[[^]]*\]->name)'
# A device queue's insides: the device's `queue` member, or the queue's types.
queue_insides='(\.queue\b)|(->queue\b)|(\bnw_queued\b)|(\bnw_queue\b)'

bad=$(
  grep -rnE "$identity" core --include='*.c' --include='*.h'
  grep -rnE "$by_name" core --include='*.c' --include='*.h' |
    grep -vE '^core/sched/policy_table\.c:[0-9]+:[[:space:]]*if \(strcmp\(nw_policies\[i\]->name, name\) == 0\)$'
  grep -rnE "$queue_insides" core/sched --include='*.c' --include='*.h'
)
files=$(find core -name '*.[ch]' | wc -l)
if [ -n "$bad" ]; then
  echo "$bad"
  echo "policy_rules: a policy tested by identity or name, or a device queue reached into (above)"
  echo "policy_rules: 0 passed, 1 failed ($files files checked)"
  exit 1
fi
echo "policy_rules: 1 passed, 0 failed ($files files checked)"
