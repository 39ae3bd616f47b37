#!/usr/bin/env bash
# header_sizes.sh SRC_DIR: core/'s headers stay small enough to read at a sitting, and
# node_internal.h stays an umbrella that only includes them (core/README.md, "Headers"): a
# header past 300 lines, or an umbrella of 150, is where the next module's declarations
# should have gone into a header of their own. Prints each offender; fails if there is one.
set -u
src=${1:?usage: header_sizes.sh SRC_DIR}
[ -d "$src/core" ] || { echo "header_sizes: no core/ under $src"; exit 2; }
max_header=300
max_umbrella=150
umbrella="$src/core/node/node_internal.h"
[ -f "$umbrella" ] || { echo "header_sizes: no $umbrella"; exit 2; }
bad=0
checked=0
while IFS= read -r -d '' h; do
  checked=$((checked + 1))
  lines=$(wc -l < "$h")
  if [ "$lines" -gt "$max_header" ]; then
    echo "${h#"$src"/}: $lines lines, over $max_header: move a module's part into a header of its own"
    bad=$((bad + 1))
  fi
done < <(find "$src/core" -name '*.h' -print0)
lines=$(wc -l < "$umbrella")
if [ "$lines" -ge "$max_umbrella" ]; then
  echo "core/node/node_internal.h: $lines lines, not under $max_umbrella: it only includes the" \
    "headers that hold the node's state; declarations go in their module's header"
  bad=$((bad + 1))
fi
if [ "$bad" -gt 0 ]; then
  echo "header_sizes: $bad failed ($checked headers checked)"
  exit 1
fi
echo "header_sizes: 0 failed ($checked headers checked)"
