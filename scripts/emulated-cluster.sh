#!/usr/bin/env bash
# emulated-cluster.sh: N "hosts" on this machine, for running Narwhal's real backend across
# hosts over TCP without a cluster (docs/guide/cluster.md, "An emulated cluster").
#
#   up N [--bw RATE] [--cpus C]
#                         N hosts h1..hN: a network namespace each (its own eth0, address
#                         10.77.0.K/24, loopback) with its own hostname (a UTS namespace), all
#                         joined by a bridge in a namespace of its own; RATE (tc's units:
#                         100mbit, 1gbit) shapes every host's outgoing link (tbf); C gives
#                         each host C cores of its own (host K: cores (K-1)C..KC-1, so N x C
#                         must not exceed this machine's cores), else all hosts share them all
#   down                  removes everything up made: processes in its namespaces, the
#                         namespaces, the state folder (also after a failed up or run)
#   run -- CMD...         runs CMD on h1 with Open MPI pointed at the hosts: a hostfile of one
#                         slot per host and an rsh agent that starts a command in a host's
#                         namespaces, so `run -- mpirun -np 3 build/narwhal run --backend real
#                         ...` puts one rank on each host, talking TCP; with TCP keepalive
#                         on mpirun's daemon links, so a cut link ends mpirun within seconds
#   on HOST -- CMD...     runs CMD in one host's namespaces (h2, or 10.77.0.2)
#   shape HOST RATE       sets HOST's outgoing link to RATE now (a link slowed mid-run)
#   cut HOST              takes HOST's link down now (a link that fails mid-run)
#   status                the hosts, their addresses and links
#
# Nothing outside the namespaces it makes is touched, and no traffic leaves them: the hosts
# have no route out. Root only (namespaces). The state lives in $NW_EMUCLUSTER_DIR (default
# /run/narwhal-emucluster); the namespaces are named nwc-br and nwc-h1..nwc-hN.
set -u
state=${NW_EMUCLUSTER_DIR:-/run/narwhal-emucluster}
self=$(cd "$(dirname "$0")" && pwd)/$(basename "$0")
prefix=nwc
subnet=10.77.0

say() { echo "emulated-cluster: $*" >&2; }
refuse() { say "$*"; exit 2; }
need_root() { [ "$(id -u)" = 0 ] || refuse "needs root (network and UTS namespaces)"; }

# The index K of a host named hK or 10.77.0.K; refuses any other name.
host_index() {
  local k
  case $1 in
  h[0-9]*) k=${1#h} ;;
  "$subnet".[0-9]*) k=${1##*.} ;;
  *) refuse "unknown host '$1' (h1..hN or $subnet.1..N)" ;;
  esac
  [[ $k =~ ^[0-9]+$ ]] && [ -f "$state/uts/h$k" ] || refuse "no host '$1' (is the cluster up?)"
  echo "$k"
}

# Runs a command in host K's network and UTS namespaces, on its own cores if it has some.
in_host() {
  local k=$1
  shift
  local pin=()
  [ -s "$state/cpus/h$k" ] && pin=(taskset -c "$(cat "$state/cpus/h$k")")
  ip netns exec "$prefix-h$k" nsenter --uts="$state/uts/h$k" -- "${pin[@]}" "$@"
}

