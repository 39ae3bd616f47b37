/* test_mapreduce.c: MapReduce over reductions (narwhal.h, "MapReduce"; paper section 4.6).
 *
 * - the identity of every built-in op on every element type, against a table written here:
 *   combined either way with x by the runtime's own combination it gives x (for the logical
 *   ops x's truth value; float ADD gives +0.0 for x = -0.0, equal to it, as documented), for
 *   x negative, zero, one, the type's extremes, infinities and denormals;
 * - a random stream of (key, value) emitted into an emitter equals a fold per key computed
 *   here independently of core/data/reduce.c, keys never emitted holding the identity, for
 *   every op and type; keys out of range are refused and counted, nothing written around the
 *   keys; the emitter's ranges on CPU and GPU views;
 * - a MapReduce task (nw_mapreduce_create) on 1 to 5 nodes of the loop backend, for every op
 *   and type: subtasks whose key ranges overlap, keys in a range nobody emits, keys in no range
 *   at all, an output holding other bytes before the task: equal to the serial fold bit for
 *   bit; also with copies of stragglers and with compression;
 * - nw_mapreduce_create's refusals, each with its one line; a bad key range refused at
 *   submission.
 */
#include <float.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "loop_backend.h"
#include "reduce.h"

#define OPS NW_REDUCE_BIT_XOR /* the built-in ops are 1 .. OPS */

typedef union elem {
  int32_t i32;
  uint32_t u32;
  int64_t i64;
  uint64_t u64;
  float f;
  double d;
  unsigned char b[8];
} elem;

static int is_float(int type) {
  return type == NW_TYPE_FLOAT || type == NW_TYPE_DOUBLE;
}

static size_t esize(int type) {
  return type == NW_TYPE_INT32 || type == NW_TYPE_UINT32 || type == NW_TYPE_FLOAT ? 4 : 8;
}

static uint64_t bits_of(int type, elem e) {
  uint64_t x = 0;
  memcpy(&x, e.b, esize(type)); /* little endian: the test machines are */
  return x;
}

static elem from_bits(int type, uint64_t x) {
  elem e;
  memset(&e, 0, sizeof e);
  memcpy(e.b, &x, esize(type));
  return e;
}

static elem of_int(int type, int64_t v) {
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
  default:
    e.d = (double)v;
    break;
  }
  return e;
}

static int truth(int type, elem e) {
  switch (type) {
  case NW_TYPE_FLOAT:
    return e.f != 0;
  case NW_TYPE_DOUBLE:
    return e.d != 0;
  default:
    return bits_of(type, e) != 0;
  }
}

/* The identities, written out here rather than taken from the code under test. */
static elem ref_identity(int op, int type) {
  switch (op) {
  case NW_REDUCE_PRODUCT:
  case NW_REDUCE_LOGICAL_AND:
    return of_int(type, 1);
  case NW_REDUCE_BIT_AND:
    return from_bits(type, UINT64_MAX);
  case NW_REDUCE_MIN:
  case NW_REDUCE_MAX: {
    int min = op == NW_REDUCE_MIN;
    elem e;
    memset(&e, 0, sizeof e);
    switch (type) {
    case NW_TYPE_INT32:
      e.i32 = min ? INT32_MAX : INT32_MIN;
      break;
    case NW_TYPE_UINT32:
      e.u32 = min ? UINT32_MAX : 0;
      break;
    case NW_TYPE_INT64:
      e.i64 = min ? INT64_MAX : INT64_MIN;
      break;
    case NW_TYPE_UINT64:
      e.u64 = min ? UINT64_MAX : 0;
      break;
    case NW_TYPE_FLOAT:
      e.f = min ? INFINITY : -INFINITY;
      break;
    default:
      e.d = min ? INFINITY : -INFINITY;
      break;
    }
    return e;
  }
  default: /* add, logical or and xor, bit or and xor */
    return of_int(type, 0);
  }
}

/* a op b, written out here: integer sums and products wrap, min and max keep a on ties,
 * logical ops give 1 or 0, bitwise ones act on bit patterns. */
