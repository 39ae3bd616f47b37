#!/usr/bin/env bash
# fresh_message_pages.sh NARWHAL SRC_DIR: a message's buffers, the sender's and the receiver's,
# first touch the pages the C library hands them fresh (backends/simgrid/sim_msg_pages.h), and a
# calibrated platform charges them at rt_page_fresh a page (matmul 1024/512, two nodes, 10 GB/s,
# 1 ms a page so that nothing else hides them):
# 1. The run's first message (a 1 MiB block placed on node 1) spans exactly the pages of two
#    mapped buffers, at 1 ms each, longer than without the price; its sender's loop spends them
#    before the message leaves, its receiver's before it handles it.
# 2. The third placed block, of the same size, spans as long as without the price: the heap
#    kept the pages of the buffers freed before it.
# 3. Priced by their size on the wire, messages cost alike with bytes and without (--data).
# 4. One node sends no message to another: its makespan does not change with the price.
set -u
nw=$1 src=$2
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
passed=0
fail() { echo "fresh_message_pages: $passed passed, 1 failed: $*"; exit 1; }
gen=$src/platforms/gen-platform.sh
# shellcheck source=../lib/json_field.sh
. "$(dirname "$0")/../lib/json_field.sh"
net=(--nic-bw 10GBps --backbone-bw 10GBps --cores 1)
"$gen" --nodes 2 "${net[@]}" >"$tmp/plain.xml"
"$gen" --nodes 2 "${net[@]}" --cpu-prop rt_page_fresh=1e-3 >"$tmp/priced.xml"
"$gen" --nodes 1 "${net[@]}" >"$tmp/one.xml"
"$gen" --nodes 1 "${net[@]}" --cpu-prop rt_page_fresh=1e-3 >"$tmp/one-priced.xml"
mm=(run --backend sim --app matmul --n 1024 --block 512 --json)

# The spans (us) of the messages between nodes, in the order sent, and the first one's bytes.
spans() {
  python3 - "$1" <<'EOF'
import json, sys
d = json.load(open(sys.argv[1]))
ev = d['traceEvents'] if isinstance(d, dict) else d
ms = sorted((e for e in ev if e.get('ph') == 'X' and e.get('cat') == 'message'
             and e['args'].get('from') != e['pid']), key=lambda e: (e['ts'], e['pid']))
print(ms[0]['args']['bytes'], ' '.join('%s:%.3f' % (m['name'].replace(' ', '_'), m['dur'])
                                       for m in ms[:8]))
EOF
}
for p in plain priced; do
  "$nw" "${mm[@]}" --platform "$tmp/$p.xml" --data functional --trace "$tmp/$p.json" \
    >"$tmp/$p.out" || fail "matmul on the $p platform"
  spans "$tmp/$p.json" >"$tmp/$p.spans" || fail "reading the $p trace"
done
read -r bytes a0 a1 a2 a3 a4 _ <"$tmp/plain.spans"
read -r _ b0 b1 b2 b3 b4 _ <"$tmp/priced.spans"
echo "first messages, without the price: $a0 $a1 $a2 $a3 $a4; at 1 ms a page: $b0 $b1 $b2 $b3 $b4"
[[ $a0 == place:* && $b0 == place:* && $a4 == place:* && $b4 == place:* ]] ||
  fail "the run did not start by placing blocks"
# The trace counts an 8-byte stamp the wire does not carry; a chunk is the bytes and a size
# word in 16-byte units, mapped with another size word in whole pages.
pages=$(((((bytes - 8 + 8 + 15) / 16 * 16 + 8) + 4095) / 4096))
awk -v a="${a0#place:}" -v b="${b0#place:}" -v p="$pages" \
  'BEGIN { exit !(b - a > 2 * p * 1000 - 1 && b - a < 2 * p * 1000 + 1) }' ||
  fail "the first message ($bytes bytes) spans ${b0#place:} us, not ${a0#place:} + 2 x $pages ms"
passed=1
[ "${a4#place:}" = "${b4#place:}" ] ||
  fail "the third placed block spans ${b4#place:} us at 1 ms a page, ${a4#place:} without"
passed=2

f=$(field "$(cat "$tmp/priced.out")" makespan_s)
p=$("$nw" "${mm[@]}" --platform "$tmp/priced.xml" --data phantom) || fail "matmul, phantom"
echo "at 1 ms a page: $f s with bytes, $(field "$p" makespan_s) s without"
[ "$f" = "$(field "$p" makespan_s)" ] || fail "bytes or not, the makespans differ"
passed=3

o=$("$nw" "${mm[@]}" --platform "$tmp/one.xml") || fail "one node"
q=$("$nw" "${mm[@]}" --platform "$tmp/one-priced.xml") || fail "one node, priced"
[ "$(field "$o" makespan_s)" = "$(field "$q" makespan_s)" ] ||
  fail "one node: $(field "$o" makespan_s) s without the price, $(field "$q" makespan_s) s with it"
passed=4
echo "fresh_message_pages: $passed passed, 0 failed"
