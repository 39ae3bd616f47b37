/* real_net.c: see real_net.h. */
#define _GNU_SOURCE /* process_vm_readv, in cross_memory_attach.h; nanosleep */
#include "real_net.h"

#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "cross_memory_attach.h"
#include "sendq.h"

void real_net_before_mpi_init(void) {
  /* Open MPI 4's shared-memory transport (vader) moves a large message between ranks of one
   * host with process_vm_readv. Where the sandbox refuses it (cross_memory_attach.h), Open MPI
   * would print "Read -1, expected N, errno = 1" for every large message before falling back;
   * asked beforehand, it copies through shared memory at once. The variable is read at
   * MPI_Init, so setting it here is in time. */
  static const char var[] = "OMPI_MCA_btl_vader_single_copy_mechanism";
  if (!getenv(var) && !nw_cross_memory_attach_allowed())
    setenv(var, "none", 0);
  /* Between hosts over TCP, Open MPI sends the rest of a large message (past its first 192 KB)
   * as one fragment, and a control message to the same peer (a fetch request, a subtask's
   * assignment) waits behind all of it on the one connection: 80-190 ms at 100 Mbit/s
   * (docs/experiments/network-validation.md). In fragments of 128 KB (the size Open MPI uses
   * for the middle of such a message anyway) it waits for one at most; two emulated hosts at
   * 100 Mbit/s ran matmul 2048/512 in 1.94 s instead of 2.23 and conv2d 4096/1024 in 1.98
   * instead of 2.42 (best of 3). A user's own setting (mpirun --mca) is kept. */
  setenv("OMPI_MCA_btl_tcp_rdma_pipeline_frag_size", "131072", 0);
}

/* Open MPI's TCP transport sends a message up to its eager limit (btl_tcp_eager_limit, 64 KiB)
 * whole, without a rendezvous: real_net_poll spins through those. */
#define SHORT_MESSAGE 65536

typedef struct outgoing {
  int dst, tag;
  int cls; /* nw_send_class of a data message; -1: control */
  void *buf;
  size_t len;
  MPI_Request req;
  struct outgoing *next;
} outgoing;

/* A message being received: matched (MPI_Improbe), its receive posted (MPI_Imrecv). */
typedef struct incoming {
  int src;
  void *buf;
  int len;
  MPI_Request req;
  struct incoming *next;
} incoming;

struct real_net {
  int rank;
  unsigned char *same_host; /* by rank: 1 where that rank shares this one's host */
  real_queue *q;
  outgoing *inflight; /* posted, not yet complete */
  incoming *arriving; /* receives posted, not yet complete, oldest first */
  incoming **arriving_tail;
  nw_sendq data;        /* data messages not yet posted, by priority */
  int receiving;        /* 0 after the node finished: what arrives is dropped */
  uint64_t local_bytes; /* sent to and received from ranks of this host so far */
  char error[256];
};

static void *must(void *p) {
  if (!p) {
    fprintf(stderr, "narwhal: out of memory in the MPI transport\n");
    exit(1);
  }
  return p;
}

unsigned char *real_net_same_host(int size) {
  unsigned char *same = calloc((size_t)size, 1);
  int *mine = malloc((size_t)size * sizeof *mine), *world = malloc((size_t)size * sizeof *world);
  MPI_Comm host;
  int split = MPI_Comm_split_type(MPI_COMM_WORLD, MPI_COMM_TYPE_SHARED, 0, MPI_INFO_NULL, &host) ==
              MPI_SUCCESS;
  if (same && mine && world && split) {
    MPI_Group hg, wg;
    int n = 0;
    MPI_Comm_size(host, &n);
    MPI_Comm_group(host, &hg);
    MPI_Comm_group(MPI_COMM_WORLD, &wg);
    for (int i = 0; i < n; i++)
      mine[i] = i;
    MPI_Group_translate_ranks(hg, n, mine, wg, world);
    for (int i = 0; i < n; i++)
      if (world[i] >= 0 && world[i] < size)
        same[world[i]] = 1;
    MPI_Group_free(&hg);
    MPI_Group_free(&wg);
  }
  if (split)
    MPI_Comm_free(&host);
  free(mine);
  free(world);
  return same;
}

real_net *real_net_create(int rank, int size, const unsigned char *same_host, real_queue *q) {
  real_net *net = calloc(1, sizeof *net);
  unsigned char *same = malloc((size_t)size);
  if (!net || !same) {
    free(net);
    free(same);
    return NULL;
  }
  memcpy(same, same_host, (size_t)size);
  net->same_host = same;
  net->rank = rank;
  net->q = q;
  net->receiving = 1;
  net->arriving_tail = &net->arriving;
  nw_sendq_init(&net->data);
  return net;
}

