/* randprog_kind.c: the randprog task kind: subscriptions read back from the task's
 * configuration bytes, and one kernel body (rp_run_subtask) behind the CPU kernel, the GPU
 * kernel's host emulation and the serial reference, so that the three can only differ in
 * where the runtime put the bytes; likewise one combination (rp_combine) behind the kind's
 * reduce callback and the reference's fold. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "randprog.h"
#include "reduce.h"

void rp_conf_get_head(const void *conf, rp_conf_head *h) {
  memcpy(h, conf, sizeof *h);
}

void rp_conf_get_quad(const void *conf, uint32_t i, rp_quad *q) {
  memcpy(q, (const unsigned char *)conf + sizeof(rp_conf_head) + (size_t)i * sizeof *q, sizeof *q);
}

static uint64_t mix64(uint64_t z) { /* splitmix64's finalizer */
  z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
  z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
  return z ^ (z >> 31);
}

/* A pointer to byte `off` of bound space `sp`, after checking that the runtime's view holds
 * it: a kernel that is handed a view not covering its subscription is the runtime's bug, and
 * is better reported here than as a wrong byte later. */
static unsigned char *at(const rp_bytes *b, uint32_t sp, uint64_t off, int writing) {
  if (b->kind == RP_PLAIN)
    return writing ? b->plain_out[sp] + off : (unsigned char *)b->plain_in[sp] + off;
  if (b->kind == RP_CPU) {
    const nw_view *v = &b->cpu[sp];
    if (!v->base || off < v->lo || off >= v->hi) {
      fprintf(stderr,
              "randprog: CPU view of space %u holds [%llu, %llu)%s; the subscription needs byte "
              "%llu\n",
              sp, (unsigned long long)v->lo, (unsigned long long)v->hi, v->base ? "" : " (no base)",
              (unsigned long long)off);
      abort();
    }
    return nw_view_at(v, off);
  }
  const nw_gpu_view *g = &b->gpu[sp];
  uint64_t row = g->space_pitch ? off / g->space_pitch : 0;
  uint64_t col = g->space_pitch ? off % g->space_pitch : 0;
  if (!g->base || row < g->row0 || row >= g->row0 + g->rows || col < g->col0 ||
      col >= g->col0 + g->width) {
    fprintf(stderr,
            "randprog: GPU view of space %u holds rows [%llu, +%llu) columns [%llu, +%llu)%s; "
            "the subscription needs byte %llu\n",
            sp, (unsigned long long)g->row0, (unsigned long long)g->rows,
            (unsigned long long)g->col0, (unsigned long long)g->width, g->base ? "" : " (no base)",
            (unsigned long long)off);
    abort();
  }
  return nw_gpu_view_at(g, off);
}

/* The byte a subtask whose reads hashed to h writes at `off` of bound space `sp`. */
static unsigned char rp_value(uint64_t h, uint64_t off, uint32_t sp) {
  return (unsigned char)(mix64(h ^ (off + 1) * 0x9E3779B97F4A7C15ull ^ ((uint64_t)sp + 1) << 56) >>
                         24);
}

static uint64_t rotl1(uint64_t v, unsigned bits) {
  uint64_t mask = bits == 64 ? UINT64_MAX : ((uint64_t)1 << bits) - 1;
  return ((v << 1) | (v >> (bits - 1))) & mask;
}

/* Shapes one element of a reduced binding (es bytes, from rp_value) so that its combination
 * with others still depends on every writer: random words would make a product of a few
 * factors mostly zero bits, every logical combination 1, and an AND of three 0 or an OR all
 * ones, hiding a wrong read in any of them. */
static void shape(const rp_reduction *red, unsigned char *e, size_t es) {
  unsigned bits = (unsigned)es * 8;
  uint64_t v;
  uint32_t w;
  if (es == 4) {
    memcpy(&w, e, 4);
    v = w;
  } else {
    memcpy(&v, e, 8);
  }
  switch (red->op) {
  case NW_REDUCE_PRODUCT:
    v |= 1; /* odd: the product stays odd, every factor in every bit */
    break;
  case NW_REDUCE_LOGICAL_AND:
  case NW_REDUCE_LOGICAL_OR:
  case NW_REDUCE_LOGICAL_XOR:
    if (v >> 7 & 1)
      v = 0;
    break;
  case NW_REDUCE_BIT_AND:
    v |= rotl1(v, bits); /* bits 1 with probability 3/4 */
    break;
  case NW_REDUCE_BIT_OR:
    v &= rotl1(v, bits); /* 1/4 */
    break;
  default:
    break;
  }
  if (es == 4) {
    w = (uint32_t)v;
    memcpy(e, &w, 4);
  } else {
    memcpy(e, &v, 8);
  }
}

