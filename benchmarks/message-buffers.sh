#!/usr/bin/env bash
# message-buffers.sh [BUILD_DIR]: a message between two ranks of this machine, its buffers fresh
# from the allocator (as the real backend's first messages of a size are) against buffers used
# before, one way and both ways at once, interleaved, best of ROUNDS (default 7)
# (docs/experiments/message-buffers.md). The simulator prices the difference as rt_page_fresh a
# page of each fresh buffer (backends/simgrid/sim_msg_pages.h).
set -euo pipefail
cd "$(dirname "$0")/.."
build=${1:-build}
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
mpirun -np 2 "$build/benchmarks/bench_fresh_buffers" "${ROUNDS:-7}"
