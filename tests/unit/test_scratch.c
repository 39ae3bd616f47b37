/* test_scratch.c: scratch buffers (nw_subscribe_scratch), on the in-process loop backend:
 * - what the subscription callback writes through the fill pointer is what the kernel finds
 *   at views[nspaces], the rest zero, of the size asked for; a buffer asked for without a fill
 *   pointer is zeroed on a CPU; every subtask's output, computed from its buffer, is checked;
 * - a subtask without a buffer sees none (its view is empty);
 * - refusals at submission, with their messages: a buffer of 0 bytes, a second buffer.
 * (The GPU side, device memory filled by a copy, runs in the random programs on modelled GPUs:
 * apps/randprog checks its buffers in both kernels.)
 */
#include <stdio.h>
#include <string.h>

#include "check.h"
#include "loop_backend.h"

enum { SUBTASKS = 12, OUT = 8 };

static int mode; /* 0: the buffers; 1: a buffer of 0 bytes; 2: two buffers */

/* Subtask i asks for 3 i bytes (none for i = 0), filled for odd i with i + k at byte k. */
static nw_status sub(nw_subscriber *s, const nw_task_info *t, uint64_t i) {
  (void)t;
  nw_status st = nw_subscribe(s, 0, NW_WRITE_ONLY, i * OUT, OUT, OUT, 1);
  if (st != NW_OK)
    return st;
  if (mode == 1)
    return nw_subscribe_scratch(s, 0, NULL);
  if (mode == 2) {
    st = nw_subscribe_scratch(s, 8, NULL);
    return st != NW_OK ? st : nw_subscribe_scratch(s, 8, NULL);
  }
  if (i == 0)
    return NW_OK;
  void *fill = NULL;
  st = nw_subscribe_scratch(s, 3 * i, i % 2 ? &fill : NULL);
  for (uint64_t k = 0; fill && k < 3 * i; k++)
    ((unsigned char *)fill)[k] = (unsigned char)(i + k);
  return st;
}

/* Output of subtask i: [0] the buffer's size, [1] 1 if every byte is as expected, then the
 * buffer is overwritten (the kernel may write it). */
static void kernel(const nw_task_info *t, uint64_t i, const nw_view *v) {
  const nw_view *sv = &v[t->nspaces];
  uint64_t len = sv->base ? sv->hi - sv->lo : 0;
  uint64_t *out = nw_view_at(&v[0], i * OUT);
  int right = 1;
  for (uint64_t k = 0; k < len; k++) {
    unsigned char want = i % 2 ? (unsigned char)(i + k) : 0;
    right &= sv->base[k] == want;
    sv->base[k] = 0xEE;
  }
  out[0] = len | (uint64_t)right << 32;
}

static double flops(const nw_task_info *t, uint64_t i, nw_device_kind k) {
  (void)t, (void)i, (void)k;
  return 1e6;
}

static const nw_task_kind scratch_kind = {
    .name = "scratch", .subscribe = sub, .cpu_kernel = kernel, .flops = flops};

static char said[512];

static nw_status scratch_main(nw_runtime *rt, const nw_app_args *a, nw_app_outcome *out) {
  (void)a;
  nw_space *o;
  nw_task *t = NULL;
  nw_status st = nw_space_create(rt, SUBTASKS * OUT, OUT, &o);
  if (st == NW_OK)
    st = nw_task_create(rt, &scratch_kind, SUBTASKS, NULL, 0, &t);
  if (st == NW_OK)
    st = nw_task_bind(t, o, NW_WRITE_ONLY);
  if (st == NW_OK)
    st = nw_task_submit(t);
  if (st == NW_OK)
    st = nw_task_wait(t);
  snprintf(said, sizeof said, "%s", st == NW_OK ? "" : nw_runtime_error(rt));
  uint64_t got[SUBTASKS];
  out->verified = 0;
  if (st == NW_OK && nw_space_read(o, 0, got, sizeof got) == NW_OK) {
    out->verified = 1;
    for (uint64_t i = 0; i < SUBTASKS; i++)
      out->verified &= got[i] == (3 * i | 1ull << 32);
  }
  nw_task_destroy(t);
  nw_space_destroy(o);
  return st;
}

static const nw_app scratch_app = {"scratch", (const nw_task_kind *const[]){&scratch_kind, NULL},
                                   NULL, scratch_main};

static nw_status run(int m, int nodes, int multi_assign, int *verified) {
  loop_config lc;
  loop_config_defaults(&lc);
  lc.nodes = nodes;
  lc.devices = 2;
  lc.sched.multi_assign = multi_assign; /* copies of a subtask get buffers of their own */
  mode = m;
  said[0] = '\0';
  nw_app_args args = {.seed = 3};
  nw_run_result res;
  nw_status st = loop_run(&lc, &scratch_app, &args, &res);
  *verified = res.verified;
  nw_run_result_free(&res);
  return st;
}

int main(void) {
  for (int nodes = 1; nodes <= 3; nodes += 2) {
    int ok = 0;
    nw_status st = run(0, nodes, nodes > 1, &ok);
    CHECK(st == NW_OK && ok == 1);
  }
  static const char *const want[] = {NULL, "scratch buffer of 0 bytes", "second scratch buffer"};
  for (int m = 1; m <= 2; m++) {
    int ok = 0;
    nw_status st = run(m, 2, 0, &ok);
    CHECK(st != NW_OK && strstr(said, want[m]) != NULL);
    if (!strstr(said, want[m]))
      fprintf(stderr, "mode %d said: %s\n", m, said);
  }
  return check_report("scratch");
}
