/* test_paje_check.c TRACE.paje RUN.json: checks a --trace-format paje file against the same
 * run's --json. The file must be a Paje trace as ViTE and pj_dump read it: a header of
 * %EventDef blocks, each with its fields; then lines each starting with a defined event's id and
 * holding exactly its fields, with times (date fields) >= 0 and never decreasing. Types are
 * defined before use, in a container type their parent allows; every container is created once,
 * inside an existing container of the parent type, before anything uses it, and destroyed at
 * the end; states and events name a type of the container's type and a value defined for that
 * type; each push has its pop on the same container and type. From the states: per device
 * (containers aliased n<node>_d<device>, trace_paje.h) the "Execution" states must add up to
 * its busy_s in --json and (lanes n<node>_l1_<device>_<sub>) the "Data wait" states to its
 * demand_wait_s, within 1% (1 us for tiny ones); at least one execution state. */
#define _POSIX_C_SOURCE 200809L
#include <cjson/cJSON.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define MAX_DEFS 64
#define MAX_FIELDS 16
#define MAX_TOKENS 16
#define NAME_LEN 128

static int fail(const char *what, long line) {
  if (line > 0)
    printf("paje_check: line %ld: %s\npaje_check: 0 passed, 1 failed\n", line, what);
  else
    printf("paje_check: %s\npaje_check: 0 passed, 1 failed\n", what);
  return 1;
}

static cJSON *load_json(const char *path) {
  FILE *f = fopen(path, "rb");
  if (!f)
    return NULL;
  fseek(f, 0, SEEK_END);
  long n = ftell(f);
  fseek(f, 0, SEEK_SET);
  char *text = malloc((size_t)n + 1);
  cJSON *j = NULL;
  if (text && fread(text, 1, (size_t)n, f) == (size_t)n) {
    text[n] = '\0';
    j = cJSON_Parse(text);
  }
  free(text);
  fclose(f);
  return j;
}

typedef struct def {
  int id;
  char name[NAME_LEN];
  int nfields;
  char field[MAX_FIELDS][NAME_LEN], type[MAX_FIELDS][NAME_LEN];
} def;

/* A defined type: container, state, event (or link, variable: refused, the writer has none). */
typedef struct ptype {
  char alias[NAME_LEN], name[NAME_LEN], parent[NAME_LEN];
  int kind; /* 0 container, 1 state, 2 event */
} ptype;

typedef struct value {
  char alias[NAME_LEN], type[NAME_LEN];
} value;

typedef struct container {
  char alias[NAME_LEN], type[NAME_LEN];
  int destroyed;
} container;

/* A state stack of one container and state type: the push times. */
typedef struct stack {
  int container, stype;
  double *t;
  size_t n, cap;
} stack;

static def defs[MAX_DEFS];
static int ndefs;
static ptype *types;
static int ntypes;
static value *values;
static int nvalues;
static container *cont;
static int ncont;
static stack *stacks;
static int nstacks;

static void *grow(void *p, int n, size_t size) {
  /* room for one more at n, doubling at powers of two */
  if (n == 0 || (n & (n - 1)) == 0) {
    p = realloc(p, (size_t)(n ? 2 * n : 8) * size);
    if (!p) {
      printf("paje_check: out of memory\n");
      exit(1);
    }
  }
  return p;
}

static int find_type(const char *alias, int kind) {
  for (int i = 0; i < ntypes; i++)
    if ((!strcmp(types[i].alias, alias) || !strcmp(types[i].name, alias)) &&
        (kind < 0 || types[i].kind == kind))
      return i;
  return -1;
}

static int find_container(const char *alias) {
  for (int i = ncont - 1; i >= 0; i--)
    if (!strcmp(cont[i].alias, alias))
      return i;
  return -1;
}

static int find_value(const char *alias, const char *type) {
  for (int i = 0; i < nvalues; i++)
    if (!strcmp(values[i].alias, alias) && !strcmp(values[i].type, type))
      return i;
  return -1;
}

