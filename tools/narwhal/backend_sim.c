/* backend_sim.c: the backends of `narwhal`: the simulator here, the real one by exec. */
#define _POSIX_C_SOURCE 200809L
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "backend_choice.h"
#include "sim_backend.h"

nw_status tool_run_backend(const tool_options *o, const nw_app *app, char **argv,
                           nw_run_result *res) {
  if (strcmp(o->run.backend, "sim") == 0)
    return nw_sim_run(&o->run, app, res);
  char self[PATH_MAX], real[PATH_MAX + 16];
  ssize_t n = readlink("/proc/self/exe", self, sizeof self - 1);
  memset(res, 0, sizeof *res);
  if (n > 0) {
    self[n] = '\0';
    char *slash = strrchr(self, '/');
    if (slash)
      *slash = '\0';
    snprintf(real, sizeof real, "%s/narwhal-real", self);
    execv(real, argv);
  }
  snprintf(res->error, sizeof res->error,
           "--backend real: cannot run narwhal-real next to "
           "this executable: %s",
           strerror(errno));
  return res->status = NW_ERR_ARG;
}
