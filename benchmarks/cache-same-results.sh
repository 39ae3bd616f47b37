#!/usr/bin/env bash
# cache-same-results.sh OLD_NARWHAL [NEW_NARWHAL]: same-results.sh's cache set
# (docs/experiments/sim-scale-gpu-cache.md), under the name that experiment gives it.
exec "$(dirname "$0")/same-results.sh" cache "$@"
