/* test_driver_rewrite.c: the driver writes and places a space between tasks.
 *
 * After a task, ownership of a space is spread over the nodes and copies fetched for reading
 * stay resident; a driver write must still reach every later reader, and a placement must
 * move the bytes that earlier tasks left anywhere. While a task bound to the space is queued
 * or running, both are refused. Checked on 3 nodes of the loop backend, with messages
 * reordered, against a plain-memory reference.
 */
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "loop_backend.h"

enum { SIZE = 300, PITCH = 32, PARTS = 6, PART = SIZE / PARTS };

static double unit_flops(const nw_task_info *t, uint64_t i, nw_device_kind k) {
  (void)t, (void)i, (void)k;
  return 1e6;
}

/* "bump": subtask i adds i + 1 to every byte of part i, read-write (ownership moves). */
static nw_status bump_sub(nw_subscriber *s, const nw_task_info *t, uint64_t i) {
  (void)t;
  return nw_subscribe(s, 0, NW_READ_WRITE, i * PART, PART, PART, 1);
}
static void bump_run(const nw_task_info *t, uint64_t i, const nw_view *v) {
  (void)t;
  unsigned char *p = nw_view_at(&v[0], i * PART);
  for (int b = 0; b < PART; b++)
    p[b] = (unsigned char)(p[b] + i + 1);
}
static const nw_task_kind bump_kind = {
    .name = "bump", .subscribe = bump_sub, .cpu_kernel = bump_run, .flops = unit_flops};

/* "digest": subtask i reads the whole space (read-only, so copies stay resident on every node
 * that ran one) and writes a checksum of it, weighted by i, into 8 bytes of space 1. */
static nw_status digest_sub(nw_subscriber *s, const nw_task_info *t, uint64_t i) {
  (void)t;
  nw_status st = nw_subscribe(s, 0, NW_READ_ONLY, 0, SIZE, SIZE, 1);
  return st != NW_OK ? st : nw_subscribe(s, 1, NW_WRITE_ONLY, i * 8, 8, 8, 1);
}
static uint64_t digest(const unsigned char *b, uint64_t i) {
  uint64_t h = 1469598103934665603ull ^ i;
  for (int k = 0; k < SIZE; k++)
    h = (h ^ b[k]) * 1099511628211ull;
  return h;
}
static void digest_run(const nw_task_info *t, uint64_t i, const nw_view *v) {
  (void)t;
  uint64_t h = digest(nw_view_at(&v[0], 0), i);
  memcpy(nw_view_at(&v[1], i * 8), &h, 8);
}
static const nw_task_kind digest_kind = {
    .name = "digest", .subscribe = digest_sub, .cpu_kernel = digest_run, .flops = unit_flops};

static nw_status run_task(nw_runtime *rt, const nw_task_kind *k, nw_space *a, nw_access acc,
                          nw_space *b, int wait, nw_task **out) {
  nw_task *t;
  nw_status st = nw_task_create(rt, k, PARTS, NULL, 0, &t);
  if (st == NW_OK)
    st = nw_task_bind(t, a, acc);
  if (st == NW_OK && b)
    st = nw_task_bind(t, b, NW_WRITE_ONLY);
  if (st == NW_OK)
    st = nw_task_submit(t);
  if (st == NW_OK && wait)
    st = nw_task_wait(t);
  if (out && st == NW_OK)
    *out = t;
  else
    nw_task_destroy(t);
  return st;
}

static int refused_while_bound; /* what the driver saw while a task used the space */

