/* real_gather.h: a block of narrow rows copied between registered host memory and a GPU by a
 * kernel that reads (or writes) the host rows directly over PCIe.
 *
 * real_staging.h packs such rows on a CPU into pinned buffers and moves the buffers by DMA: on
 * an H200 that ran at 11 GB/s for 16 KB rows (one CPU thread's packing), against 54 GB/s for a
 * contiguous copy. Here the GPU's own loads gather the rows: each row is a run of 16 KB of
 * consecutive host addresses, which the link carries at its full width, and no CPU touches the
 * bytes. NARWHAL_GPU_STAGING=kernel chooses it (real_staging.h, real_copy_path); on an H200 it
 * moved rows of 512 B to 16 KB at 49.7 GB/s, the default 2D copy at 54 GB/s. It applies only
 * where the device may use the host pointer of registered memory
 * (cudaDevAttrCanUseHostPointerForRegisteredMem) and the host rows are registered. The device side
 * is packed, as nw_copy's is (core/backend.h). */
#ifndef NW_REAL_GATHER_H
#define NW_REAL_GATHER_H

#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* 1 when the current device can read and write `host` (its first and last byte registered
 * host memory, reachable at the same address); 0 otherwise. */
int real_gather_usable(int device, const unsigned char *host, uint64_t host_pitch, uint64_t rows,
                       uint64_t width);

/* Launches the copy on `stream` (a cudaStream_t) and waits for it: rows of width bytes, host rows
 * host_pitch apart, device rows packed. Returns 0 or the CUDA error. */
int real_gather_copy(void *stream, int to_device, unsigned char *dev, unsigned char *host,
                     uint64_t host_pitch, uint64_t rows, uint64_t width);

#ifdef __cplusplus
}
#endif

#endif