static elem ref_combine(int op, int type, elem a, elem b) {
  if (op >= NW_REDUCE_BIT_AND) {
    uint64_t x = bits_of(type, a), y = bits_of(type, b);
    return from_bits(type, op == NW_REDUCE_BIT_AND  ? x & y
                           : op == NW_REDUCE_BIT_OR ? x | y
                                                    : x ^ y);
  }
  if (op >= NW_REDUCE_LOGICAL_AND) {
    int p = truth(type, a), q = truth(type, b);
    return of_int(type, op == NW_REDUCE_LOGICAL_AND  ? p && q
                        : op == NW_REDUCE_LOGICAL_OR ? p || q
                                                     : p != q);
  }
  elem r = a;
#define ARITH(F, T, U)                                                                             \
  r.F = op == NW_REDUCE_ADD       ? (T)((U)a.F + (U)b.F)                                           \
        : op == NW_REDUCE_PRODUCT ? (T)((U)a.F * (U)b.F)                                           \
        : op == NW_REDUCE_MIN     ? (b.F < a.F ? b.F : a.F)                                        \
                                  : (b.F > a.F ? b.F : a.F)
  switch (type) {
  case NW_TYPE_INT32:
    ARITH(i32, int32_t, uint32_t);
    break;
  case NW_TYPE_UINT32:
    ARITH(u32, uint32_t, uint32_t);
    break;
  case NW_TYPE_INT64:
    ARITH(i64, int64_t, uint64_t);
    break;
  case NW_TYPE_UINT64:
    ARITH(u64, uint64_t, uint64_t);
    break;
  case NW_TYPE_FLOAT:
    ARITH(f, float, float);
    break;
  default:
    ARITH(d, double, double);
    break;
  }
#undef ARITH
  return r;
}

static uint64_t next(uint64_t *s) { /* splitmix64 */
  uint64_t z = (*s += 0x9e3779b97f4a7c15ull);
  z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
  z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
  return z ^ (z >> 31);
}

/* A finite floating value from random bits (NaN and infinity patterns folded to finite). */
static elem finite(int type, uint64_t r) {
  elem e = from_bits(type, r);
  if (type == NW_TYPE_FLOAT && !isfinite(e.f))
    e.f = (float)(r % 1000) - 500.0f;
  if (type == NW_TYPE_DOUBLE && !isfinite(e.d))
    e.d = (double)(r % 1000) - 500.0;
  return e;
}

/* A value for op over type. `any_order`: the values must combine to the same bits in every
 * order (the runtime combines subtasks as they finish): floating sums of small integers,
 * products of small powers of two, no -0.0 beside +0.0 for min and max. Otherwise anything
 * but NaN. */
static elem value_for(int op, int type, uint64_t *rng, int any_order) {
  uint64_t r = next(rng);
  if (!is_float(type))
    return from_bits(type, r);
  if (op >= NW_REDUCE_BIT_AND)
    return from_bits(type, r);
  if (op >= NW_REDUCE_LOGICAL_AND) {
    static const double pick[] = {0, 1, 2.5, -3, 0, -0.0};
    elem e;
    memset(&e, 0, sizeof e);
    double v = pick[r % 6];
    if (type == NW_TYPE_FLOAT)
      e.f = (float)v;
    else
      e.d = v;
    return e;
  }
  if (op == NW_REDUCE_ADD && any_order)
    return of_int(type, (int64_t)(r % 101) - 50);
  if (op == NW_REDUCE_PRODUCT) {
    if (r % 8 == 0)
      return of_int(type, 0);
    double v = ldexp(r & 8 ? -1.0 : 1.0, (int)((r >> 4) % 5) - 2); /* +-2^-2 .. 2^2 */
    if (!any_order)
      v *= 1.0 + (double)(r >> 40) / (double)(1ull << 24); /* rounds: the order is fixed */
    elem e;
    memset(&e, 0, sizeof e);
    if (type == NW_TYPE_FLOAT)
      e.f = (float)v;
    else
      e.d = v;
    return e;
  }
  /* add (fixed order), min, max: any finite value, the extremes now and then */
  elem e = finite(type, r);
  static const double extreme[] = {0, 1, -1, -0.0};
  if (r % 16 < 4) {
    double v = extreme[r % 4];
    if (type == NW_TYPE_FLOAT)
      e.f = r % 16 == 0 ? FLT_MAX : r % 16 == 1 ? -FLT_MAX : (float)v;
    else
      e.d = r % 16 == 0 ? DBL_MAX : r % 16 == 1 ? -DBL_MAX : v;
  }
  if (any_order && (type == NW_TYPE_FLOAT ? e.f == 0 : e.d == 0))
    e = of_int(type, 0); /* +0.0 only */
  return e;
}

/* ---- identities */

static elem typed_float(int type, double v) {
  elem e;
  memset(&e, 0, sizeof e);
  if (type == NW_TYPE_FLOAT)
    e.f = (float)v;
  else
    e.d = v;
  return e;
}

