/* wire.h: the bytes of the messages nodes exchange, written and read with bounds checks.
 *
 * The core serializes every message itself, so the simulator and MPI carry the same protocol
 * and a backend only moves buffers. A truncated or malformed message sets the reader's `bad`
 * flag instead of reading past the end.
 */
#ifndef NW_WIRE_H
#define NW_WIRE_H

#include <stddef.h>
#include <stdint.h>

#include "region.h"

typedef enum {
  MSG_TASK_START = 1, /* node 0 -> all: a task begins (kind, conf, bound spaces) */
  MSG_SUBTASK_DONE,   /* executing node -> node 0: subtasks committed */
  MSG_TASK_FINISH,    /* node 0 -> all: every subtask committed; begin ownership updates */
  MSG_OWN_UPDATE,     /* node -> master: the set S of writes (paper section 3, step 2) */
  MSG_OWN_PREV,       /* master -> previous owner: regions it no longer owns (step 3) */
  MSG_OWN_PREV_ACK,   /* previous owner -> master: applied (step 4) */
  MSG_MASTER_DONE,    /* master -> node 0: updates of this task settled */
  MSG_FETCH,          /* requester -> master or owner: send me these regions */
  MSG_DATA,           /* owner -> requester: regions and their bytes */
  MSG_STEAL_REQ,      /* stealer -> steal agent of a node */
  MSG_STEAL_RESP,     /* steal agent -> stealer: ranges of subtasks, a copy to run, or none */
  MSG_COPY_FINISHED,  /* multi-assignee -> original assignee: I finished (paper 4.3.3) */
  MSG_COPY_CANCEL,    /* original assignee -> holders: the winner; others discard */
  MSG_PLACE,          /* node 0 -> node: own these regions (and their bytes) from now on */
  MSG_PLACE_DIR,      /* node 0 -> master: these regions now belong to that node */
  MSG_PLACE_ACK,      /* either -> node 0: done */
  MSG_FAIL,           /* any node -> node 0: the run failed, with a reason */
  MSG_END,            /* node 0 -> all: the run is over */
  MSG_LOC_VECTOR,     /* node -> node 0: its local bytes of every subtask (paper 4.3.4) */
  MSG_LOC_ASSIGN,     /* node 0 -> node: each subtask's node, and every node's local bytes */
  MSG_CLAIM,          /* node 0 -> all: the driver wrote these regions; node 0 owns them now */
  MSG_POLICY,         /* a scheduling policy's own message: task id, then the policy's payload */
  MSG_PERF_SAMPLES,   /* node -> node 0: subtask durations it measured (sched/perfdata.h) */
  MSG_REDUCE,         /* node -> its parent in a reduced space's tree: a partial result */
  /* Surviving a lost node (core/node/recover.c; resilient runs only) */
  MSG_BACKUP,        /* node -> node 0 at a task's end: the bytes it wrote, for the replica */
  MSG_RECOVER,       /* node 0 -> survivors: a node was lost; abort, forget, renumber */
  MSG_RECOVER_READY, /* survivor -> node 0: done, and the highest space version it had */
  MSG_RECOVER_DONE   /* node 0 -> survivors: node 0 owns and masters every space now */
} nw_msg_type;

typedef struct nw_writer {
  unsigned char *buf;
  size_t len, cap;
  int oom;
  /* Bytes of it that only feed a counter (core/device/resend.h): the simulator does not price
   * them, so counting does not change a run's simulated times (nw_node_send). */
  size_t uncharged;
} nw_writer;

void nw_w_init(nw_writer *w, nw_msg_type type);
void nw_w_u8(nw_writer *w, uint8_t v);
void nw_w_u32(nw_writer *w, uint32_t v);
void nw_w_u64(nw_writer *w, uint64_t v);
void nw_w_f64(nw_writer *w, double v);
void nw_w_bytes(nw_writer *w, const void *p, size_t n);
/* Reserves n bytes and returns where to put them (NULL on allocation failure). */
unsigned char *nw_w_reserve(nw_writer *w, size_t n);
void nw_w_region(nw_writer *w, const nw_region *r);
void nw_w_free(nw_writer *w);

typedef struct nw_reader {
  const unsigned char *p;
  size_t len, pos;
  int bad;
} nw_reader;

void nw_r_init(nw_reader *r, const void *buf, size_t len);
uint8_t nw_r_u8(nw_reader *r);
uint32_t nw_r_u32(nw_reader *r);
uint64_t nw_r_u64(nw_reader *r);
double nw_r_f64(nw_reader *r);
/* Returns a pointer to the next n bytes (NULL and bad set if fewer remain). */
const unsigned char *nw_r_bytes(nw_reader *r, size_t n);
/* Reads a region written by nw_w_region into out (initialized with pitch). */
void nw_r_region(nw_reader *r, nw_region *out, uint64_t pitch);

#endif
