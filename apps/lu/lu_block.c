/* lu_block.c: the four block operations of the LU, shared by the CPU kernels, the modelled
 * GPU's host emulation and the single-process reference (lu_ref.c).
 *
 * Why the distributed result equals the reference bit for bit: every block is computed by the
 * same function here, on the same input bytes (transactional semantics: a subtask reads the
 * matrix as its task found it, as the reference's step does), with the same BLAS routine and
 * the same arguments. The arguments are the same because the matrix block is first copied
 * into a packed b x b buffer: a CPU view of the matrix has leading dimension n, a GPU view of
 * the same block b, the reference's matrix n, and a BLAS is free to take a different path for
 * another leading dimension (OpenBLAS's small-matrix kernels read operands in place). The
 * factors come from the D, R and C spaces, whose blocks are packed already. The buffers'
 * alignment differs (a view, a malloc'd block) and does not change OpenBLAS's results; its
 * thread count does (measured with OpenBLAS 0.3.21: sgemm and strsm of 512 x 512 on 1 and on 2
 * threads differ in the last bits), so kernels and reference must run with the same one. They
 * do: the simulator runs both in one process with one OpenBLAS setting, and the real backend
 * sets it alike on every rank (one thread per CPU device when each core is a device, the
 * default, and in work-groups). A run whose ranks were given different numbers of cores per
 * device could differ in the last bits. Real GPUs run cuBLAS, which rounds differently: there
 * the result is close to the reference, not equal (lu_main.c prints how close).
 */
#include <cblas.h>
#include <string.h>

#include "lu.h"

static void pack(int b, const float *m, int ldm, float *out) {
  for (int i = 0; i < b; i++)
    memcpy(out + (size_t)i * (size_t)b, m + (size_t)i * (size_t)ldm, (size_t)b * sizeof *out);
}

static void unpack(int b, const float *in, float *m, int ldm) {
  for (int i = 0; i < b; i++)
    memcpy(m + (size_t)i * (size_t)ldm, in + (size_t)i * (size_t)b, (size_t)b * sizeof *in);
}

/* Right-looking and unblocked: the matrix is diagonally dominant, so no pivot is needed and
 * no pivot grows small. L (unit diagonal, not stored) below the diagonal, U on and above. */
void lu_diag_op(int b, float *m, int ldm, float *d) {
  pack(b, m, ldm, d);
  for (int p = 0; p < b; p++) {
    const float *urow = d + (size_t)p * (size_t)b;
    for (int i = p + 1; i < b; i++) {
      float *row = d + (size_t)i * (size_t)b;
      float l = row[p] / urow[p];
      row[p] = l;
      for (int j = p + 1; j < b; j++)
        row[j] -= l * urow[j];
    }
  }
  unpack(b, d, m, ldm);
}

void lu_row_op(int b, float *m, int ldm, const float *d, float *r) {
  pack(b, m, ldm, r);
  cblas_strsm(CblasRowMajor, CblasLeft, CblasLower, CblasNoTrans, CblasUnit, b, b, 1.0f, d, b, r,
              b);
  unpack(b, r, m, ldm);
}

void lu_col_op(int b, float *m, int ldm, const float *d, float *c) {
  pack(b, m, ldm, c);
  cblas_strsm(CblasRowMajor, CblasRight, CblasUpper, CblasNoTrans, CblasNonUnit, b, b, 1.0f, d, b,
              c, b);
  unpack(b, c, m, ldm);
}

void lu_update_op(int b, float *m, int ldm, const float *c, const float *r, float *scratch) {
  pack(b, m, ldm, scratch);
  cblas_sgemm(CblasRowMajor, CblasNoTrans, CblasNoTrans, b, b, b, -1.0f, c, b, r, b, 1.0f, scratch,
              b);
  unpack(b, scratch, m, ldm);
}
