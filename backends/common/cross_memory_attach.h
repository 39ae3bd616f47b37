/* cross_memory_attach.h: whether this process may read memory by cross-memory attach
 * (process_vm_readv), which Open MPI's shared-memory transport uses to copy a large message
 * between two ranks of one host once. Container sandboxes that refuse the call (Docker's
 * default seccomp profile without CAP_SYS_PTRACE) refuse it whatever the target, while
 * ptrace's own rules never refuse a process its own memory: so a refused read of one byte of
 * ours is the sandbox. Header-only, so that the real backend (which then asks Open MPI to copy
 * through shared memory instead, real_net.c) and `narwhal validate` (which says which copy its
 * ranks used, validate_transport.c) ask the same question without a library of their own.
 * Include it after defining _GNU_SOURCE. */
#ifndef NW_CROSS_MEMORY_ATTACH_H
#define NW_CROSS_MEMORY_ATTACH_H

#include <sys/uio.h>
#include <unistd.h>

static inline int nw_cross_memory_attach_allowed(void) {
  char from = 1, to = 0;
  struct iovec local = {&to, 1}, remote = {&from, 1};
  return process_vm_readv(getpid(), &local, 1, &remote, 1, 0) == 1;
}

#endif
