# settle.sh: sourced by the benchmarks that time one process against another (starpu.sh,
# run.sh). Before each timed process they touch and free more memory than it will use, so
# that each first-touches recently freed pages (benchmarks/touch_pages.c says why).

# settle_mib N: MiB to touch before a process holding up to five N x N float matrices
# (Narwhal's matmul: the app's copies of A and B, the spaces A, B and C): 1.5x that, at most
# half of what the machine has available.
settle_mib() {
  local mib avail
  mib=$(($1 * $1 * 4 * 15 / 2 / 1048576 + 64))
  avail=$(awk '/^MemAvailable:/ { print int($2 / 2048) }' /proc/meminfo)
  echo $((mib < avail ? mib : avail))
}

# settle BUILD_DIR MIB: touches and frees MIB MiB (nothing where the build has no touch_pages).
settle() {
  [ ! -x "$1/benchmarks/touch_pages" ] || "$1/benchmarks/touch_pages" "$2" >/dev/null
}
