# json_field.sh: sourced by the test scripts that read numbers out of `narwhal run --json`.
# field TEXT KEY: the first number KEY has in the JSON text TEXT (empty if none).
field() { printf '%s' "$1" | grep -oE "\"$2\":[[:space:]]*[0-9.eE+-]+" | head -1 | grep -oE '[0-9.eE+-]+$'; }
