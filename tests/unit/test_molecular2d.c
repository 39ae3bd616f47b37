/* test_molecular2d.c: the Molecular2D app's arithmetic (apps/molecular2d/md_math.h), kernels
 * and reference (md_ref.c), which the distributed runs are checked against bit for bit
 * (tests/sim, tests/real): two particles' forces by hand, in one cell and across cells, none
 * beyond the cutoff; a reflection off a wall by hand; momentum and energy nearly conserved by
 * the reference; the force kind's GPU emulation, one cell at a time and as a batch of cells in
 * one call (the agglomerated launch), over views laid out as on a GPU, equal to the CPU kernel
 * bit for bit; the integrate kind's likewise; and the cost model's formulas. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "molecular2d/md_data.h"
#include "molecular2d/md_grid.h"
#include "molecular2d/md_math.h"
#include "molecular2d/md_ref.h"
#include "molecular2d/molecular2d.h"

/* Two particles in one cell, half a cell apart: r^2 = 1/4, w = (3/4)^2 = 9/16, a = w (p_i - p_j)
 * = -/+ 9/32 in x, every operation exact in float. Equal and opposite, to the bit. */
static void pair_in_cell(void) {
  float pos[4] = {0.25f, 0.5f, 0.75f, 0.5f}, acc[4];
  md_hood h = {.cell = {[4] = pos}, .acc = acc, .ppc = 2, .k = 1.0f};
  md_particle_accel(&h, 0);
  md_particle_accel(&h, 1);
  CHECK(acc[0] == -0.28125f && acc[1] == 0.0f);
  CHECK(acc[2] == 0.28125f && acc[3] == 0.0f);
}

/* Across cells: A at (0.9, 0.5) in cell (0, 0), B at (0.1, 0.5) in cell (1, 0), 0.2 apart: a =
 * -/+ 0.2 (1 - 0.04)^2 in x, up to float rounding (the shift into the other cell's frame
 * rounds). Pairs beyond the cutoff, in the diagonal and the upper neighbour, give exactly 0. */
static void pair_across_cells(void) {
  float a[2] = {0.9f, 0.5f}, b[2] = {0.1f, 0.5f}, acc_a[2], acc_b[2];
  md_hood ha = {.cell = {[4] = a, [5] = b}, .acc = acc_a, .ppc = 1, .k = 1.0f};
  md_hood hb = {.cell = {[4] = b, [3] = a}, .acc = acc_b, .ppc = 1, .k = 1.0f};
  md_particle_accel(&ha, 0);
  md_particle_accel(&hb, 0);
  double want = 0.2 * (1.0 - 0.04) * (1.0 - 0.04);
  CHECK(fabs(acc_a[0] + want) < 1e-6 && acc_a[1] == 0.0f);
  CHECK(fabs(acc_b[0] - want) < 1e-6 && acc_b[1] == 0.0f);
  CHECK(fabs((double)acc_a[0] + acc_b[0]) < 1e-6);

  /* E at (0.05, 0.05) of cell (0, 0); F at (0.95, 0.95) of cell (1, 1), 1.9 sqrt 2 away; G at
   * (0.05, 0.2) of cell (0, 1), 1.15 away. */
  float e[2] = {0.05f, 0.05f}, f[2] = {0.95f, 0.95f}, g[2] = {0.05f, 0.2f}, acc_e[2];
  md_hood he = {.cell = {[4] = e, [8] = f, [7] = g}, .acc = acc_e, .ppc = 1, .k = 1.0f};
  md_particle_accel(&he, 0);
  CHECK(acc_e[0] == 0.0f && acc_e[1] == 0.0f);
}

/* A particle 0.001 from the wall at 1 moving at speed 1 for dt 0.01 ends 0.009 back inside,
 * turned; one with no acceleration and speed 0 stays exactly where it was. */
static void reflection(void) {
  float acc[4] = {0}, pos[4] = {0.999f, 0.5f, 0.25f, 0.75f}, vel[4] = {1.0f, 0.0f, 0.0f, 0.0f};
  md_move m = {.acc = acc, .pos = pos, .vel = vel, .ppc = 2, .dt = 0.01f};
  md_particle_move(&m, 0);
  md_particle_move(&m, 1);
  CHECK(fabsf(pos[0] - 0.991f) < 1e-6f && vel[0] == -1.0f);
  CHECK(pos[1] == 0.5f && vel[1] == 0.0f);
  CHECK(pos[2] == 0.25f && pos[3] == 0.75f && vel[2] == 0.0f && vel[3] == 0.0f);
  /* A step of 1.5 cells from 0.9: reflected to -0.4, clamped to the wall. */
  float fast_pos[2] = {0.9f, 0.5f}, fast_vel[2] = {150.0f, 0.0f};
  md_move f = {.acc = acc, .pos = fast_pos, .vel = fast_vel, .ppc = 1, .dt = 0.01f};
  md_particle_move(&f, 0);
  CHECK(fast_pos[0] == 0.0f && fast_vel[0] == -150.0f);
}

