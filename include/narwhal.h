/* narwhal.h: the one header an application programs against.
 *
 * The Unicorn programming model (Beri et al., TPDS, section 2): an application creates
 * address spaces, creates tasks of registered task kinds, binds spaces to them (read-only,
 * write-only, read-write), submits them and waits. Each task has N subtasks; for each subtask
 * the runtime calls the kind's subscription callback on the node that will run it, fetches the
 * subscribed data, and runs the kernel on a private view of the spaces. Writes become visible
 * only to later tasks (transactional semantics, section 3).
 *
 * The application's driver (its "main") runs on node 0 only; callbacks and kernels run on
 * every node, so they must depend on nothing but their arguments.
 */
#ifndef NARWHAL_H
#define NARWHAL_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* Status codes: every call that can fail returns one. */
typedef enum {
  NW_OK = 0,
  NW_ERR_ARG,     /* a bad argument: the message says which */
  NW_ERR_RANGE,   /* a subscription or access outside its address space */
  NW_ERR_STATE,   /* API misuse, e.g. binding a space twice */
  NW_ERR_NOMEM,   /* an allocation failed */
  NW_ERR_INTERNAL /* a broken runtime invariant: a bug in Narwhal */
} nw_status;

typedef enum { NW_READ_ONLY = 1, NW_WRITE_ONLY = 2, NW_READ_WRITE = 3 } nw_access;
typedef enum { NW_DEVICE_CPU = 0, NW_DEVICE_GPU = 1 } nw_device_kind;

typedef struct nw_runtime nw_runtime;       /* the driver's handle on the cluster */
typedef struct nw_space nw_space;           /* an address space, as the driver sees it */
typedef struct nw_task nw_task;             /* a task, as the driver sees it */
typedef struct nw_subscriber nw_subscriber; /* passed to subscription callbacks */

/* What a callback knows about its task: the configuration bytes given at creation and the
 * address spaces bound to it, in binding order (index 0, 1, ...): space_size[i] and
 * space_pitch[i] for i from 0 to nspaces - 1. The runtime points them at arrays of its own
 * that live as long as the task does; a program that fills an nw_task_info itself (to call a
 * kernel directly, say) points them at arrays of nspaces entries. */
typedef struct nw_task_info {
  uint64_t task_id;
  uint64_t subtasks;
  const void *conf;
  size_t conf_size;
  int nspaces;
  const uint64_t *space_size;
  const uint64_t *space_pitch;
} nw_task_info;

/* The most spaces one task binds (nw_task_bind refuses the next, naming the task and this
 * limit). The runtime's per-task and per-subtask records grow with the spaces a task binds, not
 * with this bound, which only keeps a mistaken program from asking for absurd amounts; StarPU
 * likewise lifts its 8 buffers per task with dynamically allocated handles. */
#define NW_MAX_BOUND_SPACES 1024

/* A subtask's view of one bound space. For a read-only space it covers the whole space (only
 * the subscribed bytes are sure to be current; with --check-views on, only they are there:
 * the bytes around them hold a NaN, and a subtask that writes a value made from one fails
 * the run, naming itself, the space and the byte).
 * For a write-only space it covers the byte range [lo, hi) spanning the subtask's write
 * subscriptions: a private buffer, or, on a CPU where no second instance of the subtask can
 * run, the node's copy of the whole space (lo = 0, hi = size; README, "Views"). For a
 * read-write space it is a private buffer over [lo, hi) spanning the subtask's reads and
 * writes there, filled with the space's bytes as the task found them: what the kernel writes
 * replaces them in the view at once, so a value it still needs must be read before it is
 * overwritten. Use nw_view_at to turn
 * an address-space offset into a pointer. A kernel writes every byte it subscribed to write
 * and nothing else (--check-views on catches both mistakes); a write-only byte it leaves
 * unwritten commits as 0 from a private view, and keeps its old value in place. */
typedef struct nw_view {
  unsigned char *base; /* holds the bytes of [lo, hi) */
  uint64_t lo, hi;
} nw_view;

static inline void *nw_view_at(const nw_view *v, uint64_t offset) {
  return v->base + (offset - v->lo);
}

