#!/usr/bin/env bash
# emulated_hosts.sh NARWHAL MPIEXEC SRC_DIR: the real backend across three emulated hosts
# (scripts/emulated-cluster.sh: a network and UTS namespace each, links shaped to 200 Mbit/s).
#  1. A transfer from h1 to h2 measures within 10% of the shaped rate.
#  2. matmul, conv2d and lu verify with one rank per host and Open MPI's shared-memory
#     transport left out (--mca btl tcp,self): the ranks can only talk TCP.
#     `narwhal calibrate` across the hosts measures the link within 15% of the shaped rate,
#     and a control message waiting behind 128 KiB to 4 MiB of data in flight to its peer.
#  3. A run whose link is shaped lower mid-run (h2 to 50 Mbit/s) completes verified.
#  4. `down` leaves no namespace, state folder or process behind.
# Skipped (77) where namespaces cannot be made (not root, or the kernel refuses).
set -u
nw=$1 mpiexec=$2 src=$3
cluster=$src/scripts/emulated-cluster.sh
export NW_EMUCLUSTER_DIR=${TMPDIR:-/tmp}/narwhal-emucluster-test.$$
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
export OMPI_MCA_btl_vader_single_copy_mechanism=none
passed=0 failed=0
ok() { echo "emulated_hosts: ok: $*"; passed=$((passed + 1)); }
bad() { echo "emulated_hosts: FAIL: $*"; failed=$((failed + 1)); }
leftovers() { ip netns list 2>/dev/null | grep -cE '^nwc-(br|h[0-9]+)( |$)'; }
trap '"$cluster" down >/dev/null 2>&1' EXIT

[ "$(id -u)" = 0 ] || { echo "emulated_hosts: skipped: needs root for namespaces"; exit 77; }
ip netns add nwc-probe.$$ 2>/dev/null && ip netns del nwc-probe.$$ ||
  { echo "emulated_hosts: skipped: the kernel refuses a network namespace"; exit 77; }
[ "$(leftovers)" = 0 ] || { echo "emulated_hosts: an emulated cluster is up already"; exit 1; }
"$cluster" up 3 --bw 200mbit || { echo "emulated_hosts: up failed"; exit 1; }

# 1. 48 MB from h1 to h2 through the bridge, timed at the receiver.
"$cluster" on h2 -- python3 -c '
import socket, time
s = socket.socket(); s.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
s.bind(("10.77.0.2", 5999)); s.listen(1); c, _ = s.accept()
n, t0 = 0, None
while True:
    b = c.recv(1 << 20)
    if not b: break
    if t0 is None: t0 = time.time()
    n += len(b)
print("%.1f" % (n * 8 / (time.time() - t0) / 1e6))' >rate.$$ &
receiver=$!
sleep 0.5
"$cluster" on h1 -- python3 -c '
import socket
s = socket.create_connection(("10.77.0.2", 5999)); b = bytes(1 << 20)
for _ in range(48): s.sendall(b)
s.close()'
wait $receiver
mbit=$(cat rate.$$ 2>/dev/null)
rm -f rate.$$
awk -v r="${mbit:-0}" 'BEGIN { exit !(r > 180 && r < 220) }' &&
  ok "a transfer h1 -> h2 ran at $mbit Mbit/s (shaped to 200)" ||
  bad "a transfer h1 -> h2 ran at ${mbit:-?} Mbit/s, not within 10% of 200"

# 2. One rank per host, TCP only.
real() { "$cluster" run -- timeout 120 "$mpiexec" -np 3 --mca btl tcp,self \
  "$nw" run --backend real --cpu-devices 1 --json "$@" 2>&1; }
for app in "matmul --n 1024 --block 256" "conv2d --n 1024 --block 256" "lu --n 768 --block 128"; do
  # shellcheck disable=SC2086 # the app and its sizes, as words
  out=$(real --app $app)
  if grep -q '"verified":[[:space:]]*true' <<<"$out"; then
    ok "${app%% *} verified on 3 hosts over TCP ($(grep -o '"bytes_network":[^,]*' <<<"$out"))"
  else
    bad "${app%% *} on 3 hosts: $(tail -n 3 <<<"$out")"
  fi
