#!/usr/bin/env python3
"""message-delays.py TRACE.json...: how long messages between nodes waited, from their sending
to the start of their handling, split by receiver and by whether a kernel ran at the sender and
at the receiver when each was sent. Reads the traces `narwhal run --trace` writes, of either
backend (message spans: cat "message", pid the receiver, args.from the sender; kernels: cat
"exec"). docs/experiments/kernel-drift.md compares hardware and simulation with it."""
import json
import statistics
import sys


def spans_by_node(events, cat):
    out = {}
    for e in events:
        if e.get("cat") == cat:
            out.setdefault(e["pid"], []).append((e["ts"], e["ts"] + e["dur"]))
    return out


def running(kernels, node, t):
    return any(a <= t < b for a, b in kernels.get(node, []))


def main(paths):
    if not paths:
        print("usage: message-delays.py TRACE.json...", file=sys.stderr)
        return 2
    for path in paths:
        try:
            with open(path) as f:
                events = json.load(f)["traceEvents"]
        except (OSError, ValueError, KeyError, TypeError) as e:
            print(f"message-delays: {path}: not a narwhal trace ({e})", file=sys.stderr)
            return 2
        kernels = spans_by_node(events, "exec")
        split = {}
        for e in events:
            if e.get("cat") != "message":
                continue
            src, dst = e.get("args", {}).get("from"), e["pid"]
            if src is None or src == dst:
                continue
            key = (dst, running(kernels, src, e["ts"]), running(kernels, dst, e["ts"]))
            split.setdefault(key, []).append(e["dur"])
        print(path)
        for (dst, at_src, at_dst), waits in sorted(split.items()):
            print(f"  to node {dst}, kernel at sender {'yes' if at_src else 'no ':3} at receiver "
                  f"{'yes' if at_dst else 'no ':3}: {len(waits):5d} messages, median "
                  f"{statistics.median(waits):7.0f} us, mean {statistics.mean(waits):7.0f} us")
    return 0


if __name__ == "__main__":
    try:
        sys.exit(main(sys.argv[1:]))
    except BrokenPipeError:  # its reader (head, say) stopped early: nothing left to say
        sys.stderr.close()
        sys.exit(0)