/* A subtask's view of one bound space on a GPU (paper 4.4: the GPU holds whole subscriptions).
 * The device holds the bounding rectangle of the subtask's subscription to the space: rows
 * [row0, row0 + rows) and byte columns [col0, col0 + width) of the space's row pitch
 * space_pitch, packed: consecutive rows are `pitch` (= width) bytes apart. Use nw_gpu_view_at
 * to turn an address-space offset inside the rectangle into a device pointer, and pitch as the
 * leading dimension. base is NULL for a space the subtask does not subscribe to. */
typedef struct nw_gpu_view {
  unsigned char *base;
  uint64_t row0, rows, col0, width, pitch, space_pitch;
} nw_gpu_view;

static inline void *nw_gpu_view_at(const nw_gpu_view *v, uint64_t offset) {
  return v->base + (offset / v->space_pitch - v->row0) * v->pitch +
         (offset % v->space_pitch - v->col0);
}

/* A subtask as the many-task GPU mode's worker kernel runs it: include/narwhal_mtc.h. */
struct nw_mtc_task;

/* A kind of task: registered per application, looked up by name on every node. */
typedef struct nw_task_kind {
  const char *name;
  /* Declares the subtask's reads and writes with nw_subscribe(). Returns NW_OK or the first
   * error nw_subscribe() returned. */
  nw_status (*subscribe)(nw_subscriber *s, const nw_task_info *t, uint64_t subtask);
  /* Runs the subtask on one CPU device; views[i] is the view of bound space i. NULL when the
   * kind has no CPU implementation. */
  void (*cpu_kernel)(const nw_task_info *t, uint64_t subtask, const nw_view *views);
  /* Runs work-item `item` of `items` of the subtask, on one core of a CPU work-group (paper
   * 4.3.1: a subtask as a set of work-items, one per core, like OpenCL's work-group). The
   * items run at the same time on the same views; together they must do exactly what
   * cpu_kernel does, each writing its own disjoint part. NULL: a work-group runs the kind's
   * subtasks whole, on one core. */
  void (*cpu_work_item)(const nw_task_info *t, uint64_t subtask, int item, int items,
                        const nw_view *views);
  /* Cost model used by the simulator and by model-based policies: floating-point operations
   * of one subtask on a device of the given kind. */
  double (*flops)(const nw_task_info *t, uint64_t subtask, nw_device_kind kind);
  /* Runs the subtask on a GPU: views in device memory, work issued on `stream` (a
   * cudaStream_t) and finished before returning. NULL when the kind has no GPU implementation
   * in this build (the real backend then uses no GPU for it). */
  void (*cuda_kernel)(const nw_task_info *t, uint64_t subtask, const nw_gpu_view *views,
                      void *stream);
  /* The GPU kernel's computation on host memory laid out exactly as on the device: what the
   * simulator's functional mode runs for a modelled GPU, so that cache and copy mistakes show
   * in the results. NULL: modelled GPUs cannot run the kind functionally. */
  void (*gpu_emulated_kernel)(const nw_task_info *t, uint64_t subtask, const nw_gpu_view *views);
  /* Called once on each thread that will run cuda_kernel, with its GPU current, before the run
   * is timed: where a library's start-up (a cuBLAS handle) belongs. May be NULL. */
  void (*cuda_thread_init)(void);
  /* The subtask's priority for the policies that order by it (prio, dmdas; StarPU's task
   * priority): larger runs first, equal priorities in id order. May be NULL: all equal. */
  int (*priority)(const nw_task_info *t, uint64_t subtask);
  /* Combines `length` bytes of bound space `space` that two subtasks (or two nodes' partial
   * results) both wrote: `into` holds one result, `from` the other, both starting at space
   * offset `offset`; the combination goes into `into`. Used by tasks that asked for
   * NW_REDUCE_CUSTOM on the space (nw_task_reduce). It must be associative and commutative:
   * the runtime combines results as they become ready, in an order that can differ between
   * runs on the real backend. May be NULL. */
  void (*reduce)(const nw_task_info *t, int space, void *into, const void *from, uint64_t offset,
                 uint64_t length);
  /* Nested tasks (paper section 2: tasks may spawn tasks hierarchically). Called on the
   * driver's thread once the task's own subtasks are done and their writes are visible: it may
   * create tasks nested in `self` (nw_task_create_nested), bind them to self's spaces
   * (nw_task_space), submit them and wait for them. `self` completes when this has returned
   * and all its nested tasks have completed, so a wait on it waits for them. It runs inside the
   * driver's next nw_task_wait (any wait) or at the end of the driver's main, never while the
   * driver is busy in its own code (README, "Nested tasks"). A status other than NW_OK fails
   * the run; nw_runtime_error gives the message. May be NULL. */
  nw_status (*spawn)(nw_task *self, const nw_task_info *t);
  /* Cost model, memory side: bytes one subtask moves between memory and a device of the given
   * kind (reads and writes of its data). With flops it gives the kind's arithmetic intensity
   * (flops per byte), which the roofline policy's split needs (README, "Roofline split"), and
   * the simulator charges a subtask max(flops / peak, bytes / memory bandwidth) where the
   * platform gives a memory bandwidth. May be NULL: the kind is taken as compute-bound. */
  double (*bytes)(const nw_task_info *t, uint64_t subtask, nw_device_kind kind);
  /* Agglomeration (`--agglomerate N`; Lifflander, Evans, Arya, Kale, "Dynamic Scheduling for
   * Work Agglomeration on Heterogeneous Clusters", section III): runs `count` subtasks of one
   * task in one GPU launch. subtasks[j]'s views are views[j], an array laid out as cuda_kernel's
   * (bound spaces, then the scratch buffer), in host memory, holding device pointers; the entry
   * builds whatever offset array its kernel needs, issues the work on `stream` and finishes it
   * before returning. Together the subtasks must do exactly what cuda_kernel does for each of
   * them. NULL: the kind's subtasks are launched one at a time, never agglomerated. */
  void (*cuda_batch_kernel)(const nw_task_info *t, const uint64_t *subtasks, int count,
                            const nw_gpu_view *const *views, void *stream);
  /* The batched kernel's computation on host memory laid out as on the device: what the
   * simulator's functional mode runs for an agglomerated launch on a modelled GPU. Required
   * beside cuda_batch_kernel for the simulator to agglomerate the kind in functional mode. */
  void (*gpu_emulated_batch_kernel)(const nw_task_info *t, const uint64_t *subtasks, int count,
                                    const nw_gpu_view *const *views);
  /* Cost model, occupancy side: the threads one launch of the subtask's GPU kernel runs (grid
   * times block). A launch of fewer threads than fill a GPU (the GPU host's fill_threads
   * property) computes at that share of the GPU's speed in the simulator: a one-warp kernel
   * uses one warp's share, not the whole GPU (README, "Many-task GPU mode"). May be NULL: the
   * kernel fills the GPU. */
  uint64_t (*gpu_threads)(const nw_task_info *t, uint64_t subtask);
  /* Many-task GPU mode (`--gpu-mode many-task`; README, "Many-task GPU mode"): describes the
   * subtask as one operation of the resident worker kernel (include/narwhal_mtc.h), on
   * pointers from its views as cuda_kernel gets them. Returns 0, or -1 when the subtask cannot
   * run so (the run fails, naming the kind). On hardware a kind runs in that mode only through
   * this entry; the simulator runs the descriptor on its modelled GPU's bytes where the entry
   * exists, else gpu_emulated_kernel. May be NULL. */
  int (*mtc_task)(const nw_task_info *t, uint64_t subtask, const nw_gpu_view *views,
                  struct nw_mtc_task *task);
} nw_task_kind;

