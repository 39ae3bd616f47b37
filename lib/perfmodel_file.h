/* perfmodel_file.h: performance models (core/sched/perfmodel.h) saved to and loaded from a
 * JSON file, so that a run starts calibrated from what earlier runs measured (StarPU saves
 * its history the same way: Augonnet, Thibault, Namyst, "StarPU: a Runtime System for
 * Scheduling Tasks over Accelerator-Based Multicore Machines", RR-7240, section 6.1).
 *
 * The format, version 1:
 *
 *   {
 *     "narwhal-perfmodel": 1,
 *     "platform": "platforms/cluster.xml",
 *     "models": [
 *       {
 *         "kind": "matmul",
 *         "arch": "cpu4",
 *         "history": [
 *           {"footprint": "9ae16a3b2f90404f", "size": 1048576, "count": 12,
 *            "mean": 0.0123, "stddev": 0.0004, "flops": 268435456}
 *         ],
 *         "linear": {"a": 1.2e-9, "b": 1.02, "c": 0, "min_size": 4096,
 *                    "max_size": 1048576, "samples": 120},
 *         "nonlinear": {"a": 1.1e-9, "b": 1.03, "c": 2e-5, ...}
 *       }
 *     ]
 *   }
 *
 * "narwhal-perfmodel" is the format version. "platform" names what the samples were measured
 * on (the simulator's platform file, or "real:<hostname>"): durations from another machine
 * would mislead the scheduler, so a load that expects a platform refuses any other. Optional
 * "machine": "real:<hostname>" where the samples were measured on hardware for that platform
 * (`narwhal calibrate` writes both: the platform file it made and the machine it measured), so
 * that one file serves the simulator of that platform and real runs on that machine alike. One
 * "models" item per (task kind, arch) (perfmodel.h), each kind/arch pair at most once; its
 * history entries (footprints unique within it):
 *   footprint  16 hex digits, as a string: JSON numbers are doubles and cannot hold every
 *              64-bit value;
 *   size       the subtask's data bytes, a whole number (at most 2^53);
 *   count      samples, a whole number from 1 (at most 2^53);
 *   mean       seconds, finite, >= 0;
 *   stddev     population standard deviation in seconds, finite, >= 0, and no more than
 *              count non-negative durations of that mean can have: mean * sqrt(count - 1);
 *   flops      optional: the kind's cost-model flops for a subtask of this footprint, finite,
 *              >= 0 (absent or 0: not known; files written before it existed have none). A
 *              table whose entries all have it fits its regressions over flops.
 * "linear" and "nonlinear" are the table's fitted regressions, written (when fitted) for
 * people to read, with "x" saying whether they run over "flops" or "size"; a load ignores them
 * and refits from the history. No other keys.
 */
#ifndef NW_TOOL_PERFMODEL_FILE_H
#define NW_TOOL_PERFMODEL_FILE_H

#include <stddef.h>

#include "perfmodel.h"

/* What a file says it was measured on (the format's "platform" and "machine"; machine "" when
 * it has none). */
typedef struct nw_perfmodel_labels {
  char platform[1100];
  char machine[320];
} nw_perfmodel_labels;

/* Writes m to path, stating `platform`: first to PATH.tmp, which then replaces path (rename),
 * so that a crash leaves the old file or the new one, never half of one. NW_ERR_ARG with one
 * line in why naming the file when it cannot be written (or platform is NULL, or an entry's
 * size or count is above 2^53); NW_ERR_NOMEM. */
nw_status nw_perfmodel_save(const nw_perfmodel *m, const char *path, const char *platform,
                            char *why, size_t why_len);

/* The same, stating both labels (labels->machine may be ""). */
nw_status nw_perfmodel_save_labelled(const nw_perfmodel *m, const char *path,
                                     const nw_perfmodel_labels *labels, char *why, size_t why_len);

/* Adds the samples of the file at path to m (nw_perfmodel_merge; m is usually empty). When
 * platform is not NULL the file must have been measured on that platform: its "platform" or its
 * "machine" is that string. A file that is
 * unreadable, not JSON, of another version, or breaks any rule of the format above is
 * refused: NW_ERR_ARG with one line in why naming the file, and the entry and field at fault;
 * NW_ERR_NOMEM. Nothing of a refused file is kept: m is unchanged on error. */
nw_status nw_perfmodel_load(nw_perfmodel *m, const char *path, const char *platform, char *why,
                            size_t why_len);
/* The same, also giving the file's labels in *found (when not NULL). */
nw_status nw_perfmodel_load_labelled(nw_perfmodel *m, const char *path, const char *platform,
                                     nw_perfmodel_labels *found, char *why, size_t why_len);

#endif
