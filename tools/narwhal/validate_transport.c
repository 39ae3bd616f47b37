/* validate_transport.c: see validate_transport.h. */
#define _GNU_SOURCE /* process_vm_readv, in cross_memory_attach.h */
#include "validate_transport.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cross_memory_attach.h"

#define VAR "OMPI_MCA_btl_vader_single_copy_mechanism"

char *validate_transport_describe(const char *setting, int attach_allowed, char *buf, size_t len) {
  if (setting && !strcmp(setting, "none"))
    snprintf(buf, len,
             "ranks of one host: large messages copied through shared-memory buffers "
             "(" VAR "=none)");
  else if (setting)
    snprintf(buf, len, "ranks of one host: large messages moved by " VAR "=%.64s", setting);
  else if (attach_allowed)
    snprintf(buf, len,
             "ranks of one host: large messages copied once, by cross-memory attach (" VAR
             " unset)");
  else
    snprintf(buf, len,
             "ranks of one host: large messages copied through shared-memory buffers (this "
             "sandbox refuses cross-memory attach)");
  return buf;
}

char *validate_transport_here(char *buf, size_t len) {
  /* The ranks' own test (real_net.c) */
  return validate_transport_describe(getenv(VAR), nw_cross_memory_attach_allowed(), buf, len);
}
