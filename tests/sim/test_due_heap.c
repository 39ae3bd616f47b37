/* test_due_heap.c: the simulator's postman hands control messages over in due order, and
 * messages due at the same time in the order they were sent (backends/simgrid/due_heap.h):
 * a simulated run must come out the same each time. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

#include "due_heap.h"

int main(void) {
  nw_due_heap h = {0};
  enum { N = 5000 };
  static int item[N];
  uint64_t x = 88172645463325252ull;
  for (int i = 0; i < N; i++) {
    x ^= x << 13, x ^= x >> 7, x ^= x << 17;
    item[i] = i;
    /* few distinct times, so most items tie with others */
    if (nw_due_push(&h, (double)(x % 37) * 1e-6, &item[i]) != 0) {
      printf("due_heap: out of memory\n");
      return 1;
    }
  }
  double last_due = -1;
  int last_index = -1, popped = 0;
  while (h.n > 0) {
    double due = nw_due_first(&h);
    int *it = nw_due_pop(&h);
    if (due < last_due || (due == last_due && *it <= last_index)) {
      printf("due_heap: item %d (due %g) came after item %d (due %g)\n", *it, due, last_index,
             last_due);
      return 1;
    }
    last_due = due;
    last_index = *it;
    popped++;
  }
  int ok = popped == N && nw_due_pop(&h) == NULL;
  nw_due_free(&h);
  printf("due_heap: %d items in due order, ties in insertion order: %s\n", popped,
         ok ? "passed" : "FAILED");
  return !ok;
}