/* Total energy: kinetic, plus U = (k / 6) (1 - r^2)^3 over the pairs within the cutoff (in the
 * box's coordinates: cell corner plus position), in double. */
static double energy(const md_conf *c, const float *pos, const float *vel) {
  uint64_t n = c->grid * c->grid * c->ppc;
  double e = 0.0;
  for (uint64_t i = 0; i < n; i++) {
    e += 0.5 * ((double)vel[2 * i] * vel[2 * i] + (double)vel[2 * i + 1] * vel[2 * i + 1]);
    uint64_t ci = i / c->ppc;
    double xi = (double)(ci % c->grid) + pos[2 * i], yi = (double)(ci / c->grid) + pos[2 * i + 1];
    for (uint64_t j = i + 1; j < n; j++) {
      uint64_t cj = j / c->ppc;
      double dx = xi - ((double)(cj % c->grid) + pos[2 * j]);
      double dy = yi - ((double)(cj / c->grid) + pos[2 * j + 1]);
      double r2 = dx * dx + dy * dy;
      if (r2 < 1.0)
        e += (double)c->k / 6.0 * (1.0 - r2) * (1.0 - r2) * (1.0 - r2);
    }
  }
  return e;
}

/* The reference over 200 steps of 3 x 3 cells: everything stays in its cell, the particles
 * move, and the total energy drifts by under 2% of the initial kinetic energy (0.5% here:
 * semi-implicit Euler on a smooth potential; a force of the wrong sign doubles the energy).
 * Deterministic: twice the same bits. */
static void reference_physics(void) {
  md_conf c = {.grid = 3, .ppc = 30, .k = md_force_constant(30), .dt = MD_DT};
  uint64_t count = c.grid * c.grid * c.ppc * 2;
  float *pos = malloc(count * sizeof *pos), *vel = malloc(count * sizeof *vel);
  float *pos0 = malloc(count * sizeof *pos), *vel0 = malloc(count * sizeof *vel);
  CHECK(pos && vel && pos0 && vel0);
  if (!pos || !vel || !pos0 || !vel0)
    return;
  md_fill_state(&c, 7, pos, vel);
  memcpy(pos0, pos, count * sizeof *pos);
  memcpy(vel0, vel, count * sizeof *vel);
  double e0 = energy(&c, pos, vel), kinetic = 0.0;
  for (uint64_t q = 0; q < count; q++)
    kinetic += 0.5 * (double)vel[q] * vel[q];
  CHECK(md_reference(&c, 200, pos, vel) == 0);
  double e1 = energy(&c, pos, vel);
  CHECK(fabs(e1 - e0) < 0.02 * kinetic);
  int inside = 1;
  uint64_t moved = 0;
  for (uint64_t q = 0; q < count; q++) {
    inside &= pos[q] >= 0.0f && pos[q] <= 1.0f;
    moved += pos[q] != pos0[q];
  }
  CHECK(inside);
  CHECK(moved == count);
  float *again = malloc(count * sizeof *again), *again_vel = malloc(count * sizeof *again);
  CHECK(again && again_vel);
  if (again && again_vel) {
    memcpy(again, pos0, count * sizeof *again);
    memcpy(again_vel, vel0, count * sizeof *again);
    CHECK(md_reference(&c, 200, again, again_vel) == 0);
    CHECK(memcmp(again, pos, count * sizeof *pos) == 0);
    CHECK(memcmp(again_vel, vel, count * sizeof *vel) == 0);
  }
  free(again);
  free(again_vel);
  free(pos);
  free(vel);
  free(pos0);
  free(vel0);
}

/* A GPU's view of `space` (G^2 cells in the spaces' layout) over the rectangle of cell columns
 * [x0, x1] and rows [y0, y1]: the rectangle copied out, packed (narwhal.h, nw_gpu_view). */
static nw_gpu_view gpu_view(const md_conf *c, const float *space, md_span r) {
  uint64_t cb = md_cell_bytes(c), width = (r.x1 - r.x0 + 1) * cb, rows = r.y1 - r.y0 + 1;
  nw_gpu_view v = {.base = malloc(rows * width),
                   .row0 = r.y0,
                   .rows = rows,
                   .col0 = r.x0 * cb,
                   .width = width,
                   .pitch = width,
                   .space_pitch = md_row_bytes(c)};
  for (uint64_t y = 0; v.base && y < rows; y++)
    memcpy(v.base + y * width, (const unsigned char *)space + md_cell_offset(c, r.x0, r.y0 + y),
           width);
  return v;
}

