#!/usr/bin/env bash
# check-repeats.sh: finds copied code. Every window of 10 consecutive non-blank lines (leading
# and trailing whitespace ignored) of the C, CUDA, shell and CMake files outside tests/, .git/
# and build*/ directories is hashed; a window that occurs twice means code that was copied
# instead of shared, and should become one function (or one sourced file) both places call.
#
# Usage: scripts/check-repeats.sh [REPO_ROOT]   (default: the repository holding this script)
# Prints each repeated block (overlapping repeated windows are merged into one block) with
# file:line of the first line of every occurrence, and exits 1; exits 0 with a one-line summary
# when there is none. ctest runs it as repo.no_repeated_blocks.
set -euo pipefail
root=${1:-"$(dirname "$0")/.."}
exec python3 - "$root" <<'PY'
import hashlib, os, sys

WINDOW = 10
root = os.path.normpath(sys.argv[1])
if not os.path.isdir(root):  # a wrong path must not pass as a repository without repeats
    sys.exit(f"check-repeats: {root}: not a directory")


def wanted(name):
    return (name.endswith((".c", ".h", ".cu", ".sh", ".cmake"))
            or name == "CMakeLists.txt")


files = []
for dirpath, dirnames, filenames in os.walk(root):
    rel_dir = os.path.relpath(dirpath, root)
    # tests/ may repeat itself (fixtures are clearer spelled out); build trees are generated;
    # hidden folders other than .ci are git's or local tool kits (.devkit: scripts/gpu-kit).
    dirnames[:] = sorted(d for d in dirnames
                         if (d == ".ci" or not d.startswith(".")) and not d.startswith("build")
                         and not (rel_dir == "." and d == "tests"))
    for name in sorted(filenames):
        if wanted(name):
            files.append(os.path.normpath(os.path.join(rel_dir, name)))

# where: hash -> [(file, index of the window's first non-blank line)]; line_no[file][index]:
# that non-blank line's number in the file, for the report.
where = {}
line_no = {}
for rel in files:
    try:
        with open(os.path.join(root, rel), encoding="utf-8", errors="replace") as f:
            kept = [(n, s.strip()) for n, s in enumerate(f, 1) if s.strip()]
    except OSError as e:
        sys.exit(f"check-repeats: {rel}: {e}")
    line_no[rel] = [n for n, _ in kept]
    text = [s for _, s in kept]
    for i in range(len(text) - WINDOW + 1):
        h = hashlib.blake2b("\n".join(text[i:i + WINDOW]).encode(), digest_size=16).digest()
        where.setdefault(h, []).append((rel, i))

repeated = {h: occ for h, occ in where.items() if len(occ) > 1}
# window (file, i) -> its repeated group's hash, to merge the overlapping windows of a longer
# repeated block: a group whose every occurrence continues the same group one line earlier is
# that block's tail, not a block of its own.
group_of = {occ: h for h, occs in repeated.items() for occ in occs}


def shifted(occs, d):
    return [(f, i + d) for f, i in occs]


def continues(occs, d):
    """The group one window away (d = -1: before, +1: after) with the same files, or None."""
    prev = {group_of.get(o) for o in shifted(occs, d)}
    if len(prev) != 1 or None in prev:
        return None
    h = prev.pop()
    return h if sorted(repeated[h]) == sorted(shifted(occs, d)) else None


blocks = []
for h, occs in repeated.items():
    if continues(occs, -1) is not None:
        continue
    length, cur = WINDOW, h
    while (cur := continues(repeated[cur], +1)) is not None:
        length += 1
    blocks.append((sorted(occs), length))

blocks.sort()
for occs, length in blocks:
    print(f"repeated block of {length} non-blank lines:")
    for f, i in occs:
        print(f"  {f}:{line_no[f][i]}")
if blocks:
    print(f"check-repeats: {len(blocks)} repeated block(s) in {len(files)} files "
          f"(share the code instead of copying it)")
    sys.exit(1)
print(f"check-repeats: no block of {WINDOW} non-blank lines repeats in {len(files)} files")
PY
