/* run_app.h: one run of an application from parsed options, as `narwhal run` and a program's
 * nw_run_app do it: the application's checks, --dry-run, the performance model, the backend,
 * then the report, the model's save and the trace file. */
#ifndef NW_TOOL_RUN_APP_H
#define NW_TOOL_RUN_APP_H

#include "options.h"

/* Runs the application on a backend and fills res (nw_sim_run, nw_real_run, or a hand-over
 * to another executable); ctx is the caller's. */
typedef nw_status (*tool_backend_fn)(const tool_options *o, const nw_app *app, nw_run_result *res,
                                     void *ctx);

/* Runs app as o says on `backend` and reports; when the run got a result and summary is not
 * NULL, fills it (summary->reporter 1 on the reporting process). Returns the exit status: 0, 1 the
 * run failed, 2 bad input, 3 the result differs from the reference. Messages go through tool_fail.
 */
int tool_run_app(tool_options *o, const nw_app *app, tool_backend_fn backend, void *ctx,
                 nw_run_summary *summary);

/* Says msg (one line, tool_say) and returns code; under mpirun only rank 0 speaks and sets the
 * status, the others return 0 (mpirun kills the job as soon as one rank exits non-zero, which
 * could stop rank 0 before it says why; they see the same input and fail alike). */
int tool_fail(int code, const char *msg);
/* 1 on a rank other than 0 under mpirun, which says nothing (tool_fail). */
int tool_quiet_rank(void);

#endif
