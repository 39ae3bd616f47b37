/* text_file.c: see text_file.h. */
#include "text_file.h"

#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

/* Everything f has left, NUL-terminated; *len: the bytes read. */
static char *read_all(FILE *f, size_t *len) {
  size_t cap = 4096, n = 0, r;
  char *buf = malloc(cap);
  while (buf && (r = fread(buf + n, 1, cap - n - 1, f)) > 0) {
    n += r;
    if (n + 1 == cap) {
      char *b = realloc(buf, cap *= 2);
      if (!b)
        free(buf);
      buf = b;
    }
  }
  if (buf && ferror(f)) {
    free(buf);
    return NULL;
  }
  if (buf)
    buf[n] = '\0';
  *len = n;
  return buf;
}

char *tool_read_stream(FILE *f) {
  size_t n = 0;
  return read_all(f, &n);
}

/* Whether JSON text escapes a NUL character (\u0000) in a string: cJSON would end the string
 * there and the rest would be dropped without a word, so such files are refused. */
static int tool_json_escapes_nul(const char *text) {
  for (const char *p = strstr(text, "\\u"); p; p = strstr(p + 2, "\\u")) {
    size_t back = 0; /* an escaped backslash before it makes it plain text */
    while (p - back > text && p[-(long)back - 1] == '\\')
      back++;
    if (back % 2 == 0 && !strncmp(p + 2, "0000", 4))
      return 1;
  }
  return 0;
}

char *tool_read_json_text(FILE *f, char *why, size_t why_len) {
  size_t n = 0;
  char *text = read_all(f, &n);
  if (!text) {
    snprintf(why, why_len, "cannot read it (a read error, or out of memory)");
    return NULL;
  }
  const char *nul = memchr(text, '\0', n);
  if (nul)
    snprintf(why, why_len, "a NUL byte at offset %zu, not a text file", (size_t)(nul - text));
  else if (tool_json_escapes_nul(text))
    snprintf(why, why_len, "a string holds a NUL character (\\u0000)");
  else
    return text;
  free(text);
  return NULL;
}

/* "narwhal" for the tool; a program's own name once nw_init has seen its argv[0]. */
static char say_name[64] = "narwhal";

void tool_say_name(const char *name) {
  const char *slash = strrchr(name, '/');
  snprintf(say_name, sizeof say_name, "%s", slash ? slash + 1 : name);
}

void tool_say(const char *fmt, ...) {
  char msg[2048];
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(msg, sizeof msg, fmt, ap);
  va_end(ap);
  size_t name_len = strlen(say_name);
  /* A program's own message may name it already ("first_task: --block ..."): once is enough. */
  if (strncmp(msg, say_name, name_len) != 0 || msg[name_len] != ':')
    fprintf(stderr, "%s: ", say_name);
  for (const unsigned char *p = (const unsigned char *)msg; *p; p++) {
    if (*p == '\n')
      fputs("\\n", stderr);
    else if (*p == '\r')
      fputs("\\r", stderr);
    else if (*p == '\t')
      fputs("\\t", stderr);
    else if (*p < 0x20 || *p == 0x7f)
      fprintf(stderr, "\\x%02x", *p);
    else
      fputc(*p, stderr);
  }
  fputc('\n', stderr);
}
