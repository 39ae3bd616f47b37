/* test_reduce.c: reductions (paper sections 4.5-4.6) on the in-process loop backend.
 *
 * - every built-in operation on every element type, against a direct computation;
 * - a task whose subtasks write overlapping element ranges (some elements written by one
 *   subtask, some by several, some by none) ends equal to the serial fold, on 1 to 7 nodes
 *   (the binomial tree across nodes), for every operation and type and a custom callback,
 *   also with messages reordered, with copies of stragglers (multi-assign) and with the
 *   partial results run-length encoded;
 * - the same beside a read-write space the subtasks also write (their commits wait for the
 *   task's end, but not their reduced results: found by the random programs);
 * - on sparse results compression moves fewer bytes than it would raw;
 * - bad uses are refused with a message: a reduction on a read-only or read-write space, on
 *   an unbound space, a custom one without a callback, writes not on element boundaries.
 */
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "loop_backend.h"
#include "reduce.h"

/* ---- the built-in operations, element by element */

/* One element of every type holding the integer v. */
typedef union elem {
  int32_t i32;
  uint32_t u32;
  int64_t i64;
  uint64_t u64;
  float f;
  double d;
} elem;

static elem elem_of(nw_elem_type type, int64_t v) {
  elem e;
  memset(&e, 0, sizeof e);
  switch (type) {
  case NW_TYPE_INT32:
    e.i32 = (int32_t)v;
    break;
  case NW_TYPE_UINT32:
    e.u32 = (uint32_t)v;
    break;
  case NW_TYPE_INT64:
    e.i64 = v;
    break;
  case NW_TYPE_UINT64:
    e.u64 = (uint64_t)v;
    break;
  case NW_TYPE_FLOAT:
    e.f = (float)v;
    break;
  case NW_TYPE_DOUBLE:
    e.d = (double)v;
    break;
  }
  return e;
}

/* What a op b must give for values small enough that no type overflows or rounds. */
static int64_t expected_small(nw_reduce_op op, int64_t a, int64_t b) {
  switch (op) {
  case NW_REDUCE_ADD:
    return a + b;
  case NW_REDUCE_PRODUCT:
    return a * b;
  case NW_REDUCE_MIN:
    return a < b ? a : b;
  case NW_REDUCE_MAX:
    return a > b ? a : b;
  case NW_REDUCE_LOGICAL_AND:
    return a && b;
  case NW_REDUCE_LOGICAL_OR:
    return a || b;
  case NW_REDUCE_LOGICAL_XOR:
    return !a != !b;
  default:
    return 0;
  }
}

static void test_builtins(void) {
  static const int64_t a[] = {0, 1, 3, 7, 12, 5, 0, 9}, b[] = {0, 4, 3, 2, 0, 6, 8, 9};
  enum { N = 8 };
  for (int type = NW_TYPE_INT32; type <= NW_TYPE_DOUBLE; type++) {
    size_t es = nw_reduce_elem_size((nw_elem_type)type);
    for (int op = NW_REDUCE_ADD; op <= NW_REDUCE_BIT_XOR; op++) {
      unsigned char into[N * 8], from[N * 8];
      for (int k = 0; k < N; k++) {
        elem x = elem_of((nw_elem_type)type, a[k]), y = elem_of((nw_elem_type)type, b[k]);
        memcpy(into + k * es, &x, es);
        memcpy(from + k * es, &y, es);
      }
      /* unaligned pointers: the operations must not assume alignment */
      unsigned char ubuf[N * 8 + 1];
      memcpy(ubuf + 1, into, N * es);
      nw_reduce_builtin((nw_reduce_op)op, (nw_elem_type)type, ubuf + 1, from, N * es);
      for (int k = 0; k < N; k++) {
        elem want;
        if (op >= NW_REDUCE_BIT_AND) { /* on the bit patterns */
          elem x = elem_of((nw_elem_type)type, a[k]), y = elem_of((nw_elem_type)type, b[k]);
          uint64_t xb = 0, yb = 0;
          memcpy(&xb, &x, es);
          memcpy(&yb, &y, es);
          uint64_t r = op == NW_REDUCE_BIT_AND  ? xb & yb
                       : op == NW_REDUCE_BIT_OR ? xb | yb
                                                : xb ^ yb;
          memset(&want, 0, sizeof want);
          memcpy(&want, &r, es);
        } else {
          want = elem_of((nw_elem_type)type, expected_small((nw_reduce_op)op, a[k], b[k]));
        }
        CHECK(memcmp(ubuf + 1 + k * es, &want, es) == 0);
      }
    }
  }
  /* Signed sums wrap instead of overflowing (no undefined behaviour). */
  int32_t big = INT32_MAX, one = 1;
  nw_reduce_builtin(NW_REDUCE_ADD, NW_TYPE_INT32, &big, &one, 4);
  CHECK(big == INT32_MIN);
  /* min and max order signed, unsigned and floating values as their type does */
  int64_t m1 = -5, m2 = 3;
  nw_reduce_builtin(NW_REDUCE_MIN, NW_TYPE_INT64, &m2, &m1, 8);
  CHECK(m2 == -5);
  uint64_t u1 = (uint64_t)-5, u2 = 3;
  nw_reduce_builtin(NW_REDUCE_MIN, NW_TYPE_UINT64, &u1, &u2, 8);
  CHECK(u1 == 3);
  double d1 = -0.5, d2 = 0.25;
  nw_reduce_builtin(NW_REDUCE_MAX, NW_TYPE_DOUBLE, &d1, &d2, 8);
  CHECK(d1 == 0.25);
}

