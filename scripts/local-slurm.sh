#!/usr/bin/env bash
# local-slurm.sh: a one-node Slurm on this machine, to try sweeps and real runs through Slurm
# without a cluster (docs/guide/cluster.md, "Sweeps through Slurm"). As root.
#
#   start      a munge key if there is none, munged if it does not run, then slurmctld and
#              slurmd from a slurm.conf of its own (this host, its cores, no cgroups, no
#              accounting), and waits until `sinfo` shows the node idle
#   stop       stops the two daemons it started and removes its folder
#   run -- CMD runs CMD with SLURM_CONF pointing at its slurm.conf (sbatch, squeue, sinfo...)
#   status     sinfo's view
#
# Its files live in $NW_SLURM_DIR (default /run/narwhal-slurm); its daemons listen on ports
# 6917 and 6918, not Slurm's defaults, and read only its slurm.conf: a Slurm already on the
# machine is left alone. Needs Debian's slurmctld, slurmd, slurm-client and munge
# (scripts/bootstrap.sh installs them).
set -u
dir=${NW_SLURM_DIR:-/run/narwhal-slurm}
conf=$dir/slurm.conf
say() { echo "local-slurm: $*" >&2; }
refuse() { say "$*"; exit 2; }

start() {
  [ "$(id -u)" = 0 ] || refuse "needs root (the daemons run as root)"
  for tool in slurmctld slurmd sinfo munged; do
    command -v "$tool" >/dev/null || refuse "no $tool (scripts/bootstrap.sh installs Slurm and munge)"
  done
  [ ! -e "$dir/slurmctld.pid" ] || refuse "already started ($dir): stop first"
  mkdir -p "$dir/state" "$dir/spool" || exit 1
  # munge: Slurm's authentication between its daemons and clients.
  if [ ! -s /etc/munge/munge.key ]; then
    mkdir -p /etc/munge
    dd if=/dev/urandom of=/etc/munge/munge.key bs=1024 count=1 status=none
    chown munge:munge /etc/munge/munge.key 2>/dev/null
    chmod 400 /etc/munge/munge.key
  fi
  if ! pgrep -x munged >/dev/null; then
    mkdir -p /run/munge && chown munge:munge /run/munge 2>/dev/null
    su -s /bin/sh munge -c munged 2>/dev/null || munged --force || refuse "munged does not start"
  fi
  local host cpus mem
  host=$(hostname -s)
  cpus=$(nproc)
  mem=$(awk '/MemTotal/ { printf "%d", $2 / 1024 * 0.9 }' /proc/meminfo)
  cat >"$conf" <<EOF
# Written by scripts/local-slurm.sh: one node, this host.
ClusterName=narwhal-local
SlurmctldHost=$host
SlurmctldPort=6917
SlurmdPort=6918
SlurmUser=root
SlurmdUser=root
AuthType=auth/munge
StateSaveLocation=$dir/state
SlurmdSpoolDir=$dir/spool
SlurmctldPidFile=$dir/slurmctld.pid
SlurmdPidFile=$dir/slurmd.pid
SlurmctldLogFile=$dir/slurmctld.log
SlurmdLogFile=$dir/slurmd.log
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
JobAcctGatherType=jobacct_gather/none
AccountingStorageType=accounting_storage/none
SchedulerType=sched/backfill
SelectType=select/cons_tres
SelectTypeParameters=CR_Core
MpiDefault=none
ReturnToService=2
SlurmdTimeout=30
NodeName=$host CPUs=$cpus RealMemory=$mem State=UNKNOWN
PartitionName=local Nodes=$host Default=YES MaxTime=INFINITE State=UP OverSubscribe=NO
EOF
  slurmctld -f "$conf" || { say "slurmctld does not start: $(tail -n 3 "$dir/slurmctld.log" 2>/dev/null)"; stop; exit 1; }
  slurmd -f "$conf" || { say "slurmd does not start: $(tail -n 3 "$dir/slurmd.log" 2>/dev/null)"; stop; exit 1; }
  local state=""
  for _ in $(seq 1 60); do
    state=$(SLURM_CONF=$conf sinfo -h -o %T 2>/dev/null | head -1)
    [ "$state" = idle ] && break
    sleep 0.5
  done
  if [ "$state" != idle ]; then
    say "the node is not idle after 30 s (sinfo: ${state:-nothing}); $dir/slurmd.log says: $(tail -n 2 "$dir/slurmd.log" 2>/dev/null)"
    stop
    exit 1
  fi
  say "started: node $host ($cpus cores) idle; SLURM_CONF=$conf"
}

stop() {
  local f pid
  for f in slurmd slurmctld; do
    pid=$(cat "$dir/$f.pid" 2>/dev/null)
    [ -n "$pid" ] && kill "$pid" 2>/dev/null
    for _ in $(seq 1 50); do
      [ -n "$pid" ] && kill -0 "$pid" 2>/dev/null || break
      sleep 0.1
    done
    [ -n "$pid" ] && kill -9 "$pid" 2>/dev/null
  done
  rm -rf "$dir"
}

cmd=${1:-}
shift || true
case $cmd in
start) start ;;
stop) stop ;;
run)
  [ "${1:-}" = "--" ] && shift
  [ $# -ge 1 ] || refuse "run -- CMD..."
  [ -f "$conf" ] || refuse "not started (start first)"
  SLURM_CONF=$conf exec "$@"
  ;;
status) [ -f "$conf" ] && SLURM_CONF=$conf sinfo || echo "local Slurm not started" ;;
*) refuse "usage: local-slurm.sh start | stop | run -- CMD | status" ;;
esac