static void test_identities(void) {
  for (int type = NW_TYPE_INT32; type <= NW_TYPE_DOUBLE; type++) {
    CHECK(nw_elem_size((nw_elem_type)type) == esize(type));
    elem xs[16];
    int nx = 0;
    if (is_float(type)) {
      int f = type == NW_TYPE_FLOAT;
      static const double plain[] = {0.0,    -0.0,    1.0,      -1.0,     3.25,
                                     -1e-30, 6.02e23, INFINITY, -INFINITY};
      for (size_t k = 0; k < sizeof plain / sizeof plain[0]; k++)
        xs[nx++] = typed_float(type, plain[k]);
      xs[nx++] = typed_float(type, f ? FLT_MAX : DBL_MAX);
      xs[nx++] = typed_float(type, f ? -FLT_MAX : -DBL_MAX);
      xs[nx++] = typed_float(type, f ? FLT_MIN : DBL_MIN);
      xs[nx++] = from_bits(type, 1); /* the smallest denormal */
    } else {
      int sig = type == NW_TYPE_INT32 || type == NW_TYPE_INT64, wide = esize(type) == 8;
      static const int64_t plain[] = {0, 1, -1, 2, -7, 123456789, -987654321};
      for (size_t k = 0; k < sizeof plain / sizeof plain[0]; k++)
        xs[nx++] = of_int(type, plain[k]);
      uint64_t top = wide ? 1ull << 63 : 1ull << 31, all = wide ? UINT64_MAX : UINT32_MAX;
      xs[nx++] = from_bits(type, top);          /* the signed minimum, or a large unsigned */
      xs[nx++] = from_bits(type, top - 1);      /* the signed maximum */
      xs[nx++] = from_bits(type, all);          /* -1, or the unsigned maximum */
      xs[nx++] = from_bits(type, sig ? 5 : 77); /* one more small one */
    }
    for (int op = NW_REDUCE_ADD; op <= OPS; op++) {
      elem id, want = ref_identity(op, type);
      memset(&id, 0, sizeof id);
      CHECK(nw_reduce_identity((nw_reduce_op)op, (nw_elem_type)type, id.b) == NW_OK);
      CHECK(bits_of(type, id) == bits_of(type, want));
      for (int k = 0; k < nx; k++) {
        elem x = xs[k];
        elem expect = op >= NW_REDUCE_LOGICAL_AND && op <= NW_REDUCE_LOGICAL_XOR
                          ? of_int(type, truth(type, x))
                          : x;
        for (int side = 0; side < 2; side++) { /* id op x, x op id */
          elem into = side ? x : id, from = side ? id : x;
          nw_reduce_builtin((nw_reduce_op)op, (nw_elem_type)type, into.b, from.b, esize(type));
          int same = bits_of(type, into) == bits_of(type, expect);
          if (!same && op == NW_REDUCE_ADD && is_float(type) &&
              bits_of(type, x) == bits_of(type, typed_float(type, -0.0)))
            /* +0.0 + -0.0 is +0.0: equal, not the same bits (narwhal.h says why) */
            same = bits_of(type, into) == 0;
          if (!same)
            fprintf(stderr, "identity of %s over %s with x = %llx gives %llx\n",
                    nw_reduce_op_name((nw_reduce_op)op), nw_reduce_type_name((nw_elem_type)type),
                    (unsigned long long)bits_of(type, x), (unsigned long long)bits_of(type, into));
          CHECK(same);
        }
      }
    }
  }
  unsigned char out[8];
  CHECK(nw_reduce_identity(NW_REDUCE_CUSTOM, NW_TYPE_UINT32, out) == NW_ERR_ARG);
  CHECK(nw_reduce_identity((nw_reduce_op)0, NW_TYPE_UINT32, out) == NW_ERR_ARG);
  CHECK(nw_reduce_identity((nw_reduce_op)99, NW_TYPE_UINT32, out) == NW_ERR_ARG);
  CHECK(nw_reduce_identity(NW_REDUCE_ADD, (nw_elem_type)0, out) == NW_ERR_ARG);
  CHECK(nw_reduce_identity(NW_REDUCE_ADD, (nw_elem_type)7, out) == NW_ERR_ARG);
  CHECK(nw_reduce_identity(NW_REDUCE_ADD, NW_TYPE_UINT32, NULL) == NW_ERR_ARG);
  CHECK(nw_elem_size((nw_elem_type)0) == 0 && nw_elem_size((nw_elem_type)7) == 0);
}

