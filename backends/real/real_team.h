/* real_team.h: the cores of a CPU work-group (paper 4.3.1) as a team of threads.
 *
 * A work-group device's compute thread runs each subtask as k work-items, one per core: it
 * hands items 1..k-1 to the team's threads, runs item 0 itself, and returns when all are done.
 * The threads wait for work while idle, so a smaller k leaves the other cores free for the
 * runtime's own threads, the point of sizing the group.
 */
#ifndef NW_REAL_TEAM_H
#define NW_REAL_TEAM_H

#include "backend.h"

typedef struct real_team real_team;

/* A team for groups of up to `cores` items (cores - 1 threads); NULL if out of memory or
 * threads. */
real_team *real_team_create(int cores);
/* Runs every work-item of exec (nw_exec_items) at once; returns when all have finished. */
void real_team_run(real_team *team, nw_exec *exec);
void real_team_destroy(real_team *team);

#endif
