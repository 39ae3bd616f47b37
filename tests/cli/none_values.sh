#!/usr/bin/env bash
# none_values.sh NARWHAL SRC_DIR: the options whose usage shows "[default: none]" for "not given"
# (--slow, --fail, --fault) take `none` as that: the run is the run without the option, to the
# last digit of its makespan, and a sweep may vary them over "none" and a value.
set -u
nw=$1 src=$2
fail() { echo "none_values: $1"; echo "none_values: 0 passed, 1 failed"; exit 1; }
makespan() { "$nw" run --backend sim --platform "$src/platforms/small.xml" --nodes 2 --n 256 \
  --block 32 --json "$@" | grep -o '"makespan_s":[^,}]*' | sed 's/.*:[[:space:]]*//'; }
plain=$(makespan) || fail "the plain run failed"
for opt in slow fail fault; do
  got=$(makespan --"$opt" none) || fail "--$opt none was refused"
  echo "--$opt none: $got; without: $plain"
  [ "$got" = "$plain" ] || fail "--$opt none is not the run without --$opt"
done
slowed=$(makespan --slow 1:4) || fail "--slow 1:4 failed"
[ "$slowed" != "$plain" ] || fail "--slow 1:4 changed nothing: the check cannot tell"
echo "none_values: 1 passed, 0 failed"
