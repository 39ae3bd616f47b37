/* steal_rules.h: the arithmetic of work stealing (paper section 4.3.2), as pure functions so
 * that each rule is pinned by a unit test (tests/unit/test_steal_rules.c). */
#ifndef NW_STEAL_RULES_H
#define NW_STEAL_RULES_H

#include <stdint.h>

#include "narwhal.h"

/* A CPU's aggression after `fails` consecutive failed steals in a task on `nodes` nodes:
 * 1, rising to 3 at nodes/2 failures (at least 1), 2 half-way there. */
int nw_steal_aggression(int nodes, int fails);

/* How many of q stealable subtasks a stealer of rate rs takes from a victim of rate rv:
 * ceil(q * rs / (rs + rv)), half when either rate is unknown (0); 0 means the steal fails. */
uint64_t nw_steal_quantum(uint64_t q, double rs, double rv);

/* Q of a device for a stealer of aggression aggr: its queued subtasks (stage 1), plus its
 * prefetched one when that one's stage (2 waiting for data, 3 ready; 0 if none) is <= aggr. */
uint64_t nw_steal_q(uint64_t queued, int prefetched_stage, int aggr);

/* The victim among n devices: the largest q[i] / rate[i] (rate 0, unknown, counts as 1), among
 * those with q[i] > 0 and i != exclude; -1 if none. */
int nw_steal_victim(const uint64_t *q, const double *rate, int n, int exclude);

/* Multi-assign eligibility (paper 4.3.3, UNICORN-NOTES): may a stealer of stealer_kind take a
 * copy of a running subtask of a victim device of victim_kind? Only on another node or of
 * another device type (same-type devices of one node are alike); never a GPU's subtask, whose
 * data is on its device already; only the victim's last one (nothing queued or prefetched
 * behind it: victim_pending == 0); at most two holders (no copy yet, and not a copy itself). */
int nw_multiassign_eligible(int same_node, nw_device_kind stealer_kind, nw_device_kind victim_kind,
                            uint64_t victim_pending, int has_copy, int is_copy);

/* Multi-assign time test (paper 4.3.3): a stealer of rate rs (subtasks/s) whose subtasks wait
 * fetch_s for their data on average takes a copy of a subtask the victim (rate rv) has run
 * for `elapsed` seconds only if it would finish first: 1/rs + fetch_s < 1/rv - elapsed. With
 * the victim's rate unknown, the original Unicorn's rule: elapsed >= 1.05 / rs. A stealer
 * with no rate yet never multi-assigns. */
int nw_multiassign_worth(double rs, double fetch_s, double rv, double elapsed);

/* ProSteal (paper 4.3.2, [18]; UNICORN-NOTES): a device steals early, when only k subtasks
 * are left in its range, so the answer arrives before it runs dry:
 *   k = min(range_len - 1, floor((steal_wait_s + (max_fetch_s + 1/rate) / 2) * rate))
 * with its average steal wait, its longest observed data wait and its rate (subtasks/s).
 * 0 (steal only when dry) while the rate is unknown. */
uint64_t nw_prosteal_k(uint64_t range_len, double steal_wait_s, double max_fetch_s, double rate);

#endif
