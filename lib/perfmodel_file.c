/* perfmodel_file.c: the JSON file of a performance model set (format in perfmodel_file.h).
 *
 * A load reads the whole file into a model of its own and merges it into the caller's only
 * when every entry passed, so that a refused file leaves nothing behind. */
#define _POSIX_C_SOURCE 200809L
#include "perfmodel_file.h"

#include <cjson/cJSON.h>
#include <errno.h>
#include <inttypes.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "text_file.h"

#define FORMAT_VERSION 1
#define VERSION_KEY "narwhal-perfmodel"
/* The largest whole number a JSON number (a double) holds exactly along with all below it. */
#define MAX_EXACT 9007199254740992.0 /* 2^53 */

static nw_status fail(char *why, size_t len, const char *where, const char *fmt, ...)
    __attribute__((format(printf, 4, 5)));

/* One line "WHERE: message" in why; NW_ERR_ARG, what every refusal returns. */
static nw_status fail(char *why, size_t len, const char *where, const char *fmt, ...) {
  int n = snprintf(why, len, "%s: ", where);
  if (n >= 0 && (size_t)n < len) {
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(why + n, len - (size_t)n, fmt, ap);
    va_end(ap);
  }
  return NW_ERR_ARG;
}

/* ---- Saving ---- */

/* Numbers are written as raw text: cJSON prints 15 significant digits whenever they read back
 * within an epsilon, which loses the last bits of a mean and of sizes above 10^15. */

/* Adds x printed so that it reads back as exactly x: the shortest of 15, 16 and 17 digits
 * that does (17 always does). */
static int add_exact(cJSON *obj, const char *name, double x) {
  char text[32];
  for (int digits = 15; digits <= 17; digits++) {
    snprintf(text, sizeof text, "%.*g", digits, x);
    if (strtod(text, NULL) == x)
      break;
  }
  return cJSON_AddRawToObject(obj, name, text) != NULL;
}

/* Adds a whole number, all of its digits (cJSON would print 15 significant ones). */
static int add_whole(cJSON *obj, const char *name, uint64_t x) {
  char text[24];
  snprintf(text, sizeof text, "%" PRIu64, x);
  return cJSON_AddRawToObject(obj, name, text) != NULL;
}

/* Builders return NULL when out of memory; cJSON_Add* return NULL (or false) then, and a
 * document with a part missing must not be written as if whole. */
static cJSON *fit_json(const nw_perf_fit *f) {
  cJSON *j = cJSON_CreateObject();
  int ok = j && add_exact(j, "a", f->a) && add_exact(j, "b", f->b) && add_exact(j, "c", f->c) &&
           add_whole(j, "min_size", f->min_size) && add_whole(j, "max_size", f->max_size) &&
           add_whole(j, "samples", f->samples) &&
           cJSON_AddStringToObject(j, "x", f->on_flops ? "flops" : "size");
  return ok ? j : (cJSON_Delete(j), NULL);
}

static cJSON *entry_json(const nw_perf_entry *e) {
  char fp[17];
  snprintf(fp, sizeof fp, "%016" PRIx64, e->footprint);
  cJSON *j = cJSON_CreateObject();
  int ok = j && cJSON_AddStringToObject(j, "footprint", fp) && add_whole(j, "size", e->size) &&
           add_whole(j, "count", e->count) && add_exact(j, "mean", e->mean) &&
           add_exact(j, "stddev", e->stddev) && (e->flops == 0 || add_exact(j, "flops", e->flops));
  return ok ? j : (cJSON_Delete(j), NULL);
}

/* Adds item to obj under name (an array when name is NULL); frees item if that fails. */
static int add(cJSON *obj, const char *name, cJSON *item) {
  int ok =
      item && (name ? cJSON_AddItemToObject(obj, name, item) : cJSON_AddItemToArray(obj, item));
  if (!ok)
    cJSON_Delete(item);
  return ok;
}

/* Table t as a "models" item. *toolarge is set when an entry's size or count would not
 * survive a JSON number. */
