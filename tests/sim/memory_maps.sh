#!/usr/bin/env bash
# memory_maps.sh NARWHAL SRC_DIR: a run with more simulated actors than the system's memory maps
# allow with SimGrid's stack guards (a many-task GPU's 168 workers and 168 lanes on each of 120
# nodes, about 41,000 actors at two maps each against vm.max_map_count's default 65,530) is
# refused with one line naming vm.max_map_count and the way out, exit 2, nothing on stdout;
# without the check SimGrid aborts with a backtrace. Skipped (exit 77) where the limit is
# raised so far that the run would fit.
set -u
nw=$1 src=$2
limit=$(cat /proc/sys/vm/max_map_count 2>/dev/null || echo 0)
if [ "$limit" -le 0 ] || [ "$limit" -gt 80000 ]; then
  echo "memory_maps: skipped (vm.max_map_count $limit)"
  exit 77
fi
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
"$src/platforms/gen-platform.sh" --nodes 120 --cores 8 --gpus 1 --gpu-speed 3950Gf \
  --gpu-prop mtc_workers=168 >"$tmp/p.xml" || { echo "memory_maps: 0 passed, 1 failed: gen-platform"; exit 1; }
ulimit -v 8000000
out=$("$nw" run --app adder --backend sim --platform "$tmp/p.xml" --n 20160 --block 1 \
  --app-param flops=1000000 --data phantom --devices gpu --gpu-mode many-task --gpu-streams 168 \
  --json 2>"$tmp/err")
rc=$? err=$(cat "$tmp/err")
echo "exit $rc: $err" | cut -c1-400
if [ $rc != 2 ] || [ -n "$out" ] || [ "$(printf '%s\n' "$err" | wc -l)" != 1 ] ||
  [[ $err != *"vm.max_map_count"* ]] || [[ $err != *"contexts/guard-size:0"* ]]; then
  echo "memory_maps: 0 passed, 1 failed"
  exit 1
fi
echo "memory_maps: 1 passed, 0 failed"
