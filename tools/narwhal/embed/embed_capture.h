/* embed_capture.h: the streams of a run inside a caller's process. The tool says why a run
 * failed in one line on stderr (tool_say: "narwhal: ...") and prints the report on stdout; a
 * caller of the library takes both as values instead, while every other line (an application's,
 * SimGrid's, an assertion's before an abort) still reaches the caller's stderr as it is
 * written, so that a run that crashes loses none of them. */
#ifndef NW_EMBED_CAPTURE_H
#define NW_EMBED_CAPTURE_H

#include <stddef.h>
#include <stdio.h>

/* The tool's lines, held back from stderr between embed_capture_start and _stop. */
typedef struct embed_capture {
  FILE *caller;       /* stderr before: where the other lines go, and what comes back */
  FILE *stream;       /* stderr meanwhile; NULL: nothing is held (no memory) */
  char line[2048];    /* the line being written */
  size_t used;        /* its length so far */
  char said[4][1024]; /* the tool's last lines held, the latest at said[nsaid - 1] */
  int nsaid;
} embed_capture;

/* Points stderr (glibc's, which tool_say writes to) at c until embed_capture_stop. */
void embed_capture_start(embed_capture *c);
/* Puts stderr back. With `take` set (a run that failed) the tool's last line goes to why
 * without its "narwhal: ", the others to stderr; without, they all go to stderr. */
void embed_capture_stop(embed_capture *c, int take, char *why, size_t why_len);

/* Sends stdout to /dev/null (after flushing it) until embed_stdout_restore; returns the
 * caller's stdout to give back, or -1 when nothing was changed. */
int embed_stdout_silence(void);
void embed_stdout_restore(int saved);

#endif