/* ---- a task of overlapping writers */

typedef struct red_conf {
  int op, type;
  uint64_t elems;  /* of the space */
  uint64_t stride; /* subtask k writes elements [k * stride, k * stride + width) */
  uint64_t width;
  int sparse; /* values mostly zero (compression) */
  int rw;     /* a second space, read-write: subtask k writes its 8 bytes at 8 k */
} red_conf;

/* Subtask k's value for element j: small, with zeros and (signed) negatives. */
static int64_t value_of(const red_conf *c, uint64_t k, uint64_t j) {
  if (c->sparse)
    return (k * 31 + j * 17) % 97 == 0 ? (int64_t)(j % 7 + 1) : 0;
  int64_t v = (int64_t)((k * 7 + j * 3) % 5);
  return c->type == NW_TYPE_INT32 || c->type == NW_TYPE_INT64 ? v - 2 : v;
}

static uint64_t first_elem(const red_conf *c, uint64_t k) {
  return k * c->stride;
}

static uint64_t last_elem(const red_conf *c, uint64_t k) { /* exclusive, inside the space */
  uint64_t end = k * c->stride + c->width;
  return end < c->elems ? end : c->elems;
}

static nw_status red_sub(nw_subscriber *s, const nw_task_info *t, uint64_t k) {
  const red_conf *c = t->conf;
  size_t es = nw_reduce_elem_size((nw_elem_type)c->type);
  uint64_t lo = first_elem(c, k), hi = last_elem(c, k);
  nw_status st = nw_subscribe(s, 0, NW_WRITE_ONLY, lo * es, (hi - lo) * es, 1, 1);
  return st == NW_OK && c->rw ? nw_subscribe(s, 1, NW_READ_WRITE, k * 8, 8, 8, 1) : st;
}

static void red_kernel(const nw_task_info *t, uint64_t k, const nw_view *v) {
  const red_conf *c = t->conf;
  size_t es = nw_reduce_elem_size((nw_elem_type)c->type);
  for (uint64_t j = first_elem(c, k); j < last_elem(c, k); j++) {
    elem e = elem_of((nw_elem_type)c->type, value_of(c, k, j));
    memcpy(nw_view_at(&v[0], j * es), &e, es);
  }
  if (c->rw) {
    uint64_t x;
    memcpy(&x, nw_view_at(&v[1], k * 8), 8);
    x += k;
    memcpy(nw_view_at(&v[1], k * 8), &x, 8);
  }
}

static double red_flops(const nw_task_info *t, uint64_t k, nw_device_kind kind) {
  (void)t, (void)k, (void)kind;
  return 2e4;
}

