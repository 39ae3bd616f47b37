/* real_mtc.cu: see real_mtc.h. */
#include <cuda_runtime.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "real_mtc.h"
extern "C" {
#include "devmem.h"
}

namespace {

typedef unsigned long long u64;
static_assert(sizeof(real_mtc_task) == 48, "a task is 48 bytes");
static_assert(sizeof(u64) == sizeof(uint64_t), "64-bit words");

constexpr unsigned FULL = 0xffffffffu;
constexpr int WARPS_PER_BLOCK = 4;

/* The control words, in device memory. */
struct Ctl {
  u64 next;      /* the next ticket a worker takes */
  u64 tail;      /* tasks published: ticket t may run once t < tail */
  unsigned stop; /* set by the host when it closes: workers without a task leave */
};

/* A result slot in mapped host memory: seq = ticket + 1 once id and value are there. */
struct Slot {
  u64 seq, id, value, pad;
};

__device__ u64 run_sleep(u64 ns) {
  u64 t0, t;
  asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(t0));
  do {
    __nanosleep(ns > 2000 ? 1000 : 100);
    asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(t));
  } while (t - t0 < ns);
  return ns;
}

/* MDLite: lane i holds particle i (read from `in`, past L1 when `fresh`); every lane takes part
 * in the shuffles. Writes the moved particles at `out` (which may be `in`: each lane reads its
 * own first) and returns (in lane 0) the bits of the sum of x + y over them, in index order. */
__device__ u64 run_md(const real_mtc_particle *in, real_mtc_particle *out, int n, u64 steps,
                      int lane, bool fresh) {
  real_mtc_particle me{0, 0, 0, 0};
  if (lane < n) {
    if (fresh) { /* a float at a time: the runtime's views promise no 16-byte alignment */
      const float *f = reinterpret_cast<const float *>(in + lane);
      me = real_mtc_particle{__ldcg(f), __ldcg(f + 1), __ldcg(f + 2), __ldcg(f + 3)};
    } else {
      me = in[lane];
    }
  }
  for (u64 s = 0; s < steps; s++) {
    float fx = 0, fy = 0;
    for (int j = 0; j < n; j++) {
      float xj = __shfl_sync(FULL, me.x, j), yj = __shfl_sync(FULL, me.y, j);
      if (j != lane)
        nw_mtc_md_pull(me.x, me.y, xj, yj, &fx, &fy);
    }
    nw_mtc_md_move(&me.x, &me.y, &me.vx, &me.vy, fx, fy);
  }
  float sum = 0;
  for (int j = 0; j < n; j++)
    sum = __fadd_rn(sum, __fadd_rn(__shfl_sync(FULL, me.x, j), __shfl_sync(FULL, me.y, j)));
  if (lane < n)
    out[lane] = me;
  return (u64)__float_as_uint(sum);
}

/* NW_MTC_ADD_U64: the warp's lanes stride over the block. */
__device__ void run_add_u64(const u64 *a, const u64 *b, u64 *c, u64 count, int lane) {
  for (u64 i = (u64)lane; i < count; i += 32)
    c[i] = __ldcg(a + i) + __ldcg(b + i);
}

/* Each warp: take a ticket, wait for its task, run it, post the result; until stopped. */
__global__ void workers(Ctl *ctl, const real_mtc_task *ring, Slot *results, uint32_t capacity,
                        char *pool) {
  int lane = threadIdx.x & 31;
  for (;;) {
    u64 ticket = 0;
    int go = 0;
    if (lane == 0) {
      ticket = atomicAdd(&ctl->next, 1ull);
      for (unsigned pause = 32;; pause = pause < 4096 ? 2 * pause : pause) {
        if (ticket < *(volatile u64 *)&ctl->tail) {
          go = 1;
          break;
        }
        if (*(volatile unsigned *)&ctl->stop)
          break;
        __nanosleep(pause);
      }
    }
    go = __shfl_sync(FULL, go, 0);
    if (!go)
      return;
    ticket = __shfl_sync(FULL, ticket, 0);
    __threadfence(); /* the bundle's bytes were in place before the tail that covers them */
    const volatile real_mtc_task *src = ring + ticket % capacity;
    real_mtc_task t;
    t.id = src->id;
    t.kind = src->kind;
    t.n = src->n;
    t.a = src->a;
    t.b = src->b;
    t.c = src->c;
    t.d = src->d;
    u64 value = 0;
    if (t.kind == REAL_MTC_ADD) {
      value = t.a + t.b;
    } else if (t.kind == REAL_MTC_SLEEP) {
      value = lane == 0 ? run_sleep(t.a) : 0;
    } else if (t.kind == REAL_MTC_MDLITE) {
      real_mtc_particle *p = reinterpret_cast<real_mtc_particle *>(pool + t.a);
      value = run_md(p, p, (int)t.n, t.b, lane, false);
    } else if (t.kind == REAL_MTC_ADD_U64) {
      run_add_u64((const u64 *)t.a, (const u64 *)t.b, (u64 *)t.c, t.d, lane);
    } else if (t.kind == REAL_MTC_MD_SEGMENT && t.n >= 1 && t.n <= REAL_MTC_MD_MAX) {
      run_md((const real_mtc_particle *)t.a, (real_mtc_particle *)t.c, (int)t.n, t.b, lane, true);
    } else {
      value = ~0ull;
    }
    if (t.kind >= REAL_MTC_MDLITE)
      __threadfence_system(); /* every lane's writes are out before lane 0 posts the result */
    __syncwarp();
    if (lane == 0) {
      volatile Slot *r = results + ticket % capacity;
      r->id = t.id;
      r->value = value;
      __threadfence_system(); /* id and value reach the host before seq does */
      r->seq = ticket + 1;
    }
  }
}

} // namespace

