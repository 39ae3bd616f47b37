/* chain.h: a long chain of tiny tasks that checks every read it makes.
 *
 * Task t (t = 1..--n) has --block subtasks; subtask i reads cells i-1, i and i+1 (cyclic) of
 * step t-1's output and writes cell i of step t's. Every cell holds the step that wrote it and
 * its own index, so each kernel checks each cell it reads against the step it must see and
 * counts those that are not: a stale read anywhere in the chain shows, not only in the final
 * output. The count travels in the writer's own cell (kernels run on remote nodes, so they
 * cannot report to the driver directly) and the driver adds them up at the end:
 * outcome.stale_reads.
 *
 * Kernels are nearly empty, so the runtime's own paths (fetches, commits, ownership updates at
 * every task end, steals, copies) dominate. Two layouts:
 *   chain     two spaces in turn: step t reads one read-only and writes the other write-only;
 *   chain-rw  one space, read-write in place (transactional semantics: reads see the task's
 *             start).
 */
#ifndef NW_APP_CHAIN_H
#define NW_APP_CHAIN_H

#include "narwhal_app.h"

/* One cell: 8 words of 32 bits (see chain.c for what each holds), one row of the space. */
#define CHAIN_CELL_BYTES 32

extern const nw_task_kind nw_chain_kind, nw_chain_rw_kind;
extern const nw_app nw_chain_app, nw_chain_rw_app;

#endif
