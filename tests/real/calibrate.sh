#!/usr/bin/env bash
# calibrate.sh MPIRUN_SH MPIEXEC NARWHAL: `narwhal calibrate` on a tiny configuration (two
# ranks, two small workloads, two recorded runs each, all kept) writes a platform and a model file that
# the simulator loads and runs with: the platform has a node per rank with the runtime-cost
# properties, the model every recorded subtask (2 runs x 16 per workload), and a functional
# simulated run on them equals the reference; it prices a new page's first touch
# (rt_page_fresh); --settle grows to what a workload's warm-up first-touched; --keep best and
# best-kernels keep one run's samples, best-kernels every run's runtime costs. Bad workloads exit
# 2 with one line. Ranks whose loop shares its core get
# rt_pickup, and ranks of one host rt_machine and rt_shm_poll_per_byte. NARWHAL_EVENT_COSTS logs what the fits were fitted to.
set -u
mpirun_sh=$1 mpiexec=$2 nw=$3
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fail() { echo "calibrate: 0 passed, 1 failed: $*"; exit 1; }
NARWHAL_EVENT_COSTS=$tmp/events "$mpirun_sh" "$mpiexec" 2 --bind-to none -x NARWHAL_EVENT_COSTS \
  "$nw" calibrate --platform-out "$tmp/cal.xml" \
  --perfmodel "$tmp/cal.json" --workload matmul:256:64 --workload conv2d:256:64 --runs 2 \
  --keep all --cpu-devices 1 --settle 1 >"$tmp/out" 2>&1 || { cat "$tmp/out"; fail "calibrate exited non-zero"; }
# --settle 1: each run is preceded by more than 1 MiB, a quarter more than its workload's
# warm-up first-touched (the runtime's own start-up alone touches megabytes), and calibrate says
# how much.
settled=$(sed -nE 's/^Memory settled before each run \(--settle 1,.*: matmul:256:64 ([0-9]+) MiB, conv2d:256:64 ([0-9]+) MiB\.$/\1 \2/p' "$tmp/out")
[ -n "$settled" ] && awk -v a="${settled% *}" -v b="${settled#* }" 'BEGIN { exit !(a > 1 && b > 1) }' ||
  fail "settled '${settled:-}' (wanted more than 1 MiB for each workload): $(grep -i settled "$tmp/out")"
# NARWHAL_EVENT_COSTS: a line "# APP N BLOCK" per recorded run on each rank, then a line per
# measured event, KIND BYTES RUNS SECONDS GATHERED VIEW_PAGES SPACE_PAGES FAULTS START WALL
# (its handling's start on the run's clock, and its wall time), as many
# messages as the fit
# says it used (--keep all: every recorded run's).
fitted=$(sed -nE 's/^  rt_message: .* over ([0-9]+) events.*/\1/p' "$tmp/out")
logged=$(cat "$tmp/events.0" "$tmp/events.1" 2>/dev/null | grep -cE '^message [0-9]+ [0-9]+ [0-9.e+-]+ [0-9]+ [0-9]+ [0-9]+ -?[0-9]+ -?[0-9.]+ [0-9.e+-]+$')
bad=$(cat "$tmp/events.0" "$tmp/events.1" 2>/dev/null | grep -cvE '^([a-z_]+ [0-9]+ [0-9]+ [0-9.e+-]+ [0-9]+ [0-9]+ [0-9]+ -?[0-9]+ -?[0-9.]+ [0-9.e+-]+|# [a-z0-9_]+ [0-9]+ [0-9]+)$')
[ -n "$fitted" ] && [ "$logged" = "$fitted" ] && [ "$bad" = 0 ] ||
  fail "NARWHAL_EVENT_COSTS logged $logged messages ($bad malformed lines), the fit used ${fitted:-?}"
