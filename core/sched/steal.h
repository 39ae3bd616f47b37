/* steal.h: unicorn's work stealing across tasks (steal.c), and what a steal hands over
 * (nw_loot, which locality-aware stealing fills too). */
#ifndef NW_STEAL_H
#define NW_STEAL_H

#include <stdint.h>

#include "backend.h"
#include "queue.h"
#include "wire.h"

typedef struct nw_task_state nw_task_state;

/* What a steal hands over: ranges of subtask ids, in the order the stealer should run them. */
typedef struct nw_loot {
  nw_range *r;
  size_t n, cap;
} nw_loot;

/* steal.c: work stealing across tasks (unicorn's; its state is n->sched) */
nw_status nw_steal_init(nw_node *n);
void nw_steal_fini(nw_node *n);
/* A task starts: its work is new, so every device's aggression ladder starts afresh. */
void nw_steal_task_started(nw_node *n, nw_task_state *t);
/* Appends a range to what a steal hands over. */
nw_status nw_loot_add(nw_loot *l, nw_range r);
void nw_loot_free(nw_loot *l);
/* Task t ends here: with no other task running, every round stops (no work is left). */
void nw_steal_task_ended(nw_node *n, nw_task_state *t);
/* Device d is dry (or, ProSteal, about to be): a stealing round begins. */
void nw_steal_begin(nw_node *n, int d);
/* Device d executes: ProSteal's test. */
void nw_steal_busy(nw_node *n, int d);
void nw_steal_executed(nw_node *n, nw_exec *e);
void nw_steal_on_timer(nw_node *n, uint64_t token);
void nw_steal_on_request(nw_node *n, int src, nw_reader *r);
void nw_steal_on_response(nw_node *n, int src, nw_reader *r);

#endif