down() {
  local ns
  for ns in $(ip netns list 2>/dev/null | awk '{print $1}' | grep -E "^$prefix-(br|h[0-9]+)$"); do
    ip netns pids "$ns" 2>/dev/null | xargs -r kill -9 2>/dev/null
    ip netns del "$ns" 2>/dev/null || say "could not remove namespace $ns"
  done
  if [ -d "$state/uts" ]; then
    for f in "$state"/uts/*; do
      [ -e "$f" ] && { umount "$f" 2>/dev/null; rm -f "$f"; }
    done
  fi
  rm -rf "$state"
}

# A NIC sends at its rate from the first byte; tbf's bucket lets a burst through at the veth's
# speed. With 256 KB of bucket, 1 MB messages after a pause ran 24% above 100 Mbit/s and 128 KB
# ones at 3-5 Gbit/s; with 32 KB, 1 MB ran at 98 Mbit/s and 4 MB at 96 (TCP's headers), 377-383
# at 400 Mbit/s, 881-927 at 1 Gbit/s (docs/experiments/network-validation.md).
shape() { # shape K RATE: tbf on host K's eth0, replacing any
  in_host "$1" tc qdisc replace dev eth0 root tbf rate "$2" burst 32kb latency 100ms ||
    refuse "cannot shape h$1's link to '$2' (tc's units: 100mbit, 1gbit)"
}

up() {
  local n=${1:-} bw= cpus=
  shift || true
  [[ $n =~ ^[0-9]+$ ]] && [ "$n" -ge 2 ] && [ "$n" -le 200 ] ||
    refuse "up N: N must be a number of hosts from 2 to 200, not '${n}'"
  while [ $# -gt 0 ]; do
    case $1 in
    --bw) [ $# -ge 2 ] || refuse "--bw needs a rate (100mbit, 1gbit)"; bw=$2; shift 2 ;;
    --cpus) [ $# -ge 2 ] || refuse "--cpus needs a number of cores per host"; cpus=$2; shift 2 ;;
    *) refuse "up: unexpected '$1' (up N [--bw RATE] [--cpus C])" ;;
    esac
  done
  if [ -n "$cpus" ]; then
    [[ $cpus =~ ^[0-9]+$ ]] && [ "$cpus" -ge 1 ] || refuse "--cpus: a number of cores per host >= 1, not '$cpus'"
    [ $((n * cpus)) -le "$(nproc)" ] ||
      refuse "--cpus $cpus: $n hosts x $cpus cores exceed this machine's $(nproc) cores"
  fi
  need_root
  [ ! -e "$state" ] || refuse "a cluster is up already ($state): down first"
  trap 'say "up failed: removing what it made"; down' ERR
  set -eE
  mkdir -p "$state/uts"
  ip netns add "$prefix-br"
  ip -n "$prefix-br" link add br0 type bridge
  ip -n "$prefix-br" link set br0 up
  local k cores=
  # The cores this process may use, one per line: host K takes the Kth C of them.
  [ -z "$cpus" ] || cores=$(taskset -pc $$ | sed 's/.*: //' | tr ',' '\n' |
    awk -F- '{ for (c = $1; c <= ($2 == "" ? $1 : $2); c++) print c }')
  for k in $(seq 1 "$n"); do
    ip netns add "$prefix-h$k"
    ip link add eth0 netns "$prefix-h$k" type veth peer name "h$k" netns "$prefix-br"
    ip -n "$prefix-br" link set "h$k" master br0
    ip -n "$prefix-br" link set "h$k" up
    ip -n "$prefix-h$k" addr add "$subnet.$k/24" dev eth0
    ip -n "$prefix-h$k" link set eth0 up
    ip -n "$prefix-h$k" link set lo up
    touch "$state/uts/h$k"
    if [ -n "$cpus" ]; then
      mkdir -p "$state/cpus"
      sed -n "$(((k - 1) * cpus + 1)),$((k * cpus))p" <<<"$cores" | paste -sd, >"$state/cpus/h$k"
    fi
    unshare --uts="$state/uts/h$k" hostname "h$k"
    echo "$subnet.$k slots=1" >>"$state/hostfile"
  done
  [ -z "$bw" ] || for k in $(seq 1 "$n"); do shape "$k" "$bw"; done
  # Open MPI's rsh launcher calls `AGENT HOST COMMAND...` as it would call ssh: the agent is
  # this script's `on` (the host's namespaces and cores, as in_host).
  cat >"$state/agent" <<EOF
#!/bin/sh
# The rsh agent of the emulated cluster (scripts/emulated-cluster.sh): HOST COMMAND...
host=\$1; shift
NW_EMUCLUSTER_DIR=$state exec $self on "\$host" -- /bin/sh -c "\$*"
EOF
  chmod +x "$state/agent"
  echo "$n" >"$state/hosts"
  echo "${bw:-unshaped}" >"$state/rate"
  set +eE
  trap - ERR
  say "up: $n hosts h1..h$n ($subnet.1-$n), links ${bw:-unshaped}, cores $([ -n "$cpus" ] && echo "$cpus each" || echo shared); hostfile $state/hostfile"
}

run() {
  [ "${1:-}" = "--" ] && shift
  [ $# -ge 1 ] || refuse "run -- CMD..."
  [ -f "$state/hosts" ] || refuse "no cluster is up (up N first)"
  # The launcher, the hostfile and the interfaces: Open MPI reads these from the environment.
  # TCP keepalive on mpirun's connections to its daemons (2 s idle, then 3 probes 1 s apart;
  # Open MPI's default is 300 s idle, 9 probes 20 s apart): with a host's link cut, mpirun
  # learns its daemon there is gone within about 5 s and ends, instead of waiting on it forever
  # (docs/guide/cluster.md, "A host lost"). No binding: every emulated host sees all of this
  # machine's cores and Open MPI binds each host's first rank to core 0, so with its default
  # binding all the ranks shared one core (a 1-byte message between two hosts took 2-3 ms, not
  # the 30-110 us of the link: benchmarks/tcp-vs-shm.sh). Values set by the caller are kept.
  in_host 1 env OMPI_MCA_plm_rsh_agent="$state/agent" \
    OMPI_MCA_orte_default_hostfile="$state/hostfile" OMPI_MCA_oob_tcp_if_include=eth0 \
    OMPI_MCA_btl_tcp_if_include=eth0 \
    OMPI_MCA_hwloc_base_binding_policy="${OMPI_MCA_hwloc_base_binding_policy:-none}" \
    OMPI_MCA_oob_tcp_keepalive_time="${OMPI_MCA_oob_tcp_keepalive_time:-2}" \
    OMPI_MCA_oob_tcp_keepalive_intvl="${OMPI_MCA_oob_tcp_keepalive_intvl:-1}" \
    OMPI_MCA_oob_tcp_keepalive_probes="${OMPI_MCA_oob_tcp_keepalive_probes:-3}" "$@"
}

status() {
  [ -f "$state/hosts" ] || { echo "no emulated cluster is up"; return 0; }
  echo "$(cat "$state/hosts") hosts, links $(cat "$state/rate"), state in $state"
  local k
  for k in $(seq 1 "$(cat "$state/hosts")"); do
    echo "h$k $subnet.$k cores $(cat "$state/cpus/h$k" 2>/dev/null || echo all) $(in_host "$k" tc qdisc show dev eth0 | head -1)"
  done
}

cmd=${1:-}
shift || true
case $cmd in
up) up "$@" ;;
down) need_root; down ;;
run) need_root; run "$@" ;;
on)
  need_root
  [ $# -ge 3 ] && [ "$2" = "--" ] || refuse "on HOST -- CMD..."
  k=$(host_index "$1") || exit 2
  shift 2
  in_host "$k" "$@"
  ;;
shape) need_root; [ $# = 2 ] || refuse "shape HOST RATE"; k=$(host_index "$1") || exit 2; shape "$k" "$2" ;;
cut) need_root; [ $# = 1 ] || refuse "cut HOST"; k=$(host_index "$1") || exit 2; in_host "$k" ip link set eth0 down ;;
status) status ;;
*) refuse "usage: emulated-cluster.sh up N [--bw RATE] | down | run -- CMD | on HOST -- CMD | shape HOST RATE | cut HOST | status" ;;
esac
