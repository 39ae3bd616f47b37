/* sweep.c: runs a sweep described in JSON and tabulates it.
 *
 * {"title": "...", "base": {run keys}, "vary": {"nodes": [1, 2, 4]}, "csv": "out.csv",
 *  "columns": ["cache_hits", ...]}   (optional: further keys of `run --json` to tabulate)
 * SimGrid can be initialised once per process, so each point runs as a child process
 * (`narwhal run --config TMP --json`, the same executable). Rows already computed are written
 * to the CSV even when a later point fails: a sweep never loses results.
 */
#define _POSIX_C_SOURCE 200809L
#include "sweep.h"

#include <cjson/cJSON.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "options.h"
#include "report.h"
#include "text_file.h"

/* Runs this executable as `run --config path FLAG`: with --json returns its stdout, with
 * --check its stderr (the one line saying what is wrong); NULL on failure. */
static char *run_child(const char *path, const char *flag, int *status) {
  int fds[2];
  if (pipe(fds) != 0)
    return NULL;
  fflush(NULL);
  pid_t pid = fork();
  if (pid < 0)
    return NULL;
  if (pid == 0) {
    dup2(fds[1], strcmp(flag, "--check") ? STDOUT_FILENO : STDERR_FILENO);
    close(fds[0]);
    close(fds[1]);
    execl("/proc/self/exe", "narwhal", "run", "--config", path, flag, (char *)NULL);
    tool_say("sweep: cannot run myself: %s", strerror(errno));
    _exit(127);
  }
  close(fds[1]);
  FILE *f = fdopen(fds[0], "r");
  char *out = f ? tool_read_stream(f) : NULL;
  if (f)
    fclose(f);
  while (waitpid(pid, status, 0) < 0 && errno == EINTR)
    ;
  return out;
}

/* The run file of one point: base with `key` set to v, in a new temporary file whose name goes
 * to tmp; 0 on success. */
static int write_point(const cJSON *base, const char *key, const cJSON *v, char tmp[32]) {
  cJSON *point = cJSON_Duplicate(base, 1);
  cJSON_DeleteItemFromObjectCaseSensitive(point, key);
  cJSON_DeleteItemFromObjectCaseSensitive(point, "json");
  cJSON_AddItemToObject(point, key, cJSON_Duplicate(v, 1));
  snprintf(tmp, 32, "/tmp/narwhal-sweep-XXXXXX");
  int fd = mkstemp(tmp);
  char *body = cJSON_Print(point);
  cJSON_Delete(point);
  int ok = fd >= 0 && body && write(fd, body, strlen(body)) == (ssize_t)strlen(body);
  free(body);
  if (fd >= 0)
    close(fd);
  if (!ok && fd >= 0)
    unlink(tmp);
  return ok ? 0 : 1;
}

static int ensure_parent_dir(const char *path) {
  char dir[1024];
  snprintf(dir, sizeof dir, "%s", path);
  char *slash = strrchr(dir, '/');
  if (!slash)
    return 0;
  *slash = '\0';
  for (char *p = dir + 1; *p; p++)
    if (*p == '/') {
      *p = '\0';
      mkdir(dir, 0777);
      *p = '/';
    }
  return mkdir(dir, 0777) == 0 || errno == EEXIST ? 0 : -1;
}

static double num(const cJSON *o, const char *key) {
  const cJSON *v = cJSON_GetObjectItemCaseSensitive(o, key);
  return cJSON_IsNumber(v) ? v->valuedouble : 0.0;
}

static int column_width(const char *name) {
  int w = (int)strlen(name);
  return w > 12 ? w : 12;
}

