#!/usr/bin/env bash
# space_pages_faults.sh MPIRUN_SH MPIEXEC NARWHAL: the pages of a node's copy of a space that
# the core counts as written first by a handler (space_pages_fresh; core/data/touched.h) are the
# ones whose page faults that handler takes, event by event, so a calibration can price them
# (rt_KIND_per_space_page). fft2d 4096/256 on two ranks, their events' costs logged
# (NARWHAL_EVENT_COSTS: SPACE_PAGES and FAULTS per event): every commit (exec_done) without
# new view pages takes as many faults as it counts pages, give or take 16. The copy must start
# a page (core/data/space.c, calloc_pages): from calloc's block, 16 bytes into one, a column
# block's commit faulted in the 16 bytes of the next block's pages, which then counted 4096
# pages and faulted none.
set -u
mpirun_sh=$1 mpiexec=$2 nw=$3
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
NARWHAL_EVENT_COSTS=$tmp/log "$mpirun_sh" "$mpiexec" 2 -x NARWHAL_EVENT_COSTS \
  "$nw" run --backend real --app fft2d --n 4096 --block 256 --cpu-devices 1 --calibrate on \
  --perfmodel "$tmp/m.json" --no-verify --json >"$tmp/out.json" </dev/null ||
  { echo "space_pages_faults: the run failed"; exit 1; }
# KIND BYTES RUNS SECONDS GATHERED VIEW_PAGES SPACE_PAGES FAULTS START WALL
awk '!/^#/ && $1 == "exec_done" && $6 == 0 {
       n++; pages += $7; d = $8 - $7; if (d < -16 || d > 16) off++
     }
     END {
       printf "space_pages_faults: %d commits without new view pages counted %d pages; %d of them faulted more than 16 pages more or fewer\n", n, pages, off
       exit !(n >= 16 && pages >= 16 * 2048 && off == 0)
     }' "$tmp/log.0" "$tmp/log.1"