/* ---- an emitter fed a random stream */

enum { GUARD = 24, FIRST = 1000, COUNT = 97, PAIRS = 3000 };

static void test_stream(void) {
  for (int type = NW_TYPE_INT32; type <= NW_TYPE_DOUBLE; type++)
    for (int op = NW_REDUCE_ADD; op <= OPS; op++) {
      size_t es = esize(type);
      unsigned char buf[GUARD + COUNT * 8 + GUARD];
      memset(buf, 0xA5, sizeof buf);
      nw_emitter e;
      CHECK(nw_emitter_init_buffer(&e, buf + GUARD, (nw_reduce_op)op, (nw_elem_type)type, FIRST,
                                   COUNT) == NW_OK);
      elem want[COUNT];
      for (int k = 0; k < COUNT; k++)
        want[k] = ref_identity(op, type);
      uint64_t rng = (uint64_t)(op * 16 + type), refused = 0;
      static const uint64_t outside[] = {FIRST - 1, FIRST + COUNT, 0, UINT64_MAX,
                                         FIRST + COUNT + 1000};
      int wrong_status = 0;
      for (int i = 0; i < PAIRS; i++) {
        if (i % 50 == 49) {
          elem v = value_for(op, type, &rng, 0);
          wrong_status += nw_emit(&e, outside[(i / 50) % 5], v.b) != NW_ERR_RANGE;
          refused++;
          continue;
        }
        uint64_t key = FIRST + next(&rng) % COUNT;
        if (key % 5 == 0) /* these keys are never emitted */
          continue;
        elem v = value_for(op, type, &rng, 0);
        wrong_status += nw_emit(&e, key, v.b) != NW_OK;
        want[key - FIRST] = ref_combine(op, type, want[key - FIRST], v);
      }
      CHECK(wrong_status == 0);
      CHECK(e.refused == refused);
      int differ = 0;
      for (int k = 0; k < COUNT; k++)
        differ += memcmp(buf + GUARD + k * es, want[k].b, es) != 0;
      if (differ)
        fprintf(stderr, "stream: %s over %s: %d of %d keys differ from the serial fold\n",
                nw_reduce_op_name((nw_reduce_op)op), nw_reduce_type_name((nw_elem_type)type),
                differ, COUNT);
      CHECK(differ == 0);
      int guard_ok = 1;
      for (size_t k = 0; k < GUARD; k++)
        guard_ok &= buf[k] == 0xA5 && buf[GUARD + COUNT * es + k] == 0xA5;
      CHECK(guard_ok);
    }
  /* A NULL value is refused too, and counted. */
  uint64_t one[1];
  nw_emitter e;
  CHECK(nw_emitter_init_buffer(&e, one, NW_REDUCE_MIN, NW_TYPE_UINT64, 5, 1) == NW_OK);
  CHECK(one[0] == UINT64_MAX);
  CHECK(nw_emit(&e, 5, NULL) == NW_ERR_ARG && e.refused == 1);
}

