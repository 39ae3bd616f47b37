/* sim_faults.h: the simulator carries out a run's fault plan (core/node/faults.h).
 *
 * - A lost node (--fail NODE@S): at S its event loop stops for good; what is queued for it and
 *   every message sent to it afterwards is dropped, its sender starts no more transfers (one
 *   already on the wire finishes), and its devices' results go nowhere. detect_s later every
 *   other node gets NW_EVENT_NODE_LOST. Node 0 is the driver's: its loss reaches node 0 itself
 *   at once, and the core ends the run with the reason.
 * - A lost message (drop:P): the sender's transport sends it again after rto_s, as many times
 *   as it is drawn lost; the message arrives that much later. A data transfer's sender waits
 *   meanwhile (TCP's stalled connection); a control message's delay is its own.
 * - A late message (delay:S[:P]): arrives S later, drawn per message.
 * - A slow link (link:NAME:FACTOR@S): SimGrid's link NAME (or its _UP and _DOWN halves, for a
 *   SPLITDUPLEX link) gets bandwidth / FACTOR at S; transfers under way slow down with it, and
 *   control messages' travel times are recomputed.
 * Draws use a generator of the plan's own (seeded from the run's seed), in the simulation's
 * deterministic order, so a run with faults is reproducible and one without is unchanged. A
 * message's lateness and losses are drawn as it is sent (sim_world.c, sim_send); the rest is
 * here. */
#ifndef NW_SIM_FAULTS_H
#define NW_SIM_FAULTS_H

#include "run.h"
#include "sim_world.h"

/* Checks the plan against the platform and the run's nodes, applies link faults that start at
 * 0 (before anything is measured or sent), and seeds the draws. NW_ERR_ARG with res->error. */
nw_status sim_faults_setup(sim_world *w, nw_run_result *res);
/* Starts the actors that lose nodes and slow links at their times. */
void sim_faults_start(sim_world *w);
/* Whether SimGrid must update its network model in full rather than lazily: a link whose
 * bandwidth changes while a transfer crosses it left that transfer unfinished for ever under
 * SimGrid 3.32's lazy updates (a deadlock; found by tests/fuzz/fuzz.sh), and not under full
 * ones, which give the same times. Only a plan that changes a link after the start needs it. */
int sim_faults_need_full_update(const nw_run_config *cfg);

#endif
