#!/usr/bin/env bash
# cache-same-results.sh OLD_NARWHAL [NEW_NARWHAL]: same-results.sh's cache set (EXPERIMENTS.md
# section 44), under the name that section gives it.
exec "$(dirname "$0")/same-results.sh" cache "$@"
