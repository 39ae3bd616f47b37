"""narwhal.trace: a --trace file (Chrome trace JSON, lib/trace_json.c; docs/guide/traces.md)
as a DataFrame, a row per span."""
import json
import os

from ._errors import NarwhalInputError

# The columns every row has, in this order; each span's args (task, subtask, bytes, from,
# type, device, space, as its category has them) follow, NaN where a span has none.
COLUMNS = ["node", "lane", "tid", "cat", "name", "ph", "start_us", "dur_us", "end_us"]


def _path(source):
    trace = getattr(source, "trace", None)
    if isinstance(source, dict):
        if not trace:
            raise NarwhalInputError("narwhal.trace: the run wrote no trace (run it with "
                                    "trace='FILE.json' or trace=True)", 2)
        return trace
    return os.fspath(source)


def read(path):
    """The trace's JSON object, refused in one line when it is not a Chrome trace."""
    try:
        with open(path, encoding="utf-8") as f:
            data = json.load(f)
    except OSError as e:
        raise NarwhalInputError(f"narwhal.trace {path}: {e.strerror}", 2) from None
    except ValueError:
        data = None
    if not isinstance(data, dict) or not isinstance(data.get("traceEvents"), list):
        raise NarwhalInputError(f"narwhal.trace {path}: not a Chrome trace (a JSON object with "
                                "a traceEvents list; run with trace=FILE.json and "
                                "trace_format 'chrome')", 2)
    return data


def trace(source, *, instants=False):
    """The spans of a run's trace as a pandas DataFrame, a row per span (an execution, a data
    wait, a copy, a transfer, a message: the file's "X" events) in the file's order: node, lane
    (its name, as Perfetto shows it), tid, cat (exec, wait, copy, transfer, message), name (the
    task kind, the message type, ...), ph, start_us, dur_us, end_us (microseconds from the
    trace's first event) and the span's args. instants=True adds the steals, multi-assigns
    and cancellations ("i" events, dur_us 0). source: a result of narwhal.run(trace=...), or
    the file's path. df.attrs holds the file's otherData (t0_s, complete)."""
    import pandas as pd

    path = _path(source)
    data = read(path)
    lanes = {}
    for e in data["traceEvents"]:
        if e.get("ph") == "M" and e.get("name") == "thread_name":
            lanes[(e.get("pid"), e.get("tid"))] = e.get("args", {}).get("name")
    kinds = ("X", "i") if instants else ("X",)
    rows = []
    for e in data["traceEvents"]:
        if e.get("ph") not in kinds:
            continue
        start, dur = e.get("ts", 0.0), e.get("dur", 0.0)
        row = {"node": e.get("pid"), "lane": lanes.get((e.get("pid"), e.get("tid"))),
               "tid": e.get("tid"), "cat": e.get("cat"), "name": e.get("name"),
               "ph": e.get("ph"), "start_us": start, "dur_us": dur, "end_us": start + dur}
        for key, value in (e.get("args") or {}).items():
            row.setdefault(key, value)
        rows.append(row)
    df = pd.DataFrame(rows)
    extra = [c for c in df.columns if c not in COLUMNS]
    df = df.reindex(columns=COLUMNS + extra)
    df.attrs.update(data.get("otherData") or {})
    df.attrs["path"] = os.path.abspath(path)
    return df