/* The emitter on views: only inside what the view holds, contiguous on a GPU. */
static void test_views(void) {
  uint32_t buf[64];
  nw_view v = {.base = (unsigned char *)buf, .lo = 400, .hi = 400 + sizeof buf};
  nw_emitter e;
  CHECK(nw_emitter_init(&e, &v, NW_REDUCE_MAX, NW_TYPE_UINT32, 100, 64) == NW_OK);
  CHECK(e.elems == (unsigned char *)buf && buf[0] == 0 && buf[63] == 0);
  CHECK(nw_emitter_init(&e, &v, NW_REDUCE_MIN, NW_TYPE_INT32, 110, 10) == NW_OK);
  CHECK(e.elems == (unsigned char *)&buf[10] && buf[10] == INT32_MAX && buf[19] == INT32_MAX);
  CHECK(buf[9] == 0 && buf[20] == 0); /* only its keys */
  uint32_t x = 7;
  CHECK(nw_emit(&e, 115, &x) == NW_OK && buf[15] == 7);
  CHECK(nw_emit(&e, 120, &x) == NW_ERR_RANGE && buf[20] == 0);
  CHECK(nw_emitter_init(&e, &v, NW_REDUCE_MAX, NW_TYPE_UINT32, 99, 2) == NW_ERR_RANGE);
  CHECK(nw_emit(&e, 99, &x) == NW_ERR_RANGE && nw_emit(&e, 100, &x) == NW_ERR_RANGE); /* none */
  CHECK(nw_emitter_init(&e, &v, NW_REDUCE_MAX, NW_TYPE_UINT32, 160, 5) == NW_ERR_RANGE);
  CHECK(nw_emitter_init(&e, &v, NW_REDUCE_MAX, NW_TYPE_UINT64, UINT64_MAX / 4, 4) ==
        NW_ERR_RANGE); /* past 2^64 bytes */
  CHECK(nw_emitter_init(&e, &v, NW_REDUCE_CUSTOM, NW_TYPE_UINT32, 100, 4) == NW_ERR_ARG);
  CHECK(nw_emitter_init(&e, &v, NW_REDUCE_ADD, (nw_elem_type)9, 100, 4) == NW_ERR_ARG);
  nw_view none = {.base = NULL, .lo = 0, .hi = 0}; /* phantom data, or no write subscription */
  CHECK(nw_emitter_init(&e, &none, NW_REDUCE_ADD, NW_TYPE_UINT32, 0, 1) == NW_ERR_ARG);

  /* A GPU rectangle: rows 2-4, byte columns 8-39 of a 64-byte pitch, packed 32 bytes a row. */
  uint32_t dev[3 * 8];
  nw_gpu_view g = {.base = (unsigned char *)dev,
                   .row0 = 2,
                   .rows = 3,
                   .col0 = 8,
                   .width = 32,
                   .pitch = 32,
                   .space_pitch = 64};
  /* row 3, columns 8-39: keys (3 * 64 + 8) / 4 = 50 .. 57, at dev[8 .. 15] */
  CHECK(nw_emitter_init_gpu(&e, &g, NW_REDUCE_PRODUCT, NW_TYPE_UINT32, 50, 8) == NW_OK);
  CHECK(e.elems == (unsigned char *)&dev[8] && dev[8] == 1 && dev[15] == 1);
  CHECK(nw_emitter_init_gpu(&e, &g, NW_REDUCE_ADD, NW_TYPE_UINT32, 50, 9) == NW_ERR_RANGE);
  CHECK(nw_emitter_init_gpu(&e, &g, NW_REDUCE_ADD, NW_TYPE_UINT32, 49, 1) == NW_ERR_RANGE);
  CHECK(nw_emitter_init_gpu(&e, &g, NW_REDUCE_ADD, NW_TYPE_UINT32, 54, 16) == NW_ERR_RANGE);
  CHECK(nw_emitter_init_gpu(&e, &g, NW_REDUCE_ADD, NW_TYPE_UINT32, 18, 2) == NW_ERR_RANGE);
  /* whole rows: rows 2-4 of the full width, keys 32 .. 79 contiguous */
  uint32_t rows[3 * 16];
  nw_gpu_view w = {.base = (unsigned char *)rows,
                   .row0 = 2,
                   .rows = 3,
                   .col0 = 0,
                   .width = 64,
                   .pitch = 64,
                   .space_pitch = 64};
  CHECK(nw_emitter_init_gpu(&e, &w, NW_REDUCE_BIT_AND, NW_TYPE_UINT32, 36, 40) == NW_OK);
  CHECK(e.elems == (unsigned char *)&rows[4] && rows[4] == UINT32_MAX && rows[43] == UINT32_MAX);
  CHECK(nw_emitter_init_gpu(&e, &w, NW_REDUCE_ADD, NW_TYPE_UINT32, 36, 45) == NW_ERR_RANGE);
  CHECK(nw_emitter_init_gpu(&e, &w, NW_REDUCE_ADD, NW_TYPE_UINT32, 31, 2) == NW_ERR_RANGE);
}

/* ---- MapReduce tasks on the loop backend */

typedef struct mr_conf {
  int op, type;
  uint64_t keys;          /* of the output */
  uint64_t stride, width; /* subtask k's keys: [k * stride, k * stride + width), clipped */
  uint64_t pairs;         /* emitted per subtask */
  /* Refusals: every subtask subscribes keys past the output (1), no keys (2), keys of an
   * unknown type (3). */
  int bad_keys;
} mr_conf;

static int kernel_faults; /* emits answered otherwise than they should have been */

static void key_range(const mr_conf *c, uint64_t k, uint64_t *lo, uint64_t *n) {
  uint64_t end = k * c->stride + c->width;
  *lo = k * c->stride;
  *n = (end < c->keys ? end : c->keys) - *lo;
}

