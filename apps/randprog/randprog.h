/* randprog.h: random programs against the whole API (the aim: "correct for every access
 * pattern the API accepts").
 *
 * From --seed the generator (randprog_gen.c) draws a program: 1-4 address spaces of odd sizes
 * and pitches, parts of them placed on random nodes, 1-8 tasks binding random subsets of them
 * read-only, write-only or read-write with 1-16 subtasks, each subscribing 1-4 quads of every
 * shape per bound space, and driver reads and writes between tasks. The kernel
 * (randprog_kind.c) hashes every byte a subtask reads and writes every byte it subscribed for
 * writing as a function of that hash, so any byte that arrives wrong, stale, late or not at
 * all changes what is written; the serial reference (randprog_ref.c) runs the same program in
 * plain memory with Unicorn's transactional semantics, and the driver (randprog_main.c)
 * compares every space byte for byte at each read-back and at the end.
 *
 * Reductions (nw_task_reduce): each write-only binding is reduced with probability 1/3 (not
 * the one holding the budget-setting subtask's big quad, nor a space too small for one
 * element). The operation is each of the ten built-in ones or NW_REDUCE_CUSTOM, 1 time in 11.
 * The built-in ones run over an integer type (int32, uint32, int64, uint64), whose results
 * do not depend on the order of combination; the bitwise and logical ones run 1 time in 3 over
 * float or double instead, which they do not round either (MIN, MAX, ADD and PRODUCT stay on
 * integers: rounding, a NaN or a signed zero would make floating results order-dependent).
 * The custom one (rp_combine, the kind's reduce callback) is a + b + 1 over 32-bit words, with
 * an integer type, or a byte-wise max, with any type. The subtasks then write overlapping
 * quads of that space: a pool of 1-3 quads per task that each subtask takes with probability
 * 1/2, plus 0-2 of its own, so that some elements have several writers, some one and some
 * none; every run starts and ends on an element boundary and, where the pitch is not a
 * multiple of the element size, stays inside one row (what nw_reduce_aligned checks). The
 * kernel writes whole elements, built from the same hash-derived bytes and shaped per
 * operation so that a combination still depends on every writer (odd factors for products,
 * about half zeros for logical ops, dense bits for AND, sparse bits for OR); the reference
 * folds the subtasks' results in subtask order with the same rp_combine, which associativity
 * and commutativity make equal to any order the runtime takes. About 45% of the programs
 * reduce, 38% with overlapping writes. The reduction draws come from a second generator: the
 * task's usual quads are still drawn from the first, then the reduced binding's are
 * replaced, so a program without reductions is the one its seed gave before reductions
 * existed, and one with them has the same tasks before its first reduced one.
 *
 * Arguments (nw_app_args; the tool has no per-app help, so they are documented here):
 *   --seed S   the program (and its initial bytes) drawn from S;
 *   --n N      the largest space size in bytes (1 to 65536; the tool's default 1024);
 *   --block B  a GPU-memory budget in bytes (2048 to 1048576; 0, or the tool's default 256,
 *              means none): every subtask's GPU need (per space it subscribes to, the bounding
 *              rectangle of its reads and writes in the space's pitch, plus 256 bytes of
 *              alignment; core/device/gpu_stage.c) fits in B, and at least one subtask needs more
 *              than B/2, so a run with --gpu-mem B cannot hold two such subtasks and must
 *              evict. Needs --n >= B (space 0 is made at least B bytes);
 *   --placement node0  no nw_space_place calls (default: spread, random quads on random nodes).
 * Environment: RANDPROG_SKIP, a list of words, leaves out driver writes the runtime may not
 * handle yet (the program is otherwise the same): "late-writes", nw_space_write on a space an
 * earlier task used; "placed-writes", nw_space_write on a space part of which
 * nw_space_place moved off node 0; "reductions" draws no reduced binding (the program a seed
 * drew before reductions existed); "nested" runs every task from the driver (by default a task
 * submitted with no driver action before it may run nested in the task before it,
 * randprog_main.c); "wait-all" has the driver wait for every task in flight before each task the
 * program did not join, as it did before it learned to wait only before its own reads and
 * writes. RANDPROG_TASKS=K runs only the first K tasks of the
 * program (its driver actions up to task K included), to narrow a failure down.
 */
#ifndef NW_APP_RANDPROG_H
#define NW_APP_RANDPROG_H

