/* registry.c: the applications compiled into this build, found by name. */
#include <stdio.h>
#include <string.h>

#include "adder/adder.h"
#include "bag/bag.h"
#include "chain/chain.h"
#include "cholesky/cholesky.h"
#include "cmeans/cmeans.h"
#include "conv2d/conv2d.h"
#include "fft2d/fft2d.h"
#include "gemv/gemv.h"
#include "lu/lu.h"
#include "matmul/matmul.h"
#include "mdlite/mdlite.h"
#include "molecular2d/molecular2d.h"
#include "pagerank/pagerank.h"
#include "randprog/randprog.h"
#include "taskbench/taskbench.h"

static const nw_app *const apps[] = {&nw_matmul_app,
                                     &nw_conv2d_app,
                                     &nw_randprog_app,
                                     &nw_chain_app,
                                     &nw_chain_rw_app,
                                     &nw_taskbench_app,
                                     &nw_pagerank_app,
                                     &nw_lu_app,
                                     &nw_fft2d_app,
                                     &nw_gemv_app,
                                     &nw_cmeans_app,
                                     &nw_molecular2d_app,
                                     &nw_adder_app,
                                     &nw_mdlite_app,
                                     &nw_bag_app,
                                     &nw_cholesky_app,
                                     NULL};

void nw_app_names(char *buf, size_t len) {
  size_t at = 0;
  buf[0] = '\0';
  for (const nw_app *const *a = apps; *a && at < len; a++)
    at += (size_t)snprintf(buf + at, len - at, "%s%s", a == apps ? "" : ", ", (*a)->name);
}

const nw_app *nw_app_find(const char *name) {
  for (const nw_app *const *a = apps; *a; a++)
    if (strcmp((*a)->name, name) == 0)
      return *a;
  return NULL;
}

const nw_task_kind *nw_app_kind(const nw_app *app, const char *kind_name) {
  for (const nw_task_kind *const *k = app->kinds; *k; k++)
    if (strcmp((*k)->name, kind_name) == 0)
      return *k;
  return NULL;
}
