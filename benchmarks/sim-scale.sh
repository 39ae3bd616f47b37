#!/usr/bin/env bash
# sim-scale.sh [MAX_NODES [BUILD_DIR]]: how the simulator scales. Prints one
# line per point: nodes, subtasks, wall seconds, max RSS (MiB), simulated makespan, the node
# loops' events per subtask, steal requests per device, and wall microseconds per event (what
# the simulator costs per unit of the simulated algorithm's work).
#  - the weak-scaled paper matmul: the paper cluster's node model (platforms/README.md) at 14,
#    64, 128, 256, 512, 1024 nodes (up to MAX_NODES, default 256; with the default spread
#    placement 512 nodes take about 6 minutes, 1024 far longer:
#    docs/experiments/sim-scale-256-nodes.md), block 2048, phantom data, n the multiple of 2048
#    whose subtask count (n/2048)^2 is closest to 73 x nodes (the paper's 1024 subtasks on 14
#    nodes); from 480 nodes on a subtask's two panels (2 x 16 MiB x sqrt(73 N)) outgrow the
#    M2070's 6 GB, so those points give each GPU 12 GiB instead (the block stays the
#    paper's). Platforms are generated
#    into a temporary directory with gen-platform.sh --backbone $BACKBONE (default grouped: the
#    links of none, whose routes are N^2, in about sqrt(N) groups, whose routes are
#    about 2 N^1.5; none is what docs/experiments/sim-scale-growth.md,
#    sim-scale-control-messages.md and sim-scale-1024-nodes.md measured; a shared fat pipe
#    makes SimGrid's solver quadratic in the flows; see gen-platform.sh);
#  - the 14-node main-job point on platforms/paper-cluster.xml (n=65536); the series' first
#    point is the same run on that cluster generated with --backbone $BACKBONE.
# Every point runs the main job's configuration (experiments/matmul-scaling.json: the paper's
# CPU work-groups and two GPUs per node, --devices cpu+gpu --work-groups on); MODE=cpu runs a
# CPU device per core instead (12 per node: more devices, more stealing); MODE=paper-cpu the
# paper's CPU work-groups without the GPUs (from about 480 nodes on a subtask's two panels no
# longer fit a 6 GB GPU, and the run says so).
# PLACEMENT (default spread: blocks on random nodes, so a subtask's panels come from about
# 2 sqrt(73 N) owners and its messages grow with sqrt(N)) is passed as --placement; with
# rows-columns (A by block rows, B by block columns, paper Fig. 13) a subtask fetches one
# region per panel, and the series reaches 1024 nodes in seconds
# (docs/experiments/sim-scale-1024-nodes.md).
# CROSSTRAFFIC (default off) is gen-platform.sh --crosstraffic for the weak-scaled series: off,
# the generated InfiniBand-like cluster has no TCP cross-traffic (platforms/README.md, "Network
# model"), which the bandwidth solver pays for three times over from 64 nodes on
# (docs/experiments/sim-scale-256-nodes.md); the main-job point keeps paper-cluster.xml as it is.
# Two columns judge the cost: min_ev/sub, the protocol's minimum events per subtask (one request
# and one reply per (fetch, owner) pair, --json fetch_owners, plus a request and an answer per
# steal attempt), and us/ev_x14, a point's wall microseconds per event over the weak-scaled
# 14-node point's, in the same run.
# Targets: wall time at most linear in nodes x subtasks; 1024 nodes under 60 s and 2 GB RSS;
# the 14-node main-job point under 0.5 s; 256 nodes (spread) under 90 s with us/ev_x14 <= 2 and
# ev/subtask <= 1.1 x min_ev/sub. Each run is limited to 8 GB of address space
# (ulimit -v) and 1800 s; a point over the limit prints "timeout" and ends the series.
set -euo pipefail
cd "$(dirname "$0")/.."
max=${1:-256}
build=${2:-build}
nw=$build/narwhal
case ${MODE:-paper} in
paper) devices="--devices cpu+gpu --work-groups on" ;;
paper-cpu) devices="--devices cpu --work-groups on" ;;
cpu) devices="--devices cpu" ;;
*) echo "sim-scale: MODE must be paper, paper-cpu or cpu" >&2; exit 2 ;;
esac
placement=${PLACEMENT:-spread}
backbone=${BACKBONE:-grouped}
crosstraffic=${CROSSTRAFFIC:-off}
case $crosstraffic in
on | off) ;;
*) echo "sim-scale: CROSSTRAFFIC must be on or off" >&2; exit 2 ;;
esac
case $backbone in
none | grouped) ;;
*) echo "sim-scale: BACKBONE must be none or grouped" >&2; exit 2 ;;
esac
[ -x "$nw" ] || { echo "sim-scale: $nw not built" >&2; exit 2; }
[ -x /usr/bin/time ] || { echo "sim-scale: needs /usr/bin/time (GNU time) for the RSS" >&2; exit 2; }
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
paper_node="--cores 12 --core-speed 19.2Gf --gpus 2 --gpu-speed 650Gf --gpu-mem 6442450944
  --pcie-bw 6GBps --pcie-lat 10us --nic-bw 4GBps --nic-lat 2us --backbone-bw 100GBps
  --backbone-lat 0.5us"