static md_span own_cell(const md_conf *c, uint64_t cell) {
  md_span s = {cell % c->grid, cell % c->grid, cell / c->grid, cell / c->grid};
  return s;
}

/* The force kind's GPU emulation against its CPU kernel, 4 x 4 cells of 37 particles (corner,
 * edge and inside cells): cell by cell, and as one batch of 7 cells in a scrambled order (and a
 * batch of one), each over its own views laid out as a GPU holds them. Every result equal to the
 * CPU kernel's bits, and not all zero. */
static void force_batch(void) {
  md_conf c = {.grid = 4, .ppc = 37, .k = md_force_constant(37), .dt = MD_DT};
  uint64_t cells = c.grid * c.grid, size = cells * md_cell_bytes(&c), cb = md_cell_bytes(&c);
  float *pos = malloc(size), *vel = malloc(size), *cpu = malloc(size);
  CHECK(pos && vel && cpu);
  if (!pos || !vel || !cpu)
    return;
  md_fill_state(&c, 3, pos, vel);
  nw_task_info t = {.subtasks = cells,
                    .conf = &c,
                    .conf_size = sizeof c,
                    .nspaces = 2,
                    .space_size = (const uint64_t[]){size, size},
                    .space_pitch = (const uint64_t[]){md_row_bytes(&c), md_row_bytes(&c)}};
  /* The CPU kernel on whole-space views (the node's copies, as for a write in place). */
  nw_view cv[2] = {{(unsigned char *)pos, 0, size}, {(unsigned char *)cpu, 0, size}};
  for (uint64_t s = 0; s < cells; s++)
    nw_md_force_kind.cpu_kernel(&t, s, cv);
  int nonzero = 0;
  for (uint64_t q = 0; q < size / sizeof(float); q++)
    nonzero |= cpu[q] != 0.0f;
  CHECK(nonzero);

  /* Each cell's views as its GPU run would hold them. */
  nw_gpu_view(*views)[2] = calloc(cells, sizeof *views);
  CHECK(views != NULL);
  if (!views)
    return;
  int ready = 1;
  for (uint64_t s = 0; s < cells; s++) {
    views[s][MD_FORCE_POS] = gpu_view(&c, pos, md_neighbourhood(&c, s));
    views[s][MD_FORCE_ACC] = gpu_view(&c, cpu, own_cell(&c, s)); /* overwritten below */
    ready &= views[s][0].base && views[s][1].base;
  }
  CHECK(ready);
  /* The neighbourhood rectangles: 4 cells in a corner, 6 on an edge, 9 inside. */
  CHECK(views[0][0].rows * views[0][0].width == 4 * cb);
  CHECK(views[1][0].rows * views[1][0].width == 6 * cb);
  CHECK(views[5][0].rows * views[5][0].width == 9 * cb);

  int one_by_one = 1;
  for (uint64_t s = 0; ready && s < cells; s++) {
    memset(views[s][MD_FORCE_ACC].base, 0xff, cb);
    nw_md_force_kind.gpu_emulated_kernel(&t, s, views[s]);
    one_by_one &= memcmp(views[s][MD_FORCE_ACC].base,
                         (unsigned char *)cpu + md_cell_offset(&c, s % 4, s / 4), cb) == 0;
  }
  CHECK(one_by_one);

  const uint64_t batch[] = {5, 0, 15, 6, 3, 9, 12};
  const int count = (int)(sizeof batch / sizeof batch[0]);
  const nw_gpu_view *batch_views[7];
  for (int j = 0; ready && j < count; j++) {
    memset(views[batch[j]][MD_FORCE_ACC].base, 0xff, cb);
    batch_views[j] = views[batch[j]];
  }
  CHECK(nw_md_force_kind.gpu_emulated_batch_kernel != NULL &&
        nw_md_force_kind.cuda_batch_kernel != NULL);
  if (ready)
    nw_md_force_kind.gpu_emulated_batch_kernel(&t, batch, count, batch_views);
  int batched = 1;
  for (int j = 0; ready && j < count; j++)
    batched &=
        memcmp(views[batch[j]][MD_FORCE_ACC].base,
               (unsigned char *)cpu + md_cell_offset(&c, batch[j] % 4, batch[j] / 4), cb) == 0;
  CHECK(batched);
  /* A batch of one, and an empty batch touching nothing. */
  if (ready) {
    memset(views[10][MD_FORCE_ACC].base, 0xff, cb);
    const nw_gpu_view *single[1] = {views[10]};
    const uint64_t ten = 10;
    nw_md_force_kind.gpu_emulated_batch_kernel(&t, &ten, 1, single);
    CHECK(memcmp(views[10][MD_FORCE_ACC].base, (unsigned char *)cpu + md_cell_offset(&c, 2, 2),
                 cb) == 0);
    nw_md_force_kind.gpu_emulated_batch_kernel(&t, &ten, 0, single);
    CHECK(memcmp(views[10][MD_FORCE_ACC].base, (unsigned char *)cpu + md_cell_offset(&c, 2, 2),
                 cb) == 0);
  }
  for (uint64_t s = 0; s < cells; s++) {
    free(views[s][0].base);
    free(views[s][1].base);
  }
  free(views);
  free(pos);
  free(vel);
  free(cpu);
}

