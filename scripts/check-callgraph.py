#!/usr/bin/env python3
"""Check core/'s layering and the absence of new cycles, from the built objects.

usage: check-callgraph.py BUILD_DIR SOURCE_DIR [--update] [--known FILE]

Reads the object files CMake made for the core library (target nw_core_obj: core/*/*.c) and for
the SimGrid backend (target nw_sim_obj: backends/simgrid/*.c), and draws an edge A -> B between
two source files when A's object uses (nm -u) a global symbol that B's object defines
(nm --defined-only -g). Calls through a function pointer (the policy table, the backend's ops)
name no symbol and draw no edge. Then it reports:

  (a) the cycles among core's files: each strongly connected component of more than one file,
      with, per member, its edges inside the component and one symbol that makes each;
  (b) every edge in core from a lower layer to a higher one, by core/README.md's order
      data < device < sched < node (a .c file directly in core/ takes the layer its name
      names, core/node.c as node; any other is in no layer and is left out of this check);
  (c) the cycles among backends/simgrid's files, as in (a).

The ratchet: tests/arch/known-edges.txt (under SOURCE_DIR) lists, one "from.c -> to.c" a line,
sorted, the edges of (a), (b) and (c) that exist today. An edge of those kinds that the file
does not list is NEW and makes the check fail (exit 1); an edge the file lists that no longer
exists is GONE and also fails, until its line is taken out (--update drops the gone lines and
never adds one), so the file only shrinks and always says what is left.
docs/design/architecture-check.md has more.
"""

import argparse
import os
import re
import subprocess
import sys
from collections import defaultdict

LAYERS = {"data": 0, "device": 1, "sched": 2, "node": 3}
LAYER_NAMES = {v: k for k, v in LAYERS.items()}

# The CMake object libraries: (group, CMake target, source folder, whether the target takes
# the folder's subfolders too: file(GLOB_RECURSE) for core, file(GLOB) for the backend).
GROUPS = (
    ("core", "nw_core_obj", "core/", True),
    ("simgrid", "nw_sim_obj", "backends/simgrid/", False),
)

KNOWN_DEFAULT = os.path.join("tests", "arch", "known-edges.txt")

NM_LINE = re.compile(r"^(.*?\.o): (\S+) (\S)")


def find_objects(build, src):
    """{group: {source path relative to SRC: object path}} from the CMake object folders.

    CMake (Makefiles or Ninja) writes the object of SRC/core/node/task.c for the target
    nw_core_obj at BUILD/CMakeFiles/nw_core_obj.dir/core/node/task.c.o. Other targets that
    compile a core file themselves (a test's own copy) are not the library and are skipped.
    An object whose source file no longer exists (a deleted file's stale object) is skipped too.
    """
    found = {g: {} for g, _, _, _ in GROUPS}
    stale = []
    for group, target, prefix, _ in GROUPS:
        tdir = os.path.join(build, "CMakeFiles", target + ".dir")
        if not os.path.isdir(tdir):
            # Fall back to a search, for a layout where the target's folder sits elsewhere.
            tdir = None
            for root, dirs, _ in os.walk(build):
                if target + ".dir" in dirs:
                    tdir = os.path.join(root, target + ".dir")
                    break
                dirs[:] = [d for d in dirs if not d.startswith(".")]
            if tdir is None:
                continue
        for root, _, files in os.walk(tdir):
            for f in files:
                if not f.endswith(".c.o"):
                    continue
                obj = os.path.join(root, f)
                parts = os.path.relpath(obj, tdir)[: -len(".o")].split(os.sep)
                # A multi-config generator puts a folder (Debug/) before the source's path.
                rel = next(("/".join(parts[i:]) for i in range(len(parts))
                            if "/".join(parts[i:]).startswith(prefix)), None)
                if rel is None:
                    continue
                if not os.path.isfile(os.path.join(src, rel)):
                    stale.append(rel)
                    continue
                found[group][rel] = obj
    return found, stale


def run_nm(args, objects):
    """[(object, symbol, type)] for nm ARGS over OBJECTS, in one call."""
    if not objects:
        return []
    try:
        out = subprocess.run(["nm", "-A", "-P"] + args + objects, check=True,
                             stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                             universal_newlines=True).stdout
    except FileNotFoundError:
        sys.exit("check-callgraph: FAIL: nm not found")
    except subprocess.CalledProcessError as e:
        sys.exit("check-callgraph: FAIL: nm %s: %s" % (" ".join(args), e.stderr.strip()))
    rows = []
    for line in out.splitlines():
        m = NM_LINE.match(line)
        if m:
            rows.append(m.groups())
    return rows


