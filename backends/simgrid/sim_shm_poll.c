/* sim_shm_poll.c: see sim_shm_poll.h. */
#include "sim_shm_poll.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <simgrid/actor.h>
#include <simgrid/engine.h>
#include <simgrid/exec.h>
#include <simgrid/host.h>
#include <simgrid/semaphore.h>

static int charged(const sim_node *sn) {
  return sn->machine != NULL && sn->costs.loop_weight > 0;
}

int sim_shm_shared(const sim_node *a, const sim_node *b) {
  return a != b && charged(a) && charged(b) && strcmp(a->machine, b->machine) == 0;
}

/* Waits until neither loop handles an event. */
static void wait_polling(sim_node *a, sim_node *b) {
  for (;;) {
    sim_node *busy = a->shm_paused ? a : b->shm_paused ? b : NULL;
    if (!busy)
      return;
    if (!busy->shm_resumed)
      busy->shm_resumed = sg_sem_init(0);
    busy->shm_waiters++;
    sg_sem_acquire(busy->shm_resumed);
  }
}

/* Starts q seconds of n's polling on its CPU host, at the loop's priority (1: kernels run at
 * 1 / rt_loop_weight of it, sim_world.c). */
static sg_exec_t step(sim_node *n, double q) {
  double speed = sg_host_get_speed(n->host);
  sg_exec_t x = sg_actor_exec_init(q * speed);
  sg_exec_set_host(x, n->host);
  double share = n->kernels > 0 && n->costs.shm_poll_share > 0 ? n->costs.shm_poll_share : 1;
  sg_exec_set_bound(x, share * speed / n->shm_moving); /* one thread polls them all */
  sg_exec_start(x);
  return x;
}

/* A receive buffer the transfer allocated, kept until its message is handled. */
typedef struct sim_shm_buffer {
  const void *buf; /* the message's, as the event carries it */
  sim_msg_buffer b;
  struct sim_shm_buffer *next;
} sim_shm_buffer;

void sim_shm_transfer(sim_node *a, sim_node *b, const envelope *e, double bytes) {
  double bw = sg_host_get_route_bandwidth(a->host, b->host), per_byte = a->costs.shm_poll_per_byte;
  double copy = per_byte > 0 ? bytes * per_byte : bw > 0 ? bytes / bw : 0, fresh = 0;
  /* The receiver copies into a buffer it allocated for the message (real_net.c, receive_one):
   * its fresh pages are first touched during the transfer, in the polls; a measured price per
   * byte holds them already. */
  if (b->costs.page_fresh_s > 0) {
    sim_shm_buffer *r = malloc(sizeof *r);
    if (!r) {
      fprintf(stderr, "narwhal: out of memory in the simulator\n");
      exit(1);
    }
    r->buf = e->buf;
    uint64_t pages = sim_msg_pages_alloc(&b->msg_pages, (uint64_t)e->wire, &r->b);
    fresh = per_byte > 0 ? 0 : (double)pages * b->costs.page_fresh_s;
    r->next = b->shm_buffers;
    b->shm_buffers = r;
  }
  a->shm_moving++;
  b->shm_moving++;
  double t0 = simgrid_get_clock();
  /* The copy in steps, the receiver's fresh pages spread over them: fragments arrive and are
   * copied out as they come. (A route between two nodes has a bandwidth: a message of any
   * bytes has a copy to make.) */
  for (double left = copy; left > 0;) {
    wait_polling(a, b);
    double q = left < SIM_SHM_STEP_S ? left : SIM_SHM_STEP_S;
    sg_exec_t x = step(a, q), y = step(b, q * (1 + fresh / copy));
    sg_exec_wait(x);
    sg_exec_wait(y);
    left -= q;
  }
  a->shm_moving--;
  b->shm_moving--;
  /* What the run reports (runtime_costs.shm_poll): each side's polling of the transfer. */
  double took = simgrid_get_clock() - t0, spent[2] = {copy, copy + fresh};
  sim_node *side[2] = {a, b};
  for (int i = 0; i < 2; i++) {
    side[i]->charged.shm_polls++;
    side[i]->charged.shm_poll_s += took;
    side[i]->charged.shm_poll_cpu_s += spent[i];
    side[i]->charged.shm_bytes += bytes;
  }
}

int sim_shm_take_buffer(sim_node *sn, const void *buf, sim_msg_buffer *out) {
  for (sim_shm_buffer **p = &sn->shm_buffers; *p; p = &(*p)->next)
    if ((*p)->buf == buf) {
      sim_shm_buffer *r = *p;
      *out = r->b;
      *p = r->next;
      free(r);
      return 1;
    }
  return 0;
}

void sim_shm_free(sim_node *sn) {
  while (sn->shm_buffers) {
    sim_shm_buffer *r = sn->shm_buffers;
    sn->shm_buffers = r->next;
    free(r);
  }
  if (sn->shm_resumed)
    sg_sem_destroy(sn->shm_resumed);
  sn->shm_resumed = NULL;
}

void sim_shm_pause(sim_node *sn) {
  sn->shm_paused = 1;
}

void sim_shm_resume(sim_node *sn) {
  sn->shm_paused = 0;
  for (; sn->shm_waiters > 0; sn->shm_waiters--)
    sg_sem_release(sn->shm_resumed);
}

int sim_shm_polling(const sim_node *sn) {
  return sn->shm_moving > 0;
}
