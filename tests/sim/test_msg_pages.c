/* test_msg_pages.c: the fresh pages of message buffers as glibc's malloc hands them out
 * (sim_msg_pages.h): mapped requests, the dynamic threshold, the heap's reuse and trimming. A
 * chunk is the request and an 8-byte size word rounded up to 16 bytes; a mapped one adds
 * another size word and is whole pages. */
#include <stdio.h>

#include "sim_msg_pages.h"

static int fails;

static void expect(const char *what, unsigned long long got, unsigned long long want) {
  if (got != want) {
    printf("FAIL: %s: %llu, wanted %llu\n", what, got, want);
    fails++;
  }
}

#define MIB (1u << 20)

int main(void) {
  sim_msg_pages m = {0};
  sim_msg_buffer a, b, c;
  /* 64 KiB (a 65552-byte chunk, 17 pages) is below the first threshold, 128 KiB: from the
   * heap, which grows by it and the 128 KiB pad. Freed, the pad and it reach the trim
   * threshold (128 KiB): the heap keeps 128 KiB, the buffer's touched pages among them, and
   * the next 64 KiB finds them. */
  expect("first 64 KiB", sim_msg_pages_alloc(&m, 65536, &a), 17);
  sim_msg_pages_free(&m, &a);
  expect("64 KiB again", sim_msg_pages_alloc(&m, 65536, &a), 0);
  sim_msg_pages_free(&m, &a);
  /* 1 MiB: past the threshold and more than the heap has free: mapped, every page fresh
   * (1048600 bytes: 257 pages), and again for a second one at once. */
  expect("first 1 MiB", sim_msg_pages_alloc(&m, MIB, &a), 257);
  expect("second 1 MiB beside it", sim_msg_pages_alloc(&m, MIB, &b), 257);
  sim_msg_pages_free(&m, &a); /* the threshold rises to 257 pages, the trim threshold twice */
  sim_msg_pages_free(&m, &b);
  /* One at a time from now on: from the heap, which lacks all but its 17 touched pages; then
   * its pages are there for every later one. */
  expect("1 MiB after one was freed", sim_msg_pages_alloc(&m, MIB, &a), 257 - 17);
  sim_msg_pages_free(&m, &a);
  expect("1 MiB again", sim_msg_pages_alloc(&m, MIB, &a), 0);
  sim_msg_pages_free(&m, &a);
  expect("1 MiB a third time", sim_msg_pages_alloc(&m, MIB, &a), 0);
  /* Two at once (one sent while one is received): the heap grows by the second (2097184
   * bytes in 513 pages, 257 touched before). Both freed, 2 MiB and the pad lie at its top,
   * past the trim threshold (2105344): only 128 KiB (32 pages) stay, and the next pair finds
   * its pages fresh again. */
  expect("a second 1 MiB at once", sim_msg_pages_alloc(&m, MIB, &b), 513 - 257);
  sim_msg_pages_free(&m, &a);
  sim_msg_pages_free(&m, &b);
  expect("a pair after the trim, first", sim_msg_pages_alloc(&m, MIB, &a), 257 - 32);
  expect("a pair after the trim, second", sim_msg_pages_alloc(&m, MIB, &b), 513 - 257);
  sim_msg_pages_free(&m, &a);
  sim_msg_pages_free(&m, &b);
  /* Past the threshold, free heap bytes that hold the request serve it: three 600 KiB
   * buffers, two of them freed (1228832 bytes free at the top, with the pad under the trim
   * threshold), then 1 MiB + 4080 (a 1052672-byte chunk, the threshold itself): no fresh page.
   * Without the free bytes it is mapped. */
  sim_msg_buffer three[3];
  for (int i = 0; i < 3; i++)
    sim_msg_pages_alloc(&m, 600 << 10, &three[i]);
  sim_msg_pages_free(&m, &three[0]);
  sim_msg_pages_free(&m, &three[1]);
  expect("past the threshold, into free heap", sim_msg_pages_alloc(&m, MIB + 4080, &c), 0);
  expect("it was not mapped", c.mapped, 0);
  sim_msg_pages_free(&m, &c);
  sim_msg_pages_free(&m, &three[2]);
  sim_msg_pages free_heap = m;
  sim_msg_pages none = {0};
  m = none;
  expect("the same request on an empty heap", sim_msg_pages_alloc(&m, MIB + 4080, &c), 258);
  expect("is mapped", c.mapped, 1);
  m = free_heap;
  /* 40 MiB: mapped; freeing it leaves the threshold (which grows to 32 MiB at most), so the
   * next one is mapped again. */
  expect("40 MiB", sim_msg_pages_alloc(&m, 40 * MIB, &a), 10241);
  sim_msg_pages_free(&m, &a);
  expect("40 MiB again", sim_msg_pages_alloc(&m, 40 * MIB, &a), 10241);
  sim_msg_pages_free(&m, &a);
  /* Freeing nothing changes nothing. */
  sim_msg_buffer nothing = {0};
  sim_msg_pages before = m;
  sim_msg_pages_free(&m, &nothing);
  expect("no buffer freed",
         m.heap_held == before.heap_held && m.heap_live == before.heap_live &&
             m.heap_untouched == before.heap_untouched,
         1);
  printf("test_msg_pages: %s\n", fails ? "FAILED" : "all passed");
  return fails != 0;
}
