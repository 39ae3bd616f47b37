/* test_sim_mapreduce.c: MapReduce tasks end to end on the simulator (narwhal.h, "MapReduce"):
 * `test_sim_mapreduce CASE PLATFORM`, CASE cpu, cpu_gpu (modelled GPUs beside the CPUs, which run
 * the emulated GPU kernel on the device's layout) or all (a slowed node whose subtasks get
 * copies elsewhere, pipelining, compression).
 *
 * Two MapReduce tasks on 4 nodes over 256 keys, one MAX over int64 of negative values and one
 * MIN over double of positive values: values for which a zero is the wrong answer, so that
 * keys left as the zeros a reduced view starts with show. Subtasks s and s + 8 emit into the
 * same range of 45 keys, so most keys are combined from several subtasks on different nodes;
 * keys = 0 (mod 5) are never emitted, and keys 160-255 lie in no subtask's range (the fill).
 * The output starts as other bytes. Both outputs must equal the serial fold bit for bit, every
 * key nobody emitted holding the identity.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "run.h"
#include "sim_backend.h"

enum { KEYS = 256, SUBTASKS = 16, RANGE = 45, PAIRS = 64 };

typedef struct conf {
  int op, type; /* NW_REDUCE_MAX over int64, or NW_REDUCE_MIN over double */
} conf;

static uint64_t next(uint64_t *s) { /* splitmix64 */
  uint64_t z = (*s += 0x9e3779b97f4a7c15ull);
  z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
  z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
  return z ^ (z >> 31);
}

static uint64_t first_key(uint64_t s) {
  return 16 * (s % 8) + 3; /* not on a row of the space: a GPU's rectangle is whole rows */
}

/* Pair i of subtask s: its key, or KEYS when the key is one nobody emits; its value. */
static uint64_t pair(const conf *c, uint64_t s, uint64_t i, unsigned char value[8]) {
  uint64_t rng = s * 1000 + i + (uint64_t)c->op * 77;
  uint64_t key = first_key(s) + next(&rng) % RANGE, r = next(&rng);
  if (c->op == NW_REDUCE_MAX) {
    int64_t v = -1 - (int64_t)(r % 1000000000000ull);
    memcpy(value, &v, 8);
  } else {
    double v = 1.0 + (double)(r % 1000000) / 7.0;
    memcpy(value, &v, 8);
  }
  return key % 5 == 0 ? KEYS : key;
}

static nw_status sub(nw_subscriber *s, const nw_task_info *t, uint64_t i) {
  const conf *c = t->conf;
  return nw_subscribe_keys(s, 0, c->type, first_key(i), RANGE);
}

static int faults; /* emitters that would not start, or refused a key in range */

static void map(const conf *c, uint64_t s, nw_status opened, nw_emitter *e) {
  if (opened != NW_OK) {
    faults++;
    return;
  }
  for (uint64_t i = 0; i < PAIRS; i++) {
    unsigned char v[8];
    uint64_t key = pair(c, s, i, v);
    if (key < KEYS && nw_emit(e, key, v) != NW_OK)
      faults++;
  }
}

static void cpu_map(const nw_task_info *t, uint64_t s, const nw_view *v) {
  const conf *c = t->conf;
  nw_emitter e;
  map(c, s, nw_emitter_init(&e, &v[0], c->op, c->type, first_key(s), RANGE), &e);
}

static void gpu_map(const nw_task_info *t, uint64_t s, const nw_gpu_view *v) {
  const conf *c = t->conf;
  nw_emitter e;
  map(c, s, nw_emitter_init_gpu(&e, &v[0], c->op, c->type, first_key(s), RANGE), &e);
}

static double flops(const nw_task_info *t, uint64_t s, nw_device_kind k) {
  (void)t, (void)k;
  return 1e6 * (double)(1 + s % 3);
}

static const nw_task_kind kind = {.name = "keyed",
                                  .subscribe = sub,
                                  .cpu_kernel = cpu_map,
                                  .gpu_emulated_kernel = gpu_map,
                                  .flops = flops};

/* The serial fold, from the identity written out here. */
static void reference(const conf *c, unsigned char *want) {
  for (uint64_t k = 0; k < KEYS; k++) {
    if (c->op == NW_REDUCE_MAX) {
      int64_t id = INT64_MIN;
      memcpy(want + 8 * k, &id, 8);
    } else {
      double id = INFINITY;
      memcpy(want + 8 * k, &id, 8);
    }
  }
  for (uint64_t s = 0; s < SUBTASKS; s++)
    for (uint64_t i = 0; i < PAIRS; i++) {
      unsigned char v[8];
      uint64_t key = pair(c, s, i, v);
      if (key == KEYS)
        continue;
      if (c->op == NW_REDUCE_MAX) {
        int64_t a, b;
        memcpy(&a, want + 8 * key, 8);
        memcpy(&b, v, 8);
        if (b > a)
          memcpy(want + 8 * key, &b, 8);
      } else {
        double a, b;
        memcpy(&a, want + 8 * key, 8);
        memcpy(&b, v, 8);
        if (b < a)
          memcpy(want + 8 * key, &b, 8);
      }
    }
}

static int mismatch;

