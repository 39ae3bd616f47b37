/* reproduce.h: `narwhal reproduce [--out DIR] [--build DIR] [--only NAME[,NAME...]]`: every
 * simulated figure of the papers Narwhal reproduces, with a report that puts each figure's
 * number beside the paper's. The work is scripts/reproduce-paper.sh's; this finds it and runs
 * it with this executable's build directory. */
#ifndef NW_TOOL_REPRODUCE_H
#define NW_TOOL_REPRODUCE_H

/* argv: the arguments after "reproduce". Returns only on failure (exit status 2 for bad
 * arguments, 1 when the script cannot be found or run); on success the script replaces this
 * process and its status is the command's. */
int reproduce_main(int argc, char **argv);

#endif
