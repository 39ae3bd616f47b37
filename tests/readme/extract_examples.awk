# extract_examples.awk: splits Markdown files into their marked example blocks (README.md,
# "Tests": the marker convention). Variables: out (a folder). For each block marked
# `<!-- example... -->` directly before its fence it writes out/NNN.sh (the block's lines) and
# out/NNN.expect (its `<!-- expect ... -->` lines, one check per line), and a line
# "NNN<TAB>FILE<TAB>FIRST_LINE<TAB>KIND<TAB>REASON" to out/manifest. Mistakes in the markup go
# to out/problems, one per line, so that a command block nobody classified, or a marker that
# lost its block, fails the test instead of being silently left out.
function problem(file, msg) { print file ":" msg > (out "/problems") }
function reset() { kind = ""; reason = ""; expects = ""; marker_at = 0 }
FNR == 1 {
  if (in_block) problem(prev, block_at ": fence never closed")
  if (kind != "") problem(prev, marker_at ": example marker not directly before a fenced block")
  in_block = 0; dest = ""; reset(); prev = FILENAME
}
in_block {
  if ($0 ~ /^```[ \t]*$/) { in_block = 0; if (dest != "") close(dest); dest = ""; next }
  if (dest != "") print > dest
  next
}
/^```/ {
  info = substr($0, 4); gsub(/^[ \t]+|[ \t]+$/, "", info)
  in_block = 1; block_at = FNR
  if (kind != "") {
    n++; id = sprintf("%03d", n)
    dest = out "/" id ".sh"; printf "" > dest
    printf "%s", expects > (out "/" id ".expect"); close(out "/" id ".expect")
    print id "\t" FILENAME "\t" FNR + 1 "\t" kind "\t" reason > (out "/manifest")
  } else if (info == "" || info ~ /^(sh|bash|shell|console)$/) {
    # Blocks of code in a language (```c, ```json) are not commands; every other block is.
    problem(FILENAME, FNR ": command block without an example marker (<!-- example... -->)")
  }
  reset()
  next
}
/^<!-- example(: [a-z]+.*)? -->$/ {
  if (kind != "") problem(FILENAME, marker_at ": example marker not directly before a fenced block")
  reset(); marker_at = FNR
  body = $0; sub(/ -->$/, "", body); sub(/^<!-- example:? ?/, "", body)
  kind = (body == "") ? "run" : body; sub(/[ ,].*/, "", kind)
  reason = body; sub(/^[a-z]+,? ?/, "", reason)
  if (kind !~ /^(run|gpu|long|bootstrap|slurm|python)$/) problem(FILENAME, FNR ": unknown example kind '" kind "'")
  next
}
/^<!-- expect (output|file): .+ -->$/ {
  if (kind == "") { problem(FILENAME, FNR ": expect marker without an example marker above it"); next }
  body = $0; sub(/ -->$/, "", body); sub(/^<!-- expect /, "", body)
  expects = expects body "\n"
  next
}
kind != "" { problem(FILENAME, marker_at ": example marker not directly before a fenced block"); reset() }
END {
  if (in_block) problem(FILENAME, block_at ": fence never closed")
  if (kind != "") problem(FILENAME, marker_at ": example marker not directly before a fenced block")
}
