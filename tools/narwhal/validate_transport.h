/* validate_transport.h: how Open MPI moves a large message between two ranks of this host in
 * the real runs that `narwhal validate` starts, said in one line of its output. The real
 * backend keeps Open MPI's single copy (the receiver reads the sender's memory with
 * process_vm_readv, cross-memory attach) unless OMPI_MCA_btl_vader_single_copy_mechanism says
 * otherwise or the sandbox refuses the call (real_net_before_mpi_init). The two differ on
 * hardware: two-rank matmul 3072/768 on the 2-core VM started its first kernels 26-33 ms into
 * the task with the single copy and 33-60 ms copying through the shared buffers, so a held-out
 * run's figures hold only with the transport they were measured with
 * (docs/experiments/validation-repeat.md). Unit-tested in tests/unit/test_validate_transport.c. */
#ifndef NW_TOOL_VALIDATE_TRANSPORT_H
#define NW_TOOL_VALIDATE_TRANSPORT_H

#include <stddef.h>

/* Writes into buf (len bytes) the line's text, without a newline, from `setting` (the
 * variable's value, NULL where unset) and `attach_allowed` (whether this process may read
 * memory by cross-memory attach: what the ranks' own test finds where the variable is unset);
 * returns buf. */
char *validate_transport_describe(const char *setting, int attach_allowed, char *buf, size_t len);

/* The same for this process's environment and sandbox, as its mpirun children will see them
 * (an `--mca btl_vader_single_copy_mechanism` among a calibration's mpirun options is not
 * read). */
char *validate_transport_here(char *buf, size_t len);

#endif