void real_net_destroy(real_net *net) {
  if (!net)
    return;
  while (net->inflight) { /* only after a failed run: real_net_finish empties it */
    outgoing *o = net->inflight;
    net->inflight = o->next;
    free(o->buf);
    free(o);
  }
  while (net->arriving) { /* likewise */
    incoming *in = net->arriving;
    net->arriving = in->next;
    free(in->buf);
    free(in);
  }
  nw_sendq_free(&net->data);
  free(net->same_host);
  free(net);
}

static void post(real_net *net, outgoing *o) {
  MPI_Isend(o->buf, (int)o->len, MPI_BYTE, o->dst, o->tag, MPI_COMM_WORLD, &o->req);
  o->next = net->inflight;
  net->inflight = o;
}

static int start_data(real_net *net) {
  int any = 0;
  nw_send_class cls;
  for (outgoing *o; (o = nw_sendq_start(&net->data, &cls));) {
    post(net, o);
    any = 1;
  }
  return any;
}

void real_net_send(real_net *net, int dst, nw_channel ch, void *buf, size_t len) {
  if (len > (size_t)0x7fffffff) {
    snprintf(net->error, sizeof net->error,
             "rank %d: a %zu-byte message exceeds MPI's 2 GiB per message", net->rank, len);
    free(buf);
    return;
  }
  if (net->same_host[dst] && dst != net->rank)
    net->local_bytes += (uint64_t)len;
  outgoing *o = must(calloc(1, sizeof *o));
  *o = (outgoing){.dst = dst,
                  .tag = ch == NW_CHANNEL_CONTROL ? NW_CHANNEL_CONTROL : NW_CHANNEL_DATA,
                  .cls = ch == NW_CHANNEL_CONTROL    ? -1
                         : ch == NW_CHANNEL_PREFETCH ? NW_SEND_PREFETCH
                                                     : NW_SEND_DEMAND,
                  .buf = buf,
                  .len = len};
  if (o->cls < 0) {
    post(net, o); /* control: at once, whatever data is queued */
    return;
  }
  if (nw_sendq_push(&net->data, (nw_send_class)o->cls, o) != NW_OK)
    must(NULL);
  start_data(net);
}

/* A received message becomes an event (or is dropped after the node finished). */
static void deliver(real_net *net, int src, void *buf, int len) {
  if (net->same_host[src] && src != net->rank)
    net->local_bytes += (uint64_t)len;
  if (!net->receiving) {
    free(buf);
    return;
  }
  real_queue_post(
      net->q, &(nw_event){.kind = NW_EVENT_MESSAGE, .src = src, .buf = buf, .len = (size_t)len}, 1);
}

/* Starts receiving one message if one has arrived; returns 1 if it did. The receive is not
 * waited for: a blocking receive of a large message held the rank's MPI for the whole transfer
 * (250 ms for 3 MB at 100 Mbit/s), so a control message behind it, such as the peer's fetch
 * request, waited as long (a median of 64 ms from send to handling, 1.4-5 ms since:
 * docs/experiments/network-validation.md). Control messages must not queue
 * behind data (Unicorn's network subsystem, section 4.1); messages may complete out of their
 * arrival order, which the core allows (core/backend.h, send). */
static int receive_one(real_net *net) {
  int flag = 0;
  MPI_Message msg;
  MPI_Status status;
  MPI_Improbe(MPI_ANY_SOURCE, MPI_ANY_TAG, MPI_COMM_WORLD, &flag, &msg, &status);
  /* Open MPI's probe matches what has already arrived and only then progresses the transport
   * (ob1, pml_ob1_iprobe.c): a message that this progress brings in is matched by the next
   * probe. Probing once per poll left every message to a sleeping loop for its next poll:
   * from send to receipt a median 1.0 ms on two one-core ranks of the 2-core VM, the receiver's
   * last unmatched probe a steady 0.71 ms (one sleeping interval) before the one that matched,
   * 0.25-0.31 ms probing again (docs/experiments/probe-twice.md). */
  if (!flag)
    MPI_Improbe(MPI_ANY_SOURCE, MPI_ANY_TAG, MPI_COMM_WORLD, &flag, &msg, &status);
  if (!flag)
    return 0;
  int count = 0;
  MPI_Get_count(&status, MPI_BYTE, &count);
  incoming *in = must(calloc(1, sizeof *in));
  in->src = status.MPI_SOURCE;
  in->len = count;
  in->buf = malloc(count > 0 ? (size_t)count : 1);
  if (!in->buf) {
    fprintf(stderr, "narwhal: rank %d: out of memory receiving %d bytes\n", net->rank, count);
    exit(1);
  }
  MPI_Imrecv(in->buf, count, MPI_BYTE, &msg, &in->req);
  int done = 0;
  MPI_Test(&in->req, &done, MPI_STATUS_IGNORE); /* an eager message is complete already */
  if (done) {
    deliver(net, in->src, in->buf, in->len);
    free(in);
  } else {
    *net->arriving_tail = in;
    net->arriving_tail = &in->next;
  }
  return 1;
}

