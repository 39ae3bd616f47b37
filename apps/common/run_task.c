/* run_task.c: see run_task.h. */
#include "run_task.h"

static nw_status bind_all(nw_task *task, const nw_app_binding *bind, int nbind) {
  nw_status st = NW_OK;
  for (int i = 0; i < nbind && st == NW_OK; i++) {
    st = nw_task_bind(task, bind[i].space, bind[i].access);
    if (st == NW_OK && bind[i].reduce)
      st = nw_task_reduce(task, bind[i].space, bind[i].reduce, bind[i].type);
  }
  return st;
}

/* Submits a task set up with status st, waits for it and frees it; the first failure. */
static nw_status submit_wait_destroy(nw_task *task, nw_status st) {
  if (st == NW_OK)
    st = nw_task_submit(task);
  if (st == NW_OK)
    st = nw_task_wait(task);
  nw_task_destroy(task);
  return st;
}

nw_status nw_app_run_task(nw_runtime *rt, const nw_task_kind *kind, uint64_t subtasks,
                          const void *conf, size_t conf_size, const nw_app_binding *bind,
                          int nbind) {
  nw_task *task = NULL;
  nw_status st = nw_task_create(rt, kind, subtasks, conf, conf_size, &task);
  if (st == NW_OK)
    st = bind_all(task, bind, nbind);
  return submit_wait_destroy(task, st);
}

nw_status nw_app_run_mapreduce(nw_runtime *rt, const nw_mapreduce_spec *m) {
  nw_task *task = NULL;
  nw_status st = nw_mapreduce_create(rt, m, &task);
  return submit_wait_destroy(task, st);
}

nw_status nw_app_submit_nested(nw_task *parent, const nw_task_kind *kind, uint64_t subtasks,
                               const void *conf, size_t conf_size, const nw_app_binding *bind,
                               int nbind) {
  nw_task *task = NULL;
  nw_status st = nw_task_create_nested(parent, kind, subtasks, conf, conf_size, &task);
  if (st == NW_OK)
    st = bind_all(task, bind, nbind);
  if (st == NW_OK)
    st = nw_task_submit(task);
  return st;
}
