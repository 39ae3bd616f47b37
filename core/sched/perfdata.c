/* perfdata.c: measurements to node 0's model, and predictions from it (perfdata.h). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "perfdata.h"

struct nw_perf_sample {
  uint32_t kind; /* index in nw_node_config.kinds */
  uint8_t dev_kind;
  uint32_t cores;
  uint64_t footprint, size;
  double flops; /* the kind's cost model's, for this subtask on that device */
  double seconds;
};

void nw_perf_arch(nw_device_kind kind, int cores, char out[NW_PERFMODEL_ARCH_MAX + 1]) {
  if (kind == NW_DEVICE_GPU)
    snprintf(out, NW_PERFMODEL_ARCH_MAX + 1, "gpu");
  else if (cores > 1)
    snprintf(out, NW_PERFMODEL_ARCH_MAX + 1, "cpu%d", cores);
  else
    snprintf(out, NW_PERFMODEL_ARCH_MAX + 1, "cpu");
}

void nw_perf_shape(const nw_task_state *t, const nw_region *read, const nw_region *write,
                   uint64_t *footprint, uint64_t *size) {
  uint64_t h = NW_PERF_FOOTPRINT_START;
  *size = 0;
  for (int i = 0; i < t->info.nspaces; i++) {
    uint64_t r = nw_region_bytes(&read[i]), w = nw_region_bytes(&write[i]);
    h = nw_perf_footprint_add(nw_perf_footprint_add(h, r), w);
    *size += r + w;
  }
  *footprint = h;
}

static int kind_index(const nw_node *n, const nw_task_kind *k) {
  for (int i = 0; n->cfg.kinds && n->cfg.kinds[i]; i++)
    if (n->cfg.kinds[i] == k)
      return i;
  return -1;
}

/* What the model the run was given predicted for a measured kernel, beside what it took
 * (kernels_measured_s, kernels_predicted_s): on hardware, how far the kernels of this run
 * were from the calibration's, apart from everything else a simulation of it gets wrong. The
 * given model, not the live one: from its tenth sample a footprint's prediction would be this
 * run's own mean. */
static void compare(nw_node *n, const nw_task_kind *k, const char *arch,
                    const struct nw_perf_sample *s) {
  if (!n->perf_given) {
    if (nw_perfmodel_create(&n->perf_given) != NW_OK)
      return;
    if (nw_perfmodel_merge(n->perf_given, n->cfg.perfmodel) != NW_OK) {
      nw_perfmodel_free(n->perf_given); /* and tries again with the next sample */
      n->perf_given = NULL;
      return;
    }
  }
  double predicted;
  if (nw_perfmodel_predict_work(n->perf_given, k->name, arch, s->footprint, s->size, s->flops,
                                &predicted) == NW_PRICE_UNCALIBRATED)
    return;
  n->stats.kernels_compared++;
  n->stats.kernels_measured_s += s->seconds;
  n->stats.kernels_predicted_s += predicted;
}

static void record(nw_node *n, const struct nw_perf_sample *s) {
  char arch[NW_PERFMODEL_ARCH_MAX + 1];
  nw_perf_arch((nw_device_kind)s->dev_kind, (int)s->cores, arch);
  const nw_task_kind *k = n->cfg.kinds[s->kind];
  compare(n, k, arch, s);
  /* A refused sample (a name too long for the model, a footprint seen with another size)
   * costs the model that sample only; the run goes on. */
  if (nw_perfmodel_record_work(n->cfg.perfmodel, k->name, arch, s->footprint, s->size, s->flops,
                               s->seconds) == NW_OK)
    n->stats.perf_samples++;
}

