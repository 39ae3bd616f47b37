/* backend_sim.c: the backends of `narwhal`: the simulator here, the real one by exec. */
#define _POSIX_C_SOURCE 200809L
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "backend_choice.h"
#include "sim_backend.h"
#include "text_file.h"

/* Replaces this process with narwhal-real (same directory), same arguments; returns only on
 * failure, with the reason in why. */
static void exec_real(char **argv, char *why, size_t why_len) {
  char self[PATH_MAX], real[PATH_MAX + 16];
  ssize_t n = readlink("/proc/self/exe", self, sizeof self - 1);
  if (n > 0) {
    self[n] = '\0';
    char *slash = strrchr(self, '/');
    if (slash)
      *slash = '\0';
    snprintf(real, sizeof real, "%s/narwhal-real", self);
    execv(real, argv);
  }
  snprintf(why, why_len, "cannot run narwhal-real next to this executable: %s", strerror(errno));
}

nw_status tool_run_backend(const tool_options *o, const nw_app *app, char **argv,
                           nw_run_result *res) {
  if (strcmp(o->run.backend, "sim") == 0)
    return nw_sim_run(&o->run, app, res);
  memset(res, 0, sizeof *res);
  char why[400];
  exec_real(argv, why, sizeof why);
  snprintf(res->error, sizeof res->error, "--backend real: %s", why);
  return res->status = NW_ERR_ARG;
}

int tool_calibrate(int argc, char **argv, char **all_argv) {
  (void)argc, (void)argv;
  char why[400];
  exec_real(all_argv, why, sizeof why);
  tool_say("calibrate runs on the real backend: %s", why);
  return 2;
}

void tool_backend_finish(void) {}
