#!/usr/bin/env bash
# expect_json.sh KEY=REGEX [KEY=REGEX...] -- COMMAND...: runs COMMAND (which prints one JSON
# object), then checks each KEY's value against an extended regex. Prints what it found.
set -u
checks=()
while [ $# -gt 0 ] && [ "$1" != "--" ]; do checks+=("$1"); shift; done
shift
out=$("$@") || { echo "command failed (status $?): $*"; exit 1; }
fail=0
for c in "${checks[@]}"; do
  key=${c%%=*} want=${c#*=}
  got=$(printf '%s\n' "$out" | tr -d '\n' | grep -oE "\"$key\":[[:space:]]*[^,}]*" | head -n1 |
    sed -E "s/\"$key\":[[:space:]]*//; s/[[:space:]]+$//")
  if printf '%s' "$got" | grep -qE "^($want)\$"; then
    echo "ok: $key = $got"
  else
    echo "FAIL: $key = '$got', wanted /$want/"
    fail=1
  fi
done
[ $fail -eq 0 ] && echo "expect_json: 1 passed, 0 failed" || echo "expect_json: 0 passed, 1 failed"
exit $fail
