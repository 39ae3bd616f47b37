/* exec.c: the device side of a subtask: run its kernel on its views, report its cost.
 *
 * A device thread (real backend) or actor (simulator) calls these; they touch only the exec
 * and the bytes its views point at, never the node, so they are safe off the node's thread.
 */
#include <stdint.h>
#include <stdlib.h>

#include "exec_state.h"
#include "narwhal_mtc.h"
#include "node_state.h"

int nw_exec_items(const nw_exec *e) {
  return e->items > 1 ? e->items : 1;
}

void nw_exec_run_item(nw_exec *e, int item) {
  const nw_task_kind *k = e->task->kind;
  if (e->items > 1)
    k->cpu_work_item(&e->task->info, e->subtask, item, e->items, e->views);
  else if (k->cpu_kernel)
    k->cpu_kernel(&e->task->info, e->subtask, e->views);
}

void nw_exec_run(nw_exec *e) {
  for (int i = 0; i < nw_exec_items(e); i++)
    nw_exec_run_item(e, i);
}

double nw_exec_flops(const nw_exec *e) {
  return e->flops;
}

double nw_exec_bytes(const nw_exec *e) {
  return e->bytes;
}

double nw_gpu_launch_share(uint64_t threads, double fill_threads) {
  if (threads == 0 || fill_threads <= 0)
    return 1.0;
  double warps = (double)((threads + 31) / 32);
  return 32.0 * warps < fill_threads ? 32.0 * warps / fill_threads : 1.0;
}

uint64_t nw_exec_kernel_pages_fresh(const nw_exec *e) {
  return e->kernel_pages_fresh;
}

uint64_t nw_exec_gpu_threads(const nw_exec *e) {
  const nw_task_kind *k = e->task->kind;
  return k->gpu_threads ? k->gpu_threads(&e->task->info, e->subtask) : 0;
}

/* The views' bases hold offsets into the GPU's memory until the device side adds its base;
 * the scratch buffer's view, if any, follows the bound spaces'. Into the exec's own array for
 * them (allocated with it: nothing to allocate on the device's thread). */
static const nw_gpu_view *gpu_views(nw_exec *e, unsigned char *memory) {
  int ns = e->task->info.nspaces;
  nw_gpu_view *out = e->gview_run;
  for (int i = 0; i < ns + (e->gview[ns].space_pitch != 0); i++) {
    out[i] = e->gview[i];
    out[i].base = e->gview[i].space_pitch ? memory + (uintptr_t)e->gview[i].base : NULL;
  }
  return out;
}

void nw_exec_run_gpu(nw_exec *e, unsigned char *memory, void *stream) {
  const nw_gpu_view *v = gpu_views(e, memory);
  if (e->task->kind->cuda_kernel)
    e->task->kind->cuda_kernel(&e->task->info, e->subtask, v, stream);
}

int nw_exec_batchable(const nw_exec *e, int emulated) {
  const nw_task_kind *k = e->task->kind;
  return emulated ? k->gpu_emulated_batch_kernel != NULL : k->cuda_batch_kernel != NULL;
}

int nw_exec_high_priority(const nw_exec *e) {
  const nw_task_kind *k = e->task->kind;
  return k->priority && k->priority(&e->task->info, e->subtask) > 0;
}

uint64_t nw_exec_task_id(const nw_exec *e) {
  return e->task->id;
}

int nw_exec_run_gpu_batch(nw_exec *const *e, int k, unsigned char *memory, void *stream,
                          int emulated) {
  const nw_task_kind *kind = e[0]->task->kind;
  const nw_gpu_view **rows = malloc((size_t)k * sizeof *rows);
  uint64_t *subtasks = malloc((size_t)k * sizeof *subtasks);
  int ok = rows && subtasks;
  for (int j = 0; ok && j < k; j++) { /* one array of views per exec, its own */
    rows[j] = gpu_views(e[j], memory);
    subtasks[j] = e[j]->subtask;
  }
  if (ok && emulated)
    kind->gpu_emulated_batch_kernel(&e[0]->task->info, subtasks, k, rows);
  else if (ok)
    kind->cuda_batch_kernel(&e[0]->task->info, subtasks, k, rows, stream);
  free(rows);
  free(subtasks);
  return ok;
}

void nw_exec_run_gpu_emulated(nw_exec *e, unsigned char *memory) {
  const nw_gpu_view *v = gpu_views(e, memory);
  if (e->task->kind->gpu_emulated_kernel)
    e->task->kind->gpu_emulated_kernel(&e->task->info, e->subtask, v);
}

int nw_exec_has_mtc(const nw_exec *e) {
  return e->task->kind->mtc_task != NULL;
}

int nw_exec_mtc_task(nw_exec *e, unsigned char *memory, nw_mtc_task *task) {
  if (!e->task->kind->mtc_task)
    return -1;
  const nw_gpu_view *v = gpu_views(e, memory);
  *task = (nw_mtc_task){0};
  return e->task->kind->mtc_task(&e->task->info, e->subtask, v, task) == 0 ? 0 : -1;
}

const char *nw_exec_kind_name(const nw_exec *e) {
  return e->task->kind->name;
}