static stack *find_stack(int c, int st) {
  for (int i = 0; i < nstacks; i++)
    if (stacks[i].container == c && stacks[i].stype == st)
      return &stacks[i];
  stacks = grow(stacks, nstacks, sizeof *stacks);
  stacks[nstacks] = (stack){.container = c, .stype = st};
  return &stacks[nstacks++];
}

/* Splits a body line into tokens: words, or text in double quotes. */
static int tokens(char *s, char *tok[], int max) {
  int n = 0;
  while (*s) {
    while (*s == ' ' || *s == '\t')
      s++;
    if (!*s)
      break;
    if (n == max)
      return -1;
    if (*s == '"') {
      tok[n++] = ++s;
      char *end = strchr(s, '"');
      if (!end)
        return -1;
      *end = '\0';
      s = end + 1;
      if (*s && *s != ' ' && *s != '\t')
        return -1;
    } else {
      tok[n++] = s;
      while (*s && *s != ' ' && *s != '\t')
        s++;
      if (*s)
        *s++ = '\0';
    }
  }
  return n;
}

static const char *field(const def *d, char *tok[], const char *name) {
  for (int i = 0; i < d->nfields; i++)
    if (!strcmp(d->field[i], name))
      return tok[i + 1];
  return NULL;
}

int main(int argc, char **argv) {
  if (argc != 3)
    return fail("usage: test_paje_check TRACE.paje RUN.json", 0);
  FILE *f = fopen(argv[1], "r");
  cJSON *run = load_json(argv[2]);
  if (!f || !run)
    return fail("the trace is missing, or the run's --json is missing or not JSON", 0);
  const cJSON *devices = cJSON_GetObjectItemCaseSensitive(run, "devices");
  if (!cJSON_IsArray(devices))
    return fail("no devices list in --json", 0);
  int rows = cJSON_GetArraySize(devices);
  int *row_node = calloc((size_t)rows + 1, sizeof *row_node),
      *row_dev = calloc((size_t)rows + 1, sizeof *row_dev);
  double *busy = calloc((size_t)rows + 1, sizeof *busy),
         *wait = calloc((size_t)rows + 1, sizeof *wait);
  for (int i = 0, d = 0; i < rows; i++) {
    const cJSON *row = cJSON_GetArrayItem(devices, i);
    row_node[i] = cJSON_GetObjectItemCaseSensitive(row, "node")->valueint;
    d = i > 0 && row_node[i] == row_node[i - 1] ? d + 1 : 0;
    row_dev[i] = d;
  }
  char *line = NULL;
  size_t cap = 0;
  long at = 0;
  def *open = NULL;
  double last = 0;
  long states = 0, events = 0, execs = 0;
  while (getline(&line, &cap, f) > 0) {
    at++;
    line[strcspn(line, "\r\n")] = '\0';
    if (line[0] == '%') { /* the header */
      char a[NAME_LEN], b[NAME_LEN];
      int id, k = sscanf(line, "%%EventDef %127s %d", a, &id);
      if (k == 2) {
        if (open || ndefs == MAX_DEFS)
          return fail("an %EventDef inside another, or too many", at);
        for (int i = 0; i < ndefs; i++)
          if (defs[i].id == id)
            return fail("an event id defined twice", at);
        open = &defs[ndefs++];
        *open = (def){.id = id};
        snprintf(open->name, sizeof open->name, "%s", a);
      } else if (!strncmp(line, "%EndEventDef", 12)) {
        if (!open)
          return fail("%EndEventDef without %EventDef", at);
        open = NULL;
      } else if (sscanf(line, "%% %127s %127s", a, b) == 2 && open) {
        if (open->nfields == MAX_FIELDS)
          return fail("too many fields", at);
        snprintf(open->field[open->nfields], NAME_LEN, "%s", a);
        snprintf(open->type[open->nfields++], NAME_LEN, "%s", b);
      } else
        return fail("a header line that is neither %EventDef, a field nor %EndEventDef", at);
      continue;
    }
    if (!line[0] || line[0] == '#')
      continue;
    if (open)
      return fail("an %EventDef without its %EndEventDef", at);
    char *tok[MAX_TOKENS];
    int n = tokens(line, tok, MAX_TOKENS);
    if (n < 1)
      return fail("a malformed line", at);
    char *end;
    long id = strtol(tok[0], &end, 10);
    const def *d = NULL;
    for (int i = 0; *end == '\0' && i < ndefs; i++)
      if (defs[i].id == id)
        d = &defs[i];
    if (!d)
      return fail("an event whose definition is missing", at);
    if (n != d->nfields + 1)
      return fail("an event whose fields differ from its definition", at);
    double t = last;
    for (int i = 0; i < d->nfields; i++)
      if (!strcmp(d->type[i], "date")) {
        t = strtod(tok[i + 1], &end);
        if (*end || !(t >= 0))
          return fail("a time that is not a number >= 0", at);
      }
    if (t < last)
      return fail("a time before the line above's", at);
    last = t;
    const char *alias = field(d, tok, "Alias"), *type = field(d, tok, "Type"),
               *name = field(d, tok, "Name"), *in = field(d, tok, "Container"),
               *val = field(d, tok, "Value");
    const char *ev = d->name;
    if (!strcmp(ev, "PajeDefineContainerType") || !strcmp(ev, "PajeDefineStateType") ||
        !strcmp(ev, "PajeDefineEventType")) {
      int kind = !strcmp(ev, "PajeDefineContainerType") ? 0
                 : !strcmp(ev, "PajeDefineStateType")   ? 1
                                                        : 2;
      if (!alias || !type || !name)
        return fail("a type definition without Alias, Type and Name", at);
      if (!(kind == 0 && !strcmp(type, "0")) && find_type(type, 0) < 0)
        return fail("a type inside a container type not defined", at);
      if (find_type(alias, -1) >= 0)
        return fail("a type defined twice", at);
      types = grow(types, ntypes, sizeof *types);
      types[ntypes] = (ptype){.kind = kind};
      snprintf(types[ntypes].alias, NAME_LEN, "%s", alias);
      snprintf(types[ntypes].name, NAME_LEN, "%s", name);
      snprintf(types[ntypes++].parent, NAME_LEN, "%s", type);
    } else if (!strcmp(ev, "PajeDefineEntityValue")) {
      if (!alias || !type || !name)
        return fail("a value without Alias, Type and Name", at);
      int ti = find_type(type, -1);
      if (ti < 0 || types[ti].kind == 0)
        return fail("a value of a state or event type not defined", at);
      if (find_value(alias, types[ti].alias) >= 0)
        return fail("a value defined twice", at);
      values = grow(values, nvalues, sizeof *values);
      snprintf(values[nvalues].alias, NAME_LEN, "%s", alias);
      snprintf(values[nvalues++].type, NAME_LEN, "%s", types[ti].alias);
    } else if (!strcmp(ev, "PajeCreateContainer")) {
      if (!alias || !type || !in || !name)
        return fail("a container without Alias, Type, Container and Name", at);
      int ti = find_type(type, 0);
      if (ti < 0)
        return fail("a container of a type not defined", at);
      int parent = strcmp(in, "0") ? find_container(in) : -1;
      if (strcmp(in, "0") && (parent < 0 || cont[parent].destroyed))
        return fail("a container created inside one not created (or destroyed)", at);
      const char *want = parent < 0 ? "0" : cont[parent].type;
      if (strcmp(types[ti].parent, want))
        return fail("a container inside a container of another type than its type's parent", at);
      if (find_container(alias) >= 0)
        return fail("a container created twice", at);
      cont = grow(cont, ncont, sizeof *cont);
      cont[ncont] = (container){0};
      snprintf(cont[ncont].alias, NAME_LEN, "%s", alias);
      snprintf(cont[ncont++].type, NAME_LEN, "%s", types[ti].alias);
    } else if (!strcmp(ev, "PajeDestroyContainer")) {
      int c = name ? find_container(name) : -1;
      if (c < 0 || cont[c].destroyed)
        return fail("a container destroyed that was not created, or twice", at);
      cont[c].destroyed = 1;
    } else if (!strcmp(ev, "PajeSetState") || !strcmp(ev, "PajePushState") ||
               !strcmp(ev, "PajePopState") || !strcmp(ev, "PajeNewEvent")) {
      int is_event = !strcmp(ev, "PajeNewEvent");
      int ti = type ? find_type(type, is_event ? 2 : 1) : -1;
      int c = in ? find_container(in) : -1;
      if (ti < 0)
        return fail(is_event ? "an event of an event type not defined"
                             : "a state of a state type not defined",
                    at);
      if (c < 0 || cont[c].destroyed)
        return fail("a container used before it was created (or after it was destroyed)", at);
      if (strcmp(types[ti].parent, cont[c].type))
        return fail("a state or event in a container of another type than its type's", at);
      if (strcmp(ev, "PajePopState") && (!val || find_value(val, types[ti].alias) < 0))
        return fail("a state or event whose value is not defined for its type", at);
      if (is_event) {
        events++;
        continue;
      }
      stack *s = find_stack(c, ti);
      if (!strcmp(ev, "PajePopState")) {
        if (s->n == 0)
          return fail("a pop without its push", at);
        double dur = t - s->t[--s->n];
        states++;
        int node, dev, cls, sub, used = 0;
        int exec = !strcmp(types[ti].name, "Execution"),
            waiting = !strcmp(types[ti].name, "Data wait");
        if (exec && sscanf(cont[c].alias, "n%d_d%d%n", &node, &dev, &used) == 2 &&
            !cont[c].alias[used]) {
          execs++;
          for (int i = 0; i < rows; i++)
            if (row_node[i] == node && row_dev[i] == dev)
              busy[i] += dur;
        } else if (waiting &&
                   sscanf(cont[c].alias, "n%d_l%d_%d_%d%n", &node, &cls, &dev, &sub, &used) == 4 &&
                   !cont[c].alias[used] && cls == 1) {
          for (int i = 0; i < rows; i++)
            if (row_node[i] == node && row_dev[i] == dev)
              wait[i] += dur;
        } else if (exec || waiting)
          return fail("an execution or data wait on a container not named as trace_paje.h says",
                      at);
      } else if (!strcmp(ev, "PajePushState")) {
        if (s->n == s->cap) {
          s->cap = s->cap ? 2 * s->cap : 8;
          s->t = realloc(s->t, s->cap * sizeof *s->t);
          if (!s->t)
            return fail("out of memory", at);
        }
        s->t[s->n++] = t;
      } else
        return fail("a PajeSetState: the writer pushes and pops its spans", at);
    } else
      return fail("an event the writer has no use for (links, variables)", at);
  }
  fclose(f);
  free(line);
  if (ndefs == 0)
    return fail("no %EventDef header", 0);
  for (int i = 0; i < nstacks; i++)
    if (stacks[i].n)
      return fail("a push without its pop", 0);
  for (int i = 0; i < ncont; i++)
    if (!cont[i].destroyed)
      return fail("a container never destroyed", 0);
  if (execs == 0)
    return fail("no execution state", 0);
  for (int i = 0; i < rows; i++) {
    const cJSON *row = cJSON_GetArrayItem(devices, i);
    double want = cJSON_GetObjectItemCaseSensitive(row, "busy_s")->valuedouble,
           want_wait = cJSON_GetObjectItemCaseSensitive(row, "demand_wait_s")->valuedouble;
    printf("node %d device %d: busy_s %.9f, trace %.9f; demand_wait_s %.9f, trace %.9f\n",
           row_node[i], row_dev[i], want, busy[i], want_wait, wait[i]);
    if (fabs(busy[i] - want) > fmax(0.01 * want, 1e-6))
      return fail("a device's execution states do not add up to its busy_s (1%)", 0);
    if (fabs(wait[i] - want_wait) > fmax(0.01 * want_wait, 1e-6))
      return fail("a device's data wait states do not add up to its demand_wait_s (1%)", 0);
  }
  printf("paje_check: %d event types, %d containers, %ld states (%ld executions), %ld events; 1 "
         "passed, 0 failed\n",
         ndefs, ncont, states, execs, events);
  for (int i = 0; i < nstacks; i++)
    free(stacks[i].t);
  free(stacks), free(types), free(values), free(cont);
  free(row_node), free(row_dev), free(busy), free(wait);
  cJSON_Delete(run);
  return 0;
}
