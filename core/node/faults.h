/* faults.h: the faults a run injects, as a backend carries them out.
 *
 * SQLite's test VFS is the model: the operating system's whole interface behind one table, and a
 * test version of that table that fails on purpose. Here the backend is that table (time,
 * transport, nodes), so faults are the backend's: the core never injects anything, it only sees
 * what a faulty cluster does to it, through the same events as always plus one,
 * NW_EVENT_NODE_LOST (backend.h). The plan is configuration, parsed here so that every front-end
 * and backend reads the same grammar:
 *
 *   --fail NODE@SECONDS[,...]   node NODE stops at SECONDS: its devices, its loop, its memory;
 *                               messages to it vanish; the others learn of it `detect_s` later.
 *   --fault ITEM[,...]          drop:P       each message between nodes is lost with
 *                                            probability P (0 <= P < 1) and sent again after
 *                                            the transport's retransmission timeout, as TCP
 *                                            under MPI does; each attempt is drawn anew
 *                               rto:S        that timeout (default 0.2 s, Linux TCP's minimum)
 *                               delay:S[:P]  with probability P (default 1) a message arrives S
 *                                            seconds late
 *                               link:NAME:FACTOR[@S]  the platform's link NAME carries FACTOR
 *                                            times less bandwidth from S seconds on
 *                               detect:S     how long the survivors take to notice a lost node
 *                                            (a heartbeat timeout; default 0.1 s)
 *
 * Draws come from a generator of their own, seeded from the run's seed: a run with a plan is
 * reproducible from its seed, and one without draws nothing, so it is bit for bit what it was.
 */
#ifndef NW_FAULTS_H
#define NW_FAULTS_H

#include <stddef.h>

#include "narwhal.h"

#define NW_MAX_FAILS 8
#define NW_MAX_LINK_FAULTS 8
#define NW_FAULT_LINK_NAME 128
#define NW_FAULT_RTO_DEFAULT 0.2
#define NW_FAULT_DETECT_DEFAULT 0.1

typedef struct nw_fault_fail {
  int node;
  double at_s;
} nw_fault_fail;

typedef struct nw_fault_link {
  char name[NW_FAULT_LINK_NAME];
  double factor, from_s;
} nw_fault_link;

typedef struct nw_fault_plan {
  int nfail;
  nw_fault_fail fail[NW_MAX_FAILS];
  double drop_p, rto_s;
  double delay_s, delay_p;
  int nlink;
  nw_fault_link link[NW_MAX_LINK_FAULTS];
  double detect_s;
} nw_fault_plan;

/* What a run's faults did, as the backend counts them (--json "faults"). */
typedef struct nw_fault_counts {
  uint64_t retransmissions; /* messages lost on the wire and sent again */
  uint64_t delayed;         /* messages held back by delay:S */
  int nodes_lost;           /* --fail points reached before the run ended */
  double first_loss_s;      /* when the first of them stopped (nodes_lost > 0) */
} nw_fault_counts;

/* No faults: every field at its default. */
void nw_fault_plan_defaults(nw_fault_plan *p);
/* Whether the plan injects anything. */
int nw_fault_plan_active(const nw_fault_plan *p);
/* "--fail NODE@SECONDS[,...]" into p->fail (replacing what was there); NW_ERR_ARG with a
 * one-line reason (the input echoed, at most 200 bytes of it) otherwise. */
nw_status nw_fault_parse_fail(nw_fault_plan *p, const char *text, char *why, size_t why_len);
/* "--fault ITEM[,...]" into the rest of p (items not named keep their values). */
nw_status nw_fault_parse(nw_fault_plan *p, const char *text, char *why, size_t why_len);
/* NW_ERR_ARG when --fail names a node the run (of `nodes` nodes) does not have. */
nw_status nw_fault_check_nodes(const nw_fault_plan *p, int nodes, char *why, size_t why_len);
/* Seconds one message between two nodes arrives late by the plan: rto_s for each attempt drawn
 * lost (drop_p), plus delay_s when drawn late (delay_p); nothing is drawn for what the plan
 * does not inject. rng is the plan's own generator (core/rng.h); c counts what happened. The
 * one rule every backend that injects faults applies. */
double nw_fault_message_delay(const nw_fault_plan *p, uint64_t *rng, nw_fault_counts *c);
/* The plan written back in the options' grammar (for --dry-run), "" when there is nothing:
 * `fail` gets --fail's value, `fault` --fault's. */
void nw_fault_format(const nw_fault_plan *p, char *fail, size_t fail_len, char *fault,
                     size_t fault_len);

#endif