static nw_status mr_sub(nw_subscriber *s, const nw_task_info *t, uint64_t k) {
  const mr_conf *c = t->conf;
  uint64_t lo, n;
  key_range(c, k, &lo, &n);
  nw_status st = nw_subscribe(s, 0, NW_READ_ONLY, k * 8, 8, 8, 1); /* its salt */
  if (st == NW_OK)
    st = nw_subscribe_keys(s, 1, c->bad_keys == 3 ? (nw_elem_type)0 : (nw_elem_type)c->type, lo,
                           c->bad_keys == 2 ? 0 : n + (c->bad_keys == 1 ? c->keys : 0));
  return st;
}

/* Subtask k's stream: `pairs` keys of its range drawn from its salt, keys = 3 (mod 7) never,
 * and one key just past its range (refused). The reference replays it. */
typedef void (*pair_fn)(void *ctx, uint64_t key, elem v);

static void stream(const mr_conf *c, uint64_t k, uint64_t salt, pair_fn f, void *ctx) {
  uint64_t lo, n, rng = salt;
  key_range(c, k, &lo, &n);
  for (uint64_t i = 0; i < c->pairs; i++) {
    uint64_t key = lo + next(&rng) % n;
    elem v = value_for(c->op, c->type, &rng, 1);
    if (key % 7 != 3)
      f(ctx, key, v);
  }
}

static void emit_pair(void *ctx, uint64_t key, elem v) {
  if (nw_emit(ctx, key, v.b) != NW_OK)
    kernel_faults++;
}

static void mr_kernel(const nw_task_info *t, uint64_t k, const nw_view *v) {
  const mr_conf *c = t->conf;
  uint64_t lo, n, salt;
  key_range(c, k, &lo, &n);
  memcpy(&salt, nw_view_at(&v[0], k * 8), 8);
  nw_emitter e;
  if (nw_emitter_init(&e, &v[1], (nw_reduce_op)c->op, (nw_elem_type)c->type, lo, n) != NW_OK) {
    kernel_faults++;
    return;
  }
  stream(c, k, salt, emit_pair, &e);
  elem any = ref_identity(c->op, c->type);
  if (nw_emit(&e, lo + n, any.b) != NW_ERR_RANGE || e.refused != 1)
    kernel_faults++;
}

static double mr_flops(const nw_task_info *t, uint64_t k, nw_device_kind kind) {
  (void)t, (void)k, (void)kind;
  return 2e4;
}

static const nw_task_kind mr_kind = {
    .name = "mr", .subscribe = mr_sub, .cpu_kernel = mr_kernel, .flops = mr_flops};

static mr_conf the_conf;
static int exact;

typedef struct fold_ctx {
  const mr_conf *c;
  elem *want;
} fold_ctx;

static void fold_pair(void *ctx, uint64_t key, elem v) {
  fold_ctx *f = ctx;
  f->want[key] = ref_combine(f->c->op, f->c->type, f->want[key], v);
}

static uint64_t salt_of(uint64_t k) {
  uint64_t s = k * 1000003 + 17;
  return next(&s);
}

