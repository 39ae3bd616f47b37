# json_field.sh: sourced by the test scripts that read numbers out of `narwhal run --json`.
# field TEXT KEY: the first number KEY has in the JSON text TEXT (empty if none).
field() { printf '%s' "$1" | grep -oE "\"$2\":[[:space:]]*[0-9.eE+-]+" | head -1 | grep -oE '[0-9.eE+-]+$'; }
# field_sum TEXT KEY: the sum of every number KEY has in TEXT (the devices' busy_s, say).
field_sum() { printf '%s' "$1" | grep -oE "\"$2\":[[:space:]]*[0-9.eE+-]+" | awk -F: '{ s += $2 } END { printf "%.12g", s }'; }
