# baseline_check.sh: sourced by the benchmarks that take BASELINE (a build directory of another
# commit, measured beside this one). A before/after compares the runtime only when both builds
# compile alike: a Release baseline (-O3, the Task Bench kernel vectorised) beside this
# RelWithDebInfo build (-O2) ran the same kernel 2.5x faster and made the runtime look twice as
# slow per task. check_baseline NAME BUILD BASELINE exits 2 with one line when the baseline is
# missing or was configured with another build type or other C flags.
check_baseline() {
  local name=$1 build=$2 base=$3 key a b
  [ -x "$base/narwhal" ] || { echo "$name: BASELINE=$base: no narwhal there" >&2; exit 2; }
  for key in CMAKE_BUILD_TYPE CMAKE_C_FLAGS; do
    a=$(grep -m1 "^$key:" "$build/CMakeCache.txt" 2>/dev/null | cut -d= -f2-)
    b=$(grep -m1 "^$key:" "$base/CMakeCache.txt" 2>/dev/null | cut -d= -f2-)
    if [ "$a" != "$b" ]; then
      echo "$name: BASELINE=$base was configured with $key='$b', $build with '$a': configure both alike" >&2
      exit 2
    fi
  done
}
