/* test_gpu_staging.c: a GPU subtask's data on modelled GPUs, one case per
 * process (the simulator runs once per process): `test_gpu_staging CASE PLATFORM`.
 *
 * - copy_out: a write-only strided quad whose first row starts right of its bounding
 *   rectangle's left edge; the device copies the whole rectangle back (item 1: it overflowed
 *   the private write view, caught by ASan; the written bytes must arrive exactly).
 * - copy_in_tail: a whole-space read of a 77-byte space of pitch 8: the rectangle is 10 x 8 =
 *   80 bytes (item 2: the copy in read past the node's copy, caught by ASan).
 * - partial_hit: two subtasks on one GPU read different bytes inside the same rectangle of a
 *   space whose bytes live on another node; the second must not take the first's cache entry,
 *   which holds only what the first fetched (item 3: it read bytes that never arrived).
 * - write_publish: a strided write-only result stays cached on its GPU; a later task reading
 *   the whole rectangle must not take it, since only the written bytes are valid (item 4).
 * Each case checks every output byte against a plain-memory reference.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "region.h"
#include "run.h"
#include "sim_backend.h"

static double some_flops(const nw_task_info *t, uint64_t i, nw_device_kind k) {
  (void)t, (void)i, (void)k;
  return 1e6;
}

/* The quads of one task, in its conf: per subtask, for space 0 (read or write) then, when
 * `out` is set, the output space 1 gets 8 bytes at subtask * 8. */
typedef struct conf {
  int out;   /* reads space 0, writes a checksum of what it read into space 1 */
  int quads; /* per subtask */
  nw_quad q[4][2];
} conf;

static nw_status sub(nw_subscriber *s, const nw_task_info *t, uint64_t i) {
  const conf *c = t->conf;
  nw_status st = NW_OK;
  for (int k = 0; k < c->quads && st == NW_OK; k++) {
    nw_quad q = c->q[i][k];
    st = nw_subscribe(s, 0, c->out ? NW_READ_ONLY : NW_WRITE_ONLY, q.offset, q.length, q.step,
                      q.count);
  }
  return st != NW_OK || !c->out ? st : nw_subscribe(s, 1, NW_WRITE_ONLY, i * 8, 8, 8, 1);
}

static uint64_t mix(uint64_t h, uint64_t v) {
  return (h ^ v) * 1099511628211ull;
}

static unsigned char written_byte(uint64_t task, uint64_t at) {
  return (unsigned char)(at * 31 + task * 7 + 1);
}

/* The same computation on either view kind: `at(off)` gives a byte's address. */
#define RUN_BODY(AT0, AT1)                                                                         \
  const conf *c = t->conf;                                                                         \
  uint64_t h = 1469598103934665603ull;                                                             \
  for (int k = 0; k < c->quads; k++) {                                                             \
    nw_quad q = c->q[i][k];                                                                        \
    for (uint64_t n = 0; n < q.count; n++)                                                         \
      for (uint64_t b = 0; b < q.length; b++) {                                                    \
        uint64_t off = q.offset + n * q.step + b;                                                  \
        unsigned char *p = AT0(off);                                                               \
        if (c->out)                                                                                \
          h = mix(h, *p);                                                                          \
        else                                                                                       \
          *p = written_byte(t->task_id, off);                                                      \
      }                                                                                            \
  }                                                                                                \
  if (c->out)                                                                                      \
    memcpy(AT1(i * 8), &h, 8);

static void cpu_run(const nw_task_info *t, uint64_t i, const nw_view *v) {
#define CPU0(off) (unsigned char *)nw_view_at(&v[0], off)
#define CPU1(off) nw_view_at(&v[1], off)
  RUN_BODY(CPU0, CPU1)
}

static void gpu_run(const nw_task_info *t, uint64_t i, const nw_gpu_view *v) {
#define GPU0(off) (unsigned char *)nw_gpu_view_at(&v[0], off)
#define GPU1(off) nw_gpu_view_at(&v[1], off)
  RUN_BODY(GPU0, GPU1)
}