static cJSON *table_json(const nw_perfmodel *m, size_t t, int *toolarge) {
  const char *kind, *arch;
  size_t n;
  nw_perfmodel_table(m, t, &kind, &arch, &n);
  cJSON *j = cJSON_CreateObject(), *hist = NULL;
  int ok = j && cJSON_AddStringToObject(j, "kind", kind) &&
           cJSON_AddStringToObject(j, "arch", arch) &&
           (hist = cJSON_AddArrayToObject(j, "history")) != NULL;
  for (size_t i = 0; ok && i < n; i++) {
    nw_perf_entry e = nw_perfmodel_entry(m, t, i);
    if (e.size > (1ull << 53) || e.count > (1ull << 53)) /* not as doubles: they round */
      *toolarge = 1;
    ok = add(hist, NULL, entry_json(&e));
  }
  nw_perf_fit lin, nl;
  nw_perfmodel_fits(m, kind, arch, &lin, &nl);
  ok = ok && (!lin.valid || add(j, "linear", fit_json(&lin)));
  ok = ok && (!nl.valid || add(j, "nonlinear", fit_json(&nl)));
  return ok ? j : (cJSON_Delete(j), NULL);
}

static cJSON *model_json(const nw_perfmodel *m, const nw_perfmodel_labels *l, int *toolarge) {
  cJSON *root = cJSON_CreateObject(), *models = NULL;
  int ok = root && cJSON_AddNumberToObject(root, VERSION_KEY, FORMAT_VERSION) &&
           cJSON_AddStringToObject(root, "platform", l->platform) &&
           (!l->machine[0] || cJSON_AddStringToObject(root, "machine", l->machine)) &&
           (models = cJSON_AddArrayToObject(root, "models")) != NULL;
  for (size_t t = 0; ok && t < nw_perfmodel_tables(m); t++)
    ok = add(models, NULL, table_json(m, t, toolarge));
  return ok ? root : (cJSON_Delete(root), NULL);
}

/* Writes text to tmp and renames it to path; removes tmp on failure. */
static nw_status write_replace(const char *text, const char *tmp, const char *path, char *why,
                               size_t len) {
  FILE *f = fopen(tmp, "w");
  if (!f)
    return fail(why, len, path, "cannot write %s: %s", tmp, strerror(errno));
  size_t n = strlen(text);
  int ok = fwrite(text, 1, n, f) == n && fputc('\n', f) != EOF && fflush(f) == 0;
  /* The bytes on disk before the rename, or a crash could leave path empty. */
  ok = ok && fsync(fileno(f)) == 0;
  int err = errno;
  ok = fclose(f) == 0 && ok;
  if (!ok) {
    remove(tmp);
    return fail(why, len, path, "cannot write %s: %s", tmp, strerror(err ? err : EIO));
  }
  if (rename(tmp, path) != 0) {
    err = errno;
    remove(tmp);
    return fail(why, len, path, "cannot replace it with %s: %s", tmp, strerror(err));
  }
  return NW_OK;
}

nw_status nw_perfmodel_save(const nw_perfmodel *m, const char *path, const char *platform,
                            char *why, size_t why_len) {
  nw_perfmodel_labels l = {"", ""};
  if (platform)
    snprintf(l.platform, sizeof l.platform, "%s", platform);
  return nw_perfmodel_save_labelled(m, path, platform ? &l : NULL, why, why_len);
}

nw_status nw_perfmodel_save_labelled(const nw_perfmodel *m, const char *path,
                                     const nw_perfmodel_labels *labels, char *why, size_t why_len) {
  if (!m || !path || !labels || !labels->platform[0])
    return fail(why, why_len, path ? path : "perfmodel", "no model, path or platform to save");
  int toolarge = 0;
  cJSON *root = model_json(m, labels, &toolarge);
  char *text = root ? cJSON_Print(root) : NULL;
  cJSON_Delete(root);
  size_t plen = strlen(path);
  char *tmp = text ? malloc(plen + 5) : NULL;
  if (!tmp) {
    free(text);
    snprintf(why, why_len, "%s: out of memory", path);
    return NW_ERR_NOMEM;
  }
  memcpy(tmp, path, plen);
  memcpy(tmp + plen, ".tmp", 5);
  nw_status st = toolarge ? fail(why, why_len, path, "an entry's size or count is above 2^53")
                          : write_replace(text, tmp, path, why, why_len);
  free(tmp);
  free(text);
  return st;
}

/* ---- Loading ---- */

