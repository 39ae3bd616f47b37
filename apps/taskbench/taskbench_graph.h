/* taskbench_graph.h: the task graph and kernel of the Task Bench-style benchmark,
 * shared by the Narwhal app (apps/taskbench) and the plain-MPI and StarPU versions
 * (benchmarks/taskbench_mpi.c, taskbench_starpu.c), so that all three run the same graph with
 * the same kernel and produce the same bits. Plain C: no Narwhal, MPI or StarPU here.
 *
 * The graph (Slaughter et al., SC'20): `width` points x `steps` timesteps. Step 0 is the input
 * (tb_cell_init); task (p, t), t = 1..steps, reads the cells of step t-1 that its pattern names
 * (tb_ndeps / tb_dep) and writes cell p of step t:
 *   trivial      no dependencies;
 *   stencil_1d   p-1, p, p+1 (not periodic: clipped at the edges);
 *   nearest      the same as stencil_1d (Task Bench's nearest with radius 1);
 *   spread       min(3, width) points spread evenly: p + k * width / 3 (mod width), k = 0..2;
 *   all_to_all   every point.
 * The kernel is compute-bound: `iterations` rounds of v = v * A + B over TB_LANES floats (2 flops
 * a lane a round), starting from the average of the inputs; the result is stored in the cell, so
 * no compiler can drop the loop. Each cell also carries a hash of its (step, point) and of every
 * input's hash in dependency order, so equal final cells mean the whole graph ran as defined.
 */
#ifndef NW_APP_TASKBENCH_GRAPH_H
#define NW_APP_TASKBENCH_GRAPH_H

#include <stdint.h>

enum { TB_TRIVIAL, TB_STENCIL_1D, TB_NEAREST, TB_SPREAD, TB_ALL_TO_ALL, TB_PATTERNS };

#define TB_LANES 16
/* One cell, the unit every task reads and writes: 80 bytes. */
typedef struct tb_cell {
  uint32_t step, point, hash, pad;
  float v[TB_LANES];
} tb_cell;

/* The pattern of that name, or -1. */
int tb_pattern_parse(const char *name);
const char *tb_pattern_name(int pattern);
/* "trivial, stencil_1d, ..." for messages. */
const char *tb_pattern_names(void);

/* How many cells task (point, any step) reads, and the k-th of them (k < tb_ndeps). The same
 * at every step. */
uint64_t tb_ndeps(int pattern, uint64_t width, uint64_t point);
uint64_t tb_dep(int pattern, uint64_t width, uint64_t point, uint64_t k);
/* True when the dependencies are the contiguous points tb_dep(0) .. tb_dep(0) + n - 1. */
int tb_deps_contiguous(int pattern);

/* Step 0's cell of point p. */
void tb_cell_init(tb_cell *c, uint64_t point);

/* One task, as a stream of its inputs: begin, add each input in dependency order, finish. */
typedef struct tb_state {
  uint32_t hash;
  uint32_t n;
  float v[TB_LANES];
} tb_state;
void tb_task_begin(tb_state *s, uint64_t step, uint64_t point);
void tb_task_add(tb_state *s, const tb_cell *in);
void tb_task_finish(tb_state *s, uint64_t step, uint64_t point, uint64_t iterations, tb_cell *out);
/* Floating-point operations of one task with n inputs. */
double tb_task_flops(uint64_t n, uint64_t iterations);

/* The whole graph, serially: final[p] = cell p of step `steps`. Returns 0, or -1 out of memory. */
int tb_reference(int pattern, uint64_t width, uint64_t steps, uint64_t iterations, tb_cell *final);

#endif
