/* report.h: printing a run's result, for people and as the `--json` contract. */
#ifndef NW_TOOL_REPORT_H
#define NW_TOOL_REPORT_H

#include "options.h"

void report_text(const tool_options *o, const nw_run_result *r);
/* One JSON object on stdout. Keys are a public contract: extend, never rename. */
void report_json(const tool_options *o, const nw_run_result *r);
/* That object (a cJSON *, to delete), e.g. of an empty result to learn the keys a run prints. */
void *report_json_object(const tool_options *o, const nw_run_result *r);

#endif
