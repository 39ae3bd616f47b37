# platform_property.sh: sourced by the sim tests of one runtime-cost property of the CPU hosts
# (sim_costs.h). They set nw (narwhal), gen (platforms/gen-platform.sh), tmp (a scratch folder)
# and run (the `narwhal run` arguments, --platform left out) before calling these.

# one_node_unchanged KEY=VALUE: prints the makespans of one two-core node without and with the
# property; true when both exist and are equal (a node sends itself no messages).
one_node_unchanged() {
  "$gen" --nodes 1 --cores 2 >"$tmp/one.xml"
  "$gen" --nodes 1 --cores 2 --cpu-prop "$1" >"$tmp/one_prop.xml"
  local a b
  a=$(field "$("$nw" "${run[@]}" --platform "$tmp/one.xml")" makespan_s)
  b=$(field "$("$nw" "${run[@]}" --platform "$tmp/one_prop.xml")" makespan_s)
  echo "one node: $a s, $b s with the property"
  [ -n "$a" ] && [ "$a" = "$b" ]
}

# refused_in_one_line KEY=VALUE: a two-node platform with the property is refused with exit 2
# and one line naming KEY; otherwise prints what the run did and is false.
refused_in_one_line() {
  "$gen" --nodes 2 --cores 1 --cpu-prop "$1" >"$tmp/bad.xml"
  local out rc
  out=$("$nw" "${run[@]}" --platform "$tmp/bad.xml" 2>&1 >/dev/null)
  rc=$?
  [ "$rc" -eq 2 ] && [ "$(printf '%s\n' "$out" | grep -c .)" -eq 1 ] &&
    printf '%s' "$out" | grep -q "${1%%=*}" && return 0
  echo "$1: exit $rc, '$out'"
  return 1
}