void rp_combine(const void *conf, uint32_t binding, void *into, const void *from, uint64_t offset,
                uint64_t length) {
  rp_conf_head h;
  rp_conf_get_head(conf, &h);
  const rp_reduction *red = &h.red[binding];
  size_t es = nw_reduce_elem_size((nw_elem_type)red->type);
  if (!red->op || es == 0 || offset % es || length % es) {
    fprintf(stderr,
            "randprog: task %u asked to combine %llu bytes at offset %llu of binding %u, which "
            "is %s\n",
            h.task, (unsigned long long)length, (unsigned long long)offset, binding,
            red->op ? "not on its element boundaries" : "not reduced");
    abort();
  }
  if (red->op != NW_REDUCE_CUSTOM) {
    nw_reduce_builtin((nw_reduce_op)red->op, (nw_elem_type)red->type, into, from, length);
    return;
  }
  unsigned char *a = into;
  const unsigned char *b = from;
  if (red->custom == RP_CUSTOM_ADD1) { /* every element size is a multiple of 4 */
    for (uint64_t k = 0; k < length; k += 4) {
      uint32_t x, y;
      memcpy(&x, a + k, 4);
      memcpy(&y, b + k, 4);
      x = x + y + 1;
      memcpy(a + k, &x, 4);
    }
  } else {
    for (uint64_t k = 0; k < length; k++)
      a[k] = b[k] > a[k] ? b[k] : a[k];
  }
}

uint64_t rp_run_subtask(const void *conf, uint64_t subtask, const rp_bytes *b) {
  rp_conf_head h;
  rp_conf_get_head(conf, &h);
  uint64_t hash = mix64(0xCBF29CE484222325ull ^ ((uint64_t)h.task << 32) ^ subtask);
  uint64_t touched = 0;
  /* Every read first: on a read-write space the view that is read is also written, and the
   * task must see the state at its start. */
  for (uint32_t i = h.first[subtask]; i < h.first[subtask + 1]; i++) {
    rp_quad q;
    rp_conf_get_quad(conf, i, &q);
    if (!(q.access & NW_READ_ONLY))
      continue;
    for (uint64_t s = 0; s < q.count; s++)
      for (uint64_t k = 0; k < q.length; k++) {
        hash = (hash ^ *at(b, q.space, q.offset + s * q.step + k, 0)) * 0x100000001B3ull;
        touched++;
      }
  }
  hash = mix64(hash);
  for (uint32_t i = h.first[subtask]; i < h.first[subtask + 1]; i++) {
    rp_quad q;
    rp_conf_get_quad(conf, i, &q);
    if (!(q.access & NW_WRITE_ONLY))
      continue;
    /* A reduced binding's quads are whole elements (the generator keeps them so). */
    const rp_reduction *red = &h.red[q.space];
    size_t es = red->op ? nw_reduce_elem_size((nw_elem_type)red->type) : 1;
    for (uint64_t s = 0; s < q.count; s++)
      for (uint64_t k = 0; k < q.length; k += es) {
        uint64_t off = q.offset + s * q.step + k;
        unsigned char e[8] = {0};
        for (size_t i = 0; i < es; i++)
          e[i] = rp_value(hash, off + i, q.space);
        if (red->op)
          shape(red, e, es);
        for (size_t i = 0; i < es; i++)
          *at(b, q.space, off + i, 1) = e[i];
        touched += es;
      }
  }
  return touched;
}

uint64_t rp_bytes_touched(const void *conf, uint64_t subtask) {
  rp_conf_head h;
  rp_conf_get_head(conf, &h);
  uint64_t touched = 0;
  for (uint32_t i = h.first[subtask]; i < h.first[subtask + 1]; i++) {
    rp_quad q;
    rp_conf_get_quad(conf, i, &q);
    uint64_t bytes = (uint64_t)q.length * q.count;
    touched += bytes * ((q.access & NW_READ_ONLY) != 0) + bytes * ((q.access & NW_WRITE_ONLY) != 0);
  }
  return touched;
}

/* Scratch buffers (nw_subscribe_scratch): where the program allows them, two subtasks in three
 * ask for one of 1-96 bytes, and half of those fill it through the subscription callback with
 * scratch_byte(); the kernel checks those bytes, then overwrites the whole buffer. Drawn from
 * the task and subtask, not from the program's generator. */
static uint64_t scratch_draw(const rp_conf_head *h, uint64_t subtask) {
  return mix64(0x5C7A7C4B0FF3E5ull ^ ((uint64_t)h->task << 32) ^ subtask);
}

static uint64_t scratch_bytes(const rp_conf_head *h, uint64_t subtask, int *filled) {
  uint64_t d = scratch_draw(h, subtask);
  *filled = (d >> 8 & 1) != 0;
  return h->scratch && d % 3 != 0 ? 1 + (d >> 16) % 96 : 0;
}

static unsigned char scratch_byte(const rp_conf_head *h, uint64_t subtask, uint64_t i) {
  return (unsigned char)(scratch_draw(h, subtask) >> 24 ^ i * 0x9Du);
}

