/* real_net.h: a rank's MPI transport (messages at MPI speed).
 *
 * The thread handling the node's event posts each send itself, at once (a control message goes
 * out eagerly when MPI takes it so; Open MPI does below its eager limit), and the event loop
 * polls MPI while it waits for events (real_queue_wait's poll function): no hand-off between
 * threads sits on a message's path. Not thread-safe: the caller serializes every call
 * (real_backend.c's net_mu), so MPI_THREAD_SERIALIZED suffices.
 *
 * Messages travel with tag = channel, so control and data are separate streams, as in
 * Unicorn's network subsystem (paper section 4.2). Data priority (core/data/sendq.h): demand
 * data (NW_CHANNEL_DATA) is posted at once; prefetch data (NW_CHANNEL_PREFETCH) is held back
 * while any demand send of this rank is queued or in flight, and posted one at a time
 * otherwise; it travels with the data tag, receivers do not tell the difference. Prefetches
 * cannot starve into a deadlock: a demand send completes once its receiver polls, which it
 * always does, and the prefetch goes when no demand is pending.
 *
 * Receives are non-blocking (matched probe, then MPI_Imrecv): a large message being received
 * does not hold back the control messages behind it.
 *
 * Shutdown (real_net_finish): complete this rank's sends and receives under way, then enter a
 * non-blocking barrier and keep receiving (and dropping) until every rank is there. A rank enters
 * only after its own sends completed, so no send is left unmatched and none hangs. */
#ifndef NW_REAL_NET_H
#define NW_REAL_NET_H

#include <stddef.h>
#include <stdint.h>

#include "backend.h"
#include "real_queue.h"

typedef struct real_net real_net;

/* Call before MPI_Init: where a sandbox refuses the cross-memory attach that Open MPI's
 * shared-memory transport copies large messages with, tells Open MPI to copy through shared
 * memory instead (see real_net.c). A value the user set is left alone. */
void real_net_before_mpi_init(void);
/* By rank of MPI_COMM_WORLD (size ranks), 1 where that rank shares this one's host
 * (MPI_COMM_TYPE_SHARED), this one included; malloc'd. Collective. NULL when out of memory. */
unsigned char *real_net_same_host(int size);
/* Received messages become NW_EVENT_MESSAGE events in q; same_host (real_net_same_host, copied)
 * says which peers' transfers move only while polled. NULL when out of memory. */
real_net *real_net_create(int rank, int size, const unsigned char *same_host, real_queue *q);
void real_net_destroy(real_net *net);
/* Sends len bytes of buf (malloc'd; the transport frees it when sent) to rank dst != this one. */
void real_net_send(real_net *net, int dst, nw_channel channel, void *buf, size_t len);
/* One round of progress: receives what has arrived, completes sends, starts held data.
 * Returns 1 if anything happened or a transfer with a rank of this host is still under way
 * (the caller should keep polling at once); 0 otherwise, also while transfers with other hosts
 * are under way (the caller may sleep briefly between polls). A real_poll_fn: net is the
 * real_net. */
int real_net_poll(void *net);
/* Whether sends or receives of this rank are under way (posted, not complete). */
int real_net_pending(const real_net *net);
/* Whether a transfer with a rank of this host is under way (sent or being received): it moves
 * only while a thread polls (real_net_poll). Under the lock that guards the transport. */
int real_net_local_moving(const real_net *net);
/* Bytes of the messages sent to and received from ranks of this host so far. */
uint64_t real_net_local_bytes(const real_net *net);
/* After the node finished: see the header comment. Messages received meanwhile are dropped. */
void real_net_finish(real_net *net);
/* Demand sends that went before a prefetch queued earlier (core/data/sendq.h). */
uint64_t real_net_demand_overtakes(const real_net *net);
/* A message that could not be sent ("" if none). */
const char *real_net_error(const real_net *net);

#endif