def build_graph(objs):
    """edges {(a, b): sorted symbols} among the sources of OBJS ({source: object})."""
    by_obj = {o: s for s, o in objs.items()}
    files = sorted(objs.values())
    definer = {}
    for obj, sym, _ in run_nm(["--defined-only", "-g"], files):
        definer.setdefault(sym, by_obj[obj])
    edges = defaultdict(set)
    for obj, sym, _ in run_nm(["-u"], files):
        a, b = by_obj[obj], definer.get(sym)
        if b is not None and b != a:
            edges[(a, b)].add(sym)
    return {e: sorted(s) for e, s in edges.items()}


def sccs(nodes, edges):
    """Tarjan's strongly connected components, iteratively; each sorted, the list sorted."""
    succ = defaultdict(list)
    for a, b in edges:
        succ[a].append(b)
    index, low, on, stack, out = {}, {}, set(), [], []
    counter = 0
    for root in sorted(nodes):
        if root in index:
            continue
        work = [(root, iter(sorted(succ[root])))]
        index[root] = low[root] = counter
        counter += 1
        stack.append(root)
        on.add(root)
        while work:
            v, it = work[-1]
            for w in it:
                if w not in index:
                    index[w] = low[w] = counter
                    counter += 1
                    stack.append(w)
                    on.add(w)
                    work.append((w, iter(sorted(succ[w]))))
                    break
                if w in on:
                    low[v] = min(low[v], index[w])
            else:
                work.pop()
                if work:
                    low[work[-1][0]] = min(low[work[-1][0]], low[v])
                if low[v] == index[v]:
                    comp = []
                    while True:
                        w = stack.pop()
                        on.discard(w)
                        comp.append(w)
                        if w == v:
                            break
                    out.append(sorted(comp))
    return sorted(out)


def layer_of(path):
    """core/<layer>/x.c -> layer number; core/<layer>.c -> the same; else None."""
    parts = path.split("/")
    if len(parts) == 3 and parts[0] == "core":
        return LAYERS.get(parts[1])
    if len(parts) == 2 and parts[0] == "core":
        return LAYERS.get(parts[1][: -len(".c")])
    return None


def short(path):
    """The name used in known-edges.txt: core/ and backends/ paths relative to their group."""
    for prefix in ("core/", "backends/"):
        if path.startswith(prefix):
            return path[len(prefix):]
    return path


def report_sccs(title, comps, edges):
    """Print each component and the edges inside it; return those edges."""
    inside = set()
    big = [c for c in comps if len(c) > 1]
    print("%s: %d cycle(s) (strongly connected components of more than one file)"
          % (title, len(big)))
    for i, comp in enumerate(big, 1):
        members = set(comp)
        print("  SCC %d, %d files: %s" % (i, len(comp), " ".join(short(f) for f in comp)))
        for a in comp:
            outs = sorted(b for (x, b) in edges if x == a and b in members)
            print("    %s" % short(a))
            for b in outs:
                syms = edges[(a, b)]
                more = " (+%d more)" % (len(syms) - 1) if len(syms) > 1 else ""
                print("      -> %-28s %s%s" % (short(b), syms[0], more))
                inside.add((a, b))
    return inside


def read_known(path):
    known = set()
    if not os.path.isfile(path):
        return known
    with open(path) as f:
        for n, line in enumerate(f, 1):
            line = line.split("#", 1)[0].strip()
            if not line:
                continue
            m = re.match(r"^(\S+)\s*->\s*(\S+)$", line)
            if not m:
                sys.exit("check-callgraph: FAIL: %s:%d: not 'from.c -> to.c': %r" % (path, n, line))
            known.add((m.group(1), m.group(2)))
    return known


