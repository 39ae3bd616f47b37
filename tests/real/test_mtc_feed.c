/* test_mtc_feed.c: the many-task feeder (backends/real/real_mtc_feed.c) on a host double of the
 * worker kernel (mtc_engine_host.c), without a GPU.
 *
 * An event loop stands for the rank's: 24 lanes, each with one subtask in at a time, as the
 * pipeline gives them; each completion it takes launches that lane's next subtask. 6000
 * subtasks: block sums of 0 to 49 elements and MDLite segments of 1 to 32 particles, each
 * with buffers of its own. Every subtask must complete exactly once with its own right bytes
 * (a descriptor with a wrong field, or a completion posted for another subtask, shows); the
 * feeder's counts must add up to the subtasks, in bundles of at most 8 and more than one
 * subtask in some. Then a kind's descriptor the worker cannot run: exit 1 with one line
 * naming the kind, checked from a child process.
 */
#define _POSIX_C_SOURCE 200809L
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "../unit/check.h"
#include "narwhal_mtc.h"
#include "real_mtc_feed.h"

/* The core's exec, as the feeder sees it: something that describes itself. */
struct nw_exec {
  nw_mtc_task task;
  uint64_t a[64], b[64], c[64], want[64];
  nw_mtc_particle in[NW_MTC_MD_MAX], out[NW_MTC_MD_MAX], moved[NW_MTC_MD_MAX];
  int lane, done;
};

int nw_exec_mtc_task(nw_exec *e, unsigned char *memory, struct nw_mtc_task *task) {
  (void)memory; /* host addresses: the views' base is 0 */
  *task = e->task;
  return 0;
}

const char *nw_exec_kind_name(const nw_exec *e) {
  (void)e;
  return "test-kind";
}

void nw_copy_free(nw_copy *c) { /* real_queue_destroy's, for copies: none here */
  (void)c;
  abort();
}

enum { LANES = 24, BUNDLE = 8, TOTAL = 6000, SHARE = 3 };

extern uint32_t mtc_engine_host_share; /* mtc_engine_host.c: what the feeder asked for */

static void make(nw_exec *e, int i) {
  memset(e, 0, sizeof *e);
  if (i % 3 == 2) {
    uint64_t n = 1 + (uint64_t)i % NW_MTC_MD_MAX;
    for (uint64_t p = 0; p < n; p++)
      e->in[p] = (nw_mtc_particle){(float)(p % 5) * 0.25f, (float)(i % 7) * 0.1f + (float)p,
                                   0.01f * (float)p, -0.02f};
    e->task = (nw_mtc_task){.op = NW_MTC_MDLITE,
                            .count = n,
                            .steps = 1 + (uint64_t)i % 4,
                            .in = {e->in},
                            .out = e->out};
    nw_mtc_md_segment_host(e->in, e->moved, n, e->task.steps);
  } else {
    uint64_t n = (uint64_t)i % 50;
    for (uint64_t k = 0; k < n; k++) {
      e->a[k] = (uint64_t)i * 1000003u + k;
      e->b[k] = ~k;
      e->want[k] = e->a[k] + e->b[k];
    }
    e->c[n] = 0x5A5A; /* past the block: must stay */
    e->want[n] = 0x5A5A;
    e->task = (nw_mtc_task){.op = NW_MTC_ADD_U64, .count = n, .in = {e->a, e->b}, .out = e->c};
  }
}

static int right(const nw_exec *e) {
  if (e->task.op == NW_MTC_MDLITE)
    return memcmp(e->out, e->moved, e->task.count * sizeof *e->out) == 0;
  return memcmp(e->c, e->want, (e->task.count + 1) * sizeof *e->c) == 0;
}

static void stream_of_subtasks(void) {
  static nw_exec ex[TOTAL];
  real_queue q;
  real_queue_init(&q);
  char why[256] = "";
  real_mtc_feed *f = real_mtc_feed_open(0, LANES, BUNDLE, SHARE, NULL, &q, why, sizeof why);
  CHECK(f != NULL);
  CHECK(mtc_engine_host_share == SHARE); /* three ranks on the GPU: a third of it each */
  if (!f) {
    fprintf(stderr, "%s\n", why);
    return;
  }
  int next = 0, finished = 0, twice = 0, wrong = 0;
  for (; next < LANES; next++) {
    make(&ex[next], next);
    ex[next].lane = next;
    real_mtc_feed_push(f, &ex[next]);
  }
  while (finished < TOTAL) {
    real_queue_wait(&q, NULL, NULL, 0.01);
    nw_event *ev;
    while ((ev = real_queue_take(&q))) {
      nw_exec *e = ev->exec;
      CHECK(ev->kind == NW_EVENT_EXEC_DONE);
      twice += e->done;
      wrong += !right(e);
      e->done = 1;
      finished++;
      if (next < TOTAL) {
        make(&ex[next], next);
        ex[next].lane = e->lane;
        real_mtc_feed_push(f, &ex[next++]);
      }
      free(ev);
    }
  }
  CHECK(twice == 0 && wrong == 0);
  uint64_t bundles, subtasks, largest;
  real_mtc_feed_stats(f, &bundles, &subtasks, &largest);
  printf("mtc_feed: %d subtasks in %llu bundles, the largest %llu\n", TOTAL,
         (unsigned long long)bundles, (unsigned long long)largest);
  CHECK(subtasks == TOTAL);
  CHECK(largest >= 2 && largest <= BUNDLE);
  CHECK(bundles < TOTAL && bundles * BUNDLE >= TOTAL);
  real_mtc_feed_close(f);
  real_queue_destroy(&q);
}

/* A descriptor the worker kernel cannot run (33 particles): the feeder stops the rank. */
static void refused_descriptor(void) {
  int pipefd[2];
  if (pipe(pipefd) != 0)
    return;
  fflush(stdout); /* the child's exit flushes its copy of the buffer */
  pid_t pid = fork();
  if (pid == 0) {
    dup2(pipefd[1], 2);
    static nw_exec e;
    e.task = (nw_mtc_task){.op = NW_MTC_MDLITE, .count = 33, .in = {e.in}, .out = e.out};
    real_queue q;
    real_queue_init(&q);
    char why[256];
    real_mtc_feed *f = real_mtc_feed_open(0, 2, 2, 1, NULL, &q, why, sizeof why);
    real_mtc_feed_push(f, &e);
    real_mtc_feed_close(f);
    _exit(0);
  }
  close(pipefd[1]);
  char msg[512] = "";
  ssize_t n = read(pipefd[0], msg, sizeof msg - 1);
  msg[n > 0 ? n : 0] = '\0';
  close(pipefd[0]);
  int status = 0;
  waitpid(pid, &status, 0);
  CHECK(WIFEXITED(status) && WEXITSTATUS(status) == 1);
  CHECK(strstr(msg, "task kind test-kind") != NULL && strchr(msg, '\n') == strrchr(msg, '\n'));
}

int main(void) {
  stream_of_subtasks();
  refused_descriptor();
  return check_report("mtc_feed");
}
