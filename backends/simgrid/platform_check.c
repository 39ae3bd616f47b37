/* platform_check.c: loads a platform in a child process first.
 *
 * SimGrid reports a malformed or inconsistent platform by throwing or dying, which ends a C
 * program with a core dump and pages of text. Loading it once in a forked child turns that
 * into a one-line error naming the file, while the parent has not touched SimGrid yet.
 */
#define _POSIX_C_SOURCE 200809L
#include "platform_check.h"

#include <errno.h>
#include <simgrid/engine.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>
#include <xbt/log.h>

/* Picks the most telling line of SimGrid's output: the first that mentions an error, else the
 * first non-empty one, without SimGrid's "[time] [category/LEVEL] " prefixes. */
static void reason(char *out, char *line, size_t len) {
  char *best = NULL;
  for (char *p = strtok(out, "\n"); p; p = strtok(NULL, "\n")) {
    if (!best)
      best = p;
    if (strstr(p, "rror") || strstr(p, "nvalid") || strstr(p, "nknown")) {
      best = p;
      break;
    }
  }
  if (!best) {
    snprintf(line, len, "SimGrid rejected it");
    return;
  }
  /* "./src/x.cpp:95: [category/ERROR] text" or "[time] [category/LEVEL] text": the text. */
  static const char *const levels[] = {"ERROR] ", "CRITICAL] ", "WARNING] ", "INFO] "};
  for (size_t i = 0; i < sizeof levels / sizeof levels[0]; i++) {
    char *at = strstr(best, levels[i]);
    if (at) {
      best = at + strlen(levels[i]);
      break;
    }
  }
  snprintf(line, len, "%s", best);
}

nw_status nw_platform_check(const char *path, char *why, size_t why_len) {
  FILE *f = fopen(path, "r");
  if (!f) {
    snprintf(why, why_len, "platform %.300s: %s", path, strerror(errno));
    return NW_ERR_ARG;
  }
  fclose(f);
  int fds[2];
  if (pipe(fds) != 0) {
    snprintf(why, why_len, "platform %.300s: cannot check it: %s", path, strerror(errno));
    return NW_ERR_ARG;
  }
  fflush(NULL);
  pid_t pid = fork();
  if (pid < 0) {
    snprintf(why, why_len, "platform %.300s: cannot check it: %s", path, strerror(errno));
    close(fds[0]);
    close(fds[1]);
    return NW_ERR_ARG;
  }
  if (pid == 0) {
    dup2(fds[1], STDOUT_FILENO);
    dup2(fds[1], STDERR_FILENO);
    close(fds[0]);
    int argc = 2;
    char *argv[] = {"narwhal-platform-check", "--log=root.thres:error", NULL};
    simgrid_init(&argc, argv);
    simgrid_load_platform(path);
    _exit(0);
  }
  close(fds[1]);
  char out[8192];
  size_t got = 0;
  ssize_t r;
  while ((r = read(fds[0], out + got, sizeof out - 1 - got)) > 0)
    got += (size_t)r;
  out[got] = '\0';
  close(fds[0]);
  int status = 0;
  while (waitpid(pid, &status, 0) < 0 && errno == EINTR)
    ;
  if (WIFEXITED(status) && WEXITSTATUS(status) == 0)
    return NW_OK;
  char line[200];
  reason(out, line, sizeof line);
  snprintf(why, why_len, "platform %.300s: cannot be loaded: %s", path, line);
  return NW_ERR_ARG;
}
