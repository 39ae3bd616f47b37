/* platform_check.c: checks a platform's values, then loads it in a child process.
 *
 * SimGrid reports a malformed or inconsistent platform by throwing or dying, which ends a C
 * program with a core dump and pages of text. Loading it once in a forked child turns that
 * into a one-line error naming the file, while the parent has not touched SimGrid yet. Some
 * values load and abort only once the simulation runs (a bandwidth or speed of 0, a negative
 * or infinite latency: "The Impossible Did Happen"), so every speed, bandwidth and latency is
 * checked first, with SimGrid 3.32's units. A route is computed only when a transfer takes it,
 * and a missing or inconsistent one aborts the run then ("no connecting path", "Bad
 * gateways"), so the child also computes every route a run can take. SimGrid takes settings
 * it cannot simulate with (a bandwidth factor of 0, a maxmin precision of 1, a stack of one
 * byte, a precision of 0 that never converges), so with --cfg/--log settings the child also
 * simulates a first transfer and computation under them, stopped after 10 s.
 */
#define _GNU_SOURCE /* memmem */
#include "platform_check.h"

#include <errno.h>
#include <math.h>
#include <signal.h>
#include <simgrid/actor.h>
#include <simgrid/engine.h>
#include <simgrid/host.h>
#include <simgrid/mailbox.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>
#include <xbt/log.h>

#include "sim_init.h"

/* The stages of the checking child, each a byte on a pipe of their own (SimGrid's output may be
 * long): SimGrid took the settings; the platform loaded; its routes are sound (the probe runs). */
enum { STAGE_SETTINGS = 1, STAGE_LOADED, STAGE_ROUTED };
#define PROBE_SECONDS 10

/* Picks the most telling line of SimGrid's output: the first that mentions an error, else the
 * first non-empty one, without SimGrid's "[time] [category/LEVEL] " prefixes. */
static void reason(char *out, char *line, size_t len) {
  char *best = NULL;
  char *critical = NULL; /* an uncaught exception's line, e.g. a bad --cfg key */
  for (char *p = strtok(out, "\n"); p; p = strtok(NULL, "\n")) {
    if (!best)
      best = p;
    if (!critical && strstr(p, "Uncaught exception"))
      critical = p;
    if (strstr(p, "rror") || strstr(p, "nvalid") || strstr(p, "nknown")) {
      best = p;
      break;
    }
  }
  if (critical && best != critical && !strstr(best, "] ")) /* a listing after it */
    best = critical;
  if (!best) {
    snprintf(line, len, "SimGrid rejected it");
    return;
  }
  /* "./src/x.cpp:95: [category/ERROR] text" or "[time] [category/LEVEL] text": the text. */
  static const char *const levels[] = {"ERROR] ", "CRITICAL] ", "WARNING] ", "INFO] "};
  for (size_t i = 0; i < sizeof levels / sizeof levels[0]; i++) {
    char *at = strstr(best, levels[i]);
    if (at) {
      best = at + strlen(levels[i]);
      break;
    }
  }
  char *what = strstr(best, "Uncaught exception ");
  if (what && (what = strstr(what, ": ")))
    best = what + 2; /* "Uncaught exception std::out_of_range: Bad config key: x": the text */
  snprintf(line, len, "%s", best);
}

/* SimGrid 3.32's unit suffixes and what each multiplies by (a plain number is flop/s, bytes/s
 * or seconds; "bps" is bits). A value is checked after its unit is applied: "1e300Gf" is an
 * infinite speed, which SimGrid loads and then aborts on once the run starts. */
typedef struct unit {
  const char *name;
  double factor;
} unit;
static const unit speed_units[] = {{"", 1},      {"f", 1},     {"kf", 1e3},  {"Mf", 1e6},
                                   {"Gf", 1e9},  {"Tf", 1e12}, {"Pf", 1e15}, {"Ef", 1e18},
                                   {"Zf", 1e21}, {NULL, 0}};