#include "narwhal_app.h"

#define RP_MAX_SPACES 4
#define RP_MAX_TASKS 8
#define RP_MAX_SUBTASKS 16
#define RP_MAX_QUADS 4 /* per subtask and bound space */
#define RP_MAX_SIZE 65536u
#define RP_MIN_BUDGET 2048u
#define RP_MAX_BUDGET 1048576u
#define RP_GPU_ALIGN 256u /* what the GPU stage adds per staged space (core/device/devmem.h) */

/* A subscription quad of a subtask; `space` is the binding index, `access` an nw_access. */
typedef struct rp_quad {
  uint32_t space, access;
  uint32_t offset, length, step, count;
} rp_quad;

/* The custom reductions (rp_combine), both associative and commutative. */
enum { RP_CUSTOM_ADD1 = 1 /* a + b + 1 on uint32 words */, RP_CUSTOM_BYTE_MAX };

/* How a binding's writes are combined: op 0 (not reduced) or an nw_reduce_op, type an
 * nw_elem_type, custom an RP_CUSTOM_* when op is NW_REDUCE_CUSTOM. */
typedef struct rp_reduction {
  uint32_t op, type, custom;
} rp_reduction;

/* A task's configuration bytes: this header, then `nquads` rp_quad records. Subtask j's quads
 * are records [first[j], first[j + 1]), ordered by binding index. The subscription callback
 * and kernels read nothing else, so they are pure functions of (conf, subtask) on every node.
 */
typedef struct rp_conf_head {
  uint32_t task; /* the task's index in the program (hashed; the runtime's id may differ) */
  uint32_t subtasks, nspaces, nquads;
  uint32_t first[RP_MAX_SUBTASKS + 1];
  rp_reduction red[RP_MAX_SPACES]; /* per binding index */
  /* Subtasks may ask for scratch buffers (rp_scratch_bytes): programs without a GPU budget,
   * whose subtasks' GPU needs leave room for them. Not drawn: a seed's program is the same. */
  uint32_t scratch;
} rp_conf_head;

/* Reads the header / quad i of a configuration (copied: the bytes need not be aligned). */
void rp_conf_get_head(const void *conf, rp_conf_head *h);
void rp_conf_get_quad(const void *conf, uint32_t i, rp_quad *q);

/* Where a kernel finds byte `offset` of bound space `space`, for reading or for writing: on a
 * CPU's views, a GPU's views, or (the reference) plain arrays. Any byte outside what the
 * runtime promised to hold is reported on stderr and aborts: a runtime bug. */
typedef struct rp_bytes {
  enum { RP_CPU, RP_GPU, RP_PLAIN } kind;
  const nw_view *cpu;
  const nw_gpu_view *gpu;
  const unsigned char *const *plain_in; /* the state at the task's start */
  unsigned char *const *plain_out;      /* where its writes go */
} rp_bytes;

/* Runs subtask `subtask` of the task whose configuration is `conf`: hashes every byte it
 * reads (spaces in binding order, quads in order, bytes in order, repeats each time) with the
 * task and subtask, then writes every byte it subscribed for writing as rp_value() of that
 * hash (on a reduced binding, element by element, shaped for the operation). Returns the
 * number of bytes touched. */
uint64_t rp_run_subtask(const void *conf, uint64_t subtask, const rp_bytes *b);
/* into = into op from over `length` bytes at space offset `offset` of binding `binding`,
 * with the binding's reduction (rp_conf_head.red): the runtime's combination (built-in ops
 * through core's nw_reduce_builtin, custom ones through the kind's reduce callback, which is
 * this) and the reference's are the same code. A run not on element boundaries is the
 * runtime's bug: reported on stderr, and aborts. */
void rp_combine(const void *conf, uint32_t binding, void *into, const void *from, uint64_t offset,
                uint64_t length);
/* Bytes the subtask reads plus bytes it writes (its cost model's basis). */
uint64_t rp_bytes_touched(const void *conf, uint64_t subtask);

extern const nw_task_kind nw_randprog_kind;
/* The same kind with a spawn callback, for a task other tasks of the program nest in
 * (randprog_main.c, choose_nesting). */
extern const nw_task_kind nw_randprog_parent_kind;
nw_status rp_spawn_nested(nw_task *self, const nw_task_info *t);
extern const nw_app nw_randprog_app;

#endif