HEADER = """\
# The edges between source files that break core/README.md's layering or close a cycle, and
# that exist today: scripts/check-callgraph.py fails on any such edge not listed here (a new
# one) and on any listed edge that no longer exists (remove its line, or run the script with
# --update). Only ever shrink this file; docs/design/architecture-check.md says why.
# Paths are relative to core/ or backends/ ("simgrid/..."). Sorted.
"""


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("build")
    ap.add_argument("source")
    ap.add_argument("--update", action="store_true",
                    help="drop the edges that are gone from the known-edges file (never adds one;"
                         " with no file yet, writes today's edges)")
    ap.add_argument("--known", help="the known-edges file (default SOURCE/%s)" % KNOWN_DEFAULT)
    args = ap.parse_args()
    known_path = args.known or os.path.join(args.source, KNOWN_DEFAULT)

    found, stale = find_objects(args.build, args.source)
    if not found["core"]:
        print("check-callgraph: FAIL: no core objects under %s/CMakeFiles/nw_core_obj.dir "
              "(build the library first: cmake --build %s)" % (args.build, args.build))
        return 1
    if not found["simgrid"]:
        print("check-callgraph: FAIL: no backends/simgrid objects under %s/CMakeFiles/"
              "nw_sim_obj.dir (build the library first: cmake --build %s)"
              % (args.build, args.build))
        return 1
    for group in found:
        old = [s for s, o in found[group].items()
               if os.path.getmtime(os.path.join(args.source, s)) > os.path.getmtime(o)]
        if old:
            print("note: %d source file(s) newer than their objects (e.g. %s): this checks the "
                  "last build; rebuild to check the sources" % (len(old), sorted(old)[0]))
    for rel in sorted(stale):
        print("note: skipping the object of %s: the source file is gone (stale build object)" % rel)
    for group, _, prefix, recursive in GROUPS:
        top = os.path.join(args.source, prefix)
        srcs = sorted(os.path.relpath(os.path.join(r, f), args.source).replace(os.sep, "/")
                      for r, _, fs in os.walk(top) if recursive or os.path.samefile(r, top)
                      for f in fs if f.endswith(".c"))
        missing = [s for s in srcs if s not in found[group]]
        if missing:
            print("check-callgraph: FAIL: no object for %s (rebuild: cmake --build %s)"
                  % (", ".join(missing), args.build))
            return 1

    flagged = {}  # (a, b) -> kinds
    core_edges = build_graph(found["core"])
    print("core: %d files, %d edges between them" % (len(found["core"]), len(core_edges)))
    for a in sorted(found["core"]):
        if layer_of(a) is None:
            print("note: %s is in no layer (not core/<layer>/); left out of the upward check" % a)
    inside = report_sccs("core", sccs(found["core"], core_edges), core_edges)
    for e in inside:
        flagged.setdefault(e, set()).add("core cycle")

    up = sorted(e for e in core_edges
                if layer_of(e[0]) is not None and layer_of(e[1]) is not None
                and layer_of(e[0]) < layer_of(e[1]))
    print("core: %d upward edge(s) (data < device < sched < node)" % len(up))
    for a, b in up:
        syms = core_edges[(a, b)]
        print("  %-26s -> %-18s %6s -> %-4s  %s" % (short(a), short(b), LAYER_NAMES[layer_of(a)],
                                                  LAYER_NAMES[layer_of(b)], ", ".join(syms)))
        flagged.setdefault((a, b), set()).add("core upward")

    sim_edges = build_graph(found["simgrid"])
    print("simgrid: %d files, %d edges between them" % (len(found["simgrid"]), len(sim_edges)))
    for e in report_sccs("simgrid", sccs(found["simgrid"], sim_edges), sim_edges):
        flagged.setdefault(e, set()).add("simgrid cycle")

    now = {(short(a), short(b)) for a, b in flagged}

    known = read_known(known_path)
    if args.update:
        # Only shrinks the file: a gone edge's line goes, a new edge is not added (it is
        # reported below and fails; add its line by hand, in a commit that says why). With no
        # file yet, it writes today's edges.
        keep = (known & now) if os.path.isfile(known_path) else now
        os.makedirs(os.path.dirname(known_path) or ".", exist_ok=True)
        with open(known_path, "w") as f:
            f.write(HEADER)
            for a, b in sorted(keep):
                f.write("%s -> %s\n" % (a, b))
        print("updated %s: %d edges (%d removed)"
              % (known_path, len(keep), len(known - keep)))
        known = keep

    new = sorted(now - known)
    gone = sorted(known - now)
    full = {(short(a), short(b)): (a, b) for a, b in flagged}
    # New upward edges first: one new call upward usually pulls files into a cycle, turning
    # plain calls that existed before into new cycle edges; the upward one is what to fix.
    new_up = [e for e in new if "core upward" in flagged[full[e]]]
    new.sort(key=lambda e: (e not in new_up, e))
    for i, (a, b) in enumerate(new):
        e = full[(a, b)]
        if new_up and i == len(new_up):
            print("the new cycle edges below may be calls that existed before, now in a cycle "
                  "because of the new upward edge(s) above:")
        syms = (core_edges.get(e) or sim_edges.get(e))
        print("NEW: %s -> %s (%s; %s)" % (a, b, ", ".join(sorted(flagged[e])), ", ".join(syms)))
    for a, b in gone:
        print("gone: remove from known-edges.txt: %s -> %s" % (a, b))
    # The counts are of the known edges that still exist (a new edge is not counted).
    kinds = defaultdict(int)
    still = {e: ks for e, ks in flagged.items() if (short(e[0]), short(e[1])) in known}
    for ks in still.values():
        for k in ks:
            kinds[k] += 1
    both = sum(1 for ks in still.values() if {"core cycle", "core upward"} <= ks)
    print("known: %d edges still to remove (core cycle %d, core upward %d of which %d also in a "
          "cycle, simgrid cycle %d)"
          % (len(known & now), kinds["core cycle"], kinds["core upward"], both,
             kinds["simgrid cycle"]))
    if new or gone:
        print("check-callgraph: FAIL: %d new edge(s)%s, %d gone from %s"
              % (len(new), " (upward: %s)" % ", ".join("%s -> %s" % e for e in new_up)
                 if new_up else "", len(gone), os.path.relpath(known_path, args.source)))
        return 1
    print("check-callgraph: OK")
    return 0


if __name__ == "__main__":
    sys.exit(main())
