/* faults.c: see faults.h. */
#include "faults.h"

#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "node.h"
#include "rng.h"

/* A uniform draw in [0, 1). */
static double uniform(uint64_t *rng) {
  return (double)(nw_rng_next(rng) >> 11) * 0x1.0p-53;
}

double nw_fault_message_delay(const nw_fault_plan *p, uint64_t *rng, nw_fault_counts *c) {
  double late = 0;
  if (p->drop_p > 0)
    while (uniform(rng) < p->drop_p) { /* each attempt is lost anew with the same probability */
      late += p->rto_s;
      c->retransmissions++;
    }
  if (p->delay_s > 0 && (p->delay_p >= 1 || uniform(rng) < p->delay_p)) {
    late += p->delay_s;
    c->delayed++;
  }
  return late;
}

void nw_fault_plan_defaults(nw_fault_plan *p) {
  memset(p, 0, sizeof *p);
  p->rto_s = NW_FAULT_RTO_DEFAULT;
  p->delay_p = 1;
  p->detect_s = NW_FAULT_DETECT_DEFAULT;
}

int nw_fault_plan_active(const nw_fault_plan *p) {
  return p->nfail > 0 || p->drop_p > 0 || p->delay_s > 0 || p->nlink > 0;
}

/* A number of seconds at *p that ends at a separator in `ends` (or the string's end): finite,
 * and > 0 or >= 0 as `positive` asks. Moves *p past it. */
static int seconds(const char **p, const char *ends, int positive, double *out) {
  char *end;
  double x = strtod(*p, &end);
  if (end == *p || !isfinite(x) || x < 0 || (positive && x == 0) || x > 1e9 ||
      (*end && !strchr(ends, *end)))
    return 0;
  *out = x;
  *p = end;
  return 1;
}

nw_status nw_fault_parse_fail(nw_fault_plan *p, const char *text, char *why, size_t why_len) {
  p->nfail = 0;
  const char *s = text;
  while (*s) {
    char *end;
    long node = strtol(s, &end, 10);
    double at = 0;
    int ok = end != s && *end == '@' && node >= 0 && node < NW_MAX_NODES && s[0] != '-' &&
             s[0] != '+' && s[0] != ' ';
    if (ok) {
      s = end + 1;
      ok = seconds(&s, ",", 0, &at);
    }
    if (!ok) {
      snprintf(why, why_len,
               "'%.200s' is not NODE@SECONDS[,...] with NODE below %d and SECONDS from 0 to 1e9",
               text, NW_MAX_NODES);
      return NW_ERR_ARG;
    }
    for (int i = 0; i < p->nfail; i++)
      if (p->fail[i].node == (int)node) {
        snprintf(why, why_len, "'%.200s' names node %ld twice: a node fails once", text, node);
        return NW_ERR_ARG;
      }
    if (p->nfail == NW_MAX_FAILS) {
      snprintf(why, why_len, "'%.200s': at most %d failures", text, NW_MAX_FAILS);
      return NW_ERR_ARG;
    }
    p->fail[p->nfail++] = (nw_fault_fail){(int)node, at};
    s += *s == ',';
    if (*s == '\0' && s[-1] == ',') {
      snprintf(why, why_len, "'%.200s' ends with a comma", text);
      return NW_ERR_ARG;
    }
  }
  if (p->nfail == 0) {
    snprintf(why, why_len, "'' is not NODE@SECONDS[,...]");
    return NW_ERR_ARG;
  }
  return NW_OK;
}

/* A probability at *s: in [0, 1) (`below_one`) or (0, 1]. */
static int probability(const char **s, int below_one, double *out) {
  char *end;
  double x = strtod(*s, &end);
  if (end == *s || !(x >= 0 && x <= 1) || (below_one && x >= 1) || (!below_one && x == 0) ||
      (*end && *end != ',' && *end != ':'))
    return 0;
  *out = x;
  *s = end;
  return 1;
}

