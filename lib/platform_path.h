/* platform_path.h: which file a --platform path names, from any directory, and where a
 * figure's gnuplot script is (plots/).
 *
 * A path that exists as given (absolute, or relative to the working directory) is used as
 * given. A relative one that does not is looked up, in this order, under the source tree's
 * directory this build came from and under the installed data directory
 * (<prefix>/share/narwhal): as PATH there, then as platforms/PATH. So the bundled models
 * (`--platform platforms/small.xml`, or `--platform small.xml`, and the default) are found
 * from any directory, by a build-tree binary and by an installed one. */
#ifndef NW_TOOL_PLATFORM_PATH_H
#define NW_TOOL_PLATFORM_PATH_H

#include <stddef.h>

/* Rewrites path (a buffer of cap bytes) to the file it names, where the lookup above finds
 * one; leaves it as it was otherwise (the backend then says it does not exist). */
void tool_platform_resolve(char *path, size_t cap);

/* The gnuplot script plots/NAME that draws a figure kind (sweep.gp, gantt.gp, ...): in
 * $NARWHAL_PLOTS when it is set (a directory of one's own versions), else in the source tree
 * this build came from, else in the installed <prefix>/share/narwhal/plots. Writes its
 * absolute path into out and returns 0; -1 when none of them has it. */
int tool_plot_script(const char *name, char *out, size_t cap);

#endif