static nw_status mr_main(nw_runtime *rt, const nw_app_args *a, nw_app_outcome *out) {
  (void)a;
  const mr_conf *c = &the_conf;
  size_t es = esize(c->type);
  uint64_t subtasks = (c->keys - c->width) / c->stride; /* the last keys lie in no range */
  uint64_t bytes = c->keys * es;
  elem *want = malloc(c->keys * sizeof *want);
  unsigned char *got = malloc(bytes), *before = malloc(bytes);
  uint64_t *salts = malloc(subtasks * 8);
  for (uint64_t k = 0; k < c->keys; k++)
    want[k] = ref_identity(c->op, c->type);
  for (uint64_t k = 0; k < subtasks; k++)
    salts[k] = salt_of(k);
  fold_ctx f = {c, want};
  for (uint64_t k = 0; k < subtasks; k++)
    stream(c, k, salts[k], fold_pair, &f);
  memset(before, 0x5A, bytes); /* what an earlier task left: gone after the task */
  nw_space *in = NULL, *o = NULL;
  nw_task *t = NULL;
  nw_status st = nw_space_create(rt, subtasks * 8, 64, &in);
  if (st == NW_OK)
    st = nw_space_write(in, 0, salts, subtasks * 8);
  if (st == NW_OK)
    st = nw_space_create(rt, bytes, es * 16, &o); /* rows of 16 keys */
  if (st == NW_OK)
    st = nw_space_write(o, 0, before, bytes);
  nw_mapreduce_spec m = {.kind = &mr_kind,
                         .subtasks = subtasks,
                         .conf = c,
                         .conf_size = sizeof *c,
                         .inputs = &in,
                         .ninputs = 1,
                         .output = o,
                         .op = (nw_reduce_op)c->op,
                         .type = (nw_elem_type)c->type};
  if (st == NW_OK)
    st = nw_mapreduce_create(rt, &m, &t);
  if (st == NW_OK)
    st = nw_task_submit(t);
  if (st == NW_OK)
    st = nw_task_wait(t);
  if (st == NW_OK)
    st = nw_space_read(o, 0, got, bytes);
  uint64_t differ = 0, first = 0;
  for (uint64_t k = 0; st == NW_OK && k < c->keys; k++)
    if (memcmp(got + k * es, want[k].b, es) != 0 && differ++ == 0)
      first = k;
  if (differ) {
    elem g;
    memset(&g, 0, sizeof g);
    memcpy(g.b, got + first * es, es);
    fprintf(stderr, "mapreduce: %s over %s: key %llu is %llx, the serial fold %llx (%llu differ)\n",
            nw_reduce_op_name((nw_reduce_op)c->op), nw_reduce_type_name((nw_elem_type)c->type),
            (unsigned long long)first, (unsigned long long)bits_of(c->type, g),
            (unsigned long long)bits_of(c->type, want[first]), (unsigned long long)differ);
  }
  exact = st == NW_OK && differ == 0;
  out->verified = exact;
  nw_task_destroy(t);
  if (in)
    nw_space_destroy(in);
  if (o)
    nw_space_destroy(o);
  free(want);
  free(got);
  free(before);
  free(salts);
  return st;
}

static const nw_app mr_app = {"mr", (const nw_task_kind *const[]){&mr_kind, NULL}, NULL, mr_main};

static nw_run_result run_mr(const loop_config *lc, const mr_conf *c) {
  the_conf = *c;
  exact = 0;
  kernel_faults = 0;
  nw_app_args args = {.seed = 1};
  nw_run_result res;
  nw_status st = loop_run(lc, &mr_app, &args, &res);
  if (st != NW_OK)
    fprintf(stderr, "mapreduce: %s over %s on %d nodes failed: %s\n",
            nw_reduce_op_name((nw_reduce_op)c->op), nw_reduce_type_name((nw_elem_type)c->type),
            lc->nodes, res.error);
  CHECK(st == NW_OK && exact);
  CHECK(kernel_faults == 0);
  return res;
}

static const mr_conf base_conf = {.keys = 200, .stride = 15, .width = 30, .pairs = 40};

static void test_tasks(void) {
  for (int nodes = 1; nodes <= 5; nodes += 2)
    for (int op = NW_REDUCE_ADD; op <= OPS; op++)
      for (int type = NW_TYPE_INT32; type <= NW_TYPE_DOUBLE; type++) {
        loop_config lc;
        loop_config_defaults(&lc);
        lc.nodes = nodes;
        lc.jitter_s = (op + type) % 2 ? 2e-4 : 0;
        lc.seed = (uint64_t)(nodes * 100 + op * 10 + type);
        mr_conf c = base_conf;
        c.op = op;
        c.type = type;
        nw_run_result res = run_mr(&lc, &c);
        if (nodes > 1)
          CHECK(res.total.bytes_reduction_raw > 0); /* nodes combined their partial results */
        nw_run_result_free(&res);
      }
}

/* Copies of a slowed node's subtasks, and compressed partial results (min's identity is no
 * zero run, so they compress less than add's would: they must still arrive right). */
static void test_copies_and_compression(void) {
  static const int ops[] = {NW_REDUCE_MIN, NW_REDUCE_MAX, NW_REDUCE_PRODUCT, NW_REDUCE_BIT_AND};
  for (int i = 0; i < 4; i++) {
    loop_config lc;
    loop_config_defaults(&lc);
    lc.nodes = 4;
    lc.slow_node_factor = 8;
    lc.jitter_s = 1e-4;
    lc.compress_network = i % 2;
    mr_conf c = base_conf;
    c.op = ops[i];
    c.type = i < 2 ? NW_TYPE_DOUBLE : NW_TYPE_INT64;
    c.pairs = 200;
    nw_run_result res = run_mr(&lc, &c);
    CHECK(res.total.multi_assigned > 0);
    nw_run_result_free(&res);
  }
}

/* ---- refusals */

static int refusal_case;
static char refusal_error[512];
static int refusal_out_null;

