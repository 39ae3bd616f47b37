#!/usr/bin/env bash
# config_override.sh NARWHAL: a JSON run file sets keys, the command line overrides some of
# them whatever their order; --dry-run prints the resolved configuration.
set -u
nw=$1
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
printf '{"nodes": 2, "n": 512, "block": 64, "data": "phantom", "pipeline": "off", "prefetch-priority": "same"}\n' >"$tmp/run.json"
out=$("$nw" run --nodes 3 --config "$tmp/run.json" --block 128 --dry-run) || { echo "status $?"; exit 1; }
echo "$out"
flat=$(printf '%s' "$out" | tr -d ' \t\n')
ok=1
for want in '"nodes":3' '"n":512' '"block":128' '"data":"phantom"' '"pipeline":"off"' '"verify":false' \
  '"prefetch-priority":"same"'; do
  case $flat in *"$want"*) ;; *) echo "missing $want"; ok=0 ;; esac
done
[ $ok -eq 1 ] && echo "config_override: 1 passed, 0 failed" || { echo "config_override: 0 passed, 1 failed"; exit 1; }