done
# The ranks ran on three hosts: each names its host (hostname in its UTS namespace).
hosts=$("$cluster" run -- timeout 60 "$mpiexec" -np 3 hostname 2>&1 | sort | tr '\n' ' ')
[ "$hosts" = "h1 h2 h3 " ] && ok "one rank per host: $hosts" || bad "the ranks ran on: $hosts"

# 2b. `narwhal calibrate` across the hosts measures the shaped link (its NIC links' bandwidth).
"$cluster" run -- timeout 300 "$mpiexec" -np 3 "$nw" calibrate --platform-out cal.$$.xml \
  --perfmodel cal.$$.json --workload matmul:512:128 --runs 1 >cal.$$.out 2>&1
bps=$(sed -nE 's/.*<link id="n0-nic" bandwidth="([0-9.e+]+)Bps".*/\1/p' cal.$$.xml 2>/dev/null)
cal=$(awk -v b="${bps:-0}" 'BEGIN { printf "%.1f", b * 8 / 1e6 }')
awk -v r="$cal" 'BEGIN { exit !(r > 170 && r < 230) }' &&
  ok "calibrate across the hosts measured the link at $cal Mbit/s (shaped to 200)" ||
  bad "calibrate across the hosts: the link at $cal Mbit/s, not within 15% of 200: $(tail -n 2 cal.$$.out)"
# 2c. ... and what a control message waits behind on the one TCP connection to a peer: at least
#     one of the real backend's 128 KiB fragments, less than the whole 4 MiB message.
behind=$(sed -nE 's/.*<prop id="rt_control_behind" value="([0-9.e+]+)".*/\1/p' cal.$$.xml 2>/dev/null | head -1)
awk -v b="${behind:-0}" 'BEGIN { exit !(b >= 131072 && b < 4194304) }' &&
  ok "calibrate: a control message waits behind $behind bytes of data in flight" ||
  bad "calibrate: rt_control_behind '${behind}' is not between 128 KiB and 4 MiB"
# 2d. ... and the largest message a rank sends before its receiver's MPI sees it: Open MPI's
#     64 KiB eager limit over TCP, less its header (a larger one goes by rendezvous).
eager=$(sed -nE 's/.*<prop id="rt_eager_bytes" value="([0-9]+)".*/\1/p' cal.$$.xml 2>/dev/null | head -1)
awk -v e="${eager:-0}" 'BEGIN { exit !(e >= 16384 && e <= 131072) }' &&
  ok "calibrate: messages up to $eager bytes go before the receiver sees them" ||
  bad "calibrate: rt_eager_bytes '${eager}' is not between 16 KiB and 128 KiB"
rm -f cal.$$.xml cal.$$.json cal.$$.out

# 3. A link shaped lower mid-run: matmul moving ~25 MB, h2 slowed to 50 Mbit/s after 1 s
#    (while the run still runs: the test checks).
real --app matmul --n 2048 --block 512 >slow.$$ &
job=$!
sleep 1
kill -0 $job 2>/dev/null && running=1 || running=0
"$cluster" shape h2 50mbit
wait $job
[ $running = 1 ] && grep -q '"verified":[[:space:]]*true' slow.$$ &&
  ok "a run whose link was slowed mid-run verified ($(grep -o '"makespan_s":[^,]*' slow.$$))" ||
  bad "the run with a slowed link (running when slowed: $running): $(tail -n 3 slow.$$)"
rm -f slow.$$

# 4. Nothing left behind.
"$cluster" down
left=$(leftovers)
[ "$left" = 0 ] && [ ! -e "$NW_EMUCLUSTER_DIR" ] && ok "down left no namespace or state" ||
  bad "down left $left namespaces (or $NW_EMUCLUSTER_DIR)"
echo "emulated_hosts: $passed passed, $failed failed"
[ "$failed" = 0 ]