struct real_mtc {
  int device;
  uint32_t capacity, nworkers;
  char *pool;      /* the one cudaMalloc */
  nw_devmem books; /* its sub-allocation */
  uint64_t ring_off, ctl_off;
  Slot *results;   /* mapped host memory */
  Slot *results_d; /* the device's address of it */
  real_mtc_task *staging;
  u64 *tail_host; /* pinned source of the tail copies */
  u64 published, collected;
  cudaStream_t run, copy;
  int running;
};

static int fail(char *why, size_t len, const char *what, cudaError_t e) {
  snprintf(why, len, "many-task GPU: %s: %s", what, cudaGetErrorString(e));
  return -1;
}

extern "C" real_mtc *real_mtc_open(int device, uint64_t pool_bytes, uint32_t capacity,
                                   uint32_t nworkers, uint32_t share, char *why, size_t why_len) {
  if (capacity == 0 || capacity > (1u << 24)) {
    snprintf(why, why_len, "many-task GPU: capacity %u: from 1 to 2^24 tasks", capacity);
    return NULL;
  }
  real_mtc *m = (real_mtc *)calloc(1, sizeof *m);
  if (!m) {
    snprintf(why, why_len, "many-task GPU: out of host memory");
    return NULL;
  }
  m->device = device;
  m->capacity = capacity;
  cudaError_t e = cudaSetDevice(device);
  uint64_t ring_bytes = (uint64_t)capacity * sizeof(real_mtc_task);
  if (e != cudaSuccess || (e = cudaMalloc(&m->pool, pool_bytes)) != cudaSuccess) {
    fail(why, why_len, "cannot allocate its pool", e);
    free(m);
    return NULL;
  }
  if (nw_devmem_init(&m->books, pool_bytes) != NW_OK ||
      !nw_devmem_alloc(&m->books, ring_bytes, &m->ring_off) ||
      !nw_devmem_alloc(&m->books, sizeof(Ctl), &m->ctl_off)) {
    snprintf(why, why_len, "many-task GPU: a pool of %llu bytes cannot hold a queue of %u tasks",
             (unsigned long long)pool_bytes, capacity);
    real_mtc_close(m);
    return NULL;
  }
  const char *what = "cannot allocate its host rings";
  if ((e = cudaHostAlloc(&m->results, capacity * sizeof(Slot), cudaHostAllocMapped)) !=
          cudaSuccess ||
      (e = cudaHostGetDevicePointer(&m->results_d, m->results, 0)) != cudaSuccess ||
      (e = cudaMallocHost(&m->staging, ring_bytes)) != cudaSuccess ||
      (e = cudaMallocHost(&m->tail_host, sizeof(u64))) != cudaSuccess ||
      (what = "cannot create its streams",
       e = cudaStreamCreateWithFlags(&m->run, cudaStreamNonBlocking)) != cudaSuccess ||
      (e = cudaStreamCreateWithFlags(&m->copy, cudaStreamNonBlocking)) != cudaSuccess ||
      (what = "cannot clear its control words",
       e = cudaMemset(m->pool + m->ctl_off, 0, sizeof(Ctl))) != cudaSuccess) {
    fail(why, why_len, what, e);
    real_mtc_close(m);
    return NULL;
  }
  memset(m->results, 0, capacity * sizeof(Slot));
  int sms = 0, per_sm = 0;
  cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, device);
  cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per_sm, workers, 32 * WARPS_PER_BLOCK, 0);
  /* Whole blocks, all resident at once (a worker never yields its SM): at most what fits. */
  uint32_t most = (uint32_t)(sms * (per_sm > 0 ? per_sm : 1) * WARPS_PER_BLOCK);
  uint32_t fair = most / (share > 1 ? share : 1); /* ranks sharing the GPU (real_mtc.h) */
  uint32_t want = nworkers == 0 ? (fair > 0 ? fair : 1) : nworkers > most ? most : nworkers;
  uint32_t blocks = (want + WARPS_PER_BLOCK - 1) / WARPS_PER_BLOCK; /* most is whole blocks */
  m->nworkers = blocks * WARPS_PER_BLOCK;
  cudaDeviceSynchronize();
  workers<<<blocks, 32 * WARPS_PER_BLOCK, 0, m->run>>>(
      (Ctl *)(m->pool + m->ctl_off), (const real_mtc_task *)(m->pool + m->ring_off), m->results_d,
      capacity, m->pool);
  if ((e = cudaGetLastError()) != cudaSuccess) {
    fail(why, why_len, "cannot launch its worker kernel", e);
    real_mtc_close(m);
    return NULL;
  }
  m->running = 1;
  return m;
}

