#!/usr/bin/env bash
# lost_host.sh NARWHAL MPIEXEC SRC_DIR kill|cut: a host lost mid-run on three emulated hosts
# (scripts/emulated-cluster.sh), one rank each over TCP: every process of h3 killed (kill), or
# h3's link taken down (cut). Asserts:
#  1. every process of the job (the three ranks, the daemons, mpirun) has ended within 10 s;
#  2. Narwhal's one line names the lost rank and its host (rank 2 on host h3), and the job
#     exited non-zero;
#  3. `down` leaves no namespace, state folder or process behind.
# Skipped (77) where namespaces cannot be made (not root, or the kernel refuses).
set -u
nw=$1 mpiexec=$2 src=$3 how=$4
cluster=$src/scripts/emulated-cluster.sh
export NW_EMUCLUSTER_DIR=${TMPDIR:-/tmp}/narwhal-emucluster-lost.$$
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
export OMPI_MCA_btl_vader_single_copy_mechanism=none
name="lost_host ($how)"
passed=0 failed=0
ok() { echo "$name: ok: $*"; passed=$((passed + 1)); }
bad() { echo "$name: FAIL: $*"; failed=$((failed + 1)); }
leftovers() { ip netns list 2>/dev/null | grep -cE '^nwc-(br|h[0-9]+)( |$)'; }
out=$(mktemp)
trap '"$cluster" down >/dev/null 2>&1; rm -f "$out"' EXIT
case $how in kill | cut) ;; *) echo "$name: want kill or cut, not '$how'"; exit 2 ;; esac

[ "$(id -u)" = 0 ] || { echo "$name: skipped: needs root for namespaces"; exit 77; }
ip netns add nwc-probe.$$ 2>/dev/null && ip netns del nwc-probe.$$ ||
  { echo "$name: skipped: the kernel refuses a network namespace"; exit 77; }
[ "$(leftovers)" = 0 ] || { echo "$name: an emulated cluster is up already"; exit 1; }
"$cluster" up 3 --bw 200mbit || { echo "$name: up failed"; exit 1; }

# The job's processes: those in the hosts' namespaces that are mpirun, a daemon or a rank.
job_pids() {
  local k p
  for k in 1 2 3; do
    for p in $(ip netns pids "nwc-h$k" 2>/dev/null); do
      case $(cat "/proc/$p/comm" 2>/dev/null) in
      mpirun | mpiexec | orterun | orted | narwhal | narwhal-real) echo "$p" ;;
      esac
    done
  done
}
ranks() { job_pids | while read -r p; do
  case $(cat "/proc/$p/comm" 2>/dev/null) in narwhal | narwhal-real) echo "$p" ;; esac
done; }
# Whether a process still runs (a zombie has ended: its parent has not reaped it yet).
running() { [ -e "/proc/$1" ] && ! grep -q '^[^)]*) Z' "/proc/$1/stat" 2>/dev/null; }
since() { awk -v a="$1" -v b="$(date +%s.%N)" 'BEGIN { printf "%.1f", b - a }'; }

# A chain of 10^6 two-subtask steps: far longer than the test waits.
"$cluster" run -- timeout 120 "$mpiexec" -np 3 --mca btl tcp,self "$nw" run --backend real \
  --app chain --n 1000000 --block 2 --cpu-devices 1 >"$out" 2>&1 &
job=$!
# Inside the run: every rank past MPI's start-up, its watcher thread started (nw-watch), and
# a second more (on a loaded machine the start-up took up to a few seconds).
watching() { for p in $(ranks); do grep -lx nw-watch /proc/"$p"/task/*/comm 2>/dev/null; done | wc -l; }
for _ in $(seq 1 600); do [ "$(watching)" -ge 3 ] && break; sleep 0.1; done
sleep 1
pids=$(job_pids | tr '\n' ' ')
nranks=$(ranks | wc -l)
[ "$nranks" = 3 ] && [ "$(watching)" = 3 ] && kill -0 $job 2>/dev/null ||
  { echo "$name: the run did not start 3 ranks with their watchers: $(cat "$out")"; exit 1; }

start=$(date +%s.%N)
if [ "$how" = kill ]; then
  ip netns pids nwc-h3 | xargs -r kill -9
else
  "$cluster" cut h3
fi
ranks_end="" all_end=""
while [ -z "$all_end" ] && awk -v t="$(since "$start")" 'BEGIN { exit !(t < 15) }'; do
  live=0 live_ranks=0
  for p in $pids; do
    if running "$p"; then
      live=$((live + 1))
      case $(cat "/proc/$p/comm" 2>/dev/null) in narwhal | narwhal-real) live_ranks=$((live_ranks + 1)) ;; esac
    fi
  done
  [ -z "$ranks_end" ] && [ "$live_ranks" = 0 ] && ranks_end=$(since "$start")
  [ "$live" = 0 ] && all_end=$(since "$start")
  sleep 0.1
done
left="" left_pids=""
for p in $pids; do
  running "$p" && left="$left $p:$(cat "/proc/$p/comm" 2>/dev/null)" left_pids="$left_pids $p"
done
# What is left would wait for ever (mpirun on an unreachable daemon ignores SIGTERM): it fails
# the test below, and is ended here so that the test itself ends.
[ -z "$left_pids" ] || kill -9 $left_pids 2>/dev/null
wait $job
status=$?
cat "$out"

awk -v t="${ranks_end:-99}" 'BEGIN { exit !(t < 10) }' &&
  ok "every rank ended ${ranks_end} s after the $how" ||
  bad "the ranks had not all ended 15 s after the $how (left:$left)"
awk -v t="${all_end:-99}" 'BEGIN { exit !(t < 10) }' &&
  ok "every process of the job (mpirun, daemons, ranks: $pids) ended ${all_end} s after the $how" ||
  bad "the job's processes had not all ended ${all_end:-15} s after the $how (left:$left)"
lines=$(grep -c '^narwhal: rank 2 on host h3 lost: ' "$out")
any=$(grep -c '^narwhal: ' "$out")
[ "$lines" = 1 ] && [ "$any" = 1 ] && ok "one Narwhal line names the host: $(grep '^narwhal: ' "$out")" ||
  bad "want one Narwhal line naming rank 2 on host h3, got $lines of $any Narwhal lines"
[ "$status" -ne 0 ] && ok "the job exited $status" || bad "the job exited 0"

"$cluster" down
left=""
for p in $pids; do running "$p" && left="$left $p"; done # a zombie has ended: not reaped yet
[ "$(leftovers)" = 0 ] && [ ! -e "$NW_EMUCLUSTER_DIR" ] && [ -z "$left" ] &&
  ok "down left no namespace, state or process" ||
  bad "down left $(leftovers) namespaces, processes:$left (or $NW_EMUCLUSTER_DIR)"
echo "$name: $passed passed, $failed failed"
[ "$failed" = 0 ]