# point LABEL PLATFORM N: one run, one line.
point() {
  local label=$1 platform=$2 n=$3 out
  if ! out=$(
    ulimit -v 8000000
    # shellcheck disable=SC2086 # devices is a list of options
    timeout 1800 /usr/bin/time -f 'TIME %e %M' "$nw" run --app matmul --backend sim \
      --platform "$platform" --n "$n" --block 2048 --data phantom $devices \
      --placement "$placement" --json 2>&1
  ); then
    printf '%-22s timeout or failure\n' "$label"
    return 1
  fi
  local nodes subtasks makespan wall rss events steals ndev owners us
  nodes=$(sed -n 's/^\t"nodes":\t\([0-9]*\),/\1/p' <<<"$out")
  owners=$(sed -n 's/^\t"fetch_owners":\t\([0-9]*\),/\1/p' <<<"$out")
  subtasks=$(sed -n 's/^\t"subtasks":\t\([0-9]*\),/\1/p' <<<"$out" | head -n1)
  makespan=$(sed -n 's/^\t"makespan_s":\t\([0-9.e+-]*\),/\1/p' <<<"$out")
  events=$(sed -n 's/^\t"events_handled":\t\([0-9]*\),/\1/p' <<<"$out")
  steals=$(sed -n 's/^\t"steals_attempted":\t\([0-9]*\),/\1/p' <<<"$out")
  ndev=$(grep -c '"kind":' <<<"$out")
  read -r wall rss < <(sed -n 's/^TIME //p' <<<"$out")
  us=$(awk -v w="$wall" -v e="$events" 'BEGIN { print w * 1e6 / e }')
  # the weak-scaled series' first point (14 nodes) is the reference of us/ev_x14
  [ "$label" != "weak-scaled" ] || [ -n "$us14" ] || us14=$us
  printf '%-22s %6s %9s %9.2f %9.0f %12.3f %10.1f %10.1f %10.1f %8.1f %9s\n' "$label" "$nodes" \
    "$subtasks" "$wall" "$((rss / 1024))" "$makespan" \
    "$(awk -v e="$events" -v s="$subtasks" 'BEGIN { print e / s }')" \
    "$(awk -v o="$owners" -v a="$steals" -v s="$subtasks" 'BEGIN { print (2 * o + 2 * a) / s }')" \
    "$(awk -v a="$steals" -v d="$ndev" 'BEGIN { print a / d }')" "$us" \
    "$(awk -v u="$us" -v r="${us14:-}" 'BEGIN { if (r == "") print "-"; else printf "%.2f", u / r }')"
}
us14=""

printf '%-22s %6s %9s %9s %9s %12s %10s %10s %10s %8s %9s\n' point nodes subtasks wall_s rss_MiB \
  makespan_s ev/subtask min_ev/sub steals/dev us/event us/ev_x14
# The main job's point is the main job only in its own configuration.
label="main-job (paper, 14)"
[ "${MODE:-paper}" = paper ] && [ "$placement" = spread ] || label="paper-cluster.xml (14)"
point "$label" platforms/paper-cluster.xml 65536 || true
for nodes in 14 64 128 256 512 1024; do
  [ "$nodes" -le "$max" ] || break
  # blocks per side: the integer closest to sqrt(73 x nodes)
  k=$(awk -v s=$((73 * nodes)) 'BEGIN { k = int(sqrt(s)); if ((k + 1) * (k + 1) - s < s - k * k) k++; print k }')
  gpu_mem=()
  [ "$nodes" -lt 480 ] || gpu_mem=(--gpu-mem 12884901888) # the panels outgrow 6 GB (above)
  # shellcheck disable=SC2086 # paper_node is a list of options
  platforms/gen-platform.sh --backbone "$backbone" --crosstraffic "$crosstraffic" \
    --nodes "$nodes" $paper_node "${gpu_mem[@]}" >"$tmp/p.xml"
  point "weak-scaled" "$tmp/p.xml" $((k * 2048)) || break
done
