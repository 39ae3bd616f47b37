#!/usr/bin/env bash
# sweep_real.sh NARWHAL: a sweep of real-backend points, each under mpirun with its nodes as
# ranks (tools/narwhal/sweep.c): two points, 1 and 2 ranks, each verified against the
# reference, the 2-rank one having moved data between ranks.
set -euo pipefail
nw=$1
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
cat >"$tmp/sweep.json" <<JSON
{"base": {"app": "matmul", "backend": "real", "n": 256, "block": 64, "cpu-devices": 1,
          "placement": "blocks"},
 "vary": {"nodes": [1, 2]},
 "mpirun": ["timeout", "120", "mpirun", "--oversubscribe", "--bind-to", "none"],
 "csv": "$tmp/out.csv"}
JSON
"$nw" sweep "$tmp/sweep.json" --plot off
cat "$tmp/out.csv"
awk -F, 'NR == 1 { for (i = 1; i <= NF; i++) col[$i] = i; next }
  { rows++; if ($col["verified"] != "true") bad = bad " point " $1 " not verified"
    if ($1 == 2 && $col["bytes_network"] + 0 <= 0) bad = bad " 2 ranks moved no data"
    nodes = nodes $1 " " }
  END { if (rows != 2 || nodes != "1 2 ") bad = bad " rows for nodes: " nodes
        if (bad != "") { print "FAIL:" bad; exit 1 } print "ok: 2 real points, verified" }' \
  "$tmp/out.csv"