/* Reductions (paper sections 4.5 and 4.6): subtasks of one task may write the same bytes of a
 * write-only space when the task says how to combine them. Each byte written by one subtask
 * takes its value; a byte written by several takes their combination, formed first on each
 * node as its subtasks commit, then across nodes along a binomial tree rooted at the space's
 * master, which owns the combined bytes after the task. Built-in operations work element by
 * element on arrays of the given type (bitwise ones on the elements' bit patterns; logical
 * ones give 1 or 0); the subtasks' write subscriptions to the space must then start and end
 * on element boundaries. Integer operations give the same bytes on every run; floating-point
 * ADD and PRODUCT round differently as the order of combination changes (README,
 * "Reductions"). */
typedef enum {
  NW_REDUCE_ADD = 1,
  NW_REDUCE_MIN,
  NW_REDUCE_MAX,
  NW_REDUCE_PRODUCT,
  NW_REDUCE_LOGICAL_AND,
  NW_REDUCE_LOGICAL_OR,
  NW_REDUCE_LOGICAL_XOR,
  NW_REDUCE_BIT_AND,
  NW_REDUCE_BIT_OR,
  NW_REDUCE_BIT_XOR,
  NW_REDUCE_CUSTOM /* the task kind's reduce callback; the type gives the element alignment */
} nw_reduce_op;

