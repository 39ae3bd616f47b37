"""Figures with matplotlib: a trace as a Gantt chart, a sweep's table as lines or bars. Each
draws into `ax` (a new figure's when None) and returns it, for the caller to style or save."""
import pandas as pd

from ._trace import trace as _trace

LEGEND_MAX = 12  # legend entries; the names with the least time share "other"


def _axes(ax, size):
    if ax is not None:
        return ax
    import matplotlib.pyplot as plt

    return plt.subplots(figsize=size)[1]


def gantt(source, ax=None, *, color_by="name", colors=None):
    """A Gantt chart of a trace: a row per lane (per node: its devices, their data waits,
    copy engines, network and messages, as the trace names them), each span a bar coloured
    by its `color_by` column (name: the task kind or message type; cat: its category), time
    in ms. source: narwhal.trace's DataFrame, a run's result, or a trace file. colors: a dict
    of name -> matplotlib colour that the chart uses for those names (and leaves out of the
    palette for the others), so that two charts give a kind the same colour; the chart's
    own choice is in ax.gantt_colors, to pass to the next one."""
    import matplotlib.pyplot as plt

    df = source if isinstance(source, pd.DataFrame) else _trace(source)
    df = df[df["ph"] == "X"]
    lanes = df[["node", "tid", "lane"]].drop_duplicates().sort_values(["node", "tid"])
    row_of = {(n, t): i for i, (n, t) in enumerate(zip(lanes["node"], lanes["tid"]))}
    ax = _axes(ax, (12, max(2.0, 0.3 * len(row_of) + 1)))
    by_time = df.groupby(color_by)["dur_us"].sum().sort_values(ascending=False)
    shown = list(by_time.index[:LEGEND_MAX])
    palette = plt.get_cmap("tab20")
    colour = dict(colors or {})
    free = [palette(i) for i in range(20) if palette(i) not in colour.values()] or [palette(0)]
    for name in [n for n in shown if n not in colour]:
        colour[name] = free[len([n for n in colour if n not in (colors or {})]) % len(free)]
    shown += [n for n in colour if n not in shown and n in set(df[color_by])]
    key = df[color_by].where(df[color_by].isin(shown), "other")
    for (name, node, tid), spans in df.groupby([key, "node", "tid"]):
        y = row_of[(node, tid)]
        bars = list(zip(spans["start_us"] / 1e3, spans["dur_us"] / 1e3))
        ax.broken_barh(bars, (y - 0.4, 0.8), facecolors=colour.get(name, "0.6"),
                       label=name)
    handles, labels = ax.get_legend_handles_labels()
    once = dict(zip(labels, handles))
    order = [n for n in shown + ["other"] if n in once]
    ax.legend([once[n] for n in order], order, loc="upper left", bbox_to_anchor=(1.0, 1.0),
              fontsize="small")
    ax.set_yticks(range(len(row_of)))
    ax.set_yticklabels([f"node {n}: {lane}" for n, lane in zip(lanes["node"], lanes["lane"])],
                       fontsize="small")
    ax.invert_yaxis()
    ax.set_xlabel("time (ms)")
    ax.gantt_colors = colour
    return ax


def sweep(df, x, y="makespan_s", hue=None, ax=None):
    """A sweep's table drawn as `narwhal sweep` draws its CSV: y against x, a line per value
    of hue (marked points; a logarithmic x when its values are positive and span more than
    16x) when x is numeric, else bars of each x value clustered by hue."""
    ax = _axes(ax, (8, 5))
    groups = [(None, df)] if hue is None else list(df.groupby(hue, sort=False))
    if pd.api.types.is_numeric_dtype(df[x]):
        for name, part in groups:
            part = part.sort_values(x)
            ax.plot(part[x], part[y], marker="o", label=None if hue is None else str(name))
        values = df[x]
        if (values > 0).all() and values.max() > 16 * values.min():
            ax.set_xscale("log")
    else:
        categories = list(dict.fromkeys(df[x]))
        width = 0.8 / len(groups)
        for g, (name, part) in enumerate(groups):
            at = [categories.index(v) + (g - (len(groups) - 1) / 2) * width for v in part[x]]
            ax.bar(at, part[y], width, label=None if hue is None else str(name))
        ax.set_xticks(range(len(categories)))
        ax.set_xticklabels([str(c) for c in categories], rotation=30, ha="right")
    ax.set_xlabel(x)
    ax.set_ylabel(y)
    if hue is not None:
        ax.legend(title=hue)
    return ax
