#!/usr/bin/env bash
# expect_fail.sh TEXT COMMAND...: COMMAND must exit non-zero (not by timeout) and print
# exactly one line on stderr, containing TEXT.
set -u
text=$1
shift
err=$("$@" 2>&1 >/dev/null)
status=$?
echo "status $status; stderr:"
printf '%s\n' "$err"
if [ "$status" -eq 0 ] || [ "$status" -eq 124 ]; then
  echo "expect_fail: 0 passed, 1 failed (status $status)"
  exit 1
fi
if ! printf '%s\n' "$err" | grep -q -- "$text"; then
  echo "expect_fail: 0 passed, 1 failed (no '$text' in stderr)"
  exit 1
fi
if [ "$(printf '%s\n' "$err" | grep -c '^narwhal: ')" -ne 1 ]; then
  echo "expect_fail: 0 passed, 1 failed (want exactly one 'narwhal:' line)"
  exit 1
fi
echo "expect_fail: 1 passed, 0 failed"
