#!/usr/bin/env bash
# trace_check.sh CHECKER -- COMMAND...: runs COMMAND (a `narwhal run ... --json`, possibly under
# mpirun) with --trace into a temporary file, and checks the trace against the run's --json
# with CHECKER (test_trace_check.c: valid Chrome trace JSON, busy times within 1%; with
# --trace-format paje in COMMAND, test_paje_check.c: a valid Paje file, the same times).
set -u
check=$1
shift 2
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
"$@" --trace "$tmp/trace" >"$tmp/run.json" || { echo "trace_check: the run failed"; exit 1; }
"$check" "$tmp/trace" "$tmp/run.json"
