#!/usr/bin/env bash
# tcp-vs-shm.sh [ROUNDS]: what Open MPI's TCP path costs the real backend against its
# shared-memory one, on this machine, two ranks of one CPU device each, three ways:
#   shm        both ranks on this host: Open MPI's shared-memory transport (vader)
#   tcp-local  both ranks on this host, shared memory left out (--mca btl tcp,self): TCP over
#              loopback
#   tcp-hosts  one rank on each of two emulated hosts (scripts/emulated-cluster.sh up 2, links
#              not shaped): TCP through veth pairs and a bridge, as between real hosts
# Per setup: the ranks' latency and bandwidth as `narwhal calibrate` measures them (1-byte and
# 4 MiB ping-pongs, best of a few), and a two-rank Task Bench-style chain: stencil_1d of width
# 2, empty tasks (--app taskbench --n STEPS --block 2 --app-param iterations=0), where each step
# is one subtask per rank reading both cells of the step before: a message each way per step.
# Its time per step is the makespan over the steps. Rounds interleave the setups; best of
# ROUNDS (default 3). As root (namespaces); leaves no host behind.
# docs/experiments/tcp-vs-shared-memory.md.
set -u
src=$(cd "$(dirname "$0")/.." && pwd)
nw=$src/build/narwhal
cluster=$src/scripts/emulated-cluster.sh
rounds=${1:-3}
steps=${STEPS:-2000}
[[ $rounds =~ ^[1-9][0-9]*$ ]] || { echo "tcp-vs-shm: ROUNDS must be a positive number, not '$rounds'" >&2; exit 2; }
[ "$(id -u)" = 0 ] || { echo "tcp-vs-shm: needs root (network namespaces)" >&2; exit 2; }
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
export OMPI_MCA_btl_vader_single_copy_mechanism=none
export NW_EMUCLUSTER_DIR=${TMPDIR:-/tmp}/narwhal-tcp-vs-shm.$$
tmp=$(mktemp -d)
trap '"$cluster" down >/dev/null 2>&1; rm -rf "$tmp"' EXIT
"$cluster" up 2 >/dev/null || { echo "tcp-vs-shm: cannot bring up the emulated hosts" >&2; exit 1; }

setups=(shm tcp-local tcp-hosts)
launch() { # launch SETUP ARGS...: narwhal under mpirun with two ranks, as the setup places them
  local s=$1
  shift
  case $s in
  shm) timeout 300 mpirun -np 2 --bind-to none "$nw" "$@" ;;
  tcp-local) timeout 300 mpirun -np 2 --bind-to none --mca btl tcp,self "$nw" "$@" ;;
  tcp-hosts) "$cluster" run -- timeout 300 mpirun -np 2 --mca btl tcp,self "$nw" "$@" ;;
  esac
}
makespan() { sed -nE 's/.*"makespan_s":[[:space:]]*([0-9.e+-]+).*/\1/p' | head -1; }

echo "tcp-vs-shm: $(date -u '+%Y-%m-%d %H:%M UTC'), $(nproc) cores, $rounds rounds, chain of $steps steps"
for r in $(seq "$rounds"); do
  for s in "${setups[@]}"; do
    launch "$s" calibrate --platform-out "$tmp/$s.xml" --perfmodel "$tmp/$s.json" \
      --workload matmul:256:64 --runs 1 --cpu-devices 1 >"$tmp/$s.cal" 2>&1 ||
      { echo "tcp-vs-shm: calibrate ($s) failed: $(tail -n 2 "$tmp/$s.cal")"; exit 1; }
    sed -nE 's/.*Ranks 0 .* - 1 .*: latency ([0-9.e+-]+) us, bandwidth ([0-9.e+-]+) GB\/s.*/\1 \2/p' \
      "$tmp/$s.cal" "$tmp/$s.xml" | head -1 >>"$tmp/$s.net"
    t=$(launch "$s" run --backend real --app taskbench --n "$steps" --block 2 --cpu-devices 1 \
      --app-param iterations=0 --json 2>/dev/null | makespan)
    echo "${t:-nan}" >>"$tmp/$s.chain"
  done
done

printf '\n%-10s %14s %16s %18s\n' setup latency_us bandwidth_GB/s chain_us_per_step
for s in "${setups[@]}"; do
  lat=$(awk 'NR == 1 || $1 < b { b = $1 } END { printf "%.2f", b }' "$tmp/$s.net")
  bw=$(awk 'NR == 1 || $2 > b { b = $2 } END { printf "%.3f", b }' "$tmp/$s.net")
  chain=$(awk -v n="$steps" 'NR == 1 || $1 < b { b = $1 } END { printf "%.1f", b / n * 1e6 }' "$tmp/$s.chain")
  printf '%-10s %14s %16s %18s\n' "$s" "$lat" "$bw" "$chain"
done
echo "(best of $rounds: the lowest latency and chain time, the highest bandwidth; all rounds:"
for s in "${setups[@]}"; do
  echo "  $s: latency/bandwidth $(tr '\n' ';' <"$tmp/$s.net") chain s $(tr '\n' ' ' <"$tmp/$s.chain")"
done
echo ")"
