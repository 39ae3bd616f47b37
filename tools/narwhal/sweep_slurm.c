/* sweep_slurm.c: see sweep_slurm.h. */
#define _XOPEN_SOURCE 700 /* realpath */
#include "sweep_slurm.h"

#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

/* Text for a shell word in single quotes. */
static void sh_quoted(FILE *f, const char *s) {
  fputc('\'', f);
  for (; *s; s++)
    fputs(*s == '\'' ? "'\\''" : (char[]){*s, 0}, f);
  fputc('\'', f);
}

/* The absolute path of a file that may not exist yet: its folder made absolute. */
static int absolute(const char *path, char *out, size_t len) {
  char dir[PATH_MAX], whole[PATH_MAX];
  snprintf(dir, sizeof dir, "%s", path);
  char *slash = strrchr(dir, '/');
  const char *name = slash ? slash + 1 : path;
  if (slash)
    *slash = '\0';
  if (!realpath(slash ? (dir[0] ? dir : "/") : ".", whole))
    return -1;
  return snprintf(out, len, "%s/%s", strcmp(whole, "/") ? whole : "", name) < (int)len ? 0 : -1;
}

static FILE *open_script(const char *dir, const char *name, char *path, size_t len) {
  snprintf(path, len, "%s/%s", dir, name);
  FILE *f = fopen(path, "w");
  if (f)
    fputs("#!/bin/sh\n# Written by `narwhal sweep --slurm`.\n", f);
  return f;
}

int sweep_slurm_write(const char *sweep_file, const char *csv, long points,
                      const sweep_slurm_plan *plan, char *why, size_t len) {
  char file[PATH_MAX], csv_abs[PATH_MAX], self[PATH_MAX], cwd[PATH_MAX];
  ssize_t n = readlink("/proc/self/exe", self, sizeof self - 1);
  if (n <= 0 || !realpath(sweep_file, file) || absolute(csv, csv_abs, sizeof csv_abs) != 0 ||
      !getcwd(cwd, sizeof cwd)) {
    snprintf(why, len, "--slurm: cannot make the paths absolute (the CSV's folder must exist)");
    return 2;
  }
  self[n] = '\0';
  long tasks = (points + plan->points_per_task - 1) / plan->points_per_task;
  char dir[PATH_MAX + 16], shards[PATH_MAX + 32], shard_csv[PATH_MAX + 64];
  size_t stem = strlen(csv_abs) > 4 && !strcmp(csv_abs + strlen(csv_abs) - 4, ".csv")
                    ? strlen(csv_abs) - 4
                    : strlen(csv_abs);
  snprintf(dir, sizeof dir, "%.*s.slurm", (int)stem, csv_abs);
  snprintf(shards, sizeof shards, "%s/shards", dir);
  const char *base = strrchr(csv_abs, '/') + 1;
  snprintf(shard_csv, sizeof shard_csv, "%s/%s", shards, base);
  if ((mkdir(dir, 0777) != 0 && errno != EEXIST) || (mkdir(shards, 0777) != 0 && errno != EEXIST)) {
    snprintf(why, len, "--slurm: cannot make %.300s: %s", shards, strerror(errno));
    return 1;
  }
  char path[3][PATH_MAX + 64];
  FILE *array = open_script(dir, "array.sbatch", path[0], sizeof path[0]);
  FILE *merge = open_script(dir, "merge.sbatch", path[1], sizeof path[1]);
  FILE *submit = open_script(dir, "submit.sh", path[2], sizeof path[2]);
  if (array) {
    fprintf(array,
            "#SBATCH --job-name=narwhal-sweep\n#SBATCH --array=0-%ld%%%ld\n"
            "#SBATCH --cpus-per-task=%d\n#SBATCH --ntasks=1\n#SBATCH --chdir=%s\n"
            "#SBATCH --output=%s/shard-%%a.out\n"
            "# Element K: shard K of %ld (points p with p mod %ld = K), resumed if requeued.\n"
            "exec ",
            tasks - 1, plan->array_max, plan->cores, cwd, dir, tasks, tasks);
    sh_quoted(array, self);
    fputs(" sweep ", array);
    sh_quoted(array, file);
    fputs(" --csv ", array);
    sh_quoted(array, shard_csv);
    fprintf(array,
            " --shard \"$SLURM_ARRAY_TASK_ID/%ld\" -j \"${SLURM_CPUS_PER_TASK:-%d}\" "
            "--resume\n",
            tasks, plan->cores);
  }
  if (merge) {
    fprintf(merge,
            "#SBATCH --job-name=narwhal-merge\n#SBATCH --ntasks=1\n#SBATCH --chdir=%s\n"
            "#SBATCH --output=%s/merge.out\nexec ",
            cwd, dir);
    sh_quoted(merge, self);
    fputs(" sweep ", merge);
    sh_quoted(merge, file);
    fputs(" --csv ", merge);
    sh_quoted(merge, csv_abs);
    fputs(" --merge ", merge);
    sh_quoted(merge, shards);
    fputs("\n", merge);
  }
  if (submit) {
    fputs("# The array, then the merge once every element has succeeded.\nset -e\narray=$(sbatch "
          "--parsable ",
          submit);
    sh_quoted(submit, path[0]);
    fputs(")\nmerge=$(sbatch --parsable --dependency=afterok:\"${array%%;*}\" ", submit);
    sh_quoted(submit, path[1]);
    fputs(")\necho \"submitted: array job $array, merge job $merge\"\n", submit);
  }
  int ok = array && merge && submit;
  ok &= (array ? fclose(array) : 0) == 0 && (merge ? fclose(merge) : 0) == 0 &&
        (submit ? fclose(submit) : 0) == 0;
  if (!ok) {
    snprintf(why, len, "--slurm: cannot write the scripts in %.300s", dir);
    return 1;
  }
  chmod(path[2], 0755);
  printf("wrote %s (%ld elements of up to %ld points, at most %ld at once, %d cores each), "
         "%s\nsubmit both: sh %s\n",
         path[0], tasks, plan->points_per_task, plan->array_max, plan->cores, path[1], path[2]);
  return 0;
}