static const nw_task_kind kind = {.name = "staging",
                                  .subscribe = sub,
                                  .cpu_kernel = cpu_run,
                                  .gpu_emulated_kernel = gpu_run,
                                  .flops = some_flops};

/* The reference: applies a task's subtasks to plain memory, as the kernels do. */
static void reference(unsigned char *space, uint64_t *sums, const conf *c, uint64_t subtasks,
                      uint64_t task_id) {
  for (uint64_t i = 0; i < subtasks; i++) {
    uint64_t h = 1469598103934665603ull;
    for (int k = 0; k < c->quads; k++) {
      nw_quad q = c->q[i][k];
      for (uint64_t n = 0; n < q.count; n++)
        for (uint64_t b = 0; b < q.length; b++) {
          uint64_t off = q.offset + n * q.step + b;
          if (c->out)
            h = mix(h, space[off]);
          else
            space[off] = written_byte(task_id, off);
        }
    }
    if (c->out)
      sums[i] = h;
  }
}

static nw_status run_task(nw_runtime *rt, nw_space *s, nw_space *o, const conf *c,
                          uint64_t subtasks) {
  nw_task *t;
  nw_status st = nw_task_create(rt, &kind, subtasks, c, sizeof *c, &t);
  if (st == NW_OK)
    st = nw_task_bind(t, s, c->out ? NW_READ_ONLY : NW_WRITE_ONLY);
  if (st == NW_OK && c->out)
    st = nw_task_bind(t, o, NW_WRITE_ONLY);
  if (st == NW_OK)
    st = nw_task_submit(t);
  if (st == NW_OK)
    st = nw_task_wait(t);
  nw_task_destroy(t);
  return st;
}

static const char *which; /* the case */
static int mismatch;

static void compare(const char *what, const void *got, const void *want, size_t n) {
  if (memcmp(got, want, n) != 0) {
    const unsigned char *g = got, *w = want;
    size_t k = 0;
    while (g[k] == w[k])
      k++;
    fprintf(stderr, "%s: %s differs first at byte %zu: got %u, expected %u\n", which, what, k, g[k],
            w[k]);
    mismatch = 1;
  }
}

