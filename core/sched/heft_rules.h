/* heft_rules.h: the arithmetic of StarPU's model-based policies (dm, dmda, ...) and of its
 * priority order, as pure functions so that each decision is pinned by a unit test
 * (tests/unit/test_heft_rules.c); dm.c and central.c apply them to a task.
 * Augonnet, Thibault, Namyst: StarPU: a Runtime System for Scheduling Tasks over
 * Accelerator-Based Multicore Machines (INRIA RR-7240), section 5 (heft-tm, heft-tmdp).
 */
#ifndef NW_HEFT_RULES_H
#define NW_HEFT_RULES_H

#include <stdint.h>

/* The device for one subtask among `count`: exp_end[g] is when device g is predicted to be
 * free, len[g] the subtask's predicted duration there (< 0: unknown, never chosen here) and
 * penalty[g] the predicted time to bring its data there (NULL: none, dm). The choice has the
 * least fitness (exp_end[g] + len[g] - best_end) + penalty[g], best_end the earliest
 * predicted end over all devices (StarPU's alpha = beta = 1); ties go to the lower index.
 * -1 when no device has a known duration. */
int nw_heft_pick(int count, const double *exp_end, const double *len, const double *penalty);

/* Device g takes a subtask of predicted duration len whose data takes `penalty` to arrive:
 * the transfer overlaps the work already queued there, so only what sticks out past exp_end
 * delays it (StarPU's dmda). */
void nw_heft_commit(double *exp_end, int g, double len, double penalty);

/* A lane of a many-task GPU free at lane_end takes a subtask through the GPU's host stage,
 * which takes stage_s per subtask, one at a time, and is busy until stage_end: the subtask's
 * work starts at max(lane_end, stage_end) + stage_s, which becomes the stage's new end too.
 * The stage is what bounds a many-task GPU's tasks/s (GeMTC, Krieder et al., Fig. 9), and a
 * policy that ignored it would see one GPU as `lanes` independent devices. */
double nw_heft_staged_start(double lane_end, double stage_end, double stage_s);

/* Subtask ids [0, count) into order[], by priority[] (larger first), equal ones in id order:
 * StarPU's prio and dmdas order. 0, or -1 when it cannot allocate. */
int nw_rank_by_priority(const int *priority, uint64_t count, uint64_t *order);

#endif