void nw_perf_observe(nw_node *n, const nw_exec *e, double seconds) {
  int k = kind_index(n, e->task->kind);
  if (!n->cfg.measure || k < 0 || !(seconds >= 0))
    return;
  struct nw_perf_sample s = {.kind = (uint32_t)k,
                             .dev_kind = (uint8_t)n->cfg.device_kind[e->device],
                             .cores = (uint32_t)(e->items > 1 ? e->items : 1),
                             .flops = nw_exec_flops(e),
                             .seconds = seconds};
  nw_perf_shape(e->task, e->prep->read, e->prep->write, &s.footprint, &s.size);
  s.footprint = nw_perf_footprint_flops(s.footprint, s.flops);
  if (n->cfg.id == 0) {
    if (n->cfg.perfmodel)
      record(n, &s);
    return;
  }
  if (n->perf_n == n->perf_cap) {
    size_t cap = n->perf_cap ? 2 * n->perf_cap : 64;
    struct nw_perf_sample *a = realloc(n->perf, cap * sizeof *a);
    if (!a)
      return; /* a lost measurement, not a wrong result */
    n->perf = a;
    n->perf_cap = cap;
  }
  n->perf[n->perf_n++] = s;
}

void nw_perf_flush(nw_node *n) {
  if (n->cfg.id == 0 || n->perf_n == 0)
    return;
  nw_writer w;
  nw_w_init(&w, MSG_PERF_SAMPLES);
  nw_w_u64(&w, n->perf_n);
  for (size_t i = 0; i < n->perf_n; i++) {
    const struct nw_perf_sample *s = &n->perf[i];
    nw_w_u32(&w, s->kind);
    nw_w_u8(&w, s->dev_kind);
    nw_w_u32(&w, s->cores);
    nw_w_u64(&w, s->footprint);
    nw_w_u64(&w, s->size);
    nw_w_f64(&w, s->flops);
    nw_w_f64(&w, s->seconds);
  }
  n->perf_n = 0;
  nw_node_send(n, 0, NW_CHANNEL_CONTROL, &w, 0);
}

void nw_perf_on_samples(nw_node *n, int src, nw_reader *r) {
  uint64_t count = nw_r_u64(r);
  if (r->bad || n->cfg.id != 0 || src <= 0 || (r->len - r->pos) != count * 41) {
    r->bad = 1;
    return;
  }
  int kinds = 0;
  while (n->cfg.kinds && n->cfg.kinds[kinds])
    kinds++;
  for (uint64_t i = 0; i < count && !r->bad; i++) {
    struct nw_perf_sample s;
    s.kind = nw_r_u32(r);
    s.dev_kind = nw_r_u8(r);
    s.cores = nw_r_u32(r);
    s.footprint = nw_r_u64(r);
    s.size = nw_r_u64(r);
    s.flops = nw_r_f64(r);
    s.seconds = nw_r_f64(r);
    if (s.kind >= (uint32_t)kinds || s.dev_kind > NW_DEVICE_GPU || !(s.seconds >= 0) ||
        !(s.flops >= 0)) {
      r->bad = 1;
      return;
    }
    if (n->cfg.perfmodel)
      record(n, &s);
  }
}

int nw_perf_predict(nw_node *n, const nw_task_kind *k, nw_device_kind kind, int cores,
                    uint64_t footprint, uint64_t size, double flops, double *seconds) {
  if (!n->cfg.perfmodel)
    return 0;
  char arch[NW_PERFMODEL_ARCH_MAX + 1];
  nw_perf_arch(kind, cores, arch);
  return nw_perfmodel_predict_work(n->cfg.perfmodel, k->name, arch,
                                   nw_perf_footprint_flops(footprint, flops), size, flops,
                                   seconds) != NW_PRICE_UNCALIBRATED;
}

nw_price_source nw_perf_exec_seconds(const nw_exec *e, nw_device_kind kind, nw_perfmodel *m,
                                     double *seconds) {
  const nw_task_state *t = e->task;
  char arch[NW_PERFMODEL_ARCH_MAX + 1];
  uint64_t footprint, size;
  nw_perf_arch(kind, e->items, arch);
  nw_perf_shape(t, e->prep->read, e->prep->write, &footprint, &size);
  double flops = nw_exec_flops(e);
  return nw_perfmodel_predict_work(m, t->kind->name, arch,
                                   nw_perf_footprint_flops(footprint, flops), size, flops, seconds);
}

void nw_perf_free(nw_node *n) {
  nw_perfmodel_free(n->perf_given);
  n->perf_given = NULL;
  free(n->perf);
  n->perf = NULL;
  n->perf_n = n->perf_cap = 0;
}