#define KI 1024.0
static const unit bandwidth_units[] = {{"", 1},
                                       {"Bps", 1},
                                       {"kBps", 1e3},
                                       {"KBps", 1e3},
                                       {"MBps", 1e6},
                                       {"GBps", 1e9},
                                       {"TBps", 1e12},
                                       {"PBps", 1e15},
                                       {"EBps", 1e18},
                                       {"KiBps", KI},
                                       {"MiBps", KI *KI},
                                       {"GiBps", KI *KI *KI},
                                       {"TiBps", KI *KI *KI *KI},
                                       {"PiBps", KI *KI *KI *KI *KI},
                                       {"EiBps", KI *KI *KI *KI *KI *KI},
                                       {"bps", 1 / 8.0},
                                       {"kbps", 1e3 / 8},
                                       {"Kbps", 1e3 / 8},
                                       {"Mbps", 1e6 / 8},
                                       {"Gbps", 1e9 / 8},
                                       {"Tbps", 1e12 / 8},
                                       {"Pbps", 1e15 / 8},
                                       {"Ebps", 1e18 / 8},
                                       {"Kibps", KI / 8},
                                       {"Mibps", KI *KI / 8},
                                       {"Gibps", KI *KI *KI / 8},
                                       {"Tibps", KI *KI *KI *KI / 8},
                                       {"Pibps", KI *KI *KI *KI *KI / 8},
                                       {"Eibps", KI *KI *KI *KI *KI *KI / 8},
                                       {NULL, 0}};
#undef KI
static const unit latency_units[] = {{"", 1},      {"s", 1},      {"ms", 1e-3}, {"us", 1e-6},
                                     {"ns", 1e-9}, {"ps", 1e-12}, {"m", 60},    {"h", 3600},
                                     {"d", 86400}, {"w", 604800}, {NULL, 0}};

/* Whether v (up to `end`) is a number followed by one of `units` whose value in base units
 * is finite, and that value. */
static int parse_value(const char *v, const char *end, const unit *units, double *x) {
  char buf[64];
  size_t n = (size_t)(end - v);
  if (n == 0 || n >= sizeof buf)
    return 0;
  memcpy(buf, v, n);
  buf[n] = '\0';
  char *rest;
  *x = strtod(buf, &rest);
  if (rest == buf || !isfinite(*x))
    return 0;
  for (int i = 0; units[i].name; i++)
    if (!strcmp(rest, units[i].name)) {
      *x *= units[i].factor;
      return isfinite(*x);
    }
  return 0;
}

/* The value of attribute `name` inside the tag [tag, tag_end), or NULL; *len its length. */
static const char *attribute(const char *tag, const char *tag_end, const char *name, size_t *len) {
  size_t k = strlen(name);
  for (const char *p = tag; p && p < tag_end; p++) {
    p = memmem(p, (size_t)(tag_end - p), name, k); /* within the tag: the file may be MBs */
    if (!p)
      return NULL;
    if ((p == tag || p[-1] == ' ' || p[-1] == '\t' || p[-1] == '\n') && !strncmp(p + k, "=\"", 2)) {
      const char *v = p + k + 2, *q = memchr(v, '"', (size_t)(tag_end - v));
      if (!q)
        return NULL;
      *len = (size_t)(q - v);
      return v;
    }
  }
  return NULL;
}

/* Every speed (> 0, a comma-separated list of power states allowed), bandwidth (>= 1 B/s) and
 * latency (0 to 10^9 s) in the file, finite and with a unit SimGrid knows; one line naming the
 * element and the value otherwise. A link slower than 1 B/s loads and runs, then SimGrid 3.32
 * aborts ("The Impossible Did Happen") once a transfer on it takes ~10^5 s or more: its
 * solver's precision rounds the transfer's share to nothing (tests/fuzz/fuzz.sh found 1e-3,
 * 1e-2 and 1e-1 B/s; 1 B/s ran to 8.2e6 s). A latency of 10^12 s or more aborts the same way
 * (the fuzzer found 1e300 s; 1e9 s ran), so 10^9 s is the bound, as for the times of
 * --fault and --fail. */