/* The integrate kind: its GPU emulation on one cell's packed segments equals its CPU kernel. */
static void integrate_views(void) {
  md_conf c = {.grid = 3, .ppc = 11, .k = md_force_constant(11), .dt = MD_DT};
  uint64_t cells = c.grid * c.grid, size = cells * md_cell_bytes(&c), cb = md_cell_bytes(&c);
  float *acc = malloc(size), *pos = malloc(size), *vel = malloc(size);
  CHECK(acc && pos && vel);
  if (!acc || !pos || !vel)
    return;
  md_fill_state(&c, 5, acc, vel); /* any values will do as accelerations */
  md_fill_state(&c, 4, pos, vel);
  nw_task_info t = {.subtasks = cells,
                    .conf = &c,
                    .conf_size = sizeof c,
                    .nspaces = 3,
                    .space_size = (const uint64_t[]){size, size, size},
                    .space_pitch =
                        (const uint64_t[]){md_row_bytes(&c), md_row_bytes(&c), md_row_bytes(&c)}};
  const uint64_t s = 7;
  nw_gpu_view g[3] = {gpu_view(&c, acc, own_cell(&c, s)), gpu_view(&c, pos, own_cell(&c, s)),
                      gpu_view(&c, vel, own_cell(&c, s))};
  CHECK(g[0].base && g[1].base && g[2].base);
  if (g[0].base && g[1].base && g[2].base) {
    nw_view cv[3] = {{(unsigned char *)acc, 0, size},
                     {(unsigned char *)pos, 0, size},
                     {(unsigned char *)vel, 0, size}};
    nw_md_integrate_kind.cpu_kernel(&t, s, cv);
    nw_md_integrate_kind.gpu_emulated_kernel(&t, s, g);
    uint64_t at = md_cell_offset(&c, s % 3, s / 3);
    CHECK(memcmp(g[1].base, (unsigned char *)pos + at, cb) == 0);
    CHECK(memcmp(g[2].base, (unsigned char *)vel + at, cb) == 0);
  }
  for (int i = 0; i < 3; i++)
    free(g[i].base);
  free(acc);
  free(pos);
  free(vel);
}

/* The cost model: ppc m (11 ppc + 2) + 2 ppc flops and 8 ppc (m + 1) bytes a force subtask, 8
 * ppc flops and 40 ppc bytes an integrate subtask. */
static void cost_model(void) {
  md_conf c = {.grid = 16, .ppc = 400, .k = md_force_constant(400), .dt = MD_DT};
  nw_task_info t = {.subtasks = 256, .conf = &c, .conf_size = sizeof c};
  CHECK(nw_md_force_kind.flops(&t, 17, NW_DEVICE_CPU) == 400.0 * 9 * (11 * 400 + 2) + 800);
  CHECK(nw_md_force_kind.flops(&t, 0, NW_DEVICE_GPU) == 400.0 * 4 * (11 * 400 + 2) + 800);
  CHECK(nw_md_force_kind.flops(&t, 1, NW_DEVICE_GPU) == 400.0 * 6 * (11 * 400 + 2) + 800);
  CHECK(nw_md_force_kind.bytes(&t, 17, NW_DEVICE_CPU) == 8.0 * 400 * 10);
  CHECK(nw_md_force_kind.bytes(&t, 255, NW_DEVICE_CPU) == 8.0 * 400 * 5);
  CHECK(nw_md_integrate_kind.flops(&t, 3, NW_DEVICE_CPU) == 8.0 * 400);
  CHECK(nw_md_integrate_kind.bytes(&t, 3, NW_DEVICE_CPU) == 40.0 * 400);
}

int main(void) {
  pair_in_cell();
  pair_across_cells();
  reflection();
  reference_physics();
  force_batch();
  integrate_views();
  cost_model();
  return check_report("molecular2d");
}
