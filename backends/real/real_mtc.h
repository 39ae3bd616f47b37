/* real_mtc.h: many-task execution on one CUDA GPU (GeMTC's scheme: "GeMTC: GPU-enabled Many-Task
 * Computing", Krieder, Wozniak, Armstrong, Wilde, Katz, Grimmer, Foster, Raicu; sections 3 and 5).
 *
 * One resident worker kernel per GPU: each of its warps is a worker that takes the next ticket
 * (atomicAdd on a counter in device memory), waits until the host has published that task,
 * runs it and posts its result. The host puts a bundle of tasks in the incoming queue with one
 * host-to-device copy, then publishes the new tail (one more copy), so a bundle of k tasks costs
 * two copies instead of k launches. The incoming queue, the control words and the tasks' data
 * come from one cudaMalloc, sub-allocated with core/device/devmem.h's books.
 *
 * Results: a ring in mapped, pinned host memory. A worker writes the result, then a system-scope
 * fence, then the slot's sequence number; the host reads every finished result in ticket order
 * without a copy (the fence orders the device's writes over PCIe). GeMTC copies its result queue
 * back instead; the ring here needs no copy and no torn-read guard.
 *
 * The worker kernel's library (GeMTC's AppKernels): the benchmark's own kinds (adder of two
 * scalars, sleep, MDLite in the pool), and narwhal_mtc.h's operations, on which the runtime runs
 * subtasks whose data it staged in its own GPU memory (real_gpu.c). Those read their inputs
 * past the SM's L1 cache: the runtime's copy engines wrote them after earlier tasks may have
 * read the same addresses, and L1 is not coherent with copies.
 *
 * Flow: ticket t uses slot t % capacity of both rings. The host publishes task t only once
 * result t - capacity was collected, so no slot is overwritten while in use.
 */
#ifndef NW_REAL_MTC_H
#define NW_REAL_MTC_H

#include <stddef.h>
#include <stdint.h>

#include "narwhal_mtc.h"

#ifdef __cplusplus
extern "C" {
#endif

/* The task kinds the worker kernel knows. */
typedef enum real_mtc_kind {
  REAL_MTC_ADD = 0,    /* value = a + b: the trivial adder (the smallest possible task) */
  REAL_MTC_SLEEP = 1,  /* spins for a nanoseconds of the GPU's global timer; value = a */
  REAL_MTC_MDLITE = 2, /* an MDLite-like segment: n (1..32) particles at pool offset a, b steps */
  /* The runtime's subtasks (narwhal_mtc.h's operations), on device addresses anywhere in the
   * GPU's memory, value 0: */
  REAL_MTC_ADD_U64 = 3,    /* NW_MTC_ADD_U64: c[i] = a[i] + b[i] for i < d */
  REAL_MTC_MD_SEGMENT = 4, /* NW_MTC_MDLITE: n particles read at a, b steps, written at c */
} real_mtc_kind;

/* One task as it travels in a bundle (48 bytes). */
typedef struct real_mtc_task {
  uint64_t id; /* the caller's; echoed in the result */
  uint32_t kind, n;
  uint64_t a, b, c, d;
} real_mtc_task;

/* One finished task. */
typedef struct real_mtc_result {
  uint64_t id, value;
} real_mtc_result;

/* MDLite's particle and group limit are the public operation's (narwhal_mtc.h). */
typedef nw_mtc_particle real_mtc_particle;
#define REAL_MTC_MD_MAX NW_MTC_MD_MAX

typedef struct real_mtc real_mtc;

/* Opens the engine on `device`: a pool of pool_bytes (the incoming queue and control words are
 * taken from it first), queues of `capacity` tasks, and `workers` warps (0: the GPU's
 * resident-warp limit for this kernel, every SM filled, divided by `share`, the processes that
 * open an engine on this GPU; at least one block). A worker never leaves its SM, so under MPS
 * one process's kernel filling every SM would keep another's blocks from ever becoming
 * resident; without MPS the processes' kernels take turns on the whole GPU either way. NULL
 * with a one-line reason in why. */
real_mtc *real_mtc_open(int device, uint64_t pool_bytes, uint32_t capacity, uint32_t workers,
                        uint32_t share, char *why, size_t why_len);
/* Makes the engine's GPU current on the calling thread (before it submits or collects from a
 * thread other than the opener's): 0, or -1. */
int real_mtc_bind(real_mtc *m);
/* How many worker warps the kernel runs. */
uint32_t real_mtc_workers(const real_mtc *m);
/* Tasks published and not yet collected. */
uint64_t real_mtc_outstanding(const real_mtc *m);
/* Puts `n` tasks (at most capacity - outstanding) in the incoming queue: one copy of the bundle
 * (two where it wraps the ring) and one of the new tail, then waits for both. 0, or -1. */
int real_mtc_submit(real_mtc *m, const real_mtc_task *tasks, uint32_t n);
/* Copies up to `max` finished results, in ticket order, into out; returns how many. */
uint32_t real_mtc_collect(real_mtc *m, real_mtc_result *out, uint32_t max);
/* Pool memory for task data (MDLite's particles): 0 and *off, or -1 when the pool is full. */
int real_mtc_alloc(real_mtc *m, uint64_t bytes, uint64_t *off);
void real_mtc_release(real_mtc *m, uint64_t off, uint64_t bytes);
/* Copies between host memory and the pool (while the kernel runs: on the copy stream). */
int real_mtc_write(real_mtc *m, uint64_t off, const void *src, uint64_t bytes);
int real_mtc_read(real_mtc *m, uint64_t off, void *dst, uint64_t bytes);
/* Stops the workers (every published task is finished first) and frees everything. */
void real_mtc_close(real_mtc *m);

#ifdef __cplusplus
}
#endif

#endif
