/* gemv.h: single-precision y = A x, the GEMV application of Li, Fox, von Laszewski and
 * Chauhan, "Co-processing SPMD Computation on CPUs and GPUs Cluster" (IEEE Cluster 2013),
 * section IV.A.3: row-wise block striping, x replicated to every map task, the pieces of y
 * concatenated.
 *
 * --n M rows, `--app-param cols=N` columns (default M), --block b rows per subtask: M / b
 * subtasks in one task. A is M x N floats, row-major, pitch one row (4N bytes); x is N floats
 * and y M floats, each one row. Subtask s reads rows [s b, (s + 1) b) of A (one rectangle) and
 * all of x, and writes y[s b, (s + 1) b): disjoint writes, no reduction.
 *
 * Inputs are integers in [-8, 8] stored as floats, so every product is at most 64 in magnitude
 * and every partial sum of a row at most 64 N: an integer below 2^24 while N < 2^18, hence
 * exact in float whatever order BLAS (or cuBLAS, or a fused multiply-add) adds in. Every run,
 * on any devices, equals the single-process reference bit for bit.
 */
#ifndef NW_APP_GEMV_H
#define NW_APP_GEMV_H

#include "narwhal_app.h"

/* The inputs' magnitude bound and the widest row it keeps exact: 8 * 8 * N < 2^24. */
#define GEMV_VALUE_MAX 8
#define GEMV_COLS_MAX ((1u << 24) / (GEMV_VALUE_MAX * GEMV_VALUE_MAX) - 1) /* 262143 */

typedef struct gemv_conf {
  uint64_t rows, cols; /* A is rows x cols */
  uint64_t block;      /* rows per subtask */
} gemv_conf;

/* Bound spaces, in binding order. */
enum { GEMV_A = 0, GEMV_X = 1, GEMV_Y = 2 };

/* y = A x for `rows` rows of A, lda floats apart; the same call shape on every device. */
typedef struct gemv_op {
  int rows, cols, lda;
  const float *a, *x;
  float *y;
} gemv_op;

extern const nw_task_kind nw_gemv_kind;
extern const nw_app nw_gemv_app;

/* The GPU sgemv on device pointers, issued on a cudaStream_t and finished on return:
 * gemv_cuda.c (cuBLAS, as the paper's GPU kernel) where the program is built with CUDA,
 * gemv_nocuda.c otherwise. */
void nw_gemv_cuda_sgemv(const gemv_op *op, void *stream);
/* Creates the calling thread's cuBLAS handle (cuBLAS starts slowly: not inside a timed run). */
void nw_gemv_cuda_init(void);

#endif
