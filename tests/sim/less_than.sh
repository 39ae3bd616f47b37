#!/usr/bin/env bash
# less_than.sh KEY NARWHAL COMMON_ARGS... -- A_ARGS... -- B_ARGS...: runs `NARWHAL run
# COMMON_ARGS A_ARGS --json` and the same with B_ARGS, and passes when KEY is strictly smaller
# in run A than in run B: an ordering between two configurations measured in the same test.
# With FACTOR=F in the environment, A must be more than F times smaller (A * F < B).
set -u
key=$1 nw=$2
shift 2
common=() a=() b=()
while [ $# -gt 0 ] && [ "$1" != "--" ]; do common+=("$1"); shift; done
shift
while [ $# -gt 0 ] && [ "$1" != "--" ]; do a+=("$1"); shift; done
shift
b=("$@")
val() { printf '%s' "$1" | tr -d '\n' | grep -oE "\"$key\":[[:space:]]*[^,}]*" | head -n1 | sed -E "s/\"$key\":[[:space:]]*//; s/[[:space:]]+$//"; }
out_a=$("$nw" run "${common[@]}" "${a[@]}" --json) || { echo "run A failed"; exit 1; }
out_b=$("$nw" run "${common[@]}" "${b[@]}" --json) || { echo "run B failed"; exit 1; }
va=$(val "$out_a") vb=$(val "$out_b")
echo "$key: A (${a[*]}) = $va; B (${b[*]}) = $vb; wanted A * ${FACTOR:-1} < B"
awk -v a="$va" -v b="$vb" -v f="${FACTOR:-1}" 'BEGIN { ok = (a != "" && b != "" && a * f < b + 0);
  print ok ? "less_than: 1 passed, 0 failed" : "less_than: 0 passed, 1 failed"; exit !ok }'
