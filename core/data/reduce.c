/* reduce.c: the built-in reductions and the merge step (reduce.h). */
#include "reduce.h"

#include <stdlib.h>
#include <string.h>

size_t nw_reduce_elem_size(nw_elem_type type) {
  switch (type) {
  case NW_TYPE_INT32:
  case NW_TYPE_UINT32:
  case NW_TYPE_FLOAT:
    return 4;
  case NW_TYPE_INT64:
  case NW_TYPE_UINT64:
  case NW_TYPE_DOUBLE:
    return 8;
  }
  return 0;
}

const char *nw_reduce_op_name(nw_reduce_op op) {
  static const char *const names[] = {NULL,      "add",         "min",        "max",
                                      "product", "logical_and", "logical_or", "logical_xor",
                                      "bit_and", "bit_or",      "bit_xor",    "custom"};
  return op >= NW_REDUCE_ADD && op <= NW_REDUCE_CUSTOM ? names[op] : NULL;
}

const char *nw_reduce_type_name(nw_elem_type type) {
  static const char *const names[] = {NULL,     "int32", "uint32", "int64",
                                      "uint64", "float", "double"};
  return type >= NW_TYPE_INT32 && type <= NW_TYPE_DOUBLE ? names[type] : NULL;
}

/* One element: a op b. Integer sums and products wrap (computed unsigned: signed overflow is
 * undefined in C); bitwise operations on floating types act on their bit patterns (BITS). */
#define COMBINE(T, BITS, a, b, op, out)                                                            \
  do {                                                                                             \
    switch (op) {                                                                                  \
    case NW_REDUCE_ADD:                                                                            \
      out = ARITH_ADD(T, BITS, a, b);                                                              \
      break;                                                                                       \
    case NW_REDUCE_PRODUCT:                                                                        \
      out = ARITH_MUL(T, BITS, a, b);                                                              \
      break;                                                                                       \
    case NW_REDUCE_MIN:                                                                            \
      out = (b) < (a) ? (b) : (a);                                                                 \
      break;                                                                                       \
    case NW_REDUCE_MAX:                                                                            \
      out = (b) > (a) ? (b) : (a);                                                                 \
      break;                                                                                       \
    case NW_REDUCE_LOGICAL_AND:                                                                    \
      out = (T)((a) != 0 && (b) != 0);                                                             \
      break;                                                                                       \
    case NW_REDUCE_LOGICAL_OR:                                                                     \
      out = (T)((a) != 0 || (b) != 0);                                                             \
      break;                                                                                       \
    case NW_REDUCE_LOGICAL_XOR:                                                                    \
      out = (T)(((a) != 0) != ((b) != 0));                                                         \
      break;                                                                                       \
    default: { /* bitwise */                                                                       \
      BITS x, y;                                                                                   \
      memcpy(&x, &(a), sizeof x);                                                                  \
      memcpy(&y, &(b), sizeof y);                                                                  \
      x = op == NW_REDUCE_BIT_AND  ? (BITS)(x & y)                                                 \
          : op == NW_REDUCE_BIT_OR ? (BITS)(x | y)                                                 \
                                   : (BITS)(x ^ y);                                                \
      memcpy(&(out), &x, sizeof x);                                                                \
    }                                                                                              \
    }                                                                                              \
  } while (0)

#define LOOP(T, BITS)                                                                              \
  for (uint64_t k = 0; k < bytes; k += sizeof(T)) {                                                \
    T a, b, r;                                                                                     \
    memcpy(&a, (unsigned char *)into + k, sizeof a);                                               \
    memcpy(&b, (const unsigned char *)from + k, sizeof b);                                         \
    COMBINE(T, BITS, a, b, op, r);                                                                 \
    memcpy((unsigned char *)into + k, &r, sizeof r);                                               \
  }

void nw_reduce_builtin(nw_reduce_op op, nw_elem_type type, void *into, const void *from,
                       uint64_t bytes) {
  switch (type) {
#define ARITH_ADD(T, BITS, a, b) (T)((BITS)(a) + (BITS)(b))
#define ARITH_MUL(T, BITS, a, b) (T)((BITS)(a) * (BITS)(b))
  case NW_TYPE_INT32:
    LOOP(int32_t, uint32_t);
    break;
  case NW_TYPE_UINT32:
    LOOP(uint32_t, uint32_t);
    break;
  case NW_TYPE_INT64:
    LOOP(int64_t, uint64_t);
    break;
  case NW_TYPE_UINT64:
    LOOP(uint64_t, uint64_t);
    break;
#undef ARITH_ADD
#undef ARITH_MUL
#define ARITH_ADD(T, BITS, a, b) ((a) + (b))
#define ARITH_MUL(T, BITS, a, b) ((a) * (b))
  case NW_TYPE_FLOAT:
    LOOP(float, uint32_t);
    break;
  case NW_TYPE_DOUBLE:
    LOOP(double, uint64_t);
    break;
#undef ARITH_ADD
#undef ARITH_MUL
  }
}

/* One element of one op and type, the switches above resolved at compile time. */
#define FOLD_ONE(NAME, T, BITS, OP)                                                                \
  static void NAME(void *into, const void *from) {                                                 \
    T a, b, r;                                                                                     \
    memcpy(&a, into, sizeof a);                                                                    \
    memcpy(&b, from, sizeof b);                                                                    \
    COMBINE(T, BITS, a, b, OP, r);                                                                 \
    memcpy(into, &r, sizeof r);                                                                    \
  }
