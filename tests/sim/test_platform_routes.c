/* test_platform_routes A.xml B.xml: the two platforms have the same hosts, and between every
 * two hosts routes of the same latency and bandwidth (SimGrid's own route computation, both
 * ways) over the same named links, beside any of no latency whose name starts with "g" (the
 * links between groups of --backbone grouped), so a simulation sees the same network on both. Used
 * to check gen-platform.sh
 * --backbone grouped against --backbone none (grouped_platform.sh). Loads each platform in a
 * child process (SimGrid loads one platform per process). */
#include <simgrid/engine.h>
#include <simgrid/host.h>
#include <simgrid/link.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>
#include <xbt/dynar.h>

/* Writes "host host latency bandwidth" for every ordered pair of hosts, sorted by name. */
static int by_name(const void *a, const void *b) {
  return strcmp(sg_host_get_name(*(const sg_host_t *)a), sg_host_get_name(*(const sg_host_t *)b));
}

static void dump(const char *platform, const char *out) {
  int argc = 1;
  char *argv[] = {"test_platform_routes", NULL};
  simgrid_init(&argc, argv);
  simgrid_load_platform(platform);
  sg_host_t *h = sg_host_list();
  size_t n = sg_host_count();
  qsort(h, n, sizeof *h, by_name);
  FILE *f = fopen(out, "w");
  if (!f)
    _exit(1);
  xbt_dynar_t links = xbt_dynar_new(sizeof(sg_link_t), NULL);
  for (size_t i = 0; i < n; i++)
    for (size_t j = 0; j < n; j++) {
      if (i == j)
        continue;
      fprintf(f, "%s %s %.17g %.17g", sg_host_get_name(h[i]), sg_host_get_name(h[j]),
              sg_host_get_route_latency(h[i], h[j]), sg_host_get_route_bandwidth(h[i], h[j]));
      xbt_dynar_reset(links);
      sg_host_get_route(h[i], h[j], links);
      unsigned k;
      sg_link_t l;
      xbt_dynar_foreach(links, k,
                        l) if (!(sg_link_get_name(l)[0] == 'g' && sg_link_get_latency(l) == 0))
          fprintf(f, " %s", sg_link_get_name(l));
      fputc('\n', f);
    }
  xbt_dynar_free(&links);
  _exit(fclose(f) != 0);
}

static int dump_in_child(const char *platform, const char *out) {
  pid_t pid = fork();
  if (pid == 0)
    dump(platform, out);
  int st;
  return pid > 0 && waitpid(pid, &st, 0) == pid && WIFEXITED(st) && WEXITSTATUS(st) == 0 ? 0 : -1;
}

int main(int argc, char **argv) {
  if (argc != 3) {
    printf("usage: test_platform_routes A.xml B.xml\n");
    return 2;
  }
  char a[] = "/tmp/nw-routes-a-XXXXXX", b[] = "/tmp/nw-routes-b-XXXXXX";
  int fa = mkstemp(a), fb = mkstemp(b);
  int ok = fa >= 0 && fb >= 0 && dump_in_child(argv[1], a) == 0 && dump_in_child(argv[2], b) == 0;
  long pairs = 0, differ = 0;
  if (ok) {
    FILE *x = fopen(a, "r"), *y = fopen(b, "r");
    char lx[1024], ly[1024];
    while (x && y && fgets(lx, sizeof lx, x)) {
      if (!fgets(ly, sizeof ly, y) || strcmp(lx, ly)) {
        if (differ++ < 3)
          printf("differ: %s   against %s", lx, ly);
      }
      pairs++;
    }
    if (!x || !y || (y && fgets(ly, sizeof ly, y)))
      differ++;
    if (x)
      fclose(x);
    if (y)
      fclose(y);
  }
  unlink(a);
  unlink(b);
  printf("platform_routes: %ld ordered host pairs, %ld differ\n", pairs, differ);
  int pass = ok && pairs > 0 && differ == 0;
  printf("platform_routes: %d passed, %d failed\n", pass, !pass);
  return pass ? 0 : 1;
}