/* Completes the receives under way that are done, oldest first; returns 1 if any was. */
static int complete_arriving(real_net *net) {
  int any = 0;
  for (incoming **p = &net->arriving; *p;) {
    int flag = 0;
    MPI_Test(&(*p)->req, &flag, MPI_STATUS_IGNORE);
    if (!flag) {
      p = &(*p)->next;
      continue;
    }
    incoming *in = *p;
    *p = in->next;
    if (!*p)
      net->arriving_tail = p;
    deliver(net, in->src, in->buf, in->len);
    free(in);
    any = 1;
  }
  return any;
}

int real_net_poll(void *arg) {
  real_net *net = arg;
  int active = 0;
  for (outgoing **p = &net->inflight; *p;) {
    int flag = 0;
    MPI_Test(&(*p)->req, &flag, MPI_STATUS_IGNORE);
    if (flag) {
      outgoing *o = *p;
      *p = o->next;
      if (o->cls >= 0)
        nw_sendq_done(&net->data, (nw_send_class)o->cls);
      free(o->buf);
      free(o);
      active = 1;
    } else {
      p = &(*p)->next;
    }
  }
  active |= start_data(net);
  active |= complete_arriving(net);
  while (receive_one(net))
    active = 1;
  /* A transfer with a rank of this host moves only while a thread polls (shared memory: each
   * poll copies fragments); one with another host moves in the kernel's socket buffers, and a
   * poll only refills them. Spinning through a long remote transfer took the loop's core from
   * the kernel beside it (nice 10 against 0): on one-core hosts at 100 Mbit/s matmul 768-blocks
   * ran 0.5-0.9 s instead of 0.12-0.2 while data moved (docs/experiments/network-validation.md).
   * So only local transfers and short messages (sent whole at once, done within a poll or
   * two) keep the loop spinning; a long remote one leaves it to its sleeping polls (every 20 us
   * at first, at most every 500 us: real_queue_wait). */
  for (outgoing *o = net->inflight; o && !active; o = o->next)
    active = net->same_host[o->dst] || o->len <= SHORT_MESSAGE;
  for (incoming *in = net->arriving; in && !active; in = in->next)
    active = net->same_host[in->src] || (size_t)in->len <= SHORT_MESSAGE;
  return active;
}

int real_net_pending(const real_net *net) {
  return net->inflight != NULL || net->arriving != NULL;
}

uint64_t real_net_local_bytes(const real_net *net) {
  return net->local_bytes;
}

int real_net_local_moving(const real_net *net) {
  for (const outgoing *o = net->inflight; o; o = o->next)
    if (net->same_host[o->dst])
      return 1;
  for (const incoming *in = net->arriving; in; in = in->next)
    if (net->same_host[in->src])
      return 1;
  return 0;
}

void real_net_finish(real_net *net) {
  net->receiving = 0;
  while (net->inflight || net->arriving || nw_sendq_queued(&net->data, NW_SEND_DEMAND) ||
         nw_sendq_queued(&net->data, NW_SEND_PREFETCH))
    real_net_poll(net);
  MPI_Request barrier = MPI_REQUEST_NULL;
  MPI_Ibarrier(MPI_COMM_WORLD, &barrier);
  long idle_us = 20; /* others may compute for long: do not take a core from them */
  for (int flag = 0; !flag;) {
    int active = real_net_poll(net);
    MPI_Test(&barrier, &flag, MPI_STATUS_IGNORE);
    if (!flag && !active) {
      struct timespec ts = {0, idle_us * 1000};
      nanosleep(&ts, NULL);
      if (idle_us < 500)
        idle_us *= 2;
    }
  }
}

uint64_t real_net_demand_overtakes(const real_net *net) {
  return net->data.overtakes;
}

const char *real_net_error(const real_net *net) {
  return net->error;
}
