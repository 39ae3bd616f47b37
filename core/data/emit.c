/* emit.c: the kernel side of MapReduce (narwhal.h, "MapReduce"; paper section 4.6).
 *
 * A map subtask's output is a dense array of elements indexed by key, in the private view of
 * a reduced write-only space. That view starts as zeros, which is the identity of ADD, OR and
 * XOR only: a MIN subtask that never emits key k would commit 0 for it and win every
 * comparison with positive values. An emitter therefore starts its keys at the operation's
 * identity and folds each emitted value into its key with the same combination the runtime
 * applies between subtasks and nodes (reduce.c), so a key's final value is the fold of every
 * value emitted for it, whichever subtask emitted it.
 */
#include <math.h>
#include <string.h>

#include "reduce.h"

size_t nw_elem_size(nw_elem_type type) {
  return nw_reduce_elem_size(type);
}

/* The identity as a 64-bit pattern of one element, or -1 when op and type have none. */
static int identity_bits(nw_reduce_op op, nw_elem_type type, uint64_t *bits) {
  size_t es = nw_reduce_elem_size(type);
  if (!es || !nw_reduce_op_name(op) || op == NW_REDUCE_CUSTOM)
    return -1;
  uint64_t ones = es == 8 ? UINT64_MAX : UINT32_MAX;
  float f;
  double d;
  uint32_t f_bits;
  switch (op) {
  case NW_REDUCE_ADD: /* +0.0 for floats too: see nw_reduce_identity in narwhal.h */
  case NW_REDUCE_LOGICAL_OR:
  case NW_REDUCE_LOGICAL_XOR:
  case NW_REDUCE_BIT_OR:
  case NW_REDUCE_BIT_XOR:
    *bits = 0;
    return 0;
  case NW_REDUCE_BIT_AND:
    *bits = ones;
    return 0;
  case NW_REDUCE_PRODUCT:
  case NW_REDUCE_LOGICAL_AND:
    f = 1.0f, d = 1.0;
    break;
  case NW_REDUCE_MIN:
    f = INFINITY, d = INFINITY;
    break;
  default: /* NW_REDUCE_MAX */
    f = -INFINITY, d = -INFINITY;
    break;
  }
  switch (type) {
  case NW_TYPE_INT32:
    *bits = op == NW_REDUCE_MIN   ? (uint32_t)INT32_MAX
            : op == NW_REDUCE_MAX ? (uint32_t)1 << 31 /* INT32_MIN's pattern */
                                  : 1;
    break;
  case NW_TYPE_INT64:
    *bits = op == NW_REDUCE_MIN ? (uint64_t)INT64_MAX : op == NW_REDUCE_MAX ? (uint64_t)1 << 63 : 1;
    break;
  case NW_TYPE_UINT32:
  case NW_TYPE_UINT64:
    *bits = op == NW_REDUCE_MIN ? ones : op == NW_REDUCE_MAX ? 0 : 1;
    break;
  case NW_TYPE_FLOAT:
    memcpy(&f_bits, &f, sizeof f_bits);
    *bits = f_bits;
    break;
  case NW_TYPE_DOUBLE:
    memcpy(bits, &d, sizeof d);
    break;
  }
  return 0;
}

/* One element's bytes from its 64-bit pattern (little or big endian alike). */
static void put_bits(void *out, uint64_t bits, size_t es) {
  if (es == 8) {
    memcpy(out, &bits, 8);
  } else {
    uint32_t b = (uint32_t)bits;
    memcpy(out, &b, 4);
  }
}

nw_status nw_reduce_identity(nw_reduce_op op, nw_elem_type type, void *out) {
  uint64_t bits = 0; /* set by identity_bits; initialised for -O3 -Wmaybe-uninitialized */
  if (!out || identity_bits(op, type, &bits) != 0)
    return NW_ERR_ARG;
  put_bits(out, bits, nw_reduce_elem_size(type));
  return NW_OK;
}

nw_status nw_emitter_init_buffer(nw_emitter *e, void *elems, nw_reduce_op op, nw_elem_type type,
                                 uint64_t first, uint64_t count) {
  uint64_t bits = 0; /* set by identity_bits; initialised for -O3 -Wmaybe-uninitialized */
  if (!e)
    return NW_ERR_ARG;
  memset(e, 0, sizeof *e);
  if (!elems || identity_bits(op, type, &bits) != 0)
    return NW_ERR_ARG;
  size_t es = nw_reduce_elem_size(type);
  if (count > SIZE_MAX / es)
    return NW_ERR_RANGE;
  *e = (nw_emitter){.elems = elems,
                    .first = first,
                    .count = count,
                    .elem_size = es,
                    .op = op,
                    .type = type,
                    .fold = nw_reduce_fold(op, type)};
  size_t bytes = (size_t)count * es;
  if (bits == 0) {
    memset(elems, 0, bytes);
  } else if (bytes > 0) { /* one element, then the filled part doubled */
    unsigned char *p = elems;
    put_bits(p, bits, es);
    for (size_t done = es; done < bytes;) {
      size_t n = done < bytes - done ? done : bytes - done;
      memcpy(p + done, p, n);
      done += n;
    }
  }
  return NW_OK;
}

/* Byte offset of key k (first * es) and the range's end, or -1 past 2^64. */
static int key_bytes(nw_elem_type type, uint64_t first, uint64_t count, uint64_t *lo,
                     uint64_t *hi) {
  uint64_t es = nw_reduce_elem_size(type);
  if (!es || first > UINT64_MAX / es || count > UINT64_MAX / es ||
      first * es > UINT64_MAX - count * es)
    return -1;
  *lo = first * es;
  *hi = *lo + count * es;
  return 0;
}

nw_status nw_emitter_init(nw_emitter *e, const nw_view *v, nw_reduce_op op, nw_elem_type type,
                          uint64_t first, uint64_t count) {
  uint64_t lo, hi;
  if (e)
    memset(e, 0, sizeof *e);
  if (!e || !v || !v->base || !nw_reduce_elem_size(type))
    return NW_ERR_ARG;
  if (key_bytes(type, first, count, &lo, &hi) != 0 || lo < v->lo || hi > v->hi)
    return NW_ERR_RANGE; /* not inside what the subtask subscribed to write */
  return nw_emitter_init_buffer(e, nw_view_at(v, lo), op, type, first, count);
}

nw_status nw_emitter_init_gpu(nw_emitter *e, const nw_gpu_view *v, nw_reduce_op op,
                              nw_elem_type type, uint64_t first, uint64_t count) {
  uint64_t lo, hi;
  if (e)
    memset(e, 0, sizeof *e);
  if (!e || !v || !v->base || !v->space_pitch || !nw_reduce_elem_size(type))
    return NW_ERR_ARG;
  if (key_bytes(type, first, count, &lo, &hi) != 0)
    return NW_ERR_RANGE;
  if (count > 0) {
    /* The keys must lie in the device's rectangle and be contiguous there: inside one row of
     * it, or over whole rows of a rectangle as wide as the space (as one quad's bytes are). */
    uint64_t p = v->space_pitch, r0 = lo / p, r1 = (hi - 1) / p;
    int rows_in = r0 >= v->row0 && r1 < v->row0 + v->rows;
    int one_row = r0 == r1 && lo % p >= v->col0 && (hi - 1) % p < v->col0 + v->width;
    int whole_rows = v->col0 == 0 && v->width == p && v->pitch == p;
    if (!rows_in || !(one_row || whole_rows))
      return NW_ERR_RANGE;
  }
  return nw_emitter_init_buffer(e, count > 0 ? nw_gpu_view_at(v, lo) : v->base, op, type, first,
                                count);
}
