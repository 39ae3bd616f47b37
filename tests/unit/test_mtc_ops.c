/* test_mtc_ops.c: the many-task worker kernel's operations on host memory (core/device/
 * mtc_ops.c, what the simulator's modelled workers run) and the apps' descriptors of them
 * (nw_task_kind.mtc_task, include/narwhal_mtc.h): the adder's sums by hand, wrapping; MDLite's
 * segment equal to the app's reference (its own loops) bit for bit; operations and ranges the
 * worker does not know refused; and each app's descriptor, over views laid out as on a GPU
 * (each subscription's segment alone, at another address than the space's), computing what
 * the app's emulated GPU kernel computes on the same views, bit for bit. */
#include <stdlib.h>
#include <string.h>

#include "adder/adder.h"
#include "backend.h"
#include "check.h"
#include "mdlite/mdlite.h"
#include "mdlite/mdlite_ref.h"
#include "narwhal_mtc.h"

static void add_by_hand(void) {
  uint64_t a[3] = {1, UINT64_MAX, 40}, b[3] = {2, 2, 2}, c[3] = {0, 0, 0};
  nw_mtc_task t = {.op = NW_MTC_ADD_U64, .count = 3, .in = {a, b}, .out = c};
  CHECK(nw_mtc_run_host(&t) == 0);
  CHECK(c[0] == 3 && c[1] == 1 && c[2] == 42);
  t.count = 2; /* only the first two */
  c[2] = 7;
  CHECK(nw_mtc_run_host(&t) == 0 && c[2] == 7);
}

static float unit_hash(uint64_t i) {
  return (float)((i * 0x9E3779B97F4A7C15ull) >> 40) / (float)(1u << 24);
}

/* Three groups of 32 particles, 25 steps: each group's segment equals the reference's. */
static void mdlite_matches_reference(void) {
  enum { N = 96, G = 32 };
  mdlite_conf c = {.n = N, .block = G, .steps = 25};
  float in[4 * N], want[4 * N], got[4 * N];
  for (int i = 0; i < 4 * N; i++)
    in[i] = (i % 4 < 2 ? 1.0f : 0.1f) * unit_hash((uint64_t)i + 1);
  mdlite_reference(&c, in, want);
  for (int g = 0; g < N / G; g++) {
    nw_mtc_task t = {.op = NW_MTC_MDLITE,
                     .count = G,
                     .steps = c.steps,
                     .in = {in + 4 * G * g},
                     .out = got + 4 * G * g};
    CHECK(nw_mtc_run_host(&t) == 0);
  }
  CHECK(memcmp(got, want, sizeof got) == 0);
}

static void refusals(void) {
  nw_mtc_particle p[33] = {{0}};
  nw_mtc_task t = {.op = NW_MTC_MDLITE, .count = 33, .steps = 1, .in = {p}, .out = p};
  CHECK(nw_mtc_run_host(&t) == -1); /* more particles than a warp's lanes */
  t.count = 0;
  CHECK(nw_mtc_run_host(&t) == -1);
  t.op = 99;
  t.count = 1;
  CHECK(nw_mtc_run_host(&t) == -1);
  uint64_t x = 1;
  t = (nw_mtc_task){.op = NW_MTC_ADD_U64, .count = 1, .in = {&x, NULL}, .out = &x};
  CHECK(nw_mtc_run_host(&t) == -1);
}

/* Subtask s's segment of a one-row space of `size` bytes, copied to a buffer of its own. */
static nw_gpu_view segment_view(const void *space, uint64_t size, uint64_t at, uint64_t len) {
  nw_gpu_view v = {
      .base = malloc(len), .rows = 1, .col0 = at, .width = len, .pitch = len, .space_pitch = size};
  if (v.base)
    memcpy(v.base, (const unsigned char *)space + at, len);
  return v;
}

/* The kind's descriptor for every subtask, run by the host's worker, against its emulated GPU
 * kernel on a second copy of the same views: outputs equal byte for byte. */
static void descriptor_matches_emulation(const nw_task_kind *k, const nw_task_info *t,
                                         const void *const *space, int nspaces, int out,
                                         uint64_t elem) {
  for (uint64_t s = 0; s < t->subtasks; s++) {
    uint64_t len = t->space_size[0] / t->subtasks, at = s * len;
    nw_gpu_view a[3], b[3];
    for (int i = 0; i < nspaces; i++) {
      a[i] = segment_view(space[i], t->space_size[i], at, len);
      b[i] = segment_view(space[i], t->space_size[i], at, len);
    }
    memset(a[out].base, 0xA5, len); /* write-only: what the device held before */
    memset(b[out].base, 0xA5, len);
    nw_mtc_task d;
    CHECK(k->mtc_task(t, s, a, &d) == 0);
    CHECK(d.out == a[out].base && d.count == len / elem);
    CHECK(nw_mtc_run_host(&d) == 0);
    k->gpu_emulated_kernel(t, s, b);
    CHECK(memcmp(a[out].base, b[out].base, len) == 0);
    for (int i = 0; i < nspaces; i++) {
      free(a[i].base);
      free(b[i].base);
    }
  }
}

static void adder_descriptor(void) {
  enum { N = 256, BLOCK = 64 };
  static uint64_t A[N], B[N], C[N];
  for (uint64_t i = 0; i < N; i++) {
    A[i] = i * 0x9E3779B97F4A7C15ull;
    B[i] = ~i * 0xC2B2AE3D27D4EB4Full;
  }
  adder_conf c = {.n = N, .block = BLOCK, .flops = BLOCK};
  static const uint64_t sizes[3] = {N * 8, N * 8, N * 8};
  nw_task_info t = {.subtasks = N / BLOCK,
                    .conf = &c,
                    .conf_size = sizeof c,
                    .nspaces = 3,
                    .space_size = sizes,
                    .space_pitch = sizes};
  const void *spaces[3] = {A, B, C};
  descriptor_matches_emulation(&nw_adder_kind, &t, spaces, 3, ADDER_C, 8);
}

static void mdlite_descriptor(void) {
  enum { N = 128, BLOCK = 16 };
  static float in[4 * N], out[4 * N];
  for (int i = 0; i < 4 * N; i++)
    in[i] = unit_hash((uint64_t)i + 7);
  mdlite_conf c = {.n = N, .block = BLOCK, .steps = 9};
  static const uint64_t sizes[2] = {N * 16, N * 16};
  nw_task_info t = {.subtasks = N / BLOCK,
                    .conf = &c,
                    .conf_size = sizeof c,
                    .nspaces = 2,
                    .space_size = sizes,
                    .space_pitch = sizes};
  const void *spaces[2] = {in, out};
  descriptor_matches_emulation(&nw_mdlite_kind, &t, spaces, 2, MDLITE_OUT, 16);
}

int main(void) {
  add_by_hand();
  mdlite_matches_reference();
  refusals();
  adder_descriptor();
  mdlite_descriptor();
  return check_report("mtc_ops");
}
