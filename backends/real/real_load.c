/* real_load.c: see real_load.h. With c cores busy with kernels, (factor - 1) * c spinning
 * threads leave the kernels about 1 / factor of the machine under a fair scheduler. */
#define _POSIX_C_SOURCE 200809L
#include "real_load.h"

#include "real_spin.h"

#include <pthread.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <time.h>

typedef struct spinner {
  struct real_load *l;
  double start; /* CLOCK_MONOTONIC */
  pthread_t thread;
} spinner;

struct real_load {
  atomic_int stop;
  int n;
  spinner *s;
};

static double now(void) {
  struct timespec t;
  clock_gettime(CLOCK_MONOTONIC, &t);
  return (double)t.tv_sec + 1e-9 * (double)t.tv_nsec;
}

static void *spin(void *arg) {
  spinner *s = arg;
  real_spin_lower_priority(); /* external load competes with the kernels, not the loop */
  while (!atomic_load(&s->l->stop) && now() < s->start) {
    struct timespec ts = {0, 1000000};
    nanosleep(&ts, NULL);
  }
  volatile unsigned long x = 0;
  while (!atomic_load_explicit(&s->l->stop, memory_order_relaxed))
    for (int i = 0; i < 100000; i++)
      x += (unsigned long)i;
  return NULL;
}

real_load *real_load_start(const nw_run_config *cfg, int rank, int cores, double t0) {
  int total = 0;
  for (int i = 0; i < cfg->nslow; i++)
    if (cfg->slow[i].node == rank)
      total += (int)((cfg->slow[i].factor - 1) * cores + 0.5);
  if (total <= 0)
    return NULL;
  real_load *l = calloc(1, sizeof *l);
  if (!l)
    return NULL;
  l->s = calloc((size_t)total, sizeof *l->s);
  if (!l->s) {
    free(l);
    return NULL;
  }
  atomic_init(&l->stop, 0);
  for (int i = 0; i < cfg->nslow; i++) {
    if (cfg->slow[i].node != rank)
      continue;
    int k = (int)((cfg->slow[i].factor - 1) * cores + 0.5);
    for (int j = 0; j < k; j++) {
      spinner *s = &l->s[l->n];
      *s = (spinner){l, t0 + cfg->slow[i].from_s, 0};
      if (pthread_create(&s->thread, NULL, spin, s) == 0)
        l->n++;
    }
  }
  return l;
}

void real_load_stop(real_load *l) {
  if (!l)
    return;
  atomic_store(&l->stop, 1);
  for (int i = 0; i < l->n; i++)
    pthread_join(l->s[i].thread, NULL);
  free(l->s);
  free(l);
}
