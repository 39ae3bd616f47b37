/* rle.h: run-length compression of reduction data (paper section 4.6).
 *
 * Unicorn compresses the data a reduction sends between nodes, and a GPU's results for a reduced
 * space before they are copied to the host (encoded on the GPU: backends/real/real_rle.cu
 * writes this same format): the arrays it reduces are sparse (PageRank's contribution arrays:
 * uint64 fixed-point values, mostly zero), so runs of zero bytes travel as their lengths. Only
 * zeros are run-length coded: other repeated bytes are rare in such data and would cost a compare
 * per byte on every message.
 *
 * Byte layout of an encoding of n input bytes:
 *   byte 0   0 = stored: the n input bytes follow verbatim (n + 1 bytes in all);
 *            1 = packed: tokens follow up to the end of the encoding.
 *   token    a header h, an unsigned LEB128 varint (7 bits a byte, least significant first,
 *            bit 7 set on every byte but the last; at most 10 bytes), h = 2 * len + kind,
 *            len >= 1. kind 0, a literal: len bytes follow, copied verbatim; kind 1, a zero
 *            run: len zero bytes, nothing follows.
 * The tokens' lengths add up to n exactly. The encoder codes as zero runs only the runs of at
 * least NW_RLE_MIN_ZERO_RUN zero bytes (a shorter one, cut out of a literal, costs two headers
 * for little gain), and stores the input whenever packing would not be smaller, so an encoding
 * is at most n + 1 bytes: nw_rle_bound(n) = n + 1. Empty input encodes as the one byte 0.
 * The decoder accepts any token sequence of this layout, not only the encoder's choices.
 */
#ifndef NW_RLE_H
#define NW_RLE_H

#include <stddef.h>

/* Zero runs at least this long are coded as runs; shorter ones stay in literals. Not part of
 * the format: the decoder takes runs of any length. */
#define NW_RLE_MIN_ZERO_RUN 8

/* The most bytes nw_rle_encode writes for n input bytes. */
size_t nw_rle_bound(size_t n);
/* Encodes n bytes of src into dst (room for nw_rle_bound(n) bytes); returns the encoded length.
 * src and dst must not overlap. */
size_t nw_rle_encode(const void *src, size_t n, void *dst);
/* Decodes len encoded bytes into exactly n bytes at dst. Returns 0, or -1 when the input is
 * malformed, truncated, or does not decode to exactly n bytes (never reads or writes out of
 * bounds; on -1 the bytes at dst are unspecified). */
int nw_rle_decode(const void *src, size_t len, void *dst, size_t n);
/* The same into a rectangle: the n = rows x width decoded bytes go to `rows` rows of `width`
 * bytes, `pitch` bytes apart (pitch >= width), at dst; the bytes between rows are left alone.
 * A GPU copies a subtask's result back this way (core/backend.h, nw_copy: the device side is
 * packed, the host side has the space's row pitch). -1 as nw_rle_decode, and when rows x width
 * overflows or pitch < width with more than one row. */
int nw_rle_decode_rows(const void *src, size_t len, void *dst, size_t rows, size_t width,
                       size_t pitch);

#endif
