#!/usr/bin/env bash
# link-burst.sh [RATE] [BURST...]: what tbf's bucket lets through on an emulated link. Brings up
# two emulated hosts (scripts/emulated-cluster.sh) with links of RATE (default 100mbit), then
# for each BURST (default 256kb 32kb) shapes both hosts' links with it and times single
# messages of 128 KB, 1 MB and 4 MB from h1 to h2 over one TCP connection, each after 0.3 s of
# quiet, the receiver answering a byte: Mbit/s per message, five each. A NIC sends at its rate
# from the first byte; a bucket lets its size through at the veth's speed first
# (docs/experiments/network-validation.md). As root; takes the hosts down after.
set -euo pipefail
cd "$(dirname "$0")/.."
rate=${1:-100mbit}
shift || true
bursts=("$@")
[ ${#bursts[@]} -gt 0 ] || bursts=(256kb 32kb)
cluster=scripts/emulated-cluster.sh
probe='
import socket, sys, time
if sys.argv[1] == "server":
    s = socket.socket(); s.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    s.bind(("10.77.0.2", 5998)); s.listen(1); c, _ = s.accept()
    c.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
    while True:
        h = c.recv(8)
        if not h: break
        n, got = int.from_bytes(h, "little"), 0
        while got < n: got += len(c.recv(min(1 << 20, n - got)))
        c.sendall(b"x")
else:
    s = socket.create_connection(("10.77.0.2", 5998))
    s.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
    for n in (131072, 1 << 20, 4 << 20):
        rates = []
        for _ in range(5):
            time.sleep(0.3)
            t0 = time.time(); s.sendall(n.to_bytes(8, "little") + bytes(n)); s.recv(1)
            rates.append(n * 8 / (time.time() - t0) / 1e6)
        print("%9d bytes: %s Mbit/s" % (n, " ".join("%.0f" % r for r in rates)))
'
trap '"$cluster" down >/dev/null 2>&1 || true' EXIT
"$cluster" up 2 --bw "$rate" >/dev/null
for burst in "${bursts[@]}"; do
  for h in 1 2; do
    "$cluster" on "h$h" -- tc qdisc replace dev eth0 root tbf rate "$rate" burst "$burst" latency 100ms
  done
  echo "$rate, tbf burst $burst:"
  "$cluster" on h2 -- python3 -c "$probe" server &
  server=$!
  sleep 0.5
  "$cluster" on h1 -- python3 -c "$probe" client
  wait $server
done
