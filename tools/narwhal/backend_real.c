/* backend_real.c: the backend of `narwhal-real`: MPI ranks on real hardware. */
#include <stdio.h>
#include <string.h>

#include "backend_choice.h"
#include "real_backend.h"

nw_status tool_run_backend(const tool_options *o, const nw_app *app, char **argv,
                           nw_run_result *res) {
  (void)argv;
  if (strcmp(o->run.backend, "real") == 0)
    return nw_real_run(&o->run, app, res);
  memset(res, 0, sizeof *res);
  snprintf(res->error, sizeof res->error,
           "narwhal-real runs --backend real only; use narwhal for the simulator");
  return res->status = NW_ERR_ARG;
}

void tool_backend_finish(void) {
  nw_real_finish();
}