extern "C" int real_mtc_bind(real_mtc *m) {
  return cudaSetDevice(m->device) == cudaSuccess ? 0 : -1;
}

extern "C" uint32_t real_mtc_workers(const real_mtc *m) {
  return m->nworkers;
}

extern "C" uint64_t real_mtc_outstanding(const real_mtc *m) {
  return m->published - m->collected;
}

extern "C" int real_mtc_submit(real_mtc *m, const real_mtc_task *tasks, uint32_t n) {
  if (n == 0)
    return 0;
  if (n > m->capacity - real_mtc_outstanding(m))
    return -1;
  uint32_t first = (uint32_t)(m->published % m->capacity);
  uint32_t head = n < m->capacity - first ? n : m->capacity - first; /* before the wrap */
  memcpy(m->staging, tasks, (size_t)n * sizeof *tasks);
  real_mtc_task *ring = (real_mtc_task *)(m->pool + m->ring_off);
  Ctl *ctl = (Ctl *)(m->pool + m->ctl_off);
  *m->tail_host = m->published + n;
  if (cudaMemcpyAsync(ring + first, m->staging, head * sizeof *tasks, cudaMemcpyHostToDevice,
                      m->copy) != cudaSuccess ||
      (head < n && cudaMemcpyAsync(ring, m->staging + head, (n - head) * sizeof *tasks,
                                   cudaMemcpyHostToDevice, m->copy) != cudaSuccess) ||
      cudaMemcpyAsync(&ctl->tail, m->tail_host, sizeof(u64), cudaMemcpyHostToDevice, m->copy) !=
          cudaSuccess ||
      cudaStreamSynchronize(m->copy) != cudaSuccess)
    return -1;
  m->published += n;
  return 0;
}

extern "C" uint32_t real_mtc_collect(real_mtc *m, real_mtc_result *out, uint32_t max) {
  uint32_t got = 0;
  while (got < max && m->collected < m->published) {
    Slot *s = m->results + m->collected % m->capacity;
    if (__atomic_load_n(&s->seq, __ATOMIC_ACQUIRE) != m->collected + 1)
      break;
    out[got].id = s->id;
    out[got].value = s->value;
    got++;
    m->collected++;
  }
  return got;
}

extern "C" int real_mtc_alloc(real_mtc *m, uint64_t bytes, uint64_t *off) {
  return nw_devmem_alloc(&m->books, bytes, off) ? 0 : -1;
}

extern "C" void real_mtc_release(real_mtc *m, uint64_t off, uint64_t bytes) {
  nw_devmem_release(&m->books, off, bytes);
}

extern "C" int real_mtc_write(real_mtc *m, uint64_t off, const void *src, uint64_t bytes) {
  return cudaMemcpyAsync(m->pool + off, src, bytes, cudaMemcpyHostToDevice, m->copy) ==
                     cudaSuccess &&
                 cudaStreamSynchronize(m->copy) == cudaSuccess
             ? 0
             : -1;
}

extern "C" int real_mtc_read(real_mtc *m, uint64_t off, void *dst, uint64_t bytes) {
  return cudaMemcpyAsync(dst, m->pool + off, bytes, cudaMemcpyDeviceToHost, m->copy) ==
                     cudaSuccess &&
                 cudaStreamSynchronize(m->copy) == cudaSuccess
             ? 0
             : -1;
}

extern "C" void real_mtc_close(real_mtc *m) {
  if (!m)
    return;
  if (m->running) {
    /* Every published task runs first: workers leave only once they hold no task. */
    static const unsigned one = 1;
    Ctl *ctl = (Ctl *)(m->pool + m->ctl_off);
    cudaMemcpyAsync(&ctl->stop, &one, sizeof one, cudaMemcpyHostToDevice, m->copy);
    cudaStreamSynchronize(m->copy);
    cudaStreamSynchronize(m->run);
  }
  if (m->run)
    cudaStreamDestroy(m->run);
  if (m->copy)
    cudaStreamDestroy(m->copy);
  cudaFreeHost(m->results);
  cudaFreeHost(m->staging);
  cudaFreeHost(m->tail_host);
  cudaFree(m->pool);
  nw_devmem_free_all(&m->books);
  free(m);
}