static char *read_all(const char *path, char *why, size_t len) {
  FILE *f = fopen(path, "rb");
  if (!f) {
    fail(why, len, path, "cannot read it: %s", strerror(errno));
    return NULL;
  }
  char bad[128];
  char *buf = tool_read_json_text(f, bad, sizeof bad);
  fclose(f);
  if (!buf)
    fail(why, len, path, "%s", bad);
  return buf;
}

/* The first key of obj not in known (NULL-terminated), or NULL. */
static const char *unknown_key(const cJSON *obj, const char *const *known) {
  for (const cJSON *it = obj->child; it; it = it->next) {
    int found = 0;
    for (const char *const *k = known; *k && !found; k++)
      found = strcmp(it->string, *k) == 0;
    if (!found)
      return it->string;
  }
  return NULL;
}

/* Field `name` of obj as a number. The field readers below return NW_OK, or NW_ERR_ARG with
 * why filled. */
static nw_status number_field(const cJSON *obj, const char *name, const char *where, double *out,
                              char *why, size_t len) {
  const cJSON *j = cJSON_GetObjectItemCaseSensitive(obj, name);
  if (!j)
    return fail(why, len, where, "missing field '%s'", name);
  if (!cJSON_IsNumber(j))
    return fail(why, len, where, "field '%s' must be a number", name);
  *out = j->valuedouble;
  return NW_OK;
}

/* A whole number in [lo, 2^53]. */
static nw_status whole_field(const cJSON *obj, const char *name, double lo, const char *where,
                             uint64_t *out, char *why, size_t len) {
  double x = 0; /* set by number_field; initialised for -O3 -Wmaybe-uninitialized */
  if (number_field(obj, name, where, &x, why, len))
    return NW_ERR_ARG;
  if (!(x >= lo && x <= MAX_EXACT && x == floor(x)))
    return fail(why, len, where, "field '%s' is %g: must be a whole number from %.0f to 2^53", name,
                x, lo);
  *out = (uint64_t)x;
  return NW_OK;
}

/* Finite and >= 0: durations. */
static nw_status seconds_field(const cJSON *obj, const char *name, const char *where, double *out,
                               char *why, size_t len) {
  if (number_field(obj, name, where, out, why, len))
    return NW_ERR_ARG;
  if (!isfinite(*out))
    return fail(why, len, where, "field '%s' is not finite", name);
  if (*out < 0)
    return fail(why, len, where, "field '%s' is negative (%g)", name, *out);
  return NW_OK;
}

/* A string field of 1 to max bytes, or NULL with why filled. */
static const char *name_field(const cJSON *obj, const char *name, size_t max, const char *where,
                              char *why, size_t len) {
  const cJSON *j = cJSON_GetObjectItemCaseSensitive(obj, name);
  if (!j)
    fail(why, len, where, "missing field '%s'", name);
  else if (!cJSON_IsString(j) || !*j->valuestring || strlen(j->valuestring) > max)
    fail(why, len, where, "field '%s' must be a string of 1 to %zu bytes", name, max);
  else
    return j->valuestring;
  return NULL;
}

static nw_status footprint_field(const cJSON *obj, const char *where, uint64_t *out, char *why,
                                 size_t len) {
  const cJSON *j = cJSON_GetObjectItemCaseSensitive(obj, "footprint");
  if (!j)
    return fail(why, len, where, "missing field 'footprint'");
  const char *s = cJSON_IsString(j) ? j->valuestring : "";
  int ok = strlen(s) == 16;
  for (int i = 0; ok && i < 16; i++)
    ok = strchr("0123456789abcdefABCDEF", s[i]) != NULL;
  if (!ok)
    return fail(why, len, where, "field 'footprint' must be a string of 16 hex digits");
  *out = strtoull(s, NULL, 16);
  return NW_OK;
}