#define FOLDS(T, BITS, TAG)                                                                        \
  FOLD_ONE(add_##TAG, T, BITS, NW_REDUCE_ADD)                                                      \
  FOLD_ONE(min_##TAG, T, BITS, NW_REDUCE_MIN)                                                      \
  FOLD_ONE(max_##TAG, T, BITS, NW_REDUCE_MAX)                                                      \
  FOLD_ONE(product_##TAG, T, BITS, NW_REDUCE_PRODUCT)                                              \
  FOLD_ONE(land_##TAG, T, BITS, NW_REDUCE_LOGICAL_AND)                                             \
  FOLD_ONE(lor_##TAG, T, BITS, NW_REDUCE_LOGICAL_OR)                                               \
  FOLD_ONE(lxor_##TAG, T, BITS, NW_REDUCE_LOGICAL_XOR)                                             \
  FOLD_ONE(band_##TAG, T, BITS, NW_REDUCE_BIT_AND)                                                 \
  FOLD_ONE(bor_##TAG, T, BITS, NW_REDUCE_BIT_OR)                                                   \
  FOLD_ONE(bxor_##TAG, T, BITS, NW_REDUCE_BIT_XOR)
#define FOLD_ROW(TAG)                                                                              \
  {                                                                                                \
    add_##TAG, min_##TAG, max_##TAG, product_##TAG, land_##TAG, lor_##TAG, lxor_##TAG, band_##TAG, \
        bor_##TAG, bxor_##TAG                                                                      \
  }

#define ARITH_ADD(T, BITS, a, b) (T)((BITS)(a) + (BITS)(b))
#define ARITH_MUL(T, BITS, a, b) (T)((BITS)(a) * (BITS)(b))
FOLDS(int32_t, uint32_t, i32)
FOLDS(uint32_t, uint32_t, u32)
FOLDS(int64_t, uint64_t, i64)
FOLDS(uint64_t, uint64_t, u64)
#undef ARITH_ADD
#undef ARITH_MUL
#define ARITH_ADD(T, BITS, a, b) ((a) + (b))
#define ARITH_MUL(T, BITS, a, b) ((a) * (b))
FOLDS(float, uint32_t, f32)
FOLDS(double, uint64_t, f64)
#undef ARITH_ADD
#undef ARITH_MUL

nw_reduce_fold_fn nw_reduce_fold(nw_reduce_op op, nw_elem_type type) {
  static const nw_reduce_fold_fn table[NW_TYPE_DOUBLE][NW_REDUCE_BIT_XOR] = {
      FOLD_ROW(i32), FOLD_ROW(u32), FOLD_ROW(i64), FOLD_ROW(u64), FOLD_ROW(f32), FOLD_ROW(f64)};
  if (op < NW_REDUCE_ADD || op > NW_REDUCE_BIT_XOR || type < NW_TYPE_INT32 || type > NW_TYPE_DOUBLE)
    return NULL;
  return table[type - NW_TYPE_INT32][op - NW_REDUCE_ADD];
}

int nw_reduce_aligned(const nw_region *r, size_t elem_size) {
  for (size_t i = 0; i < r->n; i++) {
    const nw_rect *x = &r->r[i];
    uint64_t first = x->row0 * r->pitch;
    /* Every row's run [row * pitch + col0, row * pitch + col1) must be aligned: the first
     * row's, and the step between rows when there are several. */
    if ((first + x->col0) % elem_size || (first + x->col1) % elem_size ||
        (x->row1 - x->row0 > 1 && r->pitch % elem_size))
      return 0;
  }
  return 1;
}

/* Combines the bytes of `what` (all inside the task's earlier writes) into the space. */
static void combine(const nw_reducer *red, const nw_region *what, const unsigned char *view,
                    uint64_t lo, unsigned char *space) {
  for (size_t i = 0; i < what->n; i++) {
    const nw_rect *r = &what->r[i];
    uint64_t width = r->col1 - r->col0;
    for (uint64_t row = r->row0; row < r->row1; row++) {
      uint64_t at = row * what->pitch + r->col0;
      if (red->op == NW_REDUCE_CUSTOM)
        red->kind->reduce(red->info, red->space, space + at, view + (at - lo), at, width);
      else
        nw_reduce_builtin(red->op, red->type, space + at, view + (at - lo), width);
    }
  }
}

uint64_t nw_reduce_merge(const nw_reducer *red, const nw_region *what, const unsigned char *view,
                         uint64_t lo, unsigned char *space, const nw_region *done) {
  if (nw_region_overlap_bytes(what, done) == 0) {
    nw_region_copy_from(what, view, lo, space);
    return 0;
  }
  nw_region both, fresh;
  nw_region_init(&both, what->pitch);
  nw_region_init(&fresh, what->pitch);
  if (nw_region_intersect(&both, what, done) != NW_OK || nw_region_copy(&fresh, what) != NW_OK ||
      nw_region_subtract(&fresh, done) != NW_OK) {
    nw_region_free(&both);
    nw_region_free(&fresh);
    return (uint64_t)-1;
  }
  nw_region_copy_from(&fresh, view, lo, space);
  combine(red, &both, view, lo, space);
  uint64_t combined = nw_region_bytes(&both);
  nw_region_free(&both);
  nw_region_free(&fresh);
  return combined;
}
