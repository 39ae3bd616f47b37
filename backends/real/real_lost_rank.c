/* real_lost_rank.c: see real_lost_rank.h. The handler uses only async-signal-safe calls
 * (kill, write, _exit) on tables filled before it was installed. */
#define _POSIX_C_SOURCE 200809L
#include "real_lost_rank.h"

#include <errno.h>
#include <mpi.h>
#include <pthread.h>
#include <signal.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

/* Ranks watched at most: the tables are static, filled before the handler is installed. */
#define NW_LOST_RANK_MAX 4096

static int me = -1, ranks;
static int32_t pid_of[NW_LOST_RANK_MAX];   /* rank r's process id */
static uint64_t host_of[NW_LOST_RANK_MAX]; /* a hash of rank r's host name */

static uint64_t host_hash(void) {
  char name[256] = "";
  gethostname(name, sizeof name - 1);
  uint64_t h = 1469598103934665603ull; /* FNV-1a */
  for (const unsigned char *p = (const unsigned char *)name; *p; p++)
    h = (h ^ *p) * 1099511628211ull;
  return h;
}

/* Whether rank r is on this host and its process is gone. */
static int gone(int r) {
  return host_of[r] == host_of[me] && kill((pid_t)pid_of[r], 0) != 0 && errno == ESRCH;
}

/* Appends text, or the decimal digits of v, to buf at *at (bounded). */
static void put(char *buf, size_t cap, size_t *at, const char *text) {
  while (*text && *at + 1 < cap)
    buf[(*at)++] = *text++;
}
static void put_int(char *buf, size_t cap, size_t *at, int v) {
  char digits[12];
  int n = 0;
  do
    digits[n++] = (char)('0' + v % 10);
  while ((v /= 10) > 0 && n < 11);
  while (n > 0 && *at + 1 < cap)
    buf[(*at)++] = digits[--n];
}

static void on_term(int sig) {
  int saved = errno, first_live = -1, lost = 0;
  for (int r = 0; r < ranks; r++) {
    if (host_of[r] != host_of[me])
      continue;
    if (gone(r))
      lost++;
    else if (first_live < 0)
      first_live = r;
  }
  if (first_live == me) { /* one line per host */
    char line[400];
    size_t at = 0;
    put(line, sizeof line, &at, "narwhal: rank ");
    put_int(line, sizeof line, &at, me);
    if (lost == 0) {
      put(line, sizeof line, &at,
          ": stopped by mpirun (a signal; no rank on this host is gone: "
          "mpirun's message names the cause)");
    } else {
      put(line, sizeof line, &at, ": the run is lost: rank");
      put(line, sizeof line, &at, lost > 1 ? "s" : "");
      int listed = 0;
      for (int r = 0; r < ranks; r++)
        if (host_of[r] == host_of[me] && gone(r)) {
          put(line, sizeof line, &at, listed++ ? ", " : " ");
          put_int(line, sizeof line, &at, r);
        }
      put(line, sizeof line, &at, " ended abnormally and mpirun stops the job");
    }
    line[at++] = '\n';
    ssize_t w = write(STDERR_FILENO, line, at);
    (void)w;
  }
  errno = saved;
  _exit(128 + sig);
}

void real_lost_rank_watch(int rank, int size) {
  /* Every rank sees the same size, so all take part in the gathers or none does. */
  if (me >= 0 || size < 2 || size > NW_LOST_RANK_MAX)
    return; /* once per process; one rank has no other to lose */
  int32_t pid = (int32_t)getpid();
  uint64_t host = host_hash();
  MPI_Allgather(&pid, 1, MPI_INT32_T, pid_of, 1, MPI_INT32_T, MPI_COMM_WORLD);
  MPI_Allgather(&host, 1, MPI_UINT64_T, host_of, 1, MPI_UINT64_T, MPI_COMM_WORLD);
  me = rank, ranks = size;
  struct sigaction sa;
  memset(&sa, 0, sizeof sa);
  sa.sa_handler = on_term;
  sigemptyset(&sa.sa_mask);
  sigaction(SIGTERM, &sa, NULL);
}

/* --fail on hardware: the rank ends as a crashed process would, with SIGKILL (no handler, no
 * flush), from a thread that sleeps until then. */
static void *kill_later(void *arg) {
  double s = *(double *)arg;
  free(arg);
  struct timespec ts = {(time_t)s, (long)((s - (double)(time_t)s) * 1e9)};
  while (nanosleep(&ts, &ts) != 0 && errno == EINTR)
    ;
  raise(SIGKILL);
  return NULL;
}

void real_lost_rank_fail_at(double seconds) {
  double *arg = malloc(sizeof *arg);
  pthread_t t;
  if (!arg)
    return;
  *arg = seconds;
  if (pthread_create(&t, NULL, kill_later, arg) != 0) {
    free(arg);
    return;
  }
  pthread_detach(t);
}