typedef enum {
  NW_TYPE_INT32 = 1,
  NW_TYPE_UINT32,
  NW_TYPE_INT64,
  NW_TYPE_UINT64,
  NW_TYPE_FLOAT,
  NW_TYPE_DOUBLE
} nw_elem_type;

/* MapReduce over reductions (paper section 4.6; README, "MapReduce"). A map subtask emits
 * (key, value) pairs; values of equal keys are combined with the task's reduction op over
 * elements of one type. Keys index a dense array of elements in a write-only output space:
 * key k is the element at byte offset k * nw_elem_size(type). A subtask write-subscribes a
 * range of keys (nw_subscribe_keys); its kernel starts an emitter on that range, which sets
 * every key of it to the op's identity (a reduced space's private view otherwise starts as
 * zeros, which is the identity of ADD, OR and XOR only), then folds each emitted value into
 * its key. After the task every key holds the combination of all values emitted for it by any
 * subtask on any node, and a key nobody emitted holds the identity: keys inside some subtask's
 * range get it from the emitters, the others from nw_mapreduce_create's fill of the output.
 * Built-in ops only: NW_REDUCE_CUSTOM has no identity the runtime could know, and is refused. */

/* Bytes of one element of `type`; 0 for an unknown type. */
size_t nw_elem_size(nw_elem_type type);

/* Writes the identity element of op over type to out (nw_elem_size(type) bytes): the e for
 * which e op x gives x for every x (for the logical ops, x's truth value, 1 or 0). ADD,
 * LOGICAL_OR/XOR, BIT_OR/XOR: 0, +0.0 for float and double (-0.0 would be exact for x = -0.0
 * too, where +0.0 gives +0.0, equal to it; +0.0 leaves an output nobody wrote all zero bytes,
 * which --compression network encodes); PRODUCT, LOGICAL_AND: 1; MIN: the type's largest
 * value, +inf for float and double; MAX: its smallest, -inf; BIT_AND: every bit set. For a GPU
 * kernel, which fills its output itself. NW_ERR_ARG for NW_REDUCE_CUSTOM or an unknown op or
 * type. */
nw_status nw_reduce_identity(nw_reduce_op op, nw_elem_type type, void *out);

/* Write-subscribes keys [first, first + count) of bound space space_index, whose elements
 * are of `type`: one quad of count elements, element-aligned as a reduced space needs.
 * NW_ERR_ARG for no keys or an unknown type; the checks of nw_subscribe otherwise. */
nw_status nw_subscribe_keys(nw_subscriber *s, int space_index, nw_elem_type type, uint64_t first,
                            uint64_t count);

/* A map kernel's output: the elements of keys [first, first + count), contiguous. */
typedef struct nw_emitter {
  unsigned char *elems; /* key first's element; key k's is (k - first) * elem_size further */
  uint64_t first, count;
  size_t elem_size;
  nw_reduce_op op;
  nw_elem_type type;
  uint64_t refused; /* emits refused: a key out of range, or no value */
  /* Set by the init: op over type on one element (the combination the runtime applies). */
  void (*fold)(void *into, const void *from);
} nw_emitter;

/* Starts an emitter on keys [first, first + count) of a CPU view (nw_emitter_init), a GPU view
 * (nw_emitter_init_gpu: for a modelled GPU's emulated kernel, or host code over device
 * memory's layout), or count elements at `elems` (nw_emitter_init_buffer), and set each of
 * those keys to the identity of op over type. The keys must be ones the subtask subscribed to
 * write (nw_subscribe_keys): a range outside the view gives NW_ERR_RANGE, an unknown or custom
 * op or type NW_ERR_ARG, and the emitter then refuses every key. One emitter per subtask and
 * key range: each start resets its keys. */
nw_status nw_emitter_init(nw_emitter *e, const nw_view *v, nw_reduce_op op, nw_elem_type type,
                          uint64_t first, uint64_t count);
nw_status nw_emitter_init_gpu(nw_emitter *e, const nw_gpu_view *v, nw_reduce_op op,
                              nw_elem_type type, uint64_t first, uint64_t count);
nw_status nw_emitter_init_buffer(nw_emitter *e, void *elems, nw_reduce_op op, nw_elem_type type,
                                 uint64_t first, uint64_t count);
