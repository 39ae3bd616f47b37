/* real_gpu.h: CUDA GPUs for the real backend (paper 4.1: a compute thread per GPU driving CUDA
 * streams; DMA copies between host and device).
 *
 * One real_gpu per GPU a rank uses: one cudaMalloc'd arena that the core sub-allocates
 * (core/device/devmem.h offsets are relative to its base), one thread per direction of copies (a
 * copy engine each, with its own stream), and one thread per stream that runs kernels. Each thread
 * posts its completion events into the rank's event queue. real_gpu.c needs CUDA;
 * real_gpu_nocuda.c is the build without it (no GPU is ever found there).
 */
#ifndef NW_REAL_GPU_H
#define NW_REAL_GPU_H

#include <stddef.h>
#include <stdint.h>

#include "backend.h"
#include "real_queue.h"

typedef struct real_gpu real_gpu;

/* GPUs this process can use; 0 with a reason in why when none (or no CUDA in this build). */
int real_gpu_count(char *why, size_t why_len);
/* Free device memory of GPU g now, in bytes (0 if unknown). */
uint64_t real_gpu_free_memory(int g);
/* The host<->GPU link of GPU g as a transfer model: host-to-device copies from host memory
 * registered as the spaces are (real_gpu_pin; pageable where that is refused), 1 byte for the
 * latency and 64 MiB for the bandwidth (best of 3 each); zeros when it cannot measure. */
int real_gpu_measure_link(int g, double *bandwidth, double *latency);
/* Host-to-device rates of GPU g, in bytes/s, for blocks of rows of each of the n widths (bytes):
 * a 16 MiB block (16 MiB / width rows) whose host rows lie 2 * width apart, as a block of a
 * matrix twice as wide does, host memory registered as for real_gpu_measure_link; copied as
 * real_gpu_copy copies that shape (real_staging.h, real_copy_path: one 2D copy unless
 * NARWHAL_GPU_STAGING says otherwise); best of 3. rates[i] is 0 where it cannot measure. Both
 * measurements return 1 when their host memory was registered, 0 when it stayed pageable
 * (registration refused: the rates are then pageable copies'). */
int real_gpu_measure_copy_rates(int g, int n, const uint64_t *widths, double *rates);
/* Starts GPU g with a budget of `bytes` and `streams` lanes, posting to q. A lane is a kernel
 * thread; with agglomerate > 0, launches go through the GPU's FIFO, up to that many subtasks a
 * launch; with mtc_bundle > 0 (--gpu-mode many-task), the lanes' subtasks go to a resident
 * worker kernel in bundles of at most mtc_bundle (real_mtc_feed.h), sized for mtc_share ranks
 * driving this GPU. NULL with a reason in why
 * on failure. */
real_gpu *real_gpu_open(int g, uint64_t bytes, int streams, int agglomerate, int mtc_bundle,
                        int mtc_share, real_queue *q, const nw_task_kind *const *kinds, char *why,
                        size_t why_len);
/* Page-locks (pin 1) or releases (pin 0) host memory that copies will use: 0, or -1 with
 * CUDA's reason in why. A failure leaves it pageable, which is slower (the driver stages each
 * copy through buffers of its own) but correct. */
int real_gpu_pin(void *ptr, size_t len, int pin, char *why, size_t why_len);
void real_gpu_copy(real_gpu *gpu, nw_copy *c);
void real_gpu_launch(real_gpu *gpu, int stream, nw_exec *e);
/* Launches so far, the subtasks they ran and the largest (one each without agglomeration). */
void real_gpu_launch_stats(const real_gpu *gpu, uint64_t *launches, uint64_t *subtasks,
                           uint64_t *largest);
/* Stops the threads (after the node finished) and frees the device memory. */
void real_gpu_close(real_gpu *gpu);

#endif