static nw_status refusal_main(nw_runtime *rt, const nw_app_args *a, nw_app_outcome *out) {
  (void)a, (void)out;
  static mr_conf c;
  c = base_conf;
  c.op = NW_REDUCE_MIN;
  c.type = NW_TYPE_UINT64;
  nw_space *in, *o, *odd;
  nw_space_create(rt, 13 * 8, 64, &in);
  nw_space_create(rt, 200 * 8, 128, &o);
  nw_space_create(rt, 20, 20, &odd);
  static nw_space
      *many[NW_MAX_BOUND_SPACES]; /* one input more than a task can bind with its output */
  for (int i = 0; i < NW_MAX_BOUND_SPACES; i++)
    many[i] = in;
  nw_mapreduce_spec m = {.kind = &mr_kind,
                         .subtasks = 13,
                         .conf = &c,
                         .conf_size = sizeof c,
                         .inputs = &in,
                         .ninputs = 1,
                         .output = o,
                         .op = NW_REDUCE_MIN,
                         .type = NW_TYPE_UINT64};
  nw_task *t = (nw_task *)&m, *first = NULL; /* not NULL: the call must clear it */
  nw_status st = NW_OK;
  switch (refusal_case) {
  case 0:
    m.op = NW_REDUCE_CUSTOM;
    break;
  case 1:
    m.type = (nw_elem_type)9;
    break;
  case 2:
    m.op = (nw_reduce_op)42;
    break;
  case 3:
    m.output = odd;
    break;
  case 4:
    m.flags = 6;
    break;
  case 5:
    m.inputs = many;
    m.ninputs = NW_MAX_BOUND_SPACES;
    break;
  case 6:
    m.output = NULL;
    break;
  case 7:
    m.output = in; /* bound read-only already */
    m.type = NW_TYPE_INT64;
    break;
  case 8: /* the fill while an earlier MapReduce task on the output still runs */
    st = nw_mapreduce_create(rt, &m, &first);
    if (st == NW_OK)
      st = nw_task_submit(first);
    break;
  default: /* subscriptions of bad keys: refused at submission */
    c.bad_keys = refusal_case - 8;
    break;
  }
  if (st == NW_OK) {
    st = nw_mapreduce_create(rt, &m, &t);
    refusal_out_null = st == NW_OK || t == NULL;
    if (st != NW_OK)
      t = NULL;
  }
  if (st == NW_OK)
    st = nw_task_submit(t);
  snprintf(refusal_error, sizeof refusal_error, "%s", nw_runtime_error(rt));
  if (first)
    nw_task_wait(first);
  nw_task_destroy(first);
  if (st == NW_OK)
    nw_task_wait(t);
  nw_task_destroy(t == (nw_task *)&m ? NULL : t);
  nw_space_destroy(in);
  nw_space_destroy(o);
  nw_space_destroy(odd);
  return st;
}

static const nw_app refusal_app = {"refusal", (const nw_task_kind *const[]){&mr_kind, NULL}, NULL,
                                   refusal_main};

static void test_refusals(void) {
  static const char *const says[] = {"NW_REDUCE_CUSTOM has no identity",
                                     "unknown element type 9",
                                     "unknown reduction 42",
                                     "not a whole number of uint64 elements",
                                     "unknown flags 0x6",
                                     "1024 input spaces",
                                     "no output space",
                                     "already bound",
                                     "wait for it first",
                                     "subtask 0, space index 1: quad (offset 0, length 1840, "
                                     "step 1840, count 1) ends at byte 1840, past the end of "
                                     "the 1600-byte space",
                                     "subtask 0, space index 1: subscribes no keys",
                                     "subtask 0, space index 1: keys of an unknown element type"};
  for (refusal_case = 0; refusal_case < 12; refusal_case++) {
    loop_config lc;
    loop_config_defaults(&lc);
    lc.nodes = 2;
    nw_app_args args = {.seed = 1};
    nw_run_result res;
    nw_status st = loop_run(&lc, &refusal_app, &args, &res);
    CHECK(st != NW_OK);
    CHECK(refusal_out_null);
    CHECK(strstr(refusal_error, says[refusal_case]) != NULL);
    if (!strstr(refusal_error, says[refusal_case]))
      fprintf(stderr, "refusal %d said: %s\n", refusal_case, refusal_error);
    nw_run_result_free(&res);
  }
}

int main(void) {
  test_identities();
  test_stream();
  test_views();
  test_tasks();
  test_copies_and_compression();
  test_refusals();
  return check_report("mapreduce");
}
