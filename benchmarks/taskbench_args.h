/* taskbench_args.h: the command-line numbers of the taskbench baselines (taskbench_mpi,
 * taskbench_starpu). */
#ifndef NW_TASKBENCH_ARGS_H
#define NW_TASKBENCH_ARGS_H

/* Reads text as a whole number up to max into *out; returns 1, or 0 after one line on stderr
 * naming prog, the argument and its text. */
int tb_arg_count(const char *prog, const char *name, const char *text, unsigned long long max,
                 unsigned long long *out);

#endif