static void value_text(const cJSON *v, char *out, size_t len) {
  if (cJSON_IsString(v))
    snprintf(out, len, "%s", v->valuestring);
  else if (cJSON_IsNumber(v))
    snprintf(out, len, "%.17g", v->valuedouble);
  else if (cJSON_IsObject(v)) { /* app-param: key=value;... (no comma: it is a CSV field) */
    size_t at = 0;
    out[0] = '\0';
    for (const cJSON *c = v->child; c && at < len; c = c->next) {
      char one[64];
      value_text(c, one, sizeof one);
      at +=
          (size_t)snprintf(out + at, len - at, "%s%s=%s", c == v->child ? "" : ";", c->string, one);
    }
  } else
    snprintf(out, len, "%s", cJSON_IsTrue(v) ? "true" : "false");
}

static int usage_error(const char *msg, const char *path) {
  tool_say("sweep %s: %s", path, msg);
  return 2;
}

/* Whether `key` is a top-level key of `narwhal run --json`: the keys of an empty result's
 * report (runtime_costs, which only the real backend prints, too). */
static int run_json_has(const char *key) {
  tool_options o;
  memset(&o, 0, sizeof o);
  nw_run_config_defaults(&o.run);
  nw_run_result r;
  memset(&r, 0, sizeof r);
  cJSON *j = report_json_object(&o, &r);
  int has = cJSON_GetObjectItemCaseSensitive(j, key) != NULL || !strcmp(key, "runtime_costs");
  cJSON_Delete(j);
  return has;
}

/* The sweep file's own keys and their types; the run keys are checked per point. Writes a
 * reason and returns 1 when something is wrong. */
static int sweep_shape_error(const cJSON *root, char *why, size_t len) {
  static const char *const known[] = {"title", "base", "vary", "csv", "columns", NULL};
  if (!cJSON_IsObject(root)) {
    snprintf(why, len, "must be a JSON object");
    return 1;
  }
  for (const cJSON *k = root->child; k; k = k->next) {
    int ok = 0;
    for (int i = 0; known[i]; i++)
      ok |= !strcmp(k->string, known[i]);
    if (!ok) {
      snprintf(why, len, "unknown key '%.100s' (title, base, vary, csv, columns)", k->string);
      return 1;
    }
  }
  const cJSON *title = cJSON_GetObjectItemCaseSensitive(root, "title");
  const cJSON *csv = cJSON_GetObjectItemCaseSensitive(root, "csv");
  if ((title && !cJSON_IsString(title)) ||
      (csv && (!cJSON_IsString(csv) || !csv->valuestring[0]))) {
    snprintf(why, len, "\"%s\" must be a string",
             title && !cJSON_IsString(title) ? "title" : "csv");
    return 1;
  }
  const cJSON *columns = cJSON_GetObjectItemCaseSensitive(root, "columns");
  if (columns && !cJSON_IsArray(columns)) {
    snprintf(why, len, "\"columns\" must be a list of key names of `narwhal run --json`");
    return 1;
  }
  for (const cJSON *c = columns ? columns->child : NULL; c; c = c->next)
    if (!cJSON_IsString(c) || !c->valuestring[0] || !run_json_has(c->valuestring)) {
      snprintf(why, len, "\"columns\": %s%.100s%s is not a key of `narwhal run --json`",
               cJSON_IsString(c) ? "'" : "", cJSON_IsString(c) ? c->valuestring : "an entry",
               cJSON_IsString(c) ? "'" : "");
      return 1;
    }
  /* A point's run is `run --config POINT --json`: keys that change what it prints have no place. */
  const cJSON *base = cJSON_GetObjectItemCaseSensitive(root, "base");
  const cJSON *vary = cJSON_GetObjectItemCaseSensitive(root, "vary");
  static const char *const not_in_sweep[] = {"dry-run", "json", "check", "config", "help", NULL};
  for (int i = 0; not_in_sweep[i]; i++)
    if ((cJSON_IsObject(base) && cJSON_GetObjectItemCaseSensitive(base, not_in_sweep[i])) ||
        (cJSON_IsObject(vary) && cJSON_GetObjectItemCaseSensitive(vary, not_in_sweep[i]))) {
      snprintf(why, len, "\"%s\" has no place in a sweep (each point runs with --json)",
               not_in_sweep[i]);
      return 1;
    }
  return 0;
}