# START and WALL: one loop handles a rank's events one at a time, so within a run each event
# starts no earlier than the one before it ended (1 us for the printed rounding).
for r in 0 1; do
  overlap=$(awk '/^#/ { end = -1e9; next } { if ($9 + 1e-6 < end || $10 < 0) n++; end = $9 + $10 }
    END { print n + 0 }' "$tmp/events.$r")
  [ "$overlap" = 0 ] || fail "NARWHAL_EVENT_COSTS rank $r: $overlap events start before the one before them ended"
done
hosts=$(grep -c '<host id="n[0-9]*-cpu"' "$tmp/cal.xml")
[ "$hosts" = 2 ] || fail "the platform has $hosts CPU hosts, wanted 2 (one per rank)"
for p in rt_message rt_exec_done rt_driver rt_launch rt_done; do
  grep -q "<prop id=\"$p\" value=\"[0-9.e+-]*\"/>" "$tmp/cal.xml" || fail "no property $p"
done
for app in matmul conv2d; do # each workload's application's own fit
  for p in rt_message rt_exec_done rt_launch rt_done; do
    grep -q "<prop id=\"$p@$app\" value=\"[0-9.e+-]*\"/>" "$tmp/cal.xml" || fail "no property $p@$app"
  done
done
grep -q "Ranks 0 (.*) - 1 (.*): latency" "$tmp/cal.xml" || fail "the pair's measurement is missing"
# Through shared memory a message past Open MPI's 4 KiB eager limit goes by rendezvous (and an
# eager one's send finishes once the receiver hands its fragment back): the pair's line says
# less than 64 KiB go before the receiver sees them. The platform leaves it out (rt_eager_bytes
# is for ranks on different hosts: these two spin while a transfer between them is under way).
eager=$(sed -nE 's/.*Ranks 0 .* - 1 .*, ([0-9.e+]+) KB sent before the receiver sees it.*/\1/p' "$tmp/cal.xml" | head -1)
awk -v e="${eager:-0}" 'BEGIN { exit !(e > 0 && e < 64) }' ||
  fail "sent before the receiver sees it '${eager:-}' KB through shared memory, wanted 0 to 64"
! grep -q 'rt_eager_bytes' "$tmp/cal.xml" || fail "rt_eager_bytes written for ranks of one host"
# The knee past which events' bytes are priced apart: half of this machine's last-level and
# level-2 caches, as sysfs gives them (where it does).
llc=0 l2=0
for d in /sys/devices/system/cpu/cpu0/cache/index*; do
  [ -r "$d/size" ] && [ "$(cat "$d/type")" != Instruction ] || continue
  kib=$(sed -nE 's/^([0-9]+)K$/\1/p' "$d/size")
  [ -n "$kib" ] || continue
  lv=$(cat "$d/level")
  [ "$lv" = 2 ] && l2=$((kib * 1024))
  [ "$lv" -ge 3 ] && [ $((kib * 1024)) -gt "$llc" ] && llc=$((kib * 1024))
done
if [ "$llc" -gt 0 ]; then
  knee=$(grep -oE '<prop id="rt_cache_bytes" value="[0-9]+"' "$tmp/cal.xml" | head -1 | grep -oE '[0-9]+"$' | tr -d '"')
  [ "${knee:-}" = $(((llc + l2) / 2)) ] ||
    fail "rt_cache_bytes '${knee:-}', wanted $(((llc + l2) / 2)) (L3 $llc, L2 $l2 bytes)"
fi
# A new page's first touch, probed on every rank: a fault costs between 0.01 and 100 us.
fresh=$(grep -oE '<prop id="rt_page_fresh" value="[0-9.e+-]*"' "$tmp/cal.xml" | head -1 | grep -oE '[0-9.e+-]+"$' | tr -d '"')
awk -v p="${fresh:-0}" 'BEGIN { exit !(p > 1e-8 && p < 1e-4) }' ||
  fail "rt_page_fresh '${fresh:-}', wanted seconds between 1e-8 and 1e-4"
grep -q 'rt_page_fresh: the mean of [0-9]* probes' "$tmp/cal.xml" || fail "no rt_page_fresh line"
# conv2d's edge tiles have footprints of their own: count the samples of all entries (a
# multi-assigned copy that lost is measured too, hence at least), and those calibrate says it
# left out as outliers (a kernel of microseconds measured cold can be 3x its median).
total=$(grep -oE '"count":[[:space:]]*[0-9]+' "$tmp/cal.json" | awk -F: '{ s += $2 } END { print s }')
out=$(sed -nE 's/.*calibrate: ([0-9]+) samples left out as outliers.*/\1/p' "$tmp/out")
[ $((total + ${out:-0})) -ge 64 ] ||
  fail "the model holds $total samples and ${out:-0} outliers, wanted 2 runs x 16 subtasks x 2 workloads"
grep -q '"platform":[[:space:]]*"cal.xml"' "$tmp/cal.json" || fail "model not labelled cal.xml"
for app in matmul conv2d; do
  out=$("$nw" run --backend sim --platform "$tmp/cal.xml" --perfmodel "$tmp/cal.json" \
    --app $app --n 256 --block 64 --cpu-devices 1 --json) || fail "sim $app on the calibrated platform"
  printf '%s' "$out" | grep -q '"verified":[[:space:]]*true' || fail "sim $app not verified"
done
# --keep best (the default): only the fastest of the runs, 16 samples of matmul's one footprint
# (with --settle, which touches memory before each run and leaves the measurements alone).
"$mpirun_sh" "$mpiexec" 1 --bind-to none "$nw" calibrate --platform-out "$tmp/best.xml" \
  --perfmodel "$tmp/best.json" --workload matmul:256:64 --runs 3 --settle 8 >"$tmp/best.out" 2>&1 ||
  fail "calibrate --keep best exited non-zero"
# One run's samples: 16, less those left out as outliers (a loaded host stretches a kernel;
# calibrate counts them over all three runs), more a multi-assigned copy that lost; three runs
# merged would hold about 48, two 32.
best=$(grep -oE '"count":[[:space:]]*[0-9]+' "$tmp/best.json" | awk -F: '{ s += $2 } END { print s + 0 }')
out=$(sed -nE 's/.*calibrate: ([0-9]+) samples left out as outliers.*/\1/p' "$tmp/best.out")
[ "$best" -ge $((16 - ${out:-0})) ] && [ "$best" -lt 32 ] ||
  fail "--keep best kept $best samples (${out:-0} outliers in all runs), wanted one run's 16"
# --keep best-kernels: the fastest run's samples again (one run's 16), but every run's runtime
# costs: three runs' subtask completions (rt_exec_done over 3 x 16 events, or more where a
# multi-assigned copy lost), where --keep best fitted one run's.
"$mpirun_sh" "$mpiexec" 1 --bind-to none "$nw" calibrate --platform-out "$tmp/bk.xml" \
  --perfmodel "$tmp/bk.json" --workload matmul:256:64 --runs 3 --keep best-kernels >"$tmp/bk.out" 2>&1 ||
  fail "calibrate --keep best-kernels exited non-zero"
bk=$(grep -oE '"count":[[:space:]]*[0-9]+' "$tmp/bk.json" | awk -F: '{ s += $2 } END { print s + 0 }')
out=$(sed -nE 's/.*calibrate: ([0-9]+) samples left out as outliers.*/\1/p' "$tmp/bk.out")
[ "$bk" -ge $((16 - ${out:-0})) ] && [ "$bk" -lt 32 ] ||
  fail "--keep best-kernels kept $bk samples (${out:-0} outliers in all runs), wanted one run's 16"
done_best=$(sed -nE 's/^  rt_exec_done: .* over ([0-9]+) events.*/\1/p' "$tmp/best.xml")
done_bk=$(sed -nE 's/^  rt_exec_done: .* over ([0-9]+) events.*/\1/p' "$tmp/bk.xml")
[ "${done_best:-0}" -ge 16 ] && [ "${done_best:-0}" -lt 32 ] && [ "${done_bk:-0}" -ge 48 ] ||
  fail "rt_exec_done fitted over ${done_best:-?} events (--keep best, wanted 16 to 31) and ${done_bk:-?} (--keep best-kernels, wanted 48 or more)"
grep -q 'Kernels from the fastest, runtime costs from all of 3 run(s)' "$tmp/bk.xml" ||
  fail "the platform's comment does not say what --keep best-kernels kept"
err=$("$nw" calibrate --platform-out "$tmp/x.xml" --perfmodel "$tmp/x.json" \
  --workload matmul:abc:64 2>&1)
code=$?
[ $code = 2 ] || fail "a bad workload exited $code, wanted 2"
[ "$(printf '%s\n' "$err" | grep -c .)" = 1 ] || fail "a bad workload printed: $err"
# Two ranks of one core each (Open MPI binds a rank per core): the loop shares its core with
# the compute thread, and the platform says how long a message waited beside a running kernel
# to be seen (rt_pickup, a positive number of seconds, below a second) and the line saying so.
# PageRank: its ranks exchange messages while their kernels run (matmul 1024/256 under ASan
# sometimes left no gap measured at all).
if [ "$(nproc)" -ge 2 ]; then
  "$mpirun_sh" "$mpiexec" 2 "$nw" calibrate --platform-out "$tmp/one.xml" --perfmodel "$tmp/one.json" \
    --workload pagerank:65536:4096 --runs 1 >"$tmp/one.out" 2>&1 || fail "one-core calibrate exited non-zero"
  pickup=$(grep -oE '<prop id="rt_pickup" value="[0-9.e+-]*"' "$tmp/one.xml" | head -1 | grep -oE '[0-9.e+-]+"$' | tr -d '"')
  awk -v p="${pickup:-0}" 'BEGIN { exit !(p > 0 && p < 1) }' ||
    fail "one core a rank: rt_pickup '${pickup:-}', wanted a positive number of seconds below 1"
  grep -q 'rt_pickup: the mean residual of [0-9]* gaps' "$tmp/one.xml" || fail "no rt_pickup line"
  # ... and PageRank's own, from its runs alone (here the same runs: the same value).
  own=$(grep -oE '<prop id="rt_pickup@pagerank" value="[0-9.e+-]*"' "$tmp/one.xml" | head -1 | grep -oE '[0-9.e+-]+"$' | tr -d '"')
  [ -n "$own" ] && awk -v a="$own" -v b="$pickup" 'BEGIN { d = a - b; exit !(d <= 1e-5 * b && -d <= 1e-5 * b) }' ||
    fail "rt_pickup@pagerank '${own:-}', wanted the pooled $pickup (PageRank's runs are all the runs)"
  # Both ranks ran on this host: each node names it (rt_machine), so the simulator moves their
  # data as the loops' polling, priced per byte as the runs measured it (rt_shm_poll_per_byte:
  # PageRank's ranks exchange megabytes; a positive number of seconds, under a microsecond a
  # byte) and said in a line.
  host=$(hostname)
  machines=$(grep -c "<prop id=\"rt_machine\" value=\"$host\"/>" "$tmp/one.xml")
  [ "$machines" = 2 ] || fail "rt_machine='$host' on $machines of the 2 nodes"
  per_byte=$(grep -oE '<prop id="rt_shm_poll_per_byte" value="[0-9.e+-]*"' "$tmp/one.xml" | head -1 | grep -oE '[0-9.e+-]+"$' | tr -d '"')
  awk -v p="${per_byte:-0}" 'BEGIN { exit !(p > 0 && p < 1e-6) }' ||
    fail "rt_shm_poll_per_byte '${per_byte:-}', wanted a positive number of seconds below 1e-6"
  grep -q 'rt_shm_poll_per_byte: [0-9.e+-]* s over [0-9.e+-]* MB' "$tmp/one.xml" || fail "no rt_shm_poll_per_byte line"
fi
echo "calibrate: 1 passed, 0 failed"
