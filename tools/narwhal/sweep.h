/* sweep.h: `narwhal sweep FILE [--csv OUT]`: one run per value of one varied key. */
#ifndef NW_TOOL_SWEEP_H
#define NW_TOOL_SWEEP_H

int sweep_main(int argc, char **argv);

#endif
