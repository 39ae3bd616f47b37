#!/usr/bin/env bash
# bytes_placed.sh NARWHAL PLATFORM: the placement counters (core/data/space.c, nw_space_give):
# matmul 512/128 on 4 nodes, functional and verified. Spread in 128 x 128 blocks, every block
# placed off node 0 is one message of 64 KiB; spread in rows of blocks, one of 256 KiB; with
# everything on node 0 nothing is placed. In each, what the network carried less the placement
# is what the nodes served in answer to fetches (matmul sends no partial results). conv2d's
# image in byte channels places a quarter of its float image's bytes, block for block.
set -u
nw=$1 platform=$2
fail=0
# shellcheck source=../lib/json_field.sh
. "$(dirname "$0")/../lib/json_field.sh"
check() { # BYTES_PER_MESSAGE MIN_MESSAGES MAX_MESSAGES OPTION...
  local each=$1 lo=$2 hi=$3 o
  shift 3
  o=$("$nw" run --app matmul --backend sim --platform "$platform" --nodes 4 --n 512 --block 128 \
    --data functional --verify --json "$@") || { echo "FAIL: $*: the run failed"; fail=1; return; }
  local b m net srv v
  b=$(field "$o" bytes_placed) m=$(field "$o" messages_placed)
  net=$(field "$o" bytes_network) srv=$(field "$o" bytes_served)
  v=$(printf '%s' "$o" | grep -oE '"verified":[[:space:]]*[a-z]+' | grep -oE '[a-z]+$')
  if [ -n "$b" ] && [ -n "$m" ] && [ "$m" -ge "$lo" ] && [ "$m" -le "$hi" ] &&
    [ "$b" -eq $((m * each)) ] && [ $((net - b)) -eq "$srv" ] && [ "$v" = true ]; then
    echo "ok: $*: $m placement messages, $b bytes; network $net less them = served $srv"
  else
    echo "FAIL: $*: messages_placed '$m' (in [$lo, $hi]), bytes_placed '$b' (= $each each)," \
      "bytes_network '$net' less it against bytes_served '$srv', verified '$v'"
    fail=1
  fi
}
check 65536 1 32 # 32 blocks of A and B, some of them drawn for node 0
check 262144 1 8 --placement rows
check 0 0 0 --placement node0
# conv2d's image of 3 channels placed in 32 x 32 blocks: the same blocks, a quarter of the bytes
# with byte channels (3 bytes a pixel against 12).
conv() { "$nw" run --app conv2d --backend sim --platform "$platform" --nodes 4 --n 256 --block 32 \
  --data phantom --app-param channels=3 --json "$@"; }
of=$(conv) ob=$(conv --app-param channel_bytes=1)
bf=$(field "$of" bytes_placed) bb=$(field "$ob" bytes_placed)
mf=$(field "$of" messages_placed) mb=$(field "$ob" messages_placed)
if [ -n "$bb" ] && [ "$bb" -gt 0 ] && [ "$bf" -eq $((4 * bb)) ] && [ "$mf" = "$mb" ] &&
  [ "$bb" -eq $((mb * 32 * 32 * 3)) ]; then
  echo "ok: conv2d: $mb blocks placed, $bf bytes as floats, $bb as bytes"
else
  echo "FAIL: conv2d: bytes_placed '$bf' (floats) against 4 x '$bb' (bytes), messages '$mf' and '$mb'"
  fail=1
fi
[ $fail -eq 0 ] && echo "bytes_placed: 1 passed, 0 failed" || echo "bytes_placed: 0 passed, 1 failed"
exit $fail
