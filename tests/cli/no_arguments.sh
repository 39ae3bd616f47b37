#!/usr/bin/env bash
# no_arguments.sh NARWHAL: `narwhal` alone is a mistake: exit 2, the usage on stderr, nothing
# on stdout.
set -u
out=$("$1" 2>/tmp/nw-usage.$$)
code=$?
err=$(cat /tmp/nw-usage.$$)
rm -f /tmp/nw-usage.$$
fail() { echo "no_arguments: 0 passed, 1 failed: $*"; exit 1; }
[ "$code" = 2 ] || fail "exit $code, wanted 2"
[ -z "$out" ] || fail "stdout is not empty"
case $err in usage:*) ;; *) fail "stderr does not start with the usage" ;; esac
echo "no_arguments: 1 passed, 0 failed"
