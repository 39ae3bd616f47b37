#!/usr/bin/env bash
# sweep_shards.sh NARWHAL: a sweep split into three shards (`--shard K/3`, each its own CSV),
# merged (`--merge FOLDER`), gives the CSV of the same sweep run whole, byte for byte; a merge
# with a shard missing, given twice, unfinished or of another sweep is refused with one line
# (exit 2), as are bad --shard values; `--slurm` writes an array of ceil(points / P) elements.
set -u
nw=$1
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
cd "$tmp" || exit 1
passed=0 failed=0
ok() { echo "sweep_shards: ok: $*"; passed=$((passed + 1)); }
bad() { echo "sweep_shards: FAIL: $*"; failed=$((failed + 1)); }
cat >s.json <<'JSON'
{"title": "shards", "base": {"app": "matmul", "platform": "small.xml", "n": 256, "block": 64},
 "vary": {"sched": ["unicorn", "eager", "dmda", "ws", "random"], "nodes": [1, 2]},
 "csv": "out/s.csv", "columns": ["cache_hits"]}
JSON
"$nw" sweep s.json --csv whole.csv -j 2 --plot off >/dev/null 2>&1 || bad "the whole sweep exited $?"
for k in 0 1 2; do
  "$nw" sweep s.json --shard $k/3 -j 2 >shard$k.out 2>&1 || bad "shard $k exited $?"
done
rows=$(cat out/s.shard-*-of-3.csv | grep -vc '^sched,')
[ "$rows" = 10 ] && ok "three shards hold the 10 points once each" || bad "the shards hold $rows rows"
"$nw" sweep s.json --merge out --csv merged.csv --plot off >merge.out 2>&1 || bad "the merge exited $?"
cmp -s whole.csv merged.csv && ok "merged CSV = the whole sweep's" || { diff whole.csv merged.csv; bad "merged CSV differs"; }

refused() { # refused WHAT PATTERN ARGS...: exit 2 and one line matching PATTERN
  local what=$1 pattern=$2 out code
  shift 2
  out=$("$nw" sweep "$@" 2>&1)
  code=$?
  if [ $code = 2 ] && [ "$(grep -c . <<<"$out")" = 1 ] && grep -qE -- "$pattern" <<<"$out"; then
    ok "$what refused: $out"
  else
    bad "$what: exit $code: $out"
  fi
}
refused "a missing shard" "shard 2 of 3 is missing" s.json --merge out/s.shard-0-of-3.csv out/s.shard-1-of-3.csv --csv m.csv
mkdir again && cp out/s.shard-1-of-3.csv* again/
refused "a shard given twice" "shard 1 of 3 given twice" s.json --merge out again --csv m.csv
sed -i '$d' again/s.shard-1-of-3.csv
refused "an unfinished shard" "2 of the shard's 3 points" s.json --merge again out/s.shard-0-of-3.csv out/s.shard-2-of-3.csv --csv m.csv
sed 's/"n": 256/"n": 512/' s.json >other.json
refused "a shard of another sweep" "a shard of another sweep" other.json --merge out --csv m.csv
refused "--shard 3/3" "--shard '3/3'" s.json --shard 3/3
refused "--shard x" "--shard 'x'" s.json --shard x
refused "--merge with --shard" "go alone" s.json --shard 0/2 --merge out

"$nw" sweep s.json --slurm --points-per-task 4 --array-max 2 >slurm.out 2>&1 || bad "--slurm exited $?"
grep -q '^#SBATCH --array=0-2%2$' out/s.slurm/array.sbatch &&
  grep -q -- '--merge' out/s.slurm/merge.sbatch && [ -x out/s.slurm/submit.sh ] &&
  ok "--slurm wrote an array of 3 elements (10 points, 4 each), at most 2 at once, and its merge" ||
  bad "--slurm: $(cat slurm.out; head -5 out/s.slurm/array.sbatch 2>/dev/null)"
echo "sweep_shards: $passed passed, $failed failed"
[ "$failed" = 0 ]