static nw_status rp_subscribe(nw_subscriber *s, const nw_task_info *t, uint64_t subtask) {
  rp_conf_head h;
  rp_conf_get_head(t->conf, &h);
  nw_status st = NW_OK;
  for (uint32_t i = h.first[subtask]; st == NW_OK && i < h.first[subtask + 1]; i++) {
    rp_quad q;
    rp_conf_get_quad(t->conf, i, &q);
    st = nw_subscribe(s, (int)q.space, (nw_access)q.access, q.offset, q.length, q.step, q.count);
  }
  int filled;
  uint64_t bytes = scratch_bytes(&h, subtask, &filled);
  if (st == NW_OK && bytes) {
    void *fill = NULL;
    st = nw_subscribe_scratch(s, bytes, filled ? &fill : NULL);
    for (uint64_t i = 0; fill && i < bytes; i++)
      ((unsigned char *)fill)[i] = scratch_byte(&h, subtask, i);
  }
  return st;
}

/* The kernels' side of the scratch buffer at `buf` (`len` bytes; NULL when the subtask has
 * none): a filled one must hold scratch_byte(), an unfilled one zeroes on a CPU (undefined on
 * a GPU: not checked); then the kernel writes all of it. Wrong bytes are the runtime's bug:
 * reported, and the run aborts. */
static void use_scratch(const nw_task_info *t, uint64_t subtask, unsigned char *buf, uint64_t len,
                        int cpu) {
  rp_conf_head h;
  rp_conf_get_head(t->conf, &h);
  int filled;
  uint64_t bytes = scratch_bytes(&h, subtask, &filled);
  if (bytes != (buf ? len : 0)) {
    fprintf(stderr, "randprog: task %u subtask %llu: scratch buffer of %llu bytes, expected %llu\n",
            h.task, (unsigned long long)subtask, (unsigned long long)(buf ? len : 0),
            (unsigned long long)bytes);
    abort();
  }
  for (uint64_t i = 0; i < bytes; i++) {
    unsigned char want = filled ? scratch_byte(&h, subtask, i) : 0;
    if ((filled || cpu) && buf[i] != want) {
      fprintf(stderr,
              "randprog: task %u subtask %llu: scratch byte %llu is 0x%02x, expected 0x%02x\n",
              h.task, (unsigned long long)subtask, (unsigned long long)i, buf[i], want);
      abort();
    }
  }
  for (uint64_t i = 0; i < bytes; i++)
    buf[i] = (unsigned char)~buf[i];
}

static void rp_cpu(const nw_task_info *t, uint64_t subtask, const nw_view *v) {
  const nw_view *sv = &v[t->nspaces];
  rp_conf_head h;
  rp_conf_get_head(t->conf, &h);
  int filled;
  int has = scratch_bytes(&h, subtask, &filled) != 0;
  use_scratch(t, subtask, has ? sv->base : NULL, has ? sv->hi - sv->lo : 0, 1);
  rp_bytes b = {.kind = RP_CPU, .cpu = v};
  rp_run_subtask(t->conf, subtask, &b);
}

static void rp_reduce(const nw_task_info *t, int space, void *into, const void *from,
                      uint64_t offset, uint64_t length) {
  rp_combine(t->conf, (uint32_t)space, into, from, offset, length);
}

static void rp_gpu_emulated(const nw_task_info *t, uint64_t subtask, const nw_gpu_view *v) {
  const nw_gpu_view *sv = &v[t->nspaces];
  rp_conf_head h;
  rp_conf_get_head(t->conf, &h);
  int filled;
  int has = scratch_bytes(&h, subtask, &filled) != 0;
  use_scratch(t, subtask, has ? sv->base : NULL, has ? sv->width : 0, 0);
  rp_bytes b = {.kind = RP_GPU, .gpu = v};
  rp_run_subtask(t->conf, subtask, &b);
}

/* A hundred operations per byte touched, plus some for an empty subtask, so that simulated
 * times are never zero. */
static double rp_flops(const nw_task_info *t, uint64_t subtask, nw_device_kind kind) {
  (void)kind;
  return 100.0 * (double)(rp_bytes_touched(t->conf, subtask) + 10);
}

/* No work-item split and no CUDA kernel: work-groups run subtasks whole, and the real backend
 * runs them on CPUs; the simulator runs the host emulation on its modelled GPUs. */
const nw_task_kind nw_randprog_kind = {
    .name = "randprog",
    .subscribe = rp_subscribe,
    .cpu_kernel = rp_cpu,
    .flops = rp_flops,
    .gpu_emulated_kernel = rp_gpu_emulated,
    .reduce = rp_reduce,
};

const nw_task_kind nw_randprog_parent_kind = {
    .name = "randprog-parent",
    .subscribe = rp_subscribe,
    .cpu_kernel = rp_cpu,
    .flops = rp_flops,
    .gpu_emulated_kernel = rp_gpu_emulated,
    .reduce = rp_reduce,
    .spawn = rp_spawn_nested,
};