static nw_status fault_item(nw_fault_plan *p, const char **s, char *why, size_t why_len) {
  const char *item = *s;
  if (!strncmp(item, "drop:", 5)) {
    *s = item + 5;
    if (probability(s, 1, &p->drop_p) && (**s == ',' || !**s))
      return NW_OK;
    snprintf(why, why_len,
             "drop:P needs a probability P from 0 to below 1 (a message always "
             "lost would never arrive)");
  } else if (!strncmp(item, "rto:", 4)) {
    *s = item + 4;
    if (seconds(s, ",", 1, &p->rto_s))
      return NW_OK;
    snprintf(why, why_len, "rto:S needs a time S above 0, at most 1e9 seconds");
  } else if (!strncmp(item, "detect:", 7)) {
    *s = item + 7;
    if (seconds(s, ",", 1, &p->detect_s))
      return NW_OK;
    snprintf(why, why_len, "detect:S needs a time S above 0, at most 1e9 seconds");
  } else if (!strncmp(item, "delay:", 6)) {
    *s = item + 6;
    p->delay_p = 1;
    if (seconds(s, ",:", 0, &p->delay_s) &&
        (**s != ':' || (++*s, probability(s, 0, &p->delay_p))) && (**s == ',' || !**s))
      return NW_OK;
    snprintf(why, why_len,
             "delay:S[:P] needs a time S from 0 to 1e9 seconds and a "
             "probability P above 0, at most 1");
  } else if (!strncmp(item, "link:", 5)) {
    const char *name = item + 5;
    size_t len = strcspn(name, ":,@");
    nw_fault_link l = {.factor = 0, .from_s = 0};
    *s = name + len;
    int ok = len > 0 && len < sizeof l.name && **s == ':';
    if (ok) {
      memcpy(l.name, name, len);
      char *end;
      l.factor = strtod(++*s, &end);
      ok = end != *s && l.factor >= 1 && l.factor <= 1e6;
      *s = end;
    }
    if (ok && **s == '@') {
      ++*s;
      ok = seconds(s, ",", 0, &l.from_s);
    }
    ok = ok && (**s == ',' || !**s);
    if (ok && p->nlink == NW_MAX_LINK_FAULTS) {
      snprintf(why, why_len, "at most %d link faults", NW_MAX_LINK_FAULTS);
      return NW_ERR_ARG;
    }
    if (ok) {
      p->link[p->nlink++] = l;
      return NW_OK;
    }
    snprintf(why, why_len,
             "link:NAME:FACTOR[@SECONDS] needs a link name of the platform (below %d bytes), "
             "FACTOR from 1 to 1e6 and SECONDS from 0 to 1e9",
             NW_FAULT_LINK_NAME);
  } else {
    snprintf(why, why_len,
             "the items are drop:P, rto:S, delay:S[:P], link:NAME:FACTOR[@S] and "
             "detect:S");
  }
  return NW_ERR_ARG;
}

nw_status nw_fault_parse(nw_fault_plan *p, const char *text, char *why, size_t why_len) {
  const char *s = text;
  p->nlink = 0;
  if (!*s) {
    snprintf(why, why_len,
             "'' names no fault (drop:P, rto:S, delay:S[:P], "
             "link:NAME:FACTOR[@S], detect:S)");
    return NW_ERR_ARG;
  }
  while (*s) {
    const char *item = s;
    char reason[200];
    if (fault_item(p, &s, reason, sizeof reason) != NW_OK) {
      size_t len = strcspn(item, ",");
      snprintf(why, why_len, "item '%.*s': %s", (int)(len > 80 ? 80 : len), item, reason);
      return NW_ERR_ARG;
    }
    if (*s == ',' && s[1] == '\0') {
      snprintf(why, why_len, "'%.200s' ends with a comma", text);
      return NW_ERR_ARG;
    }
    s += *s == ',';
  }
  return NW_OK;
}

nw_status nw_fault_check_nodes(const nw_fault_plan *p, int nodes, char *why, size_t why_len) {
  for (int i = 0; i < p->nfail; i++)
    if (p->fail[i].node >= nodes) {
      snprintf(why, why_len, "--fail: node %d does not exist (this run has %d nodes, 0 to %d)",
               p->fail[i].node, nodes, nodes - 1);
      return NW_ERR_ARG;
    }
  return NW_OK;
}

/* Appends fmt's text to buf at *at, after a comma unless it is the first item; stops at the
 * buffer's end (callers pass room for the longest plan). */
static void add(char *buf, size_t len, size_t *at, const char *fmt, ...) {
  if (*at + 1 >= len)
    return;
  if (*at)
    buf[(*at)++] = ',';
  va_list ap;
  va_start(ap, fmt);
  int k = vsnprintf(buf + *at, len - *at, fmt, ap);
  va_end(ap);
  if (k > 0)
    *at += (size_t)k < len - *at ? (size_t)k : len - *at - 1;
}

void nw_fault_format(const nw_fault_plan *p, char *fail, size_t fail_len, char *fault,
                     size_t fault_len) {
  size_t at = 0;
  fail[0] = fault[0] = '\0';
  for (int i = 0; i < p->nfail; i++)
    add(fail, fail_len, &at, "%d@%.17g", p->fail[i].node, p->fail[i].at_s);
  at = 0;
  if (p->drop_p > 0)
    add(fault, fault_len, &at, "drop:%.17g", p->drop_p);
  if (p->rto_s != NW_FAULT_RTO_DEFAULT)
    add(fault, fault_len, &at, "rto:%.17g", p->rto_s);
  if (p->delay_s > 0)
    add(fault, fault_len, &at, "delay:%.17g:%.17g", p->delay_s, p->delay_p);
  if (p->detect_s != NW_FAULT_DETECT_DEFAULT)
    add(fault, fault_len, &at, "detect:%.17g", p->detect_s);
  for (int i = 0; i < p->nlink; i++)
    add(fault, fault_len, &at, "link:%s:%.17g@%.17g", p->link[i].name, p->link[i].factor,
        p->link[i].from_s);
}
