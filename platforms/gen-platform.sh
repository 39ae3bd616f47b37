#!/usr/bin/env bash
# gen-platform.sh [options] > FILE.xml: writes a SimGrid 3.32 platform of identical nodes with
# GPUs, in the layout platforms/README.md describes. The naming is a contract the SimGrid
# backend relies on: node i is zone n<i> with CPU host n<i>-cpu (one core per CPU core, speed
# per core) and GPU hosts n<i>-gpu<k> (property kind=gpu, memsize in bytes).
set -euo pipefail
nodes=4 cores=4 core_speed=1Gf gpus=0 gpu_speed=10Gf gpu_mem=1073741824
pcie_bw=1GBps pcie_lat=10us nic_bw=100MBps nic_lat=50us bb_bw=1GBps bb_lat=1us comment=""
backbone=shared cpu_props="" gpu_props="" crosstraffic=on
die() { echo "gen-platform: $*" >&2; exit 2; }
while [ $# -gt 0 ]; do
  [ $# -ge 2 ] || die "option $1 needs a value"
  case $1 in
  --nodes) nodes=$2 ;; --cores) cores=$2 ;; --core-speed) core_speed=$2 ;;
  --gpus) gpus=$2 ;; --gpu-speed) gpu_speed=$2 ;; --gpu-mem) gpu_mem=$2 ;;
  --pcie-bw) pcie_bw=$2 ;; --pcie-lat) pcie_lat=$2 ;; --nic-bw) nic_bw=$2 ;;
  --nic-lat) nic_lat=$2 ;; --backbone-bw) bb_bw=$2 ;; --backbone-lat) bb_lat=$2 ;;
  --comment) comment=$2 ;; --backbone) backbone=$2 ;;
  --crosstraffic) # on (SimGrid's default) or off: see below
    crosstraffic=$2 ;;
  --cpu-prop) # KEY=VALUE, repeatable: a property of every n<i>-cpu host (e.g. the runtime
    # costs of a calibrated platform, rt_exec_done=2e-5, or one application's,
    # rt_message_per_byte@fft2d=3e-9: README, "Calibration")
    [[ $2 =~ ^[A-Za-z_][A-Za-z0-9_]*(@[A-Za-z0-9_.-]+)?=[0-9.eE+-]+$ ]] || die "--cpu-prop '$2': expected KEY=NUMBER or KEY@APP=NUMBER"
    cpu_props+="<prop id=\"${2%%=*}\" value=\"${2#*=}\"/>" ;;
  --gpu-prop) # KEY=VALUE, repeatable: a property of every n<i>-gpu<k> host (e.g. the seconds
    # per byte of run-length encoding a result, rle_per_byte=2e-11: platforms/README.md)
    [[ $2 =~ ^[A-Za-z_][A-Za-z0-9_]*=[0-9.eE+-]+$ ]] || die "--gpu-prop '$2': expected KEY=NUMBER"
    gpu_props+="<prop id=\"${2%%=*}\" value=\"${2#*=}\"/>" ;;
  *) die "unknown option $1" ;;
  esac
  shift 2
done
for v in nodes cores gpus gpu_mem; do
  [[ ${!v} =~ ^[0-9]+$ ]] || die "--${v//_/-} must be a whole number, not '${!v}'"
done
[ "$backbone" = shared ] || [ "$backbone" = none ] || [ "$backbone" = grouped ] ||
  die "--backbone is shared, none or grouped"
[ "$nodes" -ge 1 ] && [ "$cores" -ge 1 ] || die "--nodes and --cores must be at least 1"
[ "$crosstraffic" = on ] || [ "$crosstraffic" = off ] || die "--crosstraffic is on or off"

echo '<?xml version="1.0"?>'
echo '<!DOCTYPE platform SYSTEM "https://simgrid.org/simgrid.dtd">'
[ -n "$comment" ] && printf '<!--\n%s\n-->\n' "$comment"
echo '<platform version="4.1">'
# --crosstraffic off: the file sets SimGrid's network/crosstraffic to 0. SimGrid's network model
# otherwise adds to every transfer a backward flow of 5% of its rate on the reverse route (TCP's
# acknowledgements), which an RDMA network such as InfiniBand does not have; it slows transfers
# that meet traffic going the other way, and since it couples each transfer to twice the links
# the bandwidth solver costs about three times the wall time from 64 nodes on
# (docs/experiments/sim-scale-256-nodes.md). A --cfg network/crosstraffic on the command
# line still wins over the file.
if [ "$crosstraffic" = off ]; then
  echo '  <config><prop id="network/crosstraffic" value="0"/></config>'
