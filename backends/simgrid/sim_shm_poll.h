/* sim_shm_poll.h: data moving between two ranks of one machine, as their event loops copy it.
 *
 * On hardware, two ranks of one host exchange a message through Open MPI's shared-memory
 * transport, which copies it in fragments only while each side's thread polls: the real
 * backend's event loop keeps polling, without yielding, as long as such a transfer is under
 * way at either end (backends/real/real_net.c, real_net_poll), and handling an event it does
 * not poll. Where the loop shares its core with the compute threads, its polls take that core
 * from the kernel beside it, and the kernel leaves the polls part of it: two-rank matmul
 * 3072/768 on the project's 2-core VM moved a 7.1 MB block in 10-15 ms beside running
 * kernels where its ranks' ping-pong moves it in 3.5, and its loops used 28-56 ms of CPU each
 * outside their handlers during the task (docs/experiments/shared-memory-polling.md).
 *
 * A node's CPU host says which machine its rank ran on (property rt_machine, written by
 * `narwhal calibrate`); two nodes with the same one share memory, and a data transfer between
 * them is not a flow on the network but the two loops' work: bytes x rt_shm_poll_per_byte
 * seconds of polling on each side at once, as calibration measured the loops' polling per byte
 * (where it did not: bytes / the route's bandwidth, the ranks' ping-pong between cached
 * buffers, and the receive buffer's fresh pages at rt_page_fresh on the receiving side), done
 * in steps of SIM_SHM_STEP_S on each node's CPU host at the loop's priority (rt_loop_weight
 * against a kernel), each step at most the share of a core such polling took beside a running
 * kernel (rt_shm_poll_share, where measured and a kernel runs there), a loop's share divided
 * among the transfers it polls; a step begins only while neither loop handles an event (the
 * same thread does that instead). Both prices per application where calibration wrote one
 * (sim_costs.h). Nodes whose loop has a core of its own, or whose machine is not said, move
 * data on the network as before. */
#ifndef NW_SIM_SHM_POLL_H
#define NW_SIM_SHM_POLL_H

#include "sim_world.h"

/* One step of a transfer's polling, in seconds of a whole core: a handler that begins during a
 * step stops the transfer at the step's end. */
#define SIM_SHM_STEP_S 100e-6

/* Whether a transfer from a to b is the loops' copying (same machine, a != b, both loops
 * sharing their cores). */
int sim_shm_shared(const sim_node *a, const sim_node *b);

/* Moves e's `bytes` on the wire from a to b, sim_shm_shared(a, b): returns when both loops
 * have copied it. b's copy also first-touches the fresh pages of the buffer it receives into
 * (sim_msg_pages.h, at rt_page_fresh), which is then b's until its loop handles the message
 * (sim_shm_take_buffer). Called by a's sender actor. */
void sim_shm_transfer(sim_node *a, sim_node *b, const envelope *e, double bytes);

/* 1 and the receive buffer of the message whose payload is buf, if a transfer allocated one
 * (its pages are paid for); 0 otherwise. Called once, when the message is handled. */
int sim_shm_take_buffer(sim_node *sn, const void *buf, sim_msg_buffer *out);

/* Frees what sn keeps for its transfers (the run's end): the buffers of messages not handled. */
void sim_shm_free(sim_node *sn);

/* The loop begins handling an event (pause) and is done with it (resume): the transfers it
 * polls stand still meanwhile. Called by the node's loop actor. */
void sim_shm_pause(sim_node *sn);
void sim_shm_resume(sim_node *sn);

/* Whether sn's loop polls a transfer now (its spin after an event is that polling). */
int sim_shm_polling(const sim_node *sn);

#endif