/* Custom: a + b + 1 over uint32, associative and commutative. */
static void red_custom(const nw_task_info *t, int space, void *into, const void *from,
                       uint64_t offset, uint64_t length) {
  (void)t, (void)space, (void)offset;
  for (uint64_t at = 0; at < length; at += 4) {
    uint32_t a, b;
    memcpy(&a, (unsigned char *)into + at, 4);
    memcpy(&b, (const unsigned char *)from + at, 4);
    a = a + b + 1;
    memcpy((unsigned char *)into + at, &a, 4);
  }
}

static const nw_task_kind red_kind = {.name = "red",
                                      .subscribe = red_sub,
                                      .cpu_kernel = red_kernel,
                                      .flops = red_flops,
                                      .reduce = red_custom};

static red_conf the_conf;
static int exact; /* the driver's verdict */

/* The serial fold: subtasks in order, each element's first writer copied, later combined. */
static void fold(const red_conf *c, uint64_t subtasks, unsigned char *want) {
  size_t es = nw_reduce_elem_size((nw_elem_type)c->type);
  unsigned char *seen = calloc(c->elems, 1);
  for (uint64_t k = 0; k < subtasks; k++)
    for (uint64_t j = first_elem(c, k); j < last_elem(c, k); j++) {
      elem e = elem_of((nw_elem_type)c->type, value_of(c, k, j));
      if (!seen[j])
        memcpy(want + j * es, &e, es);
      else if (c->op == NW_REDUCE_CUSTOM)
        red_custom(NULL, 0, want + j * es, &e, j * es, es);
      else
        nw_reduce_builtin((nw_reduce_op)c->op, (nw_elem_type)c->type, want + j * es, &e, es);
      seen[j] = 1;
    }
  free(seen);
}

static nw_status red_main(nw_runtime *rt, const nw_app_args *a, nw_app_outcome *out) {
  (void)a;
  const red_conf *c = &the_conf;
  size_t es = nw_reduce_elem_size((nw_elem_type)c->type);
  uint64_t bytes = c->elems * es, subtasks = (c->elems + c->stride - 1) / c->stride;
  unsigned char *init = malloc(bytes), *want = malloc(bytes), *got = malloc(bytes);
  for (uint64_t j = 0; j < c->elems; j++) { /* untouched elements keep these */
    elem e = elem_of((nw_elem_type)c->type, 100 + (int64_t)j);
    memcpy(init + j * es, &e, es);
  }
  memcpy(want, init, bytes);
  fold(c, subtasks, want);
  nw_space *s, *rw = NULL;
  nw_task *t = NULL;
  uint64_t *counts = calloc(subtasks, 8); /* the read-write space: subtask k adds k */
  nw_status st = nw_space_create(rt, bytes, es * 16, &s); /* rows of 16 elements */
  if (st == NW_OK)
    st = nw_space_write(s, 0, init, bytes);
  if (st == NW_OK && c->rw)
    st = nw_space_create(rt, subtasks * 8, 64, &rw);
  if (st == NW_OK && c->rw)
    st = nw_space_write(rw, 0, counts, subtasks * 8);
  if (st == NW_OK)
    st = nw_task_create(rt, &red_kind, subtasks, c, sizeof *c, &t);
  if (st == NW_OK)
    st = nw_task_bind(t, s, NW_WRITE_ONLY);
  if (st == NW_OK)
    st = nw_task_reduce(t, s, (nw_reduce_op)c->op, (nw_elem_type)c->type);
  if (st == NW_OK && c->rw)
    st = nw_task_bind(t, rw, NW_READ_WRITE);
  if (st == NW_OK)
    st = nw_task_submit(t);
  if (st == NW_OK)
    st = nw_task_wait(t);
  if (st == NW_OK)
    st = nw_space_read(s, 0, got, bytes);
  exact = st == NW_OK && memcmp(got, want, bytes) == 0;
  if (st == NW_OK && c->rw)
    st = nw_space_read(rw, 0, counts, subtasks * 8);
  for (uint64_t k = 0; st == NW_OK && c->rw && k < subtasks; k++)
    exact &= counts[k] == k;
  out->verified = exact;
  nw_task_destroy(t);
  nw_space_destroy(s);
  if (rw)
    nw_space_destroy(rw);
  free(counts);
  free(init);
  free(want);
  free(got);
  return st;
}