fi
echo '  <zone id="cluster" routing="Full">'
node_zone() { # node_zone I INDENT: node i's zone (its hosts, PCIe links and routes)
  local i=$1 in=$2 k
  echo "$in<zone id=\"n$i\" routing=\"Full\">"
  echo "$in  <host id=\"n$i-cpu\" speed=\"$core_speed\" core=\"$cores\"><prop id=\"kind\" value=\"cpu\"/>$cpu_props</host>"
  for ((k = 0; k < gpus; k++)); do
    echo "$in  <host id=\"n$i-gpu$k\" speed=\"$gpu_speed\"><prop id=\"kind\" value=\"gpu\"/><prop id=\"memsize\" value=\"$gpu_mem\"/>$gpu_props</host>"
  done
  for ((k = 0; k < gpus; k++)); do
    echo "$in  <link id=\"n$i-pcie$k\" bandwidth=\"$pcie_bw\" latency=\"$pcie_lat\" sharing_policy=\"SPLITDUPLEX\"/>"
  done
  for ((k = 0; k < gpus; k++)); do
    echo "$in  <route src=\"n$i-cpu\" dst=\"n$i-gpu$k\" symmetrical=\"NO\"><link_ctn id=\"n$i-pcie$k\" direction=\"UP\"/></route>"
    echo "$in  <route src=\"n$i-gpu$k\" dst=\"n$i-cpu\" symmetrical=\"NO\"><link_ctn id=\"n$i-pcie$k\" direction=\"DOWN\"/></route>"
  done
  echo "$in</zone>"
}
# Each node's NIC is split-duplex: sending and receiving do not share bandwidth, as on
# InfiniBand; the switch (backbone) is a fat pipe: every flow gets its full bandwidth.
# --backbone none: no backbone link. A fat pipe never limits a flow below its NICs' bandwidth,
# so the switch is only its latency, added to each NIC's sending direction; that direction
# becomes its own link n<i>-nic-up (a split-duplex link has one latency), receiving is
# n<i>-nic-down (the same sharing as split-duplex). Use it for large platforms: SimGrid's
# bandwidth solver recomputes a fat pipe's usage over all its flows each time it fixes one,
# quadratic in the cluster's flows (benchmarks/sim-scale.sh). Results differ from the shared
# layout's in the last bits (the solver's floating-point order), so the checked-in platforms
# keep the shared one.
seconds() { # a SimGrid latency ("0.5us", "2ms", "1e-6s", "3") in seconds
  awk -v t="$1" 'BEGIN {
    n = t; sub(/[a-z]+$/, "", n); u = substr(t, length(n) + 1)
    f["s"] = 1; f[""] = 1; f["ms"] = 1e-3; f["us"] = 1e-6; f["ns"] = 1e-9; f["ps"] = 1e-12
    if (!(u in f) || n !~ /^[0-9.eE+-]+$/) exit 1
    printf "%.17g", n * f[u] }' || die "cannot read latency '$1' (units s, ms, us, ns, ps)"
}
# --backbone grouped: the links and routes of --backbone none, but the nodes sit in about
# sqrt(N) groups of consecutive nodes, and the top zone lists routes between groups only: a
# route is the sender's n<i>-nic-up inside its group to the group's router, a link between the
# two groups, and the receiver's n<j>-nic-down inside its group. SimGrid wants that link (it
# refuses an empty route), so it is a fat pipe of no latency and a bandwidth no flow reaches,
# one per ordered pair of groups: the same times as --backbone none but for the last bits. The
# platform then lists about 2 N^1.5 routes instead of N^2, which is what made loading the
# 1024-node platform take 12.5 s (docs/experiments/sim-scale-1024-nodes.md and
# sim-scale-platform-loading.md).
nic_links() { # nic_links I INDENT: node i's two NIC directions of --backbone none and grouped
  echo "$2<link id=\"n$1-nic-up\" bandwidth=\"$nic_bw\" latency=\"$up_lat\"/>"
  echo "$2<link id=\"n$1-nic-down\" bandwidth=\"$nic_bw\" latency=\"$nic_lat\"/>"
}
pair_route() { # pair_route I J INDENT: node i to node j over their NICs
  printf '%s<zoneRoute src="n%d" dst="n%d" gw_src="n%d-cpu" gw_dst="n%d-cpu" symmetrical="NO">' \
    "$3" "$1" "$2" "$1" "$2"
  printf '<link_ctn id="n%d-nic-up"/><link_ctn id="n%d-nic-down"/></zoneRoute>\n' "$1" "$2"
}
if [ "$backbone" != shared ]; then
  up_lat="$(awk -v a="$(seconds "$nic_lat")" -v b="$(seconds "$bb_lat")" 'BEGIN { printf "%.17g", a + b }')s"
