/* options_fields.h: the option table's special setters and getters (options_fields.c), for the
 * rows whose value is more than one field stored as given. */
#ifndef NW_TOOL_OPTIONS_FIELDS_H
#define NW_TOOL_OPTIONS_FIELDS_H

#include "options_table.h"

int opt_set_seed(tool_options *o, const opt_def *d, const opt_value *v, const char *who, char *why,
                 size_t len);
int opt_set_verify(tool_options *o, const opt_def *d, const opt_value *v, const char *who,
                   char *why, size_t len);
int opt_set_placement(tool_options *o, const opt_def *d, const opt_value *v, const char *who,
                      char *why, size_t len);
int opt_set_sched(tool_options *o, const opt_def *d, const opt_value *v, const char *who, char *why,
                  size_t len);
int opt_set_roofline_p(tool_options *o, const opt_def *d, const opt_value *v, const char *who,
                       char *why, size_t len);
void opt_get_roofline_p(const tool_options *o, const char *key, void *json);
int opt_set_compression(tool_options *o, const opt_def *d, const opt_value *v, const char *who,
                        char *why, size_t len);
void opt_get_compression(const tool_options *o, const char *key, void *json);
/* --compression's value from the two switches it sets. */
const char *opt_compression_name(const nw_run_config *c);
void opt_get_trace_format(const tool_options *o, const char *key, void *json);
int opt_set_slow(tool_options *o, const opt_def *d, const opt_value *v, const char *who, char *why,
                 size_t len);
void opt_get_slow(const tool_options *o, const char *key, void *json);
/* --fail and --fault: one plan (core/node/faults.h). */
int opt_set_faults(tool_options *o, const opt_def *d, const opt_value *v, const char *who,
                   char *why, size_t len);
void opt_get_faults(const tool_options *o, const char *key, void *json);
int opt_set_app_param(tool_options *o, const opt_def *d, const opt_value *v, const char *who,
                      char *why, size_t len);
void opt_get_app_param(const tool_options *o, const char *key, void *json);
/* --cfg and --log: SimGrid's own settings, kept as --NAME=VALUE. */
int opt_set_simgrid(tool_options *o, const opt_def *d, const opt_value *v, const char *who,
                    char *why, size_t len);
void opt_get_simgrid(const tool_options *o, const char *key, void *json);

#endif
