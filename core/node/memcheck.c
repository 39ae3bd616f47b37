/* memcheck.c: see memcheck.h. */
#include "memcheck.h"

#include <stdio.h>

static uint64_t sat_add(uint64_t a, uint64_t b) {
  return a > UINT64_MAX - b ? UINT64_MAX : a + b;
}

static uint64_t sat_mul(uint64_t a, uint64_t b) {
  return b != 0 && a > UINT64_MAX / b ? UINT64_MAX : a * b;
}

static int clamp_nodes(int k, int nodes) {
  return k < 1 ? 1 : k > nodes ? nodes : k;
}

nw_memory_need nw_memcheck_need(const nw_memory_room *room, uint64_t space_bytes, int nodes,
                                int replica) {
  if (nodes < 1)
    nodes = 1;
  int here = clamp_nodes(room->ram_nodes, nodes);
  int mapped = clamp_nodes(room->address_nodes, nodes);
  nw_memory_need need;
  need.ram = sat_add(sat_mul(space_bytes, 2),
                     sat_mul(space_bytes / (uint64_t)nodes, (uint64_t)(here - 1)));
  need.address = sat_add(sat_mul(space_bytes, (uint64_t)mapped + 1), room->address_backend);
  if (replica) {
    need.ram = sat_add(need.ram, space_bytes);
    need.address = sat_add(need.address, space_bytes);
  }
  return need;
}

void nw_memcheck_gb(uint64_t bytes, char *out, size_t len) {
  double gb = (double)bytes / 1e9;
  if (gb < 0.1)
    snprintf(out, len, "%.0f MB", (double)bytes / 1e6);
  else
    snprintf(out, len, gb < 1 ? "%.2f GB" : gb < 10 ? "%.1f GB" : "%.0f GB", gb);
}

/* "its 3 spaces of 1.6 GB" */
static void spaces_text(int spaces, uint64_t space_bytes, char *out, size_t len) {
  char gb[32];
  nw_memcheck_gb(space_bytes, gb, sizeof gb);
  snprintf(out, len, "its %d space%s of %s", spaces, spaces == 1 ? "" : "s", gb);
}

/* "a, b and c" from the n non-empty parts. */
static void join(const char *const *part, int n, char *out, size_t len) {
  out[0] = '\0';
  size_t at = 0;
  for (int i = 0; i < n && at < len; i++)
    at += (size_t)snprintf(out + at, len - at, "%s%s",
                           i == 0      ? ""
                           : i + 1 < n ? ", "
                                       : " and ",
                           part[i]);
}

nw_status nw_memcheck(const nw_memory_room *room, uint64_t space_bytes, int spaces, int nodes,
                      int replica, char *why, size_t why_len) {
  if (nodes < 1)
    nodes = 1;
  nw_memory_need need = nw_memcheck_need(room, space_bytes, nodes, replica);
  char what[96], needs[32], has[32], first[96], last[96], held[256];
  spaces_text(spaces, space_bytes, what, sizeof what);
  /* The parts named: node 0's copy (or every node's), the driver's, node 0's replica in a
   * resilient run, then the backend's own or the other nodes' shares. */
  const char *part[4] = {first, "the driver's", replica ? "node 0's replica" : last, last};
  int base = replica ? 3 : 2;
  if (room->address != UINT64_MAX && need.address > room->address) {
    int mapped = clamp_nodes(room->address_nodes, nodes);
    if (mapped > 1)
      snprintf(first, sizeof first, "a copy on each of %d nodes in this process", mapped);
    else
      snprintf(first, sizeof first, "node 0's copy");
    if (room->address_backend > 0) {
      char gb[32];
      nw_memcheck_gb(room->address_backend, gb, sizeof gb);
      snprintf(last, sizeof last, "%s of %s", gb,
               room->address_backend_what ? room->address_backend_what : "the backend's own");
    }
    join(part, base + (room->address_backend > 0), held, sizeof held);
    nw_memcheck_gb(need.address, needs, sizeof needs);
    nw_memcheck_gb(room->address, has, sizeof has);
    snprintf(why, why_len,
             "the run needs ~%s of address space for %s (%s), the address-space limit "
             "(ulimit -v) leaves %s%s%s",
             needs, what, held, has, room->instead ? "; " : "", room->instead ? room->instead : "");
    return NW_ERR_ARG;
  }
  if (room->ram != UINT64_MAX && need.ram > room->ram) {
    int here = clamp_nodes(room->ram_nodes, nodes);
    snprintf(first, sizeof first, "node 0's copy");
    if (here == 2)
      snprintf(last, sizeof last, "the other node's share");
    else
      snprintf(last, sizeof last, "the other %d nodes' shares", here - 1);
    join(part, base + (here > 1), held, sizeof held);
    nw_memcheck_gb(need.ram, needs, sizeof needs);
    nw_memcheck_gb(room->ram, has, sizeof has);
    snprintf(why, why_len,
             "the run needs ~%s of memory for %s (%s), this machine has %s available%s%s", needs,
             what, held, has, room->instead ? "; " : "", room->instead ? room->instead : "");
    return NW_ERR_ARG;
  }
  return NW_OK;
}
