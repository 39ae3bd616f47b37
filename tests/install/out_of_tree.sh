#!/usr/bin/env bash
# out_of_tree.sh BUILD_DIR MPIEXEC: what a user of libnarwhal does. Installs the build into a
# temporary prefix, builds examples/first-task there three ways (pkg-config, find_package with
# the shared library, find_package with the static one), and runs each built program on both
# backends (simulated, and under mpirun with two ranks), checking the program's own option
# reached it, its result against its reference, and one-line refusals of bad input.
set -euo pipefail
build=$(cd "$1" && pwd) mpiexec=$2
src=$(cd "$(dirname "$0")/../.." && pwd)
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
prefix=$tmp/prefix
cmake --install "$build" --prefix "$prefix" >/dev/null
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
export OMPI_MCA_btl_vader_single_copy_mechanism=none
unset NARWHAL_PLUGIN_DIR # the plugins must be found from the installed library alone
fail() { echo "FAIL: $*"; exit 1; }

# pkg-config, as a Makefile would.
export PKG_CONFIG_PATH=$prefix/lib/pkgconfig
libdir=$(cd "$(pkg-config --variable=libdir narwhal)" && pwd)
cc -std=c11 -Wall -Wextra -Werror $(pkg-config --cflags narwhal) \
  "$src/examples/first-task/first_task.c" $(pkg-config --libs narwhal) -Wl,-rpath,"$libdir" \
  -o "$tmp/first_task_pc"
# find_package, shared and static.
for kind in shared static; do
  static=$([ $kind = static ] && echo ON || echo OFF)
  cmake -S "$src/examples/first-task" -B "$tmp/cmake-$kind" -DCMAKE_PREFIX_PATH="$prefix" \
    -DNARWHAL_STATIC=$static >/dev/null
  cmake --build "$tmp/cmake-$kind" >/dev/null
  cp "$tmp/cmake-$kind/first_task" "$tmp/first_task_$kind"
done
# (ldd's output whole: grep -q stops reading at its match, and pipefail would count ldd's
# broken pipe as a failure.)
libs=$(ldd "$tmp/first_task_pc")
grep -q "$prefix/lib/libnarwhal.so" <<<"$libs" ||
  fail "first_task_pc does not use the installed libnarwhal: $libs"

# The manual page and the reference pages are installed, and the page is the installed tool's.
cmp -s "$prefix/share/man/man1/narwhal.1" <("$prefix/bin/narwhal" options --man) ||
  fail "share/man/man1/narwhal.1 is missing or not what the installed narwhal writes"
[ -s "$prefix/share/doc/narwhal/reference/options.md" ] || fail "no installed reference/options.md"

platform=$prefix/share/narwhal/platforms/small.xml
args=(--n 8192 --block 512 --alpha 7 --json)
for prog in first_task_pc first_task_shared first_task_static; do
  # The static program looks for the plugins where the library was configured to go, not in
  # this temporary prefix: it is told.
  env=() pass=()
  if [ $prog = first_task_static ]; then
    env=(env NARWHAL_PLUGIN_DIR="$prefix/lib/narwhal") pass=(-x NARWHAL_PLUGIN_DIR)
  fi
  for backend in sim real; do
    if [ $backend = sim ]; then
      out=$("${env[@]}" "$tmp/$prog" --backend sim --platform "$platform" --nodes 3 "${args[@]}")
    else
      out=$("${env[@]}" timeout 120 "$mpiexec" -np 2 --oversubscribe "${pass[@]}" \
        "$tmp/$prog" --backend real "${args[@]}")
    fi || fail "$prog on $backend exited $?"
    grep -q '^first_task: alpha 7, 8192 elements, 0 wrong$' <<<"$out" ||
      fail "$prog on $backend: no exact result with alpha 7: $out"
    flat=$(tr -d '\n' <<<"$out") # (no pipe into grep -q: pipefail would see a broken pipe)
    grep -qE '"verified":[[:space:]]*true' <<<"$flat" ||
      fail "$prog on $backend: --json does not say verified"
    grep -qE '"subtasks":[[:space:]]*16[,}]' <<<"$flat" ||
      fail "$prog on $backend: not 16 subtasks"
    echo "ok: $prog on $backend"
  done
done

# Bad input, Narwhal's and the program's: one line on stderr, exit 2, nothing run.
for bad in "--nodes 0" "--alpha x" "--app matmul" "--block 500"; do
  set +e
  err=$("$tmp/first_task_pc" --backend sim --platform "$platform" --n 8192 $bad 2>&1 >/dev/null)
  rc=$?
  set -e
  [ $rc -eq 2 ] || fail "'$bad' exited $rc, wanted 2"
  [ "$(printf '%s\n' "$err" | wc -l)" -eq 1 ] || fail "'$bad' said more than one line: $err"
  echo "ok: '$bad' refused: $err"
done
echo "out_of_tree: every build ran on both backends"
