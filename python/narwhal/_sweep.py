"""narwhal.sweep: `narwhal sweep`'s points, run in parallel child processes, as a DataFrame.

The points, their order, the checks before any runs and the table's columns are the command
line's: the library lays the definition out (nw_tool_sweep_plan_json, from the sweep code of
tools/narwhal/), and each point runs its run file as `narwhal run --config POINT --json`
does. A row holds the varied keys' values (an object, as "options" values are, by its label
key=value;...), then the CSV's columns: makespan_s, gflops, speedup over the first point,
steals_attempted, steals_succeeded, bytes_network, verified and the sweep's "columns"."""
import contextlib
import json
import os
import shutil
import tempfile
import warnings

from . import _library, _options, _process, _real
from ._errors import NarwhalInputError, NarwhalRunError, error_for
from ._run import _child_run


def _plain(value):
    """A numpy number or array (np.arange for a vary list) as JSON takes it."""
    if hasattr(value, "tolist"):  # an array's list, a number's value
        return value.tolist()
    raise TypeError(f"{type(value).__name__} is not a JSON value")


def _definition(source, vary, columns, mpirun):
    """(JSON text of the sweep definition, `where` for its messages)."""
    if isinstance(source, (str, os.PathLike)) and vary is None:
        path = os.fspath(source)
        try:
            with open(path, encoding="utf-8") as f:
                return f.read(), f"sweep {path}"
        except OSError as e:
            raise NarwhalInputError(f"sweep {path}: {e.strerror}", 2) from None
    if isinstance(source, dict) and vary is None:
        definition = dict(source)
    else:
        definition = {"base": source, "vary": vary}
    if columns is not None:
        definition["columns"] = list(columns)
    if mpirun is not None:
        definition["mpirun"] = list(mpirun)
    for key in ("base", "vary"):
        definition[key] = _options.run_file_keys(definition.get(key))
    vary_keys = definition.get("vary")
    if isinstance(vary_keys, dict) and isinstance(vary_keys.get("options"), list):
        vary_keys["options"] = [_options.run_file_keys(v) for v in vary_keys["options"]]
    try:
        return json.dumps(definition, default=_plain), "narwhal.sweep"
    except (TypeError, ValueError) as e:
        raise NarwhalInputError(f"narwhal.sweep: not JSON: {e}", 2) from None


def _point_child(path, ranks, mpirun, program, symbol):
    """One point, in its own process: the run file at path."""
    argv = ["--config", path]
    if ranks:
        return _real.run(argv, ranks, mpirun)
    return _child_run(argv, program, symbol)


def _number(result, key):
    value = result.get(key)
    return value if isinstance(value, (int, float)) and not isinstance(value, bool) else 0


def _rows(plan, results):
    """The table's rows, in point order, from the points' results."""
    keys, columns = plan["keys"], plan["columns"]
    first = results[0]
    rows = []
    for point, result in zip(plan["points"], results):
        row = [label if isinstance(value, (dict, list)) else value
               for value, label in zip(point["values"], point["labels"])]
        for name in columns[len(keys):]:
            if name == "speedup":
                makespan = _number(result, "makespan_s")
                row.append(_number(first, "makespan_s") / makespan if makespan > 0 else 0.0)
            elif name == "verified":
                row.append(result.get("verified") if isinstance(result.get("verified"), bool)
                           else None)
            else:
                row.append(_number(result, name))
        rows.append(row)
    return rows


def _run_points(tasks, points, jobs, where):
    """Every point's result (a dict), in point order; a point that fails raises, naming it,
    and stops the others."""
    results = [None] * len(points)
    answers = _process.run_all(tasks, jobs, _point_child, alone=lambda task: task[1] > 0)
    try:
        with contextlib.closing(answers):  # closing it stops the points still running
            for p, answer in answers:
                text = answer.get("result")
                results[p] = json.loads(text) if text else None
                if answer["code"] not in (0, 3) or results[p] is None:
                    raise error_for(answer["code"] or 1,
                                    f"{where}: the point {points[p]['describe']}: "
                                    f"{answer['why'] or 'the run failed'}")
    except NarwhalRunError as e:
        if not hasattr(e, "index"):  # a child that died: name its point
            raise
        raise NarwhalRunError(f"{where}: the point {points[e.index]['describe']}: {e}",
                              1) from None
    return results


def sweep(source, vary=None, *, jobs=None, columns=None, program=None,
          app_symbol="narwhal_app", mpirun=None):
    """Runs a sweep and returns its table as a pandas DataFrame, a row per point in point
    order: narwhal.sweep(base, vary) with base a dict of run keys and vary a dict of one to
    four keys' lists (every combination a point, the first key varying slowest), as a sweep
    file's "base" and "vary" (docs/guide/sweeps.md); or narwhal.sweep('experiments/x.json'),
    or a whole definition as a dict. Keys may be spelled as keywords (app_param).

    jobs: points at once, each in its own process (default: the machine's cores); a
    real-backend point runs alone, under `mpirun`. columns: further keys of the run's --json
    to tabulate. program/app_symbol: every point runs that shared object's nw_app. Every
    point is checked before any runs (NarwhalInputError, the command line's message); a point
    that fails raises, naming it. The results themselves are in df.attrs['results']."""
    import pandas as pd

    if jobs is not None and (not isinstance(jobs, int) or jobs < 1):
        raise NarwhalInputError(f"narwhal.sweep: jobs={jobs!r}: a number of processes, 1 or "
                                "more", 2)
    text, where = _definition(source, vary, columns, mpirun)
    code, why, plan_text = _library.sweep_plan(text, where)
    if code:
        raise error_for(code, why)
    plan = json.loads(plan_text)
    points = plan["points"]
    program = os.fspath(program) if program is not None else None
    if program is not None and any(p["ranks"] for p in points):
        raise NarwhalInputError(f"{where}: program=: a shared object runs on the simulator only",
                                2)
    folder = tempfile.mkdtemp(prefix="narwhal-sweep-")
    try:
        tasks = []
        for p, point in enumerate(points):
            path = os.path.join(folder, f"point-{p}.json")
            with open(path, "w", encoding="utf-8") as f:
                json.dump(point["run"], f)
            tasks.append((path, point["ranks"], plan["mpirun"], program,
                          app_symbol if program else None))
        results = _run_points(tasks, points, jobs or os.cpu_count() or 1, where)
    finally:
        shutil.rmtree(folder, ignore_errors=True)
    unverified = [points[p]["describe"] for p, r in enumerate(results) if r["verified"] is False]
    if unverified:
        warnings.warn(f"{where}: the result differs from the reference at "
                      f"{'; '.join(unverified)}", stacklevel=2)
    df = pd.DataFrame(_rows(plan, results), columns=plan["columns"])
    df.attrs["results"] = results
    return df
