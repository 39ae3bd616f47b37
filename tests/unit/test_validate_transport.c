/* test_validate_transport.c: the line `narwhal validate` prints on how ranks of one host move
 * large messages (validate_transport.h), for each setting of Open MPI's variable. */
#define _POSIX_C_SOURCE 200809L /* setenv, unsetenv */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "validate_transport.h"

static int failed;

static void says(const char *what, const char *got, const char *want) {
  if (strcmp(got, want)) {
    printf("FAIL %s: '%s', wanted '%s'\n", what, got, want);
    failed++;
  }
}

int main(void) {
  char b[256];
  says("set to none", validate_transport_describe("none", 1, b, sizeof b),
       "ranks of one host: large messages copied through shared-memory buffers "
       "(OMPI_MCA_btl_vader_single_copy_mechanism=none)");
  says("set to cma, whatever the sandbox", validate_transport_describe("cma", 0, b, sizeof b),
       "ranks of one host: large messages moved by OMPI_MCA_btl_vader_single_copy_mechanism=cma");
  says("unset, attach allowed", validate_transport_describe(NULL, 1, b, sizeof b),
       "ranks of one host: large messages copied once, by cross-memory attach "
       "(OMPI_MCA_btl_vader_single_copy_mechanism unset)");
  says("unset, attach refused", validate_transport_describe(NULL, 0, b, sizeof b),
       "ranks of one host: large messages copied through shared-memory buffers (this sandbox "
       "refuses cross-memory attach)");
  /* This process's environment: a set variable decides whatever the sandbox allows. */
  setenv("OMPI_MCA_btl_vader_single_copy_mechanism", "none", 1);
  says("here, set to none", validate_transport_here(b, sizeof b),
       "ranks of one host: large messages copied through shared-memory buffers "
       "(OMPI_MCA_btl_vader_single_copy_mechanism=none)");
  unsetenv("OMPI_MCA_btl_vader_single_copy_mechanism");
  validate_transport_here(b, sizeof b);
  if (!strstr(b, "(OMPI_MCA_btl_vader_single_copy_mechanism unset)") &&
      !strstr(b, "(this sandbox refuses cross-memory attach)")) {
    printf("FAIL here, unset: '%s'\n", b);
    failed++;
  }
  return failed != 0;
}
