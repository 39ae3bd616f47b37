"""narwhal.trace and narwhal.plot: the trace file's spans as a DataFrame, drawn."""
import json

import matplotlib
import pytest

import narwhal

matplotlib.use("Agg")


@pytest.fixture(scope="module")
def traced():
    from conftest import SMALL

    return narwhal.run(platform=SMALL, nodes=2, n=512, block=64, devices="cpu+gpu",
                       gpu_streams=2, sched="dmda", trace=True)


def test_spans_are_the_files(traced):
    with open(traced.trace, encoding="utf-8") as f:
        events = json.load(f)["traceEvents"]
    df = narwhal.trace(traced)
    assert len(df) == sum(e["ph"] == "X" for e in events) > 0
    assert len(narwhal.trace(traced.trace, instants=True)) == sum(
        e["ph"] in ("X", "i") for e in events)
    assert list(df.columns[:9]) == ["node", "lane", "tid", "cat", "name", "ph", "start_us",
                                    "dur_us", "end_us"]
    assert set(df["cat"]) >= {"exec", "message"} and df["lane"].notna().all()
    assert df.attrs["complete"] is True


def test_executions_add_up_to_busy_time(traced):
    """Each device's exec spans sum to its busy_s (docs/guide/traces.md)."""
    df = narwhal.trace(traced)
    execs = df[df["cat"] == "exec"].groupby(["node", "tid"])["dur_us"].sum() / 1e6
    per_node = {}
    for d in traced["devices"]:
        index = per_node.setdefault(d["node"], 0)
        per_node[d["node"]] += 1
        got = execs.get((d["node"], index), 0.0)
        assert got == pytest.approx(d["busy_s"], rel=0.01, abs=1e-9), (d["node"], index)


def test_trace_refusals(tmp_path, small):
    with pytest.raises(narwhal.NarwhalInputError, match="the run wrote no trace"):
        narwhal.trace(narwhal.run(platform=small, n=256, block=64))
    (tmp_path / "x.json").write_text('{"a": 1}')
    with pytest.raises(narwhal.NarwhalInputError, match="not a Chrome trace"):
        narwhal.trace(tmp_path / "x.json")


def test_gantt_draws_every_span_on_its_lane(traced):
    df = narwhal.trace(traced)
    ax = narwhal.plot.gantt(df)
    bars = sum(len(c.get_paths()) for c in ax.collections)
    assert bars == len(df)
    assert len(ax.get_yticks()) == len(df[["node", "tid"]].drop_duplicates())
    ax.figure.savefig(traced.trace + ".png")


def test_gantt_colors_carry_over(traced):
    """A kind keeps its colour from one chart to the next when the first chart's colours are
    passed on, though the second chart holds only part of the spans (its own ranking by time
    would differ)."""
    from matplotlib.colors import to_rgba

    df = narwhal.trace(traced)
    first = narwhal.plot.gantt(df)
    part = df[df["cat"] != "exec"]
    second = narwhal.plot.gantt(part, colors=first.gantt_colors)
    names = set(part["name"]) & set(first.gantt_colors)
    assert names
    for c in second.collections:
        name = c.get_label()
        if name in names:
            assert tuple(c.get_facecolor()[0]) == to_rgba(first.gantt_colors[name])


def test_sweep_plot_lines_and_bars(small):
    df = narwhal.sweep({"platform": small, "n": 256, "block": 64},
                       {"nodes": [1, 2], "sched": ["unicorn", "dmda"]}, jobs=2)
    ax = narwhal.plot.sweep(df, x="nodes", y="makespan_s", hue="sched")
    assert len(ax.lines) == 2 and [len(line.get_xdata()) for line in ax.lines] == [2, 2]
    ax = narwhal.plot.sweep(df, x="sched", y="makespan_s", hue="nodes")
    assert len(ax.patches) == 4