static nw_status staging_main(nw_runtime *rt, const nw_app_args *a, nw_app_outcome *out) {
  (void)a;
  uint64_t size = 512, pitch = 32;
  if (!strcmp(which, "copy_in_tail"))
    size = 77, pitch = 8;
  unsigned char ref[512], got[512];
  uint64_t sums[4] = {0}, want[4] = {0};
  for (uint64_t k = 0; k < size; k++)
    ref[k] = (unsigned char)(k * 13 + 5);
  nw_space *s, *o;
  nw_status st = nw_space_create(rt, size, pitch, &s);
  if (st == NW_OK)
    st = nw_space_create(rt, 32, 8, &o);
  if (st == NW_OK)
    st = nw_space_write(s, 0, ref, size);
  conf w = {.out = 0, .quads = 1}, r = {.out = 1, .quads = 1};
  uint64_t tasks = 0;
  if (!strcmp(which, "copy_out")) {
    w.q[0][0] = (nw_quad){83, 15, 15, 24}; /* rectangle [64, 448); bytes [83, 443) */
    st = st == NW_OK ? run_task(rt, s, o, &w, 1) : st;
    reference(ref, NULL, &w, 1, ++tasks);
  } else if (!strcmp(which, "copy_in_tail")) {
    r.q[0][0] = (nw_quad){0, 77, 77, 1};
    st = st == NW_OK ? run_task(rt, s, o, &r, 1) : st;
    reference(ref, want, &r, 1, ++tasks);
  } else if (!strcmp(which, "partial_hit")) {
    /* Node 1's GPU writes the whole space (1 subtask, 2 GPUs: it is node 1's), so node 0's
     * copy is stale; then node 0's GPU runs subtasks 0 and 1, which read different bytes of
     * rows 0-7 x columns 0-31: column 0 of each row and the whole of row 0, then column 31 of
     * each row and the whole of row 0. Node 1 is slowed so that it steals neither. */
    w.q[0][0] = (nw_quad){0, 512, 512, 1};
    st = st == NW_OK ? run_task(rt, s, o, &w, 1) : st;
    reference(ref, NULL, &w, 1, ++tasks);
    r.quads = 2;
    r.q[0][0] = (nw_quad){0, 1, 32, 8};
    r.q[0][1] = (nw_quad){0, 32, 32, 1};
    r.q[1][0] = (nw_quad){31, 1, 32, 8};
    r.q[1][1] = (nw_quad){0, 32, 32, 1};
    r.q[2][0] = r.q[3][0] = r.q[2][1] = r.q[3][1] = (nw_quad){256, 256, 256, 1};
    st = st == NW_OK ? run_task(rt, s, o, &r, 4) : st;
    reference(ref, want, &r, 4, ++tasks);
  } else if (!strcmp(which, "write_publish")) {
    /* The written bytes: 4 of every 32 in rows 0-7; the rectangle is rows 0-7 x columns
     * 0-3 ... 28-31. Then a read of the same rectangle, all of it. */
    w.q[0][0] = (nw_quad){0, 4, 28, 10};
    st = st == NW_OK ? run_task(rt, s, o, &w, 1) : st;
    reference(ref, NULL, &w, 1, ++tasks);
    r.q[0][0] = (nw_quad){0, 256, 256, 1};
    st = st == NW_OK ? run_task(rt, s, o, &r, 1) : st;
    reference(ref, want, &r, 1, ++tasks);
  } else {
    fprintf(stderr, "unknown case %s\n", which);
    st = NW_ERR_ARG;
  }
  if (st == NW_OK)
    st = nw_space_read(s, 0, got, size);
  if (st == NW_OK)
    st = nw_space_read(o, 0, sums, sizeof sums);
  if (st == NW_OK) {
    compare("the space", got, ref, size);
    compare("the checksums", sums, want, sizeof sums);
  }
  out->verified = st == NW_OK && !mismatch;
  nw_space_destroy(s);
  nw_space_destroy(o);
  return st;
}

static const nw_app app = {"staging", (const nw_task_kind *const[]){&kind, NULL}, NULL,
                           staging_main};

int main(int argc, char **argv) {
  if (argc != 3) {
    fprintf(stderr, "usage: test_gpu_staging CASE PLATFORM\n");
    return 2;
  }
  which = argv[1];
  nw_run_config c;
  nw_run_config_defaults(&c);
  snprintf(c.app, sizeof c.app, "staging");
  snprintf(c.platform, sizeof c.platform, "%s", argv[2]);
  c.nodes = strcmp(which, "partial_hit") ? 1 : 2;
  c.devices = NW_DEVICES_GPU;
  c.sched.multi_assign = 0;
  c.sched.pipeline = 0;
  c.gpu_mem = 1 << 20; /* modelled GPU memory is allocated for real in functional mode */
  if (c.nodes == 2) {
    c.nslow = 1;
    c.slow[0] = (nw_slowdown){.node = 1, .factor = 1000, .from_s = 0};
  }
  nw_run_result res;
  nw_status st = nw_sim_run(&c, &app, &res);
  int ok = st == NW_OK && res.verified == 1;
  if (st != NW_OK)
    fprintf(stderr, "%s: %s\n", which, res.error);
  printf("gpu_staging %s: cache hits %llu, misses %llu\n", which,
         (unsigned long long)res.total.cache_hits, (unsigned long long)res.total.cache_misses);
  printf("gpu_staging %s: %d passed, %d failed\n", which, ok, !ok);
  nw_run_result_free(&res);
  return ok ? 0 : 1;
}