/* Folds *value (one element of the emitter's type) into key's element with the emitter's op.
 * A key outside [first, first + count) writes nothing: NW_ERR_RANGE, counted in refused (as
 * is a NULL value: NW_ERR_ARG).
 * Inline: a map kernel calls it once per pair (pagerank: once per link). */
static inline nw_status nw_emit(nw_emitter *e, uint64_t key, const void *value) {
  if (key - e->first >= e->count || !value) { /* a key below first wraps around: too large */
    e->refused++;
    return value ? NW_ERR_RANGE : NW_ERR_ARG;
  }
  e->fold(e->elems + (key - e->first) * e->elem_size, value);
  return NW_OK;
}

/* A MapReduce task, for nw_mapreduce_create. */
typedef struct nw_mapreduce_spec {
  const nw_task_kind *kind; /* its subscribe calls nw_subscribe_keys, its kernels nw_emit */
  uint64_t subtasks;
  const void *conf;
  size_t conf_size;
  nw_space *const *inputs; /* bound read-only, as space indices 0 .. ninputs - 1 */
  int ninputs;             /* 0 to NW_MAX_BOUND_SPACES - 1 */
  nw_space *output;        /* bound write-only as index ninputs, reduced with op over type */
  nw_reduce_op op;         /* a built-in op */
  nw_elem_type type;
  unsigned flags; /* NW_MAPREDUCE_* */
} nw_mapreduce_spec;

/* Every key lies in some subtask's key range (every subtask subscribing every key, say): the
 * emitters set them all, so nw_mapreduce_create skips its fill of the output. */
#define NW_MAPREDUCE_KEYS_COVERED 1u

/* Creates a MapReduce task: nw_task_create, the bindings and nw_task_reduce as the spec says.
 * The output's size must be a whole number of elements. Unless NW_MAPREDUCE_KEYS_COVERED, it
 * first writes the identity over the whole output with nw_space_write: the output must not be
 * bound to a queued or running task then, and a task that writes the output and runs between
 * this call and this task replaces the fill where it writes. Submit, wait for and destroy *out
 * as any task; on failure *out is NULL and nw_runtime_error says why. */
nw_status nw_mapreduce_create(nw_runtime *rt, const nw_mapreduce_spec *m, nw_task **out);

/* Subscription quad (paper section 3): count segments of length bytes, the first at offset,
 * each next one step bytes further. count == 1 is a contiguous range. */
nw_status nw_subscribe(nw_subscriber *s, int space_index, nw_access access, uint64_t offset,
                       uint64_t length, uint64_t step, uint64_t count);
/* A scratch buffer (the original Unicorn's per-subtask scratch memory, from the subscription
 * to the kernel): called from the subscription callback, it gives the subtask `bytes` bytes of
 * working memory on the device that runs it, one buffer per subtask. With `fill` given, the
 * bytes start zeroed except for what the callback writes through *fill, which the kernel finds
 * there: *fill is host memory, or NULL where no kernel will run this call's result (the
 * submission's check, phantom data), so write only when it is not NULL; the callback runs
 * more than once per subtask, so it must fill the same bytes every time. With `fill` NULL the
 * buffer is working memory only: zeroed on a CPU, undefined on a GPU (nothing is copied in). The
 * kernel gets the buffer as views[t->nspaces], after the bound spaces' views: on a CPU an nw_view
 * with lo 0 and hi bytes, on a GPU an nw_gpu_view in device memory (row0 0, rows 1, col0 0, width =
 * pitch = space_pitch = bytes; copied in like a read, so it counts against the GPU's memory). The
 * kernel may write it; nothing of it is kept after the kernel. The work-items of a work-group share
 * one buffer. */
nw_status nw_subscribe_scratch(nw_subscriber *s, uint64_t bytes, void **fill);

/* Driver API (node 0). Spaces are created with a row pitch: the byte length of one row of the
 * data they hold (e.g. a matrix row). Subscriptions whose step equals the pitch are stored as
 * one rectangle, which keeps the directory small; any pitch is correct, a matching one is fast.
 */
nw_status nw_space_create(nw_runtime *rt, uint64_t size, uint64_t pitch, nw_space **out);
/* Copies bytes into / out of a space from the driver. Out of range gives NW_ERR_RANGE. In
 * phantom data mode these move no bytes and return NW_OK. */