static nw_status run_one(nw_runtime *rt, nw_space *out, const conf *c) {
  unsigned char want[KEYS * 8], got[KEYS * 8];
  reference(c, want);
  nw_mapreduce_spec m = {.kind = &kind,
                         .subtasks = SUBTASKS,
                         .conf = c,
                         .conf_size = sizeof *c,
                         .output = out,
                         .op = (nw_reduce_op)c->op,
                         .type = (nw_elem_type)c->type};
  nw_task *t;
  nw_status st = nw_mapreduce_create(rt, &m, &t);
  if (st == NW_OK)
    st = nw_task_submit(t);
  if (st == NW_OK)
    st = nw_task_wait(t);
  nw_task_destroy(t);
  if (st == NW_OK)
    st = nw_space_read(out, 0, got, sizeof got);
  if (st != NW_OK)
    return st;
  int differ = 0, unemitted = 0;
  for (int k = 0; k < KEYS; k++) {
    if (memcmp(got + 8 * k, want + 8 * k, 8) != 0 && differ++ == 0) {
      uint64_t g, w;
      memcpy(&g, got + 8 * k, 8);
      memcpy(&w, want + 8 * k, 8);
      fprintf(stderr, "%s: key %d holds %llx, the serial fold %llx\n",
              c->op == NW_REDUCE_MAX ? "max" : "min", k, (unsigned long long)g,
              (unsigned long long)w);
    }
    uint64_t w, id = c->op == NW_REDUCE_MAX ? (uint64_t)1 << 63 : 0x7ff0000000000000ull;
    memcpy(&w, want + 8 * k, 8);
    unemitted += w == id;
  }
  printf("mapreduce %s: %d keys differ; %d keys nobody emitted\n",
         c->op == NW_REDUCE_MAX ? "max int64" : "min double", differ, unemitted);
  mismatch |= differ != 0 || unemitted < KEYS - 160; /* the layout gives these */
  return NW_OK;
}

static nw_status mr_main(nw_runtime *rt, const nw_app_args *a, nw_app_outcome *out) {
  (void)a;
  unsigned char before[KEYS * 8];
  memset(before, 0x11, sizeof before); /* neither identity nor zero */
  nw_space *s;
  nw_status st = nw_space_create(rt, sizeof before, 16 * 8, &s); /* rows of 16 keys */
  if (st == NW_OK)
    st = nw_space_write(s, 0, before, sizeof before);
  conf max = {NW_REDUCE_MAX, NW_TYPE_INT64}, min = {NW_REDUCE_MIN, NW_TYPE_DOUBLE};
  if (st == NW_OK)
    st = run_one(rt, s, &max);
  if (st == NW_OK) /* the same space again: what the first task left must not show */
    st = run_one(rt, s, &min);
  out->verified = st == NW_OK && !mismatch && !faults;
  nw_space_destroy(s);
  return st;
}

static const nw_app app = {"keyed", (const nw_task_kind *const[]){&kind, NULL}, NULL, mr_main};

int main(int argc, char **argv) {
  if (argc != 3) {
    fprintf(stderr, "usage: test_sim_mapreduce cpu|cpu_gpu|all PLATFORM\n");
    return 2;
  }
  const char *which = argv[1];
  nw_run_config c;
  nw_run_config_defaults(&c);
  snprintf(c.app, sizeof c.app, "keyed");
  snprintf(c.platform, sizeof c.platform, "%s", argv[2]);
  c.nodes = 4;
  if (!strcmp(which, "cpu_gpu")) {
    c.devices = NW_DEVICES_CPU_GPU;
    c.gpu_mem = 1 << 20; /* modelled GPU memory is allocated for real in functional mode */
  } else if (!strcmp(which, "all")) {
    c.devices = NW_DEVICES_CPU_GPU;
    c.gpu_mem = 1 << 20;
    c.sched.multi_assign = 1;
    c.sched.pipeline = 1;
    c.compress_network = 1;
    c.nslow = 1;
    c.slow[0] = (nw_slowdown){.node = 1, .factor = 16, .from_s = 0};
  } else if (strcmp(which, "cpu") != 0) {
    fprintf(stderr, "test_sim_mapreduce: unknown case '%s' (cpu, cpu_gpu or all)\n", which);
    return 2;
  }
  nw_run_result res;
  nw_status st = nw_sim_run(&c, &app, &res);
  if (st != NW_OK)
    fprintf(stderr, "%s: %s\n", which, res.error);
  uint64_t gpu_subtasks = 0;
  for (int d = 0; d < res.ndevices; d++)
    if (res.devices[d].kind == NW_DEVICE_GPU)
      gpu_subtasks += res.devices[d].s.subtasks;
  int ok = st == NW_OK && res.verified == 1 && res.subtasks == 2 * SUBTASKS &&
           res.total.bytes_reduction_raw > 0 && (c.devices == NW_DEVICES_CPU || gpu_subtasks > 0);
  printf("mapreduce %s: %llu subtasks (%llu on GPUs), %llu bytes of partial results between "
         "nodes, %llu copies\n",
         which, (unsigned long long)res.subtasks, (unsigned long long)gpu_subtasks,
         (unsigned long long)res.total.bytes_reduction_raw,
         (unsigned long long)res.total.multi_assigned);
  printf("mapreduce %s: %d passed, %d failed\n", which, ok, !ok);
  nw_run_result_free(&res);
  return ok ? 0 : 1;
}
