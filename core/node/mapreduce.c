/* mapreduce.c: the driver side of MapReduce (narwhal.h, "MapReduce"; paper section 4.6).
 *
 * One call makes a task of map subtasks whose output space is reduced, out of the public API
 * alone (nw_task_create, nw_task_bind, nw_task_reduce, nw_space_write); only its own refusals
 * write the runtime's error message directly. The fill is what makes every key of the output
 * defined: the runtime's reduced commit leaves bytes that no subtask subscribed as they were
 * (README, "Reductions"), so keys outside every subtask's range would otherwise keep whatever
 * an earlier task left there.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "node.h"
#include "reduce.h"

/* The fill goes out in writes of at most this many bytes, so that a paper-sized output (4 GB
 * of ranks) needs no buffer of its size on the driver. */
#define FILL_CHUNK ((uint64_t)64 << 20)

/* Writes the identity of op over type over the whole of space s. */
static nw_status fill_identity(nw_runtime *rt, nw_space *s, nw_reduce_op op, nw_elem_type type) {
  uint64_t size = nw_space_size(s), chunk = size < FILL_CHUNK ? size : FILL_CHUNK;
  size_t es = nw_elem_size(type);
  chunk -= chunk % es;
  unsigned char *buf = malloc(chunk ? chunk : 1);
  if (!buf)
    return nw_runtime_fail(rt, NW_ERR_NOMEM,
                           "nw_mapreduce_create: out of memory for the output's fill");
  nw_emitter e;
  nw_status st = nw_emitter_init_buffer(&e, buf, op, type, 0, chunk / es);
  for (uint64_t at = 0; st == NW_OK && at < size; at += chunk)
    st = nw_space_write(s, at, buf, size - at < chunk ? size - at : chunk);
  free(buf);
  return st;
}

nw_status nw_mapreduce_create(nw_runtime *rt, const nw_mapreduce_spec *m, nw_task **out) {
  if (out)
    *out = NULL;
  if (!rt)
    return NW_ERR_ARG;
  if (!m || !out)
    return nw_runtime_fail(rt, NW_ERR_ARG,
                           "nw_mapreduce_create: the spec and the task pointer are needed");
  if (m->ninputs < 0 || m->ninputs > NW_MAX_BOUND_SPACES - 1 || (m->ninputs > 0 && !m->inputs))
    return nw_runtime_fail(
        rt, NW_ERR_ARG,
        "nw_mapreduce_create: %d input spaces; 0 to %d, with their array, and the output",
        m->ninputs, NW_MAX_BOUND_SPACES - 1);
  for (int i = 0; i < m->ninputs; i++)
    if (!m->inputs[i])
      return nw_runtime_fail(rt, NW_ERR_ARG, "nw_mapreduce_create: input space %d is NULL", i);
  if (!m->output)
    return nw_runtime_fail(rt, NW_ERR_ARG, "nw_mapreduce_create: no output space");
  if (m->flags & ~NW_MAPREDUCE_KEYS_COVERED)
    return nw_runtime_fail(rt, NW_ERR_ARG, "nw_mapreduce_create: unknown flags 0x%x",
                           m->flags & ~NW_MAPREDUCE_KEYS_COVERED);
  uint8_t identity[8];
  if (nw_reduce_identity(m->op, m->type, identity) != NW_OK) {
    const char *op = nw_reduce_op_name(m->op), *type = nw_reduce_type_name(m->type);
    if (!type)
      return nw_runtime_fail(rt, NW_ERR_ARG, "nw_mapreduce_create: unknown element type %d",
                             (int)m->type);
    if (m->op == NW_REDUCE_CUSTOM)
      return nw_runtime_fail(
          rt, NW_ERR_ARG,
          "nw_mapreduce_create: NW_REDUCE_CUSTOM has no identity the runtime knows; "
          "bind and reduce such a task with nw_task_reduce and fill its views yourself");
    return nw_runtime_fail(rt, NW_ERR_ARG, "nw_mapreduce_create: unknown reduction %d%s",
                           (int)m->op, op ? "" : " (not a built-in op)");
  }
  size_t es = nw_elem_size(m->type);
  uint64_t size = nw_space_size(m->output);
  if (size % es != 0)
    return nw_runtime_fail(
        rt, NW_ERR_ARG,
        "nw_mapreduce_create: the output's %llu bytes are not a whole number of %s "
        "elements (%zu bytes each)",
        (unsigned long long)size, nw_reduce_type_name(m->type), es);
  nw_task *t = NULL;
  nw_status st = nw_task_create(rt, m->kind, m->subtasks, m->conf, m->conf_size, &t);
  for (int i = 0; st == NW_OK && i < m->ninputs; i++)
    st = nw_task_bind(t, m->inputs[i], NW_READ_ONLY);
  if (st == NW_OK)
    st = nw_task_bind(t, m->output, NW_WRITE_ONLY);
  if (st == NW_OK)
    st = nw_task_reduce(t, m->output, m->op, m->type);
  if (st == NW_OK && !(m->flags & NW_MAPREDUCE_KEYS_COVERED))
    st = fill_identity(rt, m->output, m->op, m->type);
  if (st != NW_OK) {
    nw_task_destroy(t);
    return st;
  }
  *out = t;
  return NW_OK;
}
