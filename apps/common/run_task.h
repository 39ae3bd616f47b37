/* run_task.h: one task created, bound, submitted and waited for, as most app drivers do. */
#ifndef NW_APP_RUN_TASK_H
#define NW_APP_RUN_TASK_H

#include "narwhal.h"

/* A space the task binds, in binding order, and its reduction (reduce 0: none). */
typedef struct nw_app_binding {
  nw_space *space;
  nw_access access;
  nw_reduce_op reduce;
  nw_elem_type type;
} nw_app_binding;

/* Creates a task of `kind` with `subtasks` subtasks and the configuration bytes conf, binds
 * bind[0 .. nbind-1], submits it and waits for it; returns the first failure. */
nw_status nw_app_run_task(nw_runtime *rt, const nw_task_kind *kind, uint64_t subtasks,
                          const void *conf, size_t conf_size, const nw_app_binding *bind,
                          int nbind);

/* Creates the MapReduce task `m` describes (nw_mapreduce_create), submits it and waits for it;
 * returns the first failure. */
nw_status nw_app_run_mapreduce(nw_runtime *rt, const nw_mapreduce_spec *m);

/* As nw_app_run_task for a task nested in `parent`, from parent's spawn callback, without
 * waiting: the runtime orders nested tasks by the spaces they share, and the parent completes
 * after them. The handle belongs to the parent. */
nw_status nw_app_submit_nested(nw_task *parent, const nw_task_kind *kind, uint64_t subtasks,
                               const void *conf, size_t conf_size, const nw_app_binding *bind,
                               int nbind);

#endif