/* One history entry, checked, into e. */
static nw_status parse_entry(const cJSON *j, const char *where, nw_perf_entry *e, char *why,
                             size_t len) {
  static const char *const known[] = {"footprint", "size",  "count", "mean",
                                      "stddev",    "flops", NULL};
  if (!cJSON_IsObject(j))
    return fail(why, len, where, "must be an object");
  const char *bad = unknown_key(j, known);
  if (bad)
    return fail(why, len, where, "unknown field '%s'", bad);
  if (footprint_field(j, where, &e->footprint, why, len) ||
      whole_field(j, "size", 0, where, &e->size, why, len))
    return NW_ERR_ARG;
  const cJSON *c = cJSON_GetObjectItemCaseSensitive(j, "count");
  if (cJSON_IsNumber(c) && c->valuedouble == 0)
    return fail(why, len, where, "field 'count' is 0: an entry holds at least one sample");
  if (whole_field(j, "count", 1, where, &e->count, why, len) ||
      seconds_field(j, "mean", where, &e->mean, why, len) ||
      seconds_field(j, "stddev", where, &e->stddev, why, len))
    return NW_ERR_ARG;
  e->flops = 0;
  if (cJSON_GetObjectItemCaseSensitive(j, "flops") &&
      seconds_field(j, "flops", where, &e->flops, why, len)) /* finite, >= 0 */
    return NW_ERR_ARG;
  /* count durations >= 0 of mean m spread most when all but one are 0: stddev m*sqrt(n-1). */
  double most = e->mean * sqrt((double)(e->count - 1));
  if (e->stddev > most * (1 + 1e-9))
    return fail(why, len, where,
                "field 'stddev' is %g: %" PRIu64
                " non-negative durations of mean %g have a stddev of at most %g",
                e->stddev, e->count, e->mean, most);
  return NW_OK;
}

/* The history of models[i] into tmp. */
static nw_status parse_history(const cJSON *hist, const char *where, const char *kind,
                               const char *arch, nw_perfmodel *tmp, char *why, size_t len) {
  int j = 0;
  for (const cJSON *it = hist->child; it; it = it->next, j++) {
    char at[1536];
    snprintf(at, sizeof at, "%s history[%d]", where, j);
    nw_perf_entry e;
    if (parse_entry(it, at, &e, why, len))
      return NW_ERR_ARG;
    if (nw_perfmodel_samples(tmp, kind, arch, e.footprint) > 0)
      return fail(why, len, at, "footprint %016" PRIx64 " appears twice in this table",
                  e.footprint);
    if (nw_perfmodel_add(tmp, kind, arch, &e) != NW_OK) {
      fail(why, len, at, "out of memory");
      return NW_ERR_NOMEM;
    }
  }
  return NW_OK;
}

/* models[i] into tmp; `models` is the array, to find a kind/arch pair given twice. */
static nw_status parse_table(const cJSON *models, const cJSON *tj, int i, const char *path,
                             nw_perfmodel *tmp, char *why, size_t len) {
  static const char *const known[] = {"kind", "arch", "history", "linear", "nonlinear", NULL};
  char where[1280];
  snprintf(where, sizeof where, "%s: models[%d]", path, i);
  if (!cJSON_IsObject(tj))
    return fail(why, len, where, "must be an object");
  const char *bad = unknown_key(tj, known);
  if (bad)
    return fail(why, len, where, "unknown field '%s'", bad);
  const char *kind = name_field(tj, "kind", NW_PERFMODEL_KIND_MAX, where, why, len);
  const char *arch = kind ? name_field(tj, "arch", NW_PERFMODEL_ARCH_MAX, where, why, len) : NULL;
  if (!arch)
    return NW_ERR_ARG;
  int k = 0;
  for (const cJSON *o = models->child; o != tj; o = o->next, k++) {
    const cJSON *ok = cJSON_GetObjectItemCaseSensitive(o, "kind");
    const cJSON *oa = cJSON_GetObjectItemCaseSensitive(o, "arch");
    if (!strcmp(ok->valuestring, kind) && !strcmp(oa->valuestring, arch))
      return fail(why, len, where, "kind '%s' arch '%s' is models[%d] already", kind, arch, k);
  }
  const cJSON *hist = cJSON_GetObjectItemCaseSensitive(tj, "history");
  if (!hist)
    return fail(why, len, where, "missing field 'history'");
  if (!cJSON_IsArray(hist))
    return fail(why, len, where, "field 'history' must be an array");
  char named[1400];
  snprintf(named, sizeof named, "%s (%s/%s)", where, kind, arch);
  return parse_history(hist, named, kind, arch, tmp, why, len);
}

/* The version and platform: checked before anything else, since another version may mean
 * other fields, and another platform makes every duration wrong. */