static const nw_app red_app = {"red", (const nw_task_kind *const[]){&red_kind, NULL}, NULL,
                               red_main};

static nw_run_result run_red(const loop_config *lc, const red_conf *c) {
  the_conf = *c;
  exact = 0;
  nw_app_args args = {.seed = 1};
  nw_run_result res;
  nw_status st = loop_run(lc, &red_app, &args, &res);
  if (st != NW_OK || !exact)
    fprintf(stderr, "reduce: op %s type %s on %d nodes: %s (%s)\n",
            nw_reduce_op_name((nw_reduce_op)c->op), nw_reduce_type_name((nw_elem_type)c->type),
            lc->nodes, st == NW_OK ? "wrong bytes" : "failed", res.error);
  CHECK(st == NW_OK && exact);
  return res;
}

static void test_trees(void) {
  for (int nodes = 1; nodes <= 7; nodes++)
    for (int op = NW_REDUCE_ADD; op <= NW_REDUCE_CUSTOM; op++)
      for (int type = NW_TYPE_INT32; type <= NW_TYPE_DOUBLE; type++) {
        if (op == NW_REDUCE_CUSTOM && type != NW_TYPE_UINT32)
          continue;
        loop_config lc;
        loop_config_defaults(&lc);
        lc.nodes = nodes;
        lc.jitter_s = (op + type) % 2 ? 2e-4 : 0; /* messages overtake each other */
        lc.seed = (uint64_t)(nodes * 100 + op * 10 + type);
        /* 3 overlapping writers per element at most; elements past the last subtask's range
         * and below... every element has a writer except the ones the width skips */
        red_conf c = {.op = op, .type = type, .elems = 200, .stride = 9, .width = 25};
        nw_run_result res = run_red(&lc, &c);
        if (nodes > 1 && op == NW_REDUCE_ADD && type == NW_TYPE_INT32)
          CHECK(res.total.bytes_reduction_raw > 0); /* the tree moved partial results */
        CHECK(res.total.bytes_reduced > 0);
        nw_run_result_free(&res);
      }
}

/* Gaps (elements nobody writes) and a slowed node whose subtasks get copies elsewhere. */
static void test_gaps_and_copies(void) {
  for (int nodes = 2; nodes <= 5; nodes += 3) {
    loop_config lc;
    loop_config_defaults(&lc);
    lc.nodes = nodes;
    lc.slow_node_factor = 8;
    lc.jitter_s = 1e-4;
    red_conf c = {.op = NW_REDUCE_ADD,
                  .type = NW_TYPE_INT64,
                  .elems = 300,
                  .stride = 10,
                  .width = 7}; /* disjoint runs with gaps: no combination at all */
    nw_run_result res = run_red(&lc, &c);
    nw_run_result_free(&res);
    c.width = 31;
    res = run_red(&lc, &c);
    CHECK(res.total.multi_assigned > 0);
    nw_run_result_free(&res);
  }
}

/* Subtasks that also write a read-write space: their views of it are copied in at the task's
 * end (the node's copy is what every subtask reads), but their reduced results must merge
 * when they come, or the merge takes bytes that are not there yet for earlier results. */
static void test_beside_read_write(void) {
  for (int nodes = 1; nodes <= 3; nodes += 2)
    for (int op = NW_REDUCE_ADD; op <= NW_REDUCE_BIT_AND; op += NW_REDUCE_BIT_AND - 1) {
      loop_config lc;
      loop_config_defaults(&lc);
      lc.nodes = nodes;
      red_conf c = {
          .op = op, .type = NW_TYPE_UINT32, .elems = 200, .stride = 9, .width = 25, .rw = 1};
      nw_run_result res = run_red(&lc, &c);
      nw_run_result_free(&res);
    }
}

