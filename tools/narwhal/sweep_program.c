/* sweep_program.c: see sweep_program.h. */
#define _XOPEN_SOURCE 700 /* realpath */
#include "sweep_program.h"

#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "options_table.h"
#include "sweep_grid.h"

int sweep_program_init(sweep_program *sp, const cJSON *root, char *why, size_t len) {
  memset(sp, 0, sizeof *sp);
  const cJSON *program = cJSON_GetObjectItemCaseSensitive(root, "program");
  const cJSON *args = cJSON_GetObjectItemCaseSensitive(root, "args");
  if (args && !program) {
    snprintf(why, len, "\"args\" goes with \"program\": the words after a program's options");
    return 1;
  }
  if (!program)
    return 0;
  if (!cJSON_IsString(program) || !program->valuestring[0]) {
    snprintf(why, len, "\"program\" must be the path of a program built against libnarwhal");
    return 1;
  }
  int args_ok = !args || cJSON_IsArray(args);
  for (const cJSON *a = args ? args->child : NULL; args_ok && a; a = a->next)
    args_ok = cJSON_IsString(a);
  if (!args_ok) {
    snprintf(why, len, "\"args\" must be a list of strings");
    return 1;
  }
  char resolved[PATH_MAX];
  if (!realpath(program->valuestring, resolved) || access(resolved, X_OK) != 0 ||
      strlen(resolved) >= sizeof sp->path) {
    snprintf(why, len,
             "\"program\": '%.200s' is not an executable file (relative paths start "
             "from the current directory)",
             program->valuestring);
    return 1;
  }
  snprintf(sp->path, sizeof sp->path, "%s", resolved);
  sp->args = args;
  return 0;
}

/* Appends one word to own; 1 when there is no room. */
static int add_word(sweep_own *own, size_t *used, const char *word) {
  size_t n = strlen(word) + 1;
  if (own->n >= SWEEP_OWN_MAX || *used + n > sizeof own->text)
    return 1;
  own->argv[own->n++] = memcpy(own->text + *used, word, n);
  own->argv[own->n] = NULL;
  *used += n;
  return 0;
}

int sweep_program_split(const sweep_program *sp, cJSON *point, sweep_own *own, char *why,
                        size_t len) {
  own->n = 0;
  own->argv[0] = NULL;
  if (!sp->path[0])
    return 0;
  size_t used = 0;
  for (cJSON *k = point->child, *next; k; k = next) {
    next = k->next;
    if (tool_option_find(k->string))
      continue;
    if (cJSON_IsObject(k) || cJSON_IsArray(k) || cJSON_IsNull(k)) {
      snprintf(why, len,
               "'%.100s': a program's own option takes a string, a number or a "
               "boolean",
               k->string);
      return 1;
    }
    char flag[300], value[600];
    snprintf(flag, sizeof flag, "--%s", k->string);
    sweep_value_text(k, value, sizeof value);
    if (add_word(own, &used, flag) || add_word(own, &used, value)) {
      snprintf(why, len, "the program's own options are too many or too long");
      return 1;
    }
    cJSON_DeleteItemFromObjectCaseSensitive(point, k->string);
  }
  for (const cJSON *a = sp->args ? sp->args->child : NULL; a; a = a->next)
    if (add_word(own, &used, a->valuestring)) {
      snprintf(why, len, "\"args\" are too many or too long");
      return 1;
    }
  return 0;
}