static nw_status check_values(const char *text, const char *path, char *why, size_t why_len) {
  static const struct {
    const char *attr, *what, *example;
    const unit *units;
    int zero_ok;
    double min, max; /* the smallest value allowed (0: none beyond the sign), the largest (0:
                        none) */
  } rules[] = {
      {"speed", "a number > 0 of flop/s, at most 1e30", "1Gf", speed_units, 0, 0, 1e30},
      {"bandwidth", "a number >= 1 of bytes/s", "10GBps", bandwidth_units, 0, 1, 0},
      {"latency", "a number of seconds from 0 to 1e9", "2us", latency_units, 1, 0, 1e9},
      /* <cluster>'s own names for the same */
      {"bw", "a number >= 1 of bytes/s", "10GBps", bandwidth_units, 0, 1, 0},
      {"bb_bw", "a number >= 1 of bytes/s", "10GBps", bandwidth_units, 0, 1, 0},
      {"loopback_bw", "a number >= 1 of bytes/s", "10GBps", bandwidth_units, 0, 1, 0},
      {"lat", "a number of seconds from 0 to 1e9", "2us", latency_units, 1, 0, 1e9},
      {"bb_lat", "a number of seconds from 0 to 1e9", "2us", latency_units, 1, 0, 1e9},
      {"loopback_lat", "a number of seconds from 0 to 1e9", "2us", latency_units, 1, 0, 1e9}};
  for (const char *tag = strchr(text, '<'); tag; tag = strchr(tag + 1, '<')) {
    if (tag[1] == '!' || tag[1] == '?' || tag[1] == '/')
      continue;
    const char *tag_end = strchr(tag, '>');
    if (!tag_end)
      break;
    for (size_t r = 0; r < sizeof rules / sizeof rules[0]; r++) {
      size_t len;
      const char *v = attribute(tag, tag_end, rules[r].attr, &len);
      if (!v)
        continue;
      int ok = 1;
      for (const char *item = v, *stop; ok && item <= v + len; item = stop + 1) {
        stop = memchr(item, ',', (size_t)(v + len - item));
        if (!stop || strcmp(rules[r].attr, "speed") != 0)
          stop = v + len;
        double x;
        ok = parse_value(item, stop, rules[r].units, &x) &&
             (x > 0 || (rules[r].zero_ok && x == 0)) && x >= rules[r].min &&
             (rules[r].max == 0 || x <= rules[r].max);
      }
      if (!ok) {
        size_t id_len = 0, name_len = strcspn(tag + 1, " \t\n/>");
        const char *id = attribute(tag, tag_end, "id", &id_len);
        snprintf(why, why_len, "platform %.300s: %.*s %.*s: %s '%.*s' must be %s (e.g. %s)", path,
                 (int)(name_len < 20 ? name_len : 20), tag + 1,
                 (int)(id ? (id_len < 80 ? id_len : 80) : 1), id ? id : "?", rules[r].attr,
                 (int)(len < 60 ? len : 60), v, rules[r].what, rules[r].example);
        return NW_ERR_ARG;
      }
    }
  }
  return NW_OK;
}

/* Whether the tag at `tag` is element `name` (`<name ` or `<name>`). */
static int tag_is(const char *tag, const char *name) {
  size_t k = strlen(name);
  return !strncmp(tag + 1, name, k) && tag[1 + k] && strchr(" \t\n/>", tag[1 + k]);
}

/* No <route> names a zone as its src or dst: a route joins hosts or routers (a <zoneRoute>
 * joins zones). SimGrid 3.32 dies with a SIGSEGV when one names the zone around the route's
 * own (tests/fuzz/fuzz.sh; an outer zone's id as src). Zones are few: their ids are gathered
 * first, then each route's ends compared with them. */
static nw_status check_route_ends(const char *text, const char *path, char *why, size_t why_len) {
  enum { MAX_ZONES = 4096 };
  static const char *zone_id[MAX_ZONES];
  static size_t zone_len[MAX_ZONES];
  int zones = 0;
  for (const char *tag = strchr(text, '<'); tag && zones < MAX_ZONES; tag = strchr(tag + 1, '<')) {
    const char *tag_end = strchr(tag, '>');
    if (!tag_end)
      break;
    if (tag_is(tag, "zone") || tag_is(tag, "AS") || tag_is(tag, "cluster")) {
      const char *id = attribute(tag, tag_end, "id", &zone_len[zones]);
      if (id)
        zone_id[zones++] = id;
    }
  }
  for (const char *tag = strchr(text, '<'); zones && tag; tag = strchr(tag + 1, '<')) {
    const char *tag_end = strchr(tag, '>');
    if (!tag_end)
      break;
    if (!tag_is(tag, "route"))
      continue;
    static const char *const ends[] = {"src", "dst"};
    for (int e = 0; e < 2; e++) {
      size_t len;
      const char *v = attribute(tag, tag_end, ends[e], &len);
      for (int z = 0; v && z < zones; z++)
        if (zone_len[z] == len && !memcmp(zone_id[z], v, len)) {
          snprintf(why, why_len,
                   "platform %.300s: route %s '%.*s' is a zone; a <route> joins hosts or routers "
                   "(a <zoneRoute> joins zones)",
                   path, ends[e], (int)(len < 80 ? len : 80), v);
          return NW_ERR_ARG;
        }
    }
  }
  return NW_OK;
}