int sweep_main(int argc, char **argv) {
  const char *path = NULL, *csv_opt = NULL;
  for (int i = 0; i < argc; i++) {
    if (!strcmp(argv[i], "--csv") && i + 1 < argc)
      csv_opt = argv[++i];
    else if (!path && strncmp(argv[i], "--", 2) != 0)
      path = argv[i];
    else {
      fprintf(stderr,
              "narwhal: sweep: unexpected argument '%s' (usage: narwhal sweep FILE "
              "[--csv OUT])\n",
              argv[i]);
      return 2;
    }
  }
  if (!path) {
    tool_say("sweep: missing FILE (usage: narwhal sweep FILE [--csv OUT])");
    return 2;
  }
  FILE *f = fopen(path, "r");
  if (!f) {
    tool_say("sweep %s: %s", path, strerror(errno));
    return 2;
  }
  char *text = tool_read_stream(f);
  fclose(f);
  if (text && tool_json_escapes_nul(text)) {
    free(text);
    return usage_error("a string holds a NUL character (\\u0000)", path);
  }
  cJSON *root = text ? cJSON_Parse(text) : NULL;
  free(text);
  if (!root)
    return usage_error("malformed JSON", path);
  const cJSON *base = cJSON_GetObjectItemCaseSensitive(root, "base");
  const cJSON *vary = cJSON_GetObjectItemCaseSensitive(root, "vary");
  const cJSON *csv_item = cJSON_GetObjectItemCaseSensitive(root, "csv");
  const cJSON *title = cJSON_GetObjectItemCaseSensitive(root, "title");
  const cJSON *columns = cJSON_GetObjectItemCaseSensitive(root, "columns");
  int code = 0;
  char bad[400];
  if (sweep_shape_error(root, bad, sizeof bad)) {
    cJSON_Delete(root);
    return usage_error(bad, path);
  }
  if (!cJSON_IsObject(base) || !cJSON_IsObject(vary) || !vary->child || vary->child->next ||
      !cJSON_IsArray(vary->child) || cJSON_GetArraySize(vary->child) == 0) {
    cJSON_Delete(root);
    return usage_error("needs \"base\": {run keys} and \"vary\": {\"KEY\": [values...]} with "
                       "exactly one key",
                       path);
  }
  const char *key = vary->child->string;
  /* Check every point's configuration before running any. */
  char why[1024], where[1100];
  for (const cJSON *v = vary->child->child; v; v = v->next) {
    cJSON *point = cJSON_Duplicate(base, 1);
    cJSON_DeleteItemFromObjectCaseSensitive(point, key);
    cJSON_AddItemToObject(point, key, cJSON_Duplicate(v, 1));
    tool_options o;
    memset(&o, 0, sizeof o);
    nw_run_config_defaults(&o.run);
    snprintf(where, sizeof where, "sweep %s", path);
    int bad = tool_options_apply_json(point, where, &o, why, sizeof why);
    cJSON_Delete(point);
    if (bad) {
      tool_say("%s", why);
      cJSON_Delete(root);
      return 2;
    }
  }
  /* Then as its backend would set it up (`run --check`: platform, nodes, devices, GPU memory),
   * so that a bad later point stops the sweep before the first one runs. */
  for (const cJSON *v = vary->child->child; v; v = v->next) {
    char tmp[32], label[64];
    int status = 0;
    char *msg = write_point(base, key, v, tmp) ? NULL : run_child(tmp, "--check", &status);
    if (msg)
      unlink(tmp);
    value_text(v, label, sizeof label);
    if (!msg || !WIFEXITED(status) || WEXITSTATUS(status) != 0) {
      char *nl = msg ? strchr(msg, '\n') : NULL;
      if (nl)
        *nl = '\0';
      const char *reason = msg && !strncmp(msg, "narwhal: ", 9) ? msg + 9 : msg;
      tool_say("sweep %s: the point %s = %s: %s", path, key, label,
               reason && *reason ? reason : "cannot be checked");
      int code = msg && WIFEXITED(status) && WEXITSTATUS(status) == 2 ? 2 : 1;
      free(msg);
      cJSON_Delete(root);
      return code;
    }
    free(msg);
  }
  const char *csv = csv_opt ? csv_opt : cJSON_IsString(csv_item) ? csv_item->valuestring : NULL;
  FILE *out = NULL;
  if (csv && (ensure_parent_dir(csv) != 0 || !(out = fopen(csv, "w")))) {
    tool_say("sweep: cannot write %s: %s", csv, strerror(errno));
    cJSON_Delete(root);
    return 1;
  }
  if (cJSON_IsString(title))
    printf("%s\n", title->valuestring);
  printf("%10s %14s %12s %9s %16s %12s", key, "simulated_s", "GFlop/s", "speed-up",
         "steals ok/tried", "GB moved");
  for (const cJSON *c = columns ? columns->child : NULL; c; c = c->next)
    printf(" %*s", column_width(c->valuestring), c->valuestring);
  printf("\n");
  if (out) {
    fprintf(out,
            "%s,makespan_s,gflops,speedup,steals_attempted,steals_succeeded,"
            "bytes_network,verified",
            key);
    for (const cJSON *c = columns ? columns->child : NULL; c; c = c->next)
      fprintf(out, ",%s", c->valuestring);
    fprintf(out, "\n");
  }
  double first = 0;
  for (const cJSON *v = vary->child->child; v; v = v->next) {
    char tmp[32];
    int ok = write_point(base, key, v, tmp) == 0;
    int status = 0;
    char *result = ok ? run_child(tmp, "--json", &status) : NULL;
    if (ok)
      unlink(tmp);
    cJSON *r = result ? cJSON_Parse(result) : NULL;
    free(result);
    char label[64];
    value_text(v, label, sizeof label);
    if (!r || !WIFEXITED(status) || (WEXITSTATUS(status) != 0 && WEXITSTATUS(status) != 3)) {
      tool_say("sweep: the run with %s = %s failed%s", key, label,
               WIFEXITED(status) ? "" : " (killed)");
      cJSON_Delete(r);
      code = 1;
      break;
    }
    double makespan = num(r, "makespan_s");
    if (first == 0)
      first = makespan;
    const cJSON *verified = cJSON_GetObjectItemCaseSensitive(r, "verified");
    const char *vtext =
        cJSON_IsBool(verified) ? (cJSON_IsTrue(verified) ? "true" : "false") : "null";
    printf("%10s %14.3f %12.1f %9.2f %7.0f/%-8.0f %12.1f", label, makespan, num(r, "gflops"),
           makespan > 0 ? first / makespan : 0.0, num(r, "steals_succeeded"),
           num(r, "steals_attempted"), num(r, "bytes_network") / 1e9);
    for (const cJSON *c = columns ? columns->child : NULL; c; c = c->next)
      printf(" %*.6g", column_width(c->valuestring), num(r, c->valuestring));
    printf("\n");
    fflush(stdout);
    if (out) {
      fprintf(out, "%s,%.9g,%.9g,%.6g,%.0f,%.0f,%.0f,%s", label, makespan, num(r, "gflops"),
              makespan > 0 ? first / makespan : 0.0, num(r, "steals_attempted"),
              num(r, "steals_succeeded"), num(r, "bytes_network"), vtext);
      for (const cJSON *c = columns ? columns->child : NULL; c; c = c->next)
        fprintf(out, ",%.17g", num(r, c->valuestring));
      fprintf(out, "\n");
      fflush(out);
    }
    if (cJSON_IsFalse(verified))
      code = 3;
    cJSON_Delete(r);
  }
  if (out) {
    fclose(out);
    printf("wrote %s\n", csv);
  }
  cJSON_Delete(root);
  return code;
}
