#!/usr/bin/env bash
# platform_crosstraffic.sh NARWHAL SRC_DIR: a platform file can turn SimGrid's cross-traffic off
# (gen-platform.sh --crosstraffic off writes <config><prop id="network/crosstraffic"
# value="0"/></config>; platforms/README.md, "Network model"):
#  - the run on that file is the run on the same platform without the line given
#    --cfg network/crosstraffic:0, to the last digit (the file's setting is applied);
#  - --cfg network/crosstraffic:1 on the command line wins over the file;
#  - on a workload whose transfers go both ways (matmul on 4 nodes), the run without
#    cross-traffic is faster (no backward flow takes 5% of a link from the other direction).
set -u
nw=$1 src=$2
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fail() { echo "platform_crosstraffic: $1"; echo "platform_crosstraffic: 0 passed, 1 failed"; exit 1; }
makespan() { "$nw" run --backend sim --n 512 --block 64 --seed 3 --json "$@" |
  grep -o '"makespan_s":[^,}]*' | sed 's/.*:[[:space:]]*//'; }
"$src/platforms/gen-platform.sh" --nodes 4 >"$tmp/on.xml" || fail "gen-platform failed"
"$src/platforms/gen-platform.sh" --nodes 4 --crosstraffic off >"$tmp/off.xml" ||
  fail "gen-platform --crosstraffic off failed"
grep -q 'network/crosstraffic' "$tmp/on.xml" && fail "the default platform sets crosstraffic"
on=$(makespan --platform "$tmp/on.xml") off=$(makespan --platform "$tmp/off.xml")
on_cfg_off=$(makespan --platform "$tmp/on.xml" --cfg network/crosstraffic:0)
off_cfg_on=$(makespan --platform "$tmp/off.xml" --cfg network/crosstraffic:1)
echo "makespans: file on $on, file off $off, file on + cfg off $on_cfg_off, file off + cfg on $off_cfg_on"
[ -n "$on" ] && [ -n "$off" ] || fail "a run failed"
[ "$off" = "$on_cfg_off" ] || fail "the file's setting is not the command line's"
[ "$off_cfg_on" = "$on" ] || fail "--cfg network/crosstraffic:1 does not win over the file"
awk -v a="$off" -v b="$on" 'BEGIN { exit !(a < b) }' || fail "no faster without cross-traffic"
echo "platform_crosstraffic: 1 passed, 0 failed"