/* In the child: a route from a to b that SimGrid can send on (a latency, or links: a route of
 * none has bandwidth -1), else a line naming them and exit. A route SimGrid finds inconsistent
 * throws, which ends the child too. */
static void route_or_exit(sg_host_t a, sg_host_t b) {
  if (!(sg_host_get_route_latency(a, b) > 0) && sg_host_get_route_bandwidth(a, b) < 0) {
    printf("no route from %s to %s\n", sg_host_get_name(a), sg_host_get_name(b));
    fflush(stdout);
    _exit(4);
  }
}

/* In the child: every route a run takes (platforms/README.md's naming): between the CPU hosts
 * n<i>-cpu of every two nodes, and between each node's CPU host and its GPU hosts n<i>-gpu<k>,
 * both ways. */
static void check_routes(void) {
  char name[48];
  int nodes = 0;
  while (snprintf(name, sizeof name, "n%d-cpu", nodes) > 0 && sg_host_by_name(name))
    nodes++;
  /* Each CPU host looked up once: SimGrid 3.32 finds a host by name in time linear in the
   * hosts, so looking them up inside the pair loop made this check cubic in the nodes (most
   * of the 12.5 s that loading a 1024-node platform took:
   * docs/experiments/sim-scale-platform-loading.md). */
  sg_host_t *cpus = malloc((size_t)(nodes ? nodes : 1) * sizeof *cpus);
  if (!cpus) {
    printf("out of memory checking routes\n");
    fflush(stdout);
    _exit(4);
  }
  for (int i = 0; i < nodes; i++) {
    snprintf(name, sizeof name, "n%d-cpu", i);
    cpus[i] = sg_host_by_name(name);
  }
  for (int i = 0; i < nodes; i++) {
    sg_host_t gpu;
    for (int k = 0;
         snprintf(name, sizeof name, "n%d-gpu%d", i, k) > 0 && (gpu = sg_host_by_name(name)); k++) {
      route_or_exit(cpus[i], gpu);
      route_or_exit(gpu, cpus[i]);
    }
    for (int j = 0; j < nodes; j++)
      if (j != i)
        route_or_exit(cpus[i], cpus[j]);
  }
  free(cpus);
}

/* The probe's actors: a sender computes, then sends 1 MiB to the mailbox argv[0]; a receiver
 * takes it. Transfers sent and not received when the simulation ends: */
static int probe_pending;

static void probe_send(int argc, char **argv) {
  static char payload;
  (void)argc;
  sg_actor_execute(1e6);
  sg_mailbox_put(sg_mailbox_by_name(argv[0]), &payload, 1 << 20);
}

static void probe_receive(int argc, char **argv) {
  (void)argc;
  sg_mailbox_get(sg_mailbox_by_name(argv[0]));
  probe_pending--;
}

/* In the child, under the researcher's settings: how a run starts, on up to 4 nodes: each
 * computes and sends to the next, and node 0 copies to its first GPU. */
static void probe(void) {
  char from[48], to[48], box[16];
  char *args[] = {box, NULL};
  int nodes = 0;
  while (nodes < 4 && snprintf(from, sizeof from, "n%d-cpu", nodes) > 0 && sg_host_by_name(from))
    nodes++;
  for (int i = 0; i < nodes; i++) {
    snprintf(box, sizeof box, "probe%d", i);
    snprintf(from, sizeof from, "n%d-cpu", i);
    snprintf(to, sizeof to, i == 0 ? "n0-gpu0" : "n%d-cpu", (i + 1) % nodes);
    if (i == 0 && !sg_host_by_name(to))
      snprintf(to, sizeof to, "n%d-cpu", 1 % nodes);
    if (!strcmp(from, to)) /* one node and no GPU: compute only */
      continue;
    sg_actor_create("probe-send", sg_host_by_name(from), probe_send, 1, args);
    sg_actor_create("probe-receive", sg_host_by_name(to), probe_receive, 1, args);
    probe_pending++;
  }
  alarm(PROBE_SECONDS);
  simgrid_run();
  if (probe_pending) { /* an infinite latency factor: SimGrid ends it as a deadlock */
    printf("a first transfer never ended (simulated time %g s)\n", simgrid_get_clock());
    fflush(stdout);
    _exit(5);
  }
}

