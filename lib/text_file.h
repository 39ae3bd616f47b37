/* text_file.h: a whole file as one NUL-terminated string (run files, sweeps, model files). */
#ifndef NW_TOOL_TEXT_FILE_H
#define NW_TOOL_TEXT_FILE_H

#include <stdio.h>

/* Everything f has left, NUL-terminated (free it); NULL when memory runs out or reading
 * fails. Does not close f. */
char *tool_read_stream(FILE *f);

/* A JSON file's text, read from f as tool_read_stream does, or NULL with why set: when
 * reading fails, when the file holds a NUL byte (everything after it would be dropped without
 * a word: "a NUL byte at offset K, not a text file"), or when a string escapes one (see
 * text_file.c). The caller puts the file's name before why. */
char *tool_read_json_text(FILE *f, char *why, size_t why_len);

/* Prints "narwhal: " (or tool_say_name's) and the formatted message on stderr as one line: newlines
 * and other control characters of echoed input (a path, a value) are written as escapes (\n, \x01).
 */
void tool_say(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
/* The name tool_say prints instead of "narwhal" (a program's argv[0]; its directory is
 * dropped). */
void tool_say_name(const char *name);

#endif
