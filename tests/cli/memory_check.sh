#!/usr/bin/env bash
# memory_check.sh NARWHAL SRC_DIR CASE [MPIRUN...]: the memory check before a functional run
# (core/node/memcheck.h; README, "Data modes"). A run whose spaces cannot fit is refused before
# they are made: exit 2 and one line with the estimate and what the machine or the limit
# leaves; the same run made small enough runs and gives the reference's result. The *_limit
# cases set an address-space limit (ulimit -v) first; the real_* cases run under MPIRUN.
set -u
nw=$1 src=$2 case=$3
shift 3
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
small=$src/platforms/small.xml
# Neither app below calls BLAS; one OpenBLAS thread keeps the process small all the same.
export OPENBLAS_NUM_THREADS=1
limit= also=
mpirun=()
want_status=2
case $case in
sim_refused_limit)
  # 1.07 GB per space, a copy on each of 4 nodes and the driver's: 5.4 GB against 2 GB.
  limit=2000000
  args=(run --app conv2d --platform "$small" --nodes 4 --n 16384 --block 1024)
  want="nw_space_create: the run needs ~5.4 GB of address space for its 1 space of 1.1 GB (a copy on each of 4 nodes in this process and the driver's), the address-space limit (ulimit -v) leaves " ;;
sim_replica_refused_limit)
  # The same run made resilient (a loss planned after its end): node 0's replica of the space
  # comes on top, 1.07 GB more, and is named.
  limit=2000000
  args=(run --app conv2d --platform "$small" --nodes 4 --n 16384 --block 1024 --fail 3@1e9)
  want="nw_space_create: the run needs ~6.4 GB of address space for its 1 space of 1.1 GB (a copy on each of 4 nodes in this process, the driver's and node 0's replica), the address-space limit (ulimit -v) leaves " ;;
sim_fits_limit)
  limit=2000000 want_status=0
  args=(run --app conv2d --platform "$small" --nodes 4 --n 1024 --block 128) ;;
sim_gpu_refused_limit)
  # The four modelled GPUs of small.xml map 1 GiB each at their first use.
  limit=2000000
  args=(run --app conv2d --platform "$small" --nodes 4 --n 1024 --block 128 --devices cpu+gpu)
  want="nw_space_create: the run needs ~4.3 GB of address space for its 1 space of 4 MB (a copy on each of 4 nodes in this process, the driver's and 4.3 GB of modelled GPU memory (--gpu-mem)), the address-space limit (ulimit -v) leaves " ;;
sim_gpu_fits_limit)
  limit=2000000 want_status=0
  args=(run --app conv2d --platform "$small" --nodes 4 --n 1024 --block 128 --devices cpu+gpu
    --gpu-mem 100000000) ;;
sim_refused_ram)
  # 4 TB per space: no machine has the 11 TB its first space needs.
  args=(run --app matmul --platform "$small" --nodes 4 --n 1000000 --block 100000)
  want="nw_space_create: the run needs ~11000 GB of memory for its 1 space of 4000 GB (node 0's copy, the driver's and the other 3 nodes' shares), this machine has "
  also=" available; --data phantom simulates it on sizes alone, without this memory" ;;
sim_phantom_unchecked)
  want_status=0
  args=(run --app matmul --platform "$small" --nodes 4 --n 1000000 --block 100000 --data phantom) ;;
real_refused_limit)
  # 4.3 GB per space, node 0's copy and the driver's: 8.6 GB against 4 GB.
  limit=4000000 mpirun=("$@")
  args=(run --backend real --app conv2d --n 32768 --block 4096)
  want="nw_space_create: the run needs ~8.6 GB of address space for its 1 space of 4.3 GB (node 0's copy and the driver's), the address-space limit (ulimit -v) leaves " ;;
real_fits_limit)
  limit=4000000 want_status=0 mpirun=("$@")
  args=(run --backend real --app conv2d --n 1024 --block 128) ;;
*) echo "memory_check: unknown case $case"; exit 2 ;;
esac

(
  [ -z "$limit" ] || ulimit -v "$limit"
  exec "${mpirun[@]}" timeout 120 "$nw" "${args[@]}"
) >"$tmp/out" 2>"$tmp/err"
status=$?
echo "${limit:+ulimit -v $limit; }${mpirun[*]} narwhal ${args[*]} -> status $status"
cat "$tmp/err"
fail() { echo "memory_check $case: 0 passed, 1 failed: $*"; exit 1; }
[ "$status" -eq "$want_status" ] || fail "status $status, wanted $want_status"
if [ "$want_status" -eq 0 ]; then
  [ "$case" = sim_phantom_unchecked ] || grep -q 'verified  *yes' "$tmp/out" ||
    fail "the result is not the reference's"
  echo "memory_check $case: 1 passed, 0 failed"
  exit 0
fi
# mpirun adds its own lines about the failed rank: Narwhal's own are the ones it names.
lines=$(grep -c '^narwhal: ' "$tmp/err")
[ "$lines" -eq 1 ] || fail "$lines lines from narwhal on stderr, wanted 1"
[ ${#mpirun[@]} -gt 0 ] || [ "$(wc -l <"$tmp/err")" -eq 1 ] ||
  fail "stderr has $(wc -l <"$tmp/err") lines, wanted 1"
grep -qF -- "narwhal: $want" "$tmp/err" || fail "stderr does not contain '$want'"
[ -z "$also" ] || grep -qF -- "$also" "$tmp/err" || fail "stderr does not contain '$also'"
# What the limit or the machine leaves, in GB: below the limit, or below the need.
left=$(sed -n 's/.*\(leaves\|has\) \([0-9.]*\) \(GB\|MB\).*/\2 \3/p' "$tmp/err")
[ -n "$left" ] || fail "no amount left in the message"
if [ -n "$limit" ]; then
  awk -v l="$left" -v kib="$limit" 'BEGIN { split(l, a, " "); b = a[1] * (a[2] == "GB" ? 1e9 : 1e6);
    exit !(b > 0 && b <= kib * 1024) }' || fail "'$left' left is not below the limit"
fi
[ ! -s "$tmp/out" ] || fail "stdout is not empty"
echo "memory_check $case: 1 passed, 0 failed"
