#!/usr/bin/env bash
# validate.sh NARWHAL: `narwhal validate` (tools/narwhal/validate.h).
# 1. Bad validation files are refused with one line naming the file, exit 2.
# 2. A two-configuration file (calibrated on matmul 256/64, its anchor, run on matmul 384/96
#    under two policies, one round) prints the table, the summary lines (with and without the
#    anchors) and a group line, and writes the CSV with a row per configuration and errors that
#    agree with its own columns, an anchored simulation no faster than the plain one where the
#    machine was slower than at calibration and no slower where it was faster, and (with
#    gnuplot) its figure.
# 3. A configuration that runs a footprint its calibration measured is refused (exit 2), naming
#    it: it is not held out.
set -u
nw=$1
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
export OMPI_MCA_btl_vader_single_copy_mechanism=none
passed=0
fail() { echo "validate: $passed passed, 1 failed: $*"; exit 1; }

cal='"calibrations": [{"name": "c", "ranks": 1, "mpirun": ["--bind-to", "none"], "workloads": ["matmul:256:64"], "runs": 1}]'
conf() { printf '{"name": "%s", "calibration": "c", "group": "g", "args": ["--app", "matmul", "--n", "%s", "--block", "%s", "--sched", "%s"]}' "$@"; }
bad=(
  "[1]|expected a JSON object"
  '{"rounds": 1}|"narwhal-validate": 1 (the format version) is missing'
  '{"narwhal-validate": 1, "rounds": 0, '"$cal"', "configurations": []}|'"'rounds' must be a whole number from 1 to 100"
  '{"narwhal-validate": 1, '"$cal"', "configurations": []}|'"'configurations' must be a list of at least one configuration"
  '{"narwhal-validate": 1, '"$cal"', "configurations": ['"$(conf a 384 96 dmda)"'], "extra": 1}|'"unknown key 'extra'"
  '{"narwhal-validate": 1, '"$cal"', "configurations": [{"name": "a", "calibration": "nope", "args": ["--app", "matmul"]}]}|'"configuration 'a': no calibration named 'nope'"
  '{"narwhal-validate": 1, '"$cal"', "configurations": [{"name": "a", "calibration": "c", "args": ["--app", "matmul", "--nodes", "2"]}]}|'"configuration 'a': args may not set --nodes"
  '{"narwhal-validate": 1, '"$cal"', "configurations": ['"$(conf a 384 96 dmda)"', '"$(conf a 384 96 eager)"']}|'"two configurations are named 'a'"
  '{"narwhal-validate": 1, "calibrations": [{"name": "c", "ranks": 1, "workloads": ["matmul:256"]}], "configurations": ['"$(conf a 384 96 dmda)"']}|'"calibration 'c': workload 'matmul:256' is not APP:N:BLOCK"
  '{"narwhal-validate": 1, "calibrations": [{"name": "c", "ranks": 0, "workloads": ["matmul:256:64"]}], "configurations": ['"$(conf a 384 96 dmda)"']}|'"calibration 'c': 'ranks' must be a whole number from 1 to 64"
  '{"narwhal-validate": 1, "calibrations": [{"name": "c", "ranks": 1, "workloads": ["matmul:256:64"], "args": ["--runs=2"]}], "configurations": ['"$(conf a 384 96 dmda)"']}|'"calibration 'c': 'args' may not hold --runs (validate sets it)"
  '{"narwhal-validate": 1, "calibrations": [{"name": "c", "ranks": 1, "workloads": ["matmul:256:64"], "args": "--devices"}], "configurations": ['"$(conf a 384 96 dmda)"']}|'"calibration 'c': 'args' must be a list of at most 48 strings"
  '{"narwhal-validate": 1, "calibrations": [{"name": "c", "ranks": 1, "workloads": ["matmul:256:64"], "anchor": "matmul:512:64"}], "configurations": ['"$(conf a 384 96 dmda)"']}|'"calibration 'c': anchor 'matmul:512:64' is not one of its workloads"
)
for i in "${!bad[@]}"; do
  text=${bad[$i]%%|*} want=${bad[$i]#*|}
  printf '%s\n' "$text" >"$tmp/bad$i.json"
  "$nw" validate "$tmp/bad$i.json" --out "$tmp/out" >/dev/null 2>"$tmp/err"
  code=$?
  [ "$code" = 2 ] || fail "bad file $i: exit $code, wanted 2"
  [ "$(grep -c . "$tmp/err")" = 1 ] && grep -qF "$tmp/bad$i.json: $want" "$tmp/err" ||
    fail "bad file $i: said '$(cat "$tmp/err")', wanted one line with '$want'"
done
passed=$((passed + 1))

anchored='"calibrations": [{"name": "c", "ranks": 1, "mpirun": ["--bind-to", "none"], "workloads": ["matmul:256:64"], "runs": 1, "anchor": "matmul:256:64"}]'
printf '{"narwhal-validate": 1, "rounds": 2, %s, "configurations": [%s, %s]}\n' "$anchored" \
  "$(conf "mm dmda" 384 96 dmda)" "$(conf "mm eager" 384 96 eager)" >"$tmp/two.json"
"$nw" validate "$tmp/two.json" --out "$tmp/out" >"$tmp/log" 2>&1 || fail "two configurations: $(tail -3 "$tmp/log")"
cat "$tmp/log"
grep -qE '^configuration +group +real_s +spread +simulated_s +error +uncal +kernels +anchor +unanch +wall$' "$tmp/log" ||
  fail "no table header"
[ "$(grep -cE '^mm (dmda|eager) +g +[0-9.]+ +[0-9.]+% +[0-9.]+ +[-+][0-9.]+% +0 +[-+][0-9.]+% +[-+][0-9.]+% +[-+][0-9.]+% +[-+][0-9.]+%$' "$tmp/log")" = 2 ] ||
  fail "not two table rows, each timed by the model, its kernels compared with it, anchored, their wall time beyond their CPU time"
grep -qE "^kernels of the best real rounds against the calibration's model, over 2 configurations: median [-+][0-9.]+%, median \|difference\| [0-9.]+%, max [0-9.]+%$" "$tmp/log" ||
  fail "no kernels line"
grep -qE '^\|error\| over 2 configurations: median [0-9.]+%, p95 [0-9.]+%, max [0-9.]+%; within max\(12%, own spread\): [0-2] of 2$' "$tmp/log" ||
  fail "no summary line"
grep -qE '^anchor of c \(matmul:256:64\): 4 runs, kernels against the model: median [-+][0-9.]+%$' "$tmp/log" ||
  fail "no anchor line (one anchor before each of the four real runs)"
grep -qE '^\|error\| without the anchors \(2 configurations had one\): median [0-9.]+%, p95 [0-9.]+%, max [0-9.]+%; within max\(12%, own spread\): [0-2] of 2$' "$tmp/log" ||
  fail "no summary line without the anchors"
grep -qE "^group g: 2 configurations, Kendall's tau -?[0-9.]+, winner " "$tmp/log" || fail "no group line"
grep -qE '^pairs the hardware tells apart: ' "$tmp/log" || fail "no pairs line"
grep -qx 'ranks of one host: large messages copied through shared-memory buffers (OMPI_MCA_btl_vader_single_copy_mechanism=none)' "$tmp/log" ||
  fail "no line on how ranks of one host moved large messages (this script sets none)"
csv=$tmp/out/validation.csv
[ "$(wc -l <"$csv")" = 3 ] || fail "the CSV has not a header and 2 rows"
awk -F, 'NR > 1 { e = ($5 - $3) / $3; d = e - $6; if (d > 1e-5 || d < -1e-5) bad = 1 }
  END { exit bad }' "$csv" || fail "a CSV row's error is not (simulated - real) / real"
# The kernels of the best round against the model calibrated minutes before on this machine:
# within a factor of 10 either way (a sum over the wrong subtasks, or seconds against
# nanoseconds, would not be).
awk -F, 'NR == 1 && $8 != "kernels" { bad = 1 } NR > 1 && !($8 > -0.9 && $8 < 9) { bad = 1 }
  END { exit bad }' "$csv" || fail "the CSV's kernels column: $(cut -d, -f8 "$csv" | tr '\n' ' ')"
# The anchor: the machine's kernels over the model's, less one (within a factor of 10), the
# same for both (one median per calibration), and the simulated time it gives against the plain
# one: longer where the machine was slower, shorter where faster.
awk -F, 'NR == 1 && ($9 != "anchor" || $10 != "simulated_unanchored_s" || $11 != "error_unanchored") { bad = 1 }
  NR > 1 { if (!($9 > -0.9 && $9 < 9)) bad = 1
    if (($9 > 0 && $5 <= $10) || ($9 < 0 && $5 >= $10)) bad = 1
    d = ($10 - $3) / $3 - $11; if (d > 1e-5 || d < -1e-5) bad = 1
    if (NR == 2) a = $9; else if ($9 != a) bad = 1 }
  END { exit bad }' "$csv" || fail "the CSV's anchor columns: $(cut -d, -f5,9- "$csv" | tr '\n' ' ')"
# The kernels' wall time beyond their CPU time (validate_wall.h; its figure's own test is
# unit.validate_wall): a thread's CPU time is never more than its wall time, so at least 0 (less
# 5% for the clocks' granularity); no upper bound: these kernels last 0.1 ms, and on a loaded
# machine their devices were busy 2-5 times their CPU time.
awk -F, 'NR == 1 && $12 != "kernels_wall" { bad = 1 } NR > 1 && !($12 != "" && $12 > -0.05) { bad = 1 }
  END { exit bad }' "$csv" || fail "the CSV's kernels_wall column: $(cut -d, -f12 "$csv" | tr '\n' ' ')"
# Each round's time, in order: two, the best of them real_s, the spread (worst - best) / best,
# and each as the log printed it when it came (4 decimals).
awk -F, 'NR == 1 && $13 != "rounds_s" { bad = 1 }
  NR > 1 { n = split($13, t, ";"); if (n != 2) bad = 1
    lo = t[1] < t[2] ? t[1] : t[2]; hi = t[1] < t[2] ? t[2] : t[1]
    if (lo != $3) bad = 1
    d = (hi - lo) / lo - $4; if (d > 1e-5 || d < -1e-5) bad = 1 }
  END { exit bad }' "$csv" || fail "the CSV's rounds_s column: $(cut -d, -f3,4,13 "$csv" | tr '\n' ' ')"
for name in "mm dmda" "mm eager"; do
  want=$(awk -F, -v n="\"$name\"" '$1 == n { print $13 }' "$csv" | tr ';' '\n' |
    awk '{ printf "%.4f\n", $1 }')
  got=$(sed -n "s/^  $name: \([0-9.]*\) s$/\1/p" "$tmp/log")
  [ -n "$want" ] && [ "$want" = "$got" ] || fail "$name: rounds_s says $want, the log $got"
done
[ -s "$tmp/out/c.xml" ] && [ -s "$tmp/out/c.json" ] || fail "no calibration files"
# Its figure, where gnuplot is installed: validation.png, drawn by plots/validation.gp, which
# the validation.gp beside it loads (the figure's own test is unit.validate_plot).
if command -v gnuplot >/dev/null; then
  grep -qx "wrote $tmp/out/validation.png" "$tmp/log" || fail "no figure said"
  [ "$(head -c 4 "$tmp/out/validation.png" | od -An -c | tr -d ' ')" = "211PNG" ] || fail "no validation.png"
  grep -q '^load ".*/validation.gp"$' "$tmp/out/validation.gp" || fail "validation.gp loads no plots/validation.gp"
fi
passed=$((passed + 1))

printf '{"narwhal-validate": 1, "rounds": 1, %s, "configurations": [%s]}\n' "$cal" \
  "$(conf "trained" 256 64 dmda)" >"$tmp/trained.json"
"$nw" validate "$tmp/trained.json" --out "$tmp/out" >/dev/null 2>"$tmp/err"
code=$?
[ "$code" = 2 ] && [ "$(grep -c . "$tmp/err")" = 1 ] &&
  grep -qF "configuration 'trained' is not held out: it runs kind 'matmul' on cpu" "$tmp/err" ||
  fail "a configuration on the training footprint: exit $code, said '$(cat "$tmp/err")'"
passed=$((passed + 1))

# A calibration's args reach `narwhal calibrate`: a value it refuses fails the calibration,
# and validate's one line carries calibrate's own reason, not mpirun's closing rule.
printf '{"narwhal-validate": 1, "rounds": 1, "calibrations": [{"name": "d", "ranks": 1, "workloads": ["matmul:256:64"], "runs": 1, "args": ["--devices", "bogus"]}], "configurations": [%s]}\n' \
  "$(conf "mm" 384 96 dmda | sed 's/"c"/"d"/')" >"$tmp/args.json"
"$nw" validate "$tmp/args.json" --out "$tmp/out" >/dev/null 2>"$tmp/err"
code=$?
[ "$code" != 0 ] && [ "$(grep -c . "$tmp/err")" = 1 ] &&
  grep -qF "calibration 'd' failed (exit 2): 'narwhal: --devices: unknown value 'bogus'" "$tmp/err" ||
  fail "a calibration's args: exit $code, said '$(cat "$tmp/err")'"
passed=$((passed + 1))
echo "validate: $passed passed, 0 failed"