nw_status nw_space_write(nw_space *s, uint64_t offset, const void *src, uint64_t length);
nw_status nw_space_read(nw_space *s, uint64_t offset, void *dst, uint64_t length);
/* Moves the bytes of a quad, and their ownership, from node 0 to `node`, before any task uses
 * the space: the paper's experiments start with inputs spread over the nodes (section 5).
 * Not timed: a run's makespan starts at its first task submission. */
nw_status nw_space_place(nw_space *s, uint64_t offset, uint64_t length, uint64_t step,
                         uint64_t count, int node);
uint64_t nw_space_size(const nw_space *s);
/* Frees the driver's handle; the space's data stays in the cluster until the run ends. Waits
 * first until no submitted task that binds the space is still incomplete (running the spawn
 * callbacks that fall due meanwhile), as those tasks hold the handle; inside a spawn callback
 * it does not wait (it might wait for the callback's own task) and the handle is freed when
 * the run ends. */
void nw_space_destroy(nw_space *s);

nw_status nw_task_create(nw_runtime *rt, const nw_task_kind *kind, uint64_t subtasks,
                         const void *conf, size_t conf_size, nw_task **out);
/* Creates a task nested in `parent`, from within parent's spawn callback (elsewhere:
 * NW_ERR_STATE). It may bind only spaces its parent binds, and one the parent binds read-only
 * only read-only (tasks running beside the parent may read it); it may depend (nw_task_depend)
 * only on tasks nested in the same parent. It starts once the tasks nested before it that it
 * conflicts with have completed, and its parent completes after it. Its handle belongs to the
 * parent: nw_task_destroy(parent) frees it, if it was not freed before. */
nw_status nw_task_create_nested(nw_task *parent, const nw_task_kind *kind, uint64_t subtasks,
                                const void *conf, size_t conf_size, nw_task **out);
/* The space bound to task t at binding index `index`, or NULL: how a spawn callback finds the
 * spaces its nested tasks may bind. */
nw_space *nw_task_space(const nw_task *t, int index);
nw_status nw_task_bind(nw_task *t, nw_space *s, nw_access access);
/* Lets the task's subtasks write the same bytes of space s, which the task binds write-only,
 * combining them with `op` over elements of `type` (see nw_reduce_op). Call after
 * nw_task_bind and before nw_task_submit. A space bound read-only or read-write is refused
 * (a read-write view starts from the space's bytes, so every subtask would fold them in). */
nw_status nw_task_reduce(nw_task *t, nw_space *s, nw_reduce_op op, nw_elem_type type);
/* Makes task t wait for task `on` to complete before it starts, beyond what their spaces imply
 * (a task that reads a space waits for the tasks submitted before it that write it, a writer
 * for the readers and writers before it; tasks sharing no written space run at once). `on`
 * must be a live task of the same runtime, already submitted: dependencies point backwards,
 * so no cycle can form. Call before submitting t. */
nw_status nw_task_depend(nw_task *t, nw_task *on);
/* Submits asynchronously. Checks every subtask's subscriptions first, so a bad subscription
 * fails here with a message naming the subtask, space and quad. */
nw_status nw_task_submit(nw_task *t);
/* Waits for t and its nested tasks, running the spawn callbacks that fall due meanwhile (of any
 * task). Inside a spawn callback only that task's nested tasks can be waited for. */
nw_status nw_task_wait(nw_task *t);
/* Frees a task handle that is not submitted, or whose wait has returned, with its nested
 * tasks' handles. */
void nw_task_destroy(nw_task *t);

/* True when kernels run on real bytes (functional data mode, or a real backend). */
int nw_runtime_functional(const nw_runtime *rt);
/* True when GPU subtasks run the kinds' CUDA kernels on hardware (a real backend with GPUs),
 * whose libraries may round otherwise than the CPU kernels (cuBLAS against OpenBLAS); false
 * where GPUs are simulated and run the emulated kernels, or where there are none. */
int nw_runtime_native_gpus(const nw_runtime *rt);
int nw_runtime_nodes(const nw_runtime *rt);
/* The last error message, for printing. */
const char *nw_runtime_error(const nw_runtime *rt);

#ifdef __cplusplus
}
#endif

/* How a program presents its application and runs it: nw_app, nw_init, nw_run_app,
 * nw_finalize. Included here so that narwhal.h is the one header a program needs. */
#include "narwhal_app.h"

#endif