static nw_status rewrite_main(nw_runtime *rt, const nw_app_args *a, nw_app_outcome *out) {
  (void)a;
  unsigned char ref[SIZE], got[SIZE], fresh[200];
  uint64_t sums[PARTS], want[PARTS];
  for (int k = 0; k < SIZE; k++)
    ref[k] = (unsigned char)(k * 7 + 3);
  nw_space *s, *o;
  nw_status st = nw_space_create(rt, SIZE, PITCH, &s);
  if (st == NW_OK)
    st = nw_space_create(rt, PARTS * 8, 8, &o);
  if (st == NW_OK)
    st = nw_space_write(s, 0, ref, SIZE);
  if (st == NW_OK) /* rows 2..5 of columns 0..15 to node 1, then part of it on to node 2 */
    st = nw_space_place(s, 2 * PITCH, 16, PITCH, 4, 1);
  if (st == NW_OK)
    st = nw_space_place(s, 3 * PITCH, 8, PITCH, 2, 2);
  /* A task spreads ownership; another makes read-only copies resident everywhere. */
  if (st == NW_OK)
    st = run_task(rt, &bump_kind, s, NW_READ_WRITE, NULL, 1, NULL);
  for (int i = 0; i < PARTS; i++)
    for (int b = 0; b < PART; b++)
      ref[i * PART + b] = (unsigned char)(ref[i * PART + b] + i + 1);
  if (st == NW_OK)
    st = run_task(rt, &digest_kind, s, NW_READ_ONLY, o, 1, NULL);
  /* The driver rewrites bytes now owned by several nodes and cached by all of them. */
  for (int k = 0; k < 200; k++)
    fresh[k] = (unsigned char)(255 - k);
  if (st == NW_OK)
    st = nw_space_write(s, 40, fresh, 200);
  memcpy(ref + 40, fresh, 200);
  /* And places bytes that the bump task left on other nodes. */
  if (st == NW_OK)
    st = nw_space_place(s, 5, 20, PITCH, 8, 2);
  if (st == NW_OK)
    st = run_task(rt, &digest_kind, s, NW_READ_ONLY, o, 1, NULL);
  if (st == NW_OK)
    st = nw_space_read(o, 0, sums, sizeof sums);
  int same = st == NW_OK;
  for (int i = 0; i < PARTS; i++) {
    want[i] = digest(ref, (uint64_t)i);
    same = same && sums[i] == want[i];
  }
  /* Refused while a task bound to the space is queued or running, allowed after. */
  nw_task *pending = NULL;
  if (st == NW_OK)
    st = run_task(rt, &bump_kind, s, NW_READ_WRITE, NULL, 0, &pending);
  if (st == NW_OK) {
    refused_while_bound = nw_space_write(s, 0, fresh, 1) == NW_ERR_STATE &&
                          strstr(nw_runtime_error(rt), "wait for it") != NULL &&
                          nw_space_place(s, 0, 1, 1, 1, 1) == NW_ERR_STATE;
    st = nw_task_wait(pending);
    nw_task_destroy(pending);
  }
  for (int i = 0; i < PARTS; i++)
    for (int b = 0; b < PART; b++)
      ref[i * PART + b] = (unsigned char)(ref[i * PART + b] + i + 1);
  if (st == NW_OK)
    st = nw_space_read(s, 0, got, SIZE);
  same = same && st == NW_OK && memcmp(got, ref, SIZE) == 0;
  out->verified = same;
  nw_space_destroy(s);
  nw_space_destroy(o);
  return st;
}

static const nw_app rewrite_app = {
    "rewrite", (const nw_task_kind *const[]){&bump_kind, &digest_kind, NULL}, NULL, rewrite_main};

int main(void) {
  loop_config c;
  nw_run_result res;
  nw_app_args none = {0};
  loop_config_defaults(&c);
  for (uint64_t seed = 1; seed <= 20; seed++) {
    c.seed = seed;
    c.jitter_s = seed % 2 ? 0.01 : 0.0; /* odd seeds: messages overtake each other */
    refused_while_bound = 0;
    nw_status st = loop_run(&c, &rewrite_app, &none, &res);
    CHECK(st == NW_OK);
    if (st != NW_OK)
      fprintf(stderr, "seed %llu: %s\n", (unsigned long long)seed, res.error);
    CHECK(res.verified == 1);
    CHECK(refused_while_bound);
    nw_run_result_free(&res);
  }
  return check_report("driver_rewrite");
}
