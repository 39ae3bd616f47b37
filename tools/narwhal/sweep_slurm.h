/* sweep_slurm.h: `narwhal sweep FILE --slurm`: a sweep as a Slurm job array (the conventional
 * way to run many independent points on a cluster: throttled, each element a chunk of points)
 * and a merge job after it. Writes, into STEM.slurm/ beside the sweep's CSV (STEM: the CSV
 * without .csv):
 *   array.sbatch  the array: element K runs `narwhal sweep FILE --shard K/T --resume` with its
 *                 cores (T elements of about P points each, at most M running at once), its
 *                 CSV in STEM.slurm/shards/;
 *   merge.sbatch  `narwhal sweep FILE --merge STEM.slurm/shards`: the sweep's CSV and plot;
 *   submit.sh     submits the array, then the merge to run after every element succeeded.
 * Every path in them is absolute and the jobs start in the directory the sweep was written
 * from, since a sweep file's paths are taken from there. */
#ifndef NW_TOOL_SWEEP_SLURM_H
#define NW_TOOL_SWEEP_SLURM_H

#include <stddef.h>

typedef struct sweep_slurm_plan {
  long points_per_task; /* --points-per-task P */
  long array_max;       /* --array-max M: elements running at once */
  int cores;            /* -j N: each element's cores (and points run at once) */
} sweep_slurm_plan;

/* Writes the three files and says how to submit them; 0, or 2 (a bad path) / 1 (cannot write)
 * with a one-line reason. */
int sweep_slurm_write(const char *sweep_file, const char *csv, long points,
                      const sweep_slurm_plan *plan, char *why, size_t len);

#endif
