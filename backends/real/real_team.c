/* real_team.c: see real_team.h. */
#include "real_team.h"

#include "real_spin.h"

#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>

typedef struct member {
  struct real_team *team;
  int index; /* runs item index + 1 */
  pthread_t thread;
} member;

struct real_team {
  pthread_mutex_t mu;
  pthread_cond_t work, done;
  nw_exec *exec;  /* the subtask being run, NULL between subtasks */
  int items;      /* its work-items */
  unsigned round; /* a new subtask: members compare against the round they last ran */
  int running;    /* items handed out and not yet finished */
  int stop;
  int nmembers;
  member *members;
};

static void *member_main(void *arg) {
  real_spin_lower_priority();
  member *m = arg;
  real_team *t = m->team;
  unsigned seen = 0;
  pthread_mutex_lock(&t->mu);
  for (;;) {
    while (!t->stop && (t->round == seen || m->index + 1 >= t->items))
      pthread_cond_wait(&t->work, &t->mu);
    if (t->stop)
      break;
    seen = t->round;
    nw_exec *e = t->exec;
    pthread_mutex_unlock(&t->mu);
    nw_exec_run_item(e, m->index + 1);
    pthread_mutex_lock(&t->mu);
    if (--t->running == 0)
      pthread_cond_signal(&t->done);
  }
  pthread_mutex_unlock(&t->mu);
  return NULL;
}

real_team *real_team_create(int cores) {
  real_team *t = calloc(1, sizeof *t);
  if (!t)
    return NULL;
  pthread_mutex_init(&t->mu, NULL);
  pthread_cond_init(&t->work, NULL);
  pthread_cond_init(&t->done, NULL);
  int n = cores > 1 ? cores - 1 : 0;
  t->members = calloc((size_t)(n ? n : 1), sizeof *t->members);
  if (!t->members) {
    real_team_destroy(t);
    return NULL;
  }
  for (int i = 0; i < n; i++) {
    t->members[i] = (member){.team = t, .index = i};
    if (pthread_create(&t->members[i].thread, NULL, member_main, &t->members[i]) != 0) {
      real_team_destroy(t);
      return NULL;
    }
    t->nmembers++;
  }
  return t;
}

void real_team_run(real_team *t, nw_exec *e) {
  int items = nw_exec_items(e);
  if (items > t->nmembers + 1) { /* items left out would leave results unwritten */
    fprintf(stderr, "narwhal: internal error: %d work-items for a group of %d cores\n", items,
            t->nmembers + 1);
    exit(1);
  }
  pthread_mutex_lock(&t->mu);
  t->exec = e;
  t->items = items;
  t->running = items - 1;
  t->round++;
  pthread_cond_broadcast(&t->work);
  pthread_mutex_unlock(&t->mu);
  nw_exec_run_item(e, 0);
  pthread_mutex_lock(&t->mu);
  while (t->running > 0)
    pthread_cond_wait(&t->done, &t->mu);
  t->exec = NULL;
  pthread_mutex_unlock(&t->mu);
}

void real_team_destroy(real_team *t) {
  if (!t)
    return;
  pthread_mutex_lock(&t->mu);
  t->stop = 1;
  pthread_cond_broadcast(&t->work);
  pthread_mutex_unlock(&t->mu);
  for (int i = 0; i < t->nmembers; i++)
    pthread_join(t->members[i].thread, NULL);
  free(t->members);
  pthread_mutex_destroy(&t->mu);
  pthread_cond_destroy(&t->work);
  pthread_cond_destroy(&t->done);
  free(t);
}