static nw_status parse_header(const cJSON *root, const char *path, const char *platform,
                              nw_perfmodel_labels *found, char *why, size_t len) {
  static const char *const known[] = {VERSION_KEY, "platform", "machine", "models", NULL};
  if (!cJSON_IsObject(root))
    return fail(why, len, path, "expected a JSON object");
  const cJSON *v = cJSON_GetObjectItemCaseSensitive(root, VERSION_KEY);
  if (!v)
    return fail(why, len, path, "no \"%s\" version key: not a narwhal performance model",
                VERSION_KEY);
  if (!cJSON_IsNumber(v))
    return fail(why, len, path, "\"%s\" must be the version number %d", VERSION_KEY,
                FORMAT_VERSION);
  if (v->valuedouble != FORMAT_VERSION)
    return fail(why, len, path, "format version %g, this narwhal reads version %d", v->valuedouble,
                FORMAT_VERSION);
  const char *bad = unknown_key(root, known);
  if (bad)
    return fail(why, len, path, "unknown field '%s'", bad);
  const cJSON *p = cJSON_GetObjectItemCaseSensitive(root, "platform");
  if (!p)
    return fail(why, len, path, "missing field 'platform'");
  if (!cJSON_IsString(p))
    return fail(why, len, path, "field 'platform' must be a string");
  const cJSON *mach = cJSON_GetObjectItemCaseSensitive(root, "machine");
  if (mach && (!cJSON_IsString(mach) || strncmp(mach->valuestring, "real:", 5) != 0))
    return fail(why, len, path, "field 'machine' must be a string \"real:HOSTNAME\"");
  const char *machine = mach ? mach->valuestring : "";
  if (platform && strcmp(p->valuestring, platform) != 0 && strcmp(machine, platform) != 0)
    return fail(why, len, path, "measured on platform %s%s%s, this run uses %s", p->valuestring,
                machine[0] ? " and machine " : "", machine, platform);
  if (found) {
    snprintf(found->platform, sizeof found->platform, "%s", p->valuestring);
    snprintf(found->machine, sizeof found->machine, "%s", machine);
  }
  const cJSON *models = cJSON_GetObjectItemCaseSensitive(root, "models");
  if (!models)
    return fail(why, len, path, "missing field 'models'");
  if (!cJSON_IsArray(models))
    return fail(why, len, path, "field 'models' must be an array");
  return NW_OK;
}

static nw_status parse_root(const cJSON *root, const char *path, const char *platform,
                            nw_perfmodel_labels *found, nw_perfmodel *tmp, char *why, size_t len) {
  nw_status st = parse_header(root, path, platform, found, why, len);
  const cJSON *models = cJSON_GetObjectItemCaseSensitive(root, "models");
  int i = 0;
  for (const cJSON *t = st == NW_OK ? models->child : NULL; t && st == NW_OK; t = t->next, i++)
    st = parse_table(models, t, i, path, tmp, why, len);
  return st;
}

nw_status nw_perfmodel_load(nw_perfmodel *m, const char *path, const char *platform, char *why,
                            size_t why_len) {
  return nw_perfmodel_load_labelled(m, path, platform, NULL, why, why_len);
}

nw_status nw_perfmodel_load_labelled(nw_perfmodel *m, const char *path, const char *platform,
                                     nw_perfmodel_labels *found, char *why, size_t why_len) {
  if (!m || !path)
    return fail(why, why_len, path ? path : "perfmodel", "no model or path to load");
  char *text = read_all(path, why, why_len);
  if (!text)
    return NW_ERR_ARG;
  cJSON *root = cJSON_ParseWithOpts(text, NULL, 1);
  if (!root) {
    int line = 1;
    const char *at = cJSON_GetErrorPtr();
    for (const char *p = text; at && p < at && *p; p++)
      line += *p == '\n';
    free(text);
    return fail(why, why_len, path, "not JSON (malformed at line %d)", line);
  }
  free(text);
  nw_perfmodel *tmp;
  nw_status st = nw_perfmodel_create(&tmp);
  if (st != NW_OK)
    fail(why, why_len, path, "out of memory");
  else
    st = parse_root(root, path, platform, found, tmp, why, why_len);
  cJSON_Delete(root);
  if (st == NW_OK) {
    st = nw_perfmodel_merge(m, tmp);
    if (st == NW_ERR_ARG)
      fail(why, why_len, path, "a footprint has another size in the model it is loaded into");
    else if (st != NW_OK)
      fail(why, why_len, path, "out of memory");
  }
  nw_perfmodel_free(tmp);
  return st;
}