fi
if [ "$backbone" = grouped ]; then
  groups=$(awk -v n="$nodes" 'BEGIN { g = int(sqrt(n)); if (g * g < n) g++; print g }')
  size=$(((nodes + groups - 1) / groups))
  groups=$(((nodes + size - 1) / size))
  for ((g = 0; g < groups; g++)); do
    first=$((g * size)) last=$(((g + 1) * size < nodes ? (g + 1) * size : nodes))
    echo "    <zone id=\"g$g\" routing=\"Full\">"
    echo "      <zone id=\"g$g-gateway\" routing=\"None\"><router id=\"g$g-router\"/></zone>"
    for ((i = first; i < last; i++)); do node_zone "$i" "      "; done
    for ((i = first; i < last; i++)); do nic_links "$i" "      "; done
    for ((i = first; i < last; i++)); do
      for ((j = first; j < last; j++)); do
        [ "$i" -ne "$j" ] && pair_route "$i" "$j" "      "
      done
      printf '      <zoneRoute src="n%d" dst="g%d-gateway" gw_src="n%d-cpu" gw_dst="g%d-router" symmetrical="NO"><link_ctn id="n%d-nic-up"/></zoneRoute>\n' \
        "$i" "$g" "$i" "$g" "$i"
      printf '      <zoneRoute src="g%d-gateway" dst="n%d" gw_src="g%d-router" gw_dst="n%d-cpu" symmetrical="NO"><link_ctn id="n%d-nic-down"/></zoneRoute>\n' \
        "$g" "$i" "$g" "$i" "$i"
    done
    echo "    </zone>"
  done
  for ((g = 0; g < groups; g++)); do
    for ((h = 0; h < groups; h++)); do
      [ "$g" -ne "$h" ] &&
        echo "    <link id=\"g$g-g$h\" bandwidth=\"1000TBps\" latency=\"0s\" sharing_policy=\"FATPIPE\"/>"
    done
  done
  for ((g = 0; g < groups; g++)); do
    for ((h = 0; h < groups; h++)); do
      [ "$g" -ne "$h" ] &&
        printf '    <zoneRoute src="g%d" dst="g%d" gw_src="g%d-router" gw_dst="g%d-router" symmetrical="NO"><link_ctn id="g%d-g%d"/></zoneRoute>\n' \
          "$g" "$h" "$g" "$h" "$g" "$h"
    done
  done
  echo '  </zone>'
  echo '</platform>'
  exit 0
fi
for ((i = 0; i < nodes; i++)); do node_zone "$i" "    "; done
# The links, then one route per ordered pair through them (route: a printf format of the
# sending node's and the receiving node's number).
if [ "$backbone" = none ]; then
  for ((i = 0; i < nodes; i++)); do nic_links "$i" "    "; done
  route='<link_ctn id="n%d-nic-up"/><link_ctn id="n%d-nic-down"/>'
else
  for ((i = 0; i < nodes; i++)); do
    echo "    <link id=\"n$i-nic\" bandwidth=\"$nic_bw\" latency=\"$nic_lat\" sharing_policy=\"SPLITDUPLEX\"/>"
  done
  echo "    <link id=\"backbone\" bandwidth=\"$bb_bw\" latency=\"$bb_lat\" sharing_policy=\"FATPIPE\"/>"
  route='<link_ctn id="n%d-nic" direction="UP"/><link_ctn id="backbone"/><link_ctn id="n%d-nic" direction="DOWN"/>'
fi
for ((i = 0; i < nodes; i++)); do
  for ((j = 0; j < nodes; j++)); do
    [ "$i" -eq "$j" ] && continue
    printf "    <zoneRoute src=\"n%d\" dst=\"n%d\" gw_src=\"n%d-cpu\" gw_dst=\"n%d-cpu\" symmetrical=\"NO\">$route</zoneRoute>\n" \
      "$i" "$j" "$i" "$j" "$i" "$j"
  done
done
echo '  </zone>'
echo '</platform>'
