/* backend_choice.h: which backends this executable carries.
 *
 * SimGrid's library defines the MPI_* functions itself (for SMPI), so one process cannot hold
 * both SimGrid and Open MPI safely. `narwhal` carries the simulator; `narwhal-real` carries
 * the MPI backend; `narwhal run --backend real` replaces itself with `narwhal-real` (the same
 * arguments), so `mpirun narwhal run --backend real ...` works as one tool. */
#ifndef NW_TOOL_BACKEND_CHOICE_H
#define NW_TOOL_BACKEND_CHOICE_H

#include "options.h"

/* Runs o on its backend, or hands the whole process to the executable that has it (then it
 * only returns on failure). argv is the process's own, for that hand-over. */
nw_status tool_run_backend(const tool_options *o, const nw_app *app, char **argv,
                           nw_run_result *res);
/* `narwhal calibrate` (argv: its options; all_argv: the process's own): narwhal-real runs it
 * (calibrate_real.c), narwhal hands the process over to narwhal-real. Returns the exit code. */
int tool_calibrate(int argc, char **argv, char **all_argv);
/* Before the process exits: the real backend finalizes MPI; nothing for the simulator. */
void tool_backend_finish(void);

#endif
