/* platform_check.h: tells whether SimGrid can load a platform file, without dying with it. */
#ifndef NW_PLATFORM_CHECK_H
#define NW_PLATFORM_CHECK_H

#include <stddef.h>

#include "narwhal.h"

/* NW_OK when `path` is readable and loads, SimGrid started with `settings` (--cfg=... and
 * --log=... arguments, as the run will pass them); otherwise NW_ERR_ARG and a one-line reason in
 * why, e.g. "platform x.xml: cannot be loaded: Parse error at x.xml:7: ...", or one naming the
 * settings when SimGrid refused those. The check runs in a child process, which SimGrid may kill.
 */
nw_status nw_platform_check(const char *path, const char *const *settings, int nsettings, char *why,
                            size_t why_len);

#endif
