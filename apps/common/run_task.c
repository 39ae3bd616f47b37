/* run_task.c: see run_task.h. */
#include "run_task.h"

nw_status nw_app_run_task(nw_runtime *rt, const nw_task_kind *kind, uint64_t subtasks,
                          const void *conf, size_t conf_size, const nw_app_binding *bind,
                          int nbind) {
  nw_task *task = NULL;
  nw_status st = nw_task_create(rt, kind, subtasks, conf, conf_size, &task);
  for (int i = 0; i < nbind && st == NW_OK; i++) {
    st = nw_task_bind(task, bind[i].space, bind[i].access);
    if (st == NW_OK && bind[i].reduce)
      st = nw_task_reduce(task, bind[i].space, bind[i].reduce, bind[i].type);
  }
  if (st == NW_OK)
    st = nw_task_submit(task);
  if (st == NW_OK)
    st = nw_task_wait(task);
  nw_task_destroy(task);
  return st;
}
