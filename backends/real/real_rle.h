/* real_rle.h: run-length encoding on a CUDA GPU, in core/data/rle.h's format.
 *
 * The paper compresses a subtask's results on the GPU before copying them to the host (Beri,
 * Bansal, Kumar, "The Unicorn Runtime: Efficient Distributed Shared Memory Programming for
 * Hybrid CPU-GPU Clusters", IEEE TPDS, sections 4.6 and 5.6.4: "executed on GPUs for GPU->CPU
 * data transfers"). real_gpu.c does so for a copy out the core marks (core/backend.h,
 * nw_copy.encode), and the core decodes the encoding with nw_rle_decode_rows. The encoding is
 * byte for byte what nw_rle_encode writes (tests/gpu/test_gpu_rle.c checks it), so the two
 * encoders are interchangeable and the simulator models this one with the CPU's.
 *
 * How (real_rle.cu): three kernels over tiles of 4096 bytes and two scans over the tiles'
 * summaries. A byte's token is decided by its neighbourhood alone: it lies in a zero run of
 * at least NW_RLE_MIN_ZERO_RUN bytes exactly when some window of that many zero bytes holds
 * it, so each tile finds its tokens' boundaries from its own bytes and a few on either side.
 * Only a token's length, and so its header and where it goes, needs the tiles around: the
 * first pass summarises each tile (its last token start, its first token end), a scan gives
 * each tile the token that crosses into it and where that token ends, the second pass sums the
 * sizes of the tokens ending in each tile, a scan turns them into offsets, and the third pass
 * writes the headers and literal bytes. The input is read three times; the output is written
 * once, into page-locked host memory the GPU writes directly, so only the encoding crosses
 * PCIe. If packing would not be smaller the raw bytes are copied instead (the stored form).
 * Scratch: 48 bytes per tile on the device (grown as needed), and a page-locked host buffer
 * as large as the largest packed encoding so far.
 *
 * Not yet run on hardware: written and compiled (warnings as errors) on a machine without a
 * GPU; tests/gpu/test_gpu_rle.c compares it with the CPU encoder where a GPU is present.
 */
#ifndef NW_REAL_RLE_H
#define NW_REAL_RLE_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

typedef struct real_rle real_rle;

/* An encoder for the calling thread's current device; its scratch is allocated at first use.
 * NULL when out of host memory. */
real_rle *real_rle_new(void);
/* Frees its scratch (on the device it was used on: call it with that device current). */
void real_rle_free(real_rle *r);
/* Encodes the n bytes at device address src on `stream` (a cudaStream_t; NULL: the default
 * stream) into out (host memory, room for n + 1 bytes), exactly as nw_rle_encode would, and
 * returns the encoding's length once out holds it. 0 on a CUDA error, with the reason in why. */
uint64_t real_rle_encode(real_rle *r, const void *src, uint64_t n, unsigned char *out, void *stream,
                         char *why, size_t why_len);

#ifdef __cplusplus
}
#endif

#endif
