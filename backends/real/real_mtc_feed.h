/* real_mtc_feed.h: `--gpu-mode many-task` on a CUDA GPU: the runtime's subtasks fed to the
 * resident worker kernel (real_mtc.h) in bundles.
 *
 * GeMTC's host side (Krieder, Wozniak, Armstrong, Wilde, Katz, Grimmer, Foster, Raicu, "GeMTC:
 * GPU-enabled Many-Task Computing", section 3): the GPU's lanes hand over the subtasks whose
 * data the runtime has staged (core/device/mtc_queue.h, as in the simulator); one feeder thread
 * takes up to `bundle` of them, describes each as a worker-kernel operation (the kind's
 * mtc_task, narwhal_mtc.h), sends them with one copy of the bundle and one of the queue's new
 * tail, and posts NW_EVENT_EXEC_DONE for each result it reads back. It waits at most
 * REAL_MTC_FLUSH_S after the first queued subtask for a full bundle (GeMTC's buffer "flushes it
 * periodically or when it is full"; the simulator's mtc_flush). Between bundles it polls the
 * result ring, which lives in mapped host memory, while anything is outstanding.
 */
#ifndef NW_REAL_MTC_FEED_H
#define NW_REAL_MTC_FEED_H

#include <stddef.h>
#include <stdint.h>

#include "backend.h"
#include "real_queue.h"

/* Two bundles' cost on an H100 (docs/experiments/h100.md: a bundle of one costs ~10 us). */
#define REAL_MTC_FLUSH_S 20e-6

typedef struct real_mtc_feed real_mtc_feed;

/* Starts the worker kernel on `device` (current on the calling thread) and the feeder: `lanes`
 * subtasks in at most at a time, bundles of at most `bundle`, the kernel sized for `share`
 * ranks on the GPU (real_mtc_open), views based at `memory` (the GPU's arena). NULL with a
 * reason in why. */
real_mtc_feed *real_mtc_feed_open(int device, int lanes, int bundle, int share,
                                  unsigned char *memory, real_queue *q, char *why, size_t why_len);
/* A lane's subtask, its data on the GPU: queued for the next bundle. */
void real_mtc_feed_push(real_mtc_feed *f, nw_exec *e);
/* Bundles sent, the subtasks they carried, the largest. */
void real_mtc_feed_stats(const real_mtc_feed *f, uint64_t *bundles, uint64_t *subtasks,
                         uint64_t *largest);
/* Stops the feeder once everything queued has finished, then the worker kernel. */
void real_mtc_feed_close(real_mtc_feed *f);

#endif