static void test_compression(void) {
  loop_config lc;
  loop_config_defaults(&lc);
  lc.nodes = 6;
  red_conf c = {.op = NW_REDUCE_ADD,
                .type = NW_TYPE_UINT64,
                .elems = 4096,
                .stride = 128,
                .width = 4096,
                .sparse = 1}; /* every subtask writes (nearly) all of it */
  nw_run_result off = run_red(&lc, &c);
  lc.compress_network = 1;
  nw_run_result on = run_red(&lc, &c);
  CHECK(off.total.bytes_reduction_sent == off.total.bytes_reduction_raw);
  CHECK(on.total.bytes_reduction_raw == off.total.bytes_reduction_raw);
  CHECK(on.total.bytes_reduction_sent * 2 < on.total.bytes_reduction_raw);
  CHECK(on.total.bytes_network < off.total.bytes_network);
  nw_run_result_free(&off);
  nw_run_result_free(&on);
  /* dense results: compression never costs more than a byte per partial result */
  c.sparse = 0;
  c.type = NW_TYPE_UINT32;
  nw_run_result dense = run_red(&lc, &c);
  CHECK(dense.total.bytes_reduction_sent <= dense.total.bytes_reduction_raw + lc.nodes);
  nw_run_result_free(&dense);
}

/* ---- refusals */

static int refusal_case;
static char refusal_error[512];

static nw_status refusal_main(nw_runtime *rt, const nw_app_args *a, nw_app_outcome *out) {
  (void)a, (void)out;
  static const red_conf c = {
      .op = NW_REDUCE_ADD, .type = NW_TYPE_UINT64, .elems = 64, .stride = 8, .width = 16};
  nw_space *s, *other;
  nw_task *t;
  nw_space_create(rt, 64 * 8, 64, &s);
  nw_space_create(rt, 64, 64, &other);
  nw_task_create(rt, &red_kind, 8, &c, sizeof c, &t);
  nw_status st;
  switch (refusal_case) {
  case 0:
    nw_task_bind(t, s, NW_READ_ONLY);
    st = nw_task_reduce(t, s, NW_REDUCE_ADD, NW_TYPE_UINT64);
    break;
  case 1:
    nw_task_bind(t, s, NW_READ_WRITE);
    st = nw_task_reduce(t, s, NW_REDUCE_ADD, NW_TYPE_UINT64);
    break;
  case 2:
    nw_task_bind(t, s, NW_WRITE_ONLY);
    st = nw_task_reduce(t, other, NW_REDUCE_ADD, NW_TYPE_UINT64);
    break;
  case 3:
    nw_task_bind(t, s, NW_WRITE_ONLY);
    st = nw_task_reduce(t, s, (nw_reduce_op)99, NW_TYPE_UINT64);
    break;
  default: { /* 4-byte runs reduced as uint64: not on element boundaries */
    red_conf narrow = c;
    narrow.type = NW_TYPE_UINT32;
    narrow.stride = 3; /* byte offsets 12 k */
    nw_task_destroy(t);
    nw_task_create(rt, &red_kind, 8, &narrow, sizeof narrow, &t);
    nw_task_bind(t, s, NW_WRITE_ONLY);
    st = nw_task_reduce(t, s, NW_REDUCE_ADD, NW_TYPE_UINT64);
    if (st == NW_OK)
      st = nw_task_submit(t);
    break;
  }
  }
  snprintf(refusal_error, sizeof refusal_error, "%s", nw_runtime_error(rt));
  nw_task_destroy(t);
  nw_space_destroy(s);
  nw_space_destroy(other);
  return st;
}

static const nw_app refusal_app = {"refusal", (const nw_task_kind *const[]){&red_kind, NULL}, NULL,
                                   refusal_main};

static void test_refusals(void) {
  static const char *const says[] = {"only a write-only space", "only a write-only space",
                                     "not bound", "unknown reduction", "boundaries"};
  for (refusal_case = 0; refusal_case < 5; refusal_case++) {
    loop_config lc;
    loop_config_defaults(&lc);
    lc.nodes = 2;
    nw_app_args args = {.seed = 1};
    nw_run_result res;
    nw_status st = loop_run(&lc, &refusal_app, &args, &res);
    CHECK(st != NW_OK);
    CHECK(strstr(refusal_error, says[refusal_case]) != NULL);
    if (!strstr(refusal_error, says[refusal_case]))
      fprintf(stderr, "case %d said: %s\n", refusal_case, refusal_error);
    nw_run_result_free(&res);
  }
}

int main(void) {
  test_builtins();
  test_trees();
  test_gaps_and_copies();
  test_beside_read_write();
  test_compression();
  test_refusals();
  return check_report("reduce");
}
