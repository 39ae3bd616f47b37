#!/usr/bin/env bash
# msg.sh [BUILD_DIR]: a control message's send-to-handle latency between two ranks of this
# machine through Narwhal's transport (the event loop sends, the peer's event loop gets it from
# its queue while polling MPI: backends/real/real_net.h) against an MPI ping-pong of the same
# size, interleaved, best of REPS (default 5); target: within 5x. Then the same with
# NARWHAL_SPIN_US=0, event loops that sleep at once and poll MPI on a back-off, which is what
# a message costs when the receiver's loop has gone to sleep.
set -euo pipefail
cd "$(dirname "$0")/.."
build=${1:-build}
reps=${REPS:-5}
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
export OMPI_MCA_btl_vader_single_copy_mechanism=none
for bytes in 8 64 1024; do
  mpirun -np 2 "$build/benchmarks/bench_msg" "$bytes" 2000 "$reps"
done
echo "-- event loops that never spin (NARWHAL_SPIN_US=0):"
NARWHAL_SPIN_US=0 mpirun -x NARWHAL_SPIN_US -np 2 "$build/benchmarks/bench_msg" 8 200 "$reps"
