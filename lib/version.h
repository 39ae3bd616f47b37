/* version.h: the narwhal tool's version (narwhal --version). The minor number counts the
 * issues whose work extended the public contract (options, JSON keys, the library API); a
 * change that only adds to it keeps the major number. */
#ifndef NW_TOOL_VERSION_H
#define NW_TOOL_VERSION_H

#define NW_TOOL_VERSION "0.13.0"

#endif