static void stage(int fd, char s) {
  if (write(fd, &s, 1) != 1)
    _exit(3);
}

nw_status nw_platform_check(const char *path, const char *const *settings, int nsettings, char *why,
                            size_t why_len) {
  FILE *f = fopen(path, "r");
  if (!f) {
    snprintf(why, why_len, "platform %.300s: %s", path, strerror(errno));
    return NW_ERR_ARG;
  }
  size_t cap = 1 << 16, n = 0, chunk;
  char *text = malloc(cap);
  while (text && (chunk = fread(text + n, 1, cap - n - 1, f)) > 0) {
    n += chunk;
    if (n + 1 == cap) {
      char *bigger = realloc(text, cap *= 2);
      if (!bigger)
        free(text);
      text = bigger;
    }
  }
  fclose(f);
  if (!text) {
    snprintf(why, why_len, "platform %.300s: out of memory reading it", path);
    return NW_ERR_ARG;
  }
  text[n] = '\0';
  nw_status st = check_values(text, path, why, why_len);
  if (st == NW_OK)
    st = check_route_ends(text, path, why, why_len);
  free(text);
  if (st != NW_OK)
    return st;
  int fds[2], stages[2];
  if (pipe(fds) != 0 || pipe(stages) != 0) {
    snprintf(why, why_len, "platform %.300s: cannot check it: %s", path, strerror(errno));
    return NW_ERR_ARG;
  }
  fflush(NULL);
  pid_t pid = fork();
  if (pid < 0) {
    snprintf(why, why_len, "platform %.300s: cannot check it: %s", path, strerror(errno));
    close(fds[0]);
    close(fds[1]);
    close(stages[0]);
    close(stages[1]);
    return NW_ERR_ARG;
  }
  if (pid == 0) {
    dup2(fds[1], STDOUT_FILENO);
    dup2(fds[1], STDERR_FILENO);
    close(fds[0]);
    close(stages[0]);
    /* Narwhal's settings, then the researcher's, as the run passes them (sim_init.h). */
    sim_init_simgrid("narwhal-platform-check", "--log=root.thres:error", NULL, settings, nsettings);
    /* The settings passed: what fails from here on is the platform's. */
    stage(stages[1], STAGE_SETTINGS);
    simgrid_load_platform(path);
    stage(stages[1], STAGE_LOADED);
    check_routes();
    stage(stages[1], STAGE_ROUTED);
    if (nsettings > 0)
      probe();
    _exit(0);
  }
  close(fds[1]);
  close(stages[1]);
  /* The first 8 KiB of SimGrid's output; the rest read and dropped (--log=root.thres:debug). */
  char out[8192], drop[4096];
  size_t got = 0;
  ssize_t r;
  while ((r = got < sizeof out - 1 ? read(fds[0], out + got, sizeof out - 1 - got)
                                   : read(fds[0], drop, sizeof drop)) > 0)
    got += got < sizeof out - 1 ? (size_t)r : 0;
  out[got] = '\0';
  close(fds[0]);
  char reached = 0, s;
  while (read(stages[0], &s, 1) == 1)
    reached = s;
  close(stages[0]);
  int status = 0;
  while (waitpid(pid, &status, 0) < 0 && errno == EINTR)
    ;
  if (WIFEXITED(status) && WEXITSTATUS(status) == 0)
    return NW_OK;
  char line[200], list[160];
  reason(out, line, sizeof line);
  snprintf(list, sizeof list, "%.100s%s", nsettings > 0 ? settings[0] : "",
           nsettings > 1 ? ", ..." : "");
  if (reached == 0 && nsettings > 0)
    snprintf(why, why_len, "SimGrid refused the --cfg/--log settings (%s): %s", list, line);
  else if (reached == STAGE_LOADED)
    snprintf(why, why_len, "platform %.300s: a route SimGrid cannot take: %s", path, line);
  else if (reached == STAGE_ROUTED && WIFSIGNALED(status) && WTERMSIG(status) == SIGALRM)
    snprintf(why, why_len,
             "SimGrid did not simulate a first transfer in %d s with the --cfg/--log settings "
             "(%s) on platform %.300s",
             PROBE_SECONDS, list, path);
  else if (reached == STAGE_ROUTED)
    snprintf(why, why_len, "SimGrid cannot simulate with the --cfg/--log settings (%s): %s", list,
             line);
  else
    snprintf(why, why_len, "platform %.300s: cannot be loaded: %s", path, line);
  return NW_ERR_ARG;
}
