/* stencil_app.h: a test application for the core's data protocol. Task 1 writes a
 * STENCIL_ROWS x 16 float space row by row; then STENCIL_STEPS tasks each replace every row by
 * the sum of itself and its neighbours, reading and writing the same space (read-write, one
 * subtask per row). Each task's reads must see the state at its start although other nodes
 * write those rows during the task (transactional semantics), and ownership moves between
 * nodes from task to task (paper section 3, steps 1-4). The driver checks the result against
 * a sequential computation: outcome.verified. The smooth steps' rows have priorities (i % 3,
 * larger first) for the policies that use them. */
#ifndef NW_TEST_STENCIL_APP_H
#define NW_TEST_STENCIL_APP_H

#include "narwhal_app.h"

#define STENCIL_ROWS 24
#define STENCIL_STEPS 3

extern const nw_app nw_test_stencil_app;

#endif
