/* embed_capture.c: see embed_capture.h. stderr becomes a stream of our own (fopencookie, which
 * glibc offers, as it lets stderr be assigned): each line written to it goes on to the caller's
 * stderr at once, but for the tool's own lines, which wait for embed_capture_stop. */
#define _GNU_SOURCE /* fopencookie */
#include "embed_capture.h"

#include <fcntl.h>
#include <string.h>
#include <unistd.h>

/* What tool_say puts before every line it says (text_file.c). */
#define SAY_PREFIX "narwhal: "
#define SAID_MAX (int)(sizeof((embed_capture *)0)->said / sizeof((embed_capture *)0)->said[0])

/* One whole line (or as much of one as fits): the tool's is held, any other goes on. */
static void end_line(embed_capture *c) {
  if (c->used >= strlen(SAY_PREFIX) && !strncmp(c->line, SAY_PREFIX, strlen(SAY_PREFIX))) {
    if (c->nsaid == SAID_MAX) { /* the oldest held line goes on: only the last is a reason */
      fwrite(c->said[0], 1, strlen(c->said[0]), c->caller);
      memmove(c->said[0], c->said[1], sizeof c->said - sizeof c->said[0]);
      c->nsaid--;
    }
    snprintf(c->said[c->nsaid++], sizeof c->said[0], "%.*s", (int)c->used, c->line);
  } else {
    fwrite(c->line, 1, c->used, c->caller);
    fflush(c->caller);
  }
  c->used = 0;
}

static ssize_t held_write(void *cookie, const char *buf, size_t size) {
  embed_capture *c = cookie;
  for (size_t i = 0; i < size; i++) {
    c->line[c->used++] = buf[i];
    if (buf[i] == '\n' || c->used == sizeof c->line)
      end_line(c);
  }
  return (ssize_t)size;
}

void embed_capture_start(embed_capture *c) {
  memset(c, 0, sizeof *c);
  c->caller = stderr;
  fflush(stderr);
  c->stream = fopencookie(c, "w", (cookie_io_functions_t){.write = held_write});
  if (c->stream) {
    setvbuf(c->stream, NULL, _IONBF, 0); /* every byte reaches held_write as it is written */
    stderr = c->stream;
  }
}

void embed_capture_stop(embed_capture *c, int take, char *why, size_t why_len) {
  if (!c->stream)
    return;
  stderr = c->caller;
  fclose(c->stream);
  if (c->used) /* a last line without its newline */
    end_line(c);
  int last = take && c->nsaid > 0 ? c->nsaid - 1 : -1;
  for (int i = 0; i < c->nsaid; i++)
    if (i != last)
      fputs(c->said[i], c->caller);
  if (last >= 0) {
    const char *text = c->said[last] + strlen(SAY_PREFIX);
    snprintf(why, why_len, "%.*s", (int)strcspn(text, "\n"), text);
  }
  fflush(c->caller);
}

int embed_stdout_silence(void) {
  fflush(stdout);
  int saved = dup(STDOUT_FILENO), null = open("/dev/null", O_WRONLY);
  if (saved < 0 || null < 0 || dup2(null, STDOUT_FILENO) < 0) {
    if (saved >= 0)
      close(saved);
    saved = -1;
  }
  if (null >= 0)
    close(null);
  return saved;
}

void embed_stdout_restore(int saved) {
  if (saved < 0)
    return;
  fflush(stdout);
  dup2(saved, STDOUT_FILENO);
  close(saved);
}
