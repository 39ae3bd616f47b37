"""narwhal.sweep: the rows of `narwhal sweep`'s CSV for the same definition, in point order,
whatever the number of jobs; its refusals in the command line's words."""
import json

import numpy as np
import pandas as pd
import pytest

import narwhal


def cli_csv(cli, tmp_path, definition):
    """The CSV `narwhal sweep` writes for the definition, as its lines."""
    path = tmp_path / "sweep.json"
    path.write_text(json.dumps(definition))
    code, _, said = cli("sweep", str(path), "--csv", str(tmp_path / "cli.csv"), "--plot", "off",
                        "-j", "2")
    assert code == 0, said
    return (tmp_path / "cli.csv").read_text().splitlines()


# How tools/narwhal/sweep_rows.c prints each column of a row.
FORMATS = {"makespan_s": "%.9g", "gflops": "%.9g", "speedup": "%.6g",
           "steals_attempted": "%.0f", "steals_succeeded": "%.0f", "bytes_network": "%.0f"}


def text(value, form="%.17g"):
    if isinstance(value, bool) or value is None:
        return {True: "true", False: "false", None: "null"}[value]
    return form % value if isinstance(value, float) or form != "%.17g" else str(value)


def same_rows(df, csv):
    """The DataFrame printed as the CLI prints its CSV is the CLI's CSV, line for line."""
    assert ",".join(df.columns) == csv[0]
    lines = [",".join(text(v, FORMATS.get(c, "%.17g")) for c, v in zip(df.columns, row))
             for row in df.itertuples(index=False)]
    assert lines == csv[1:]


def test_rows_are_the_cli_csv(small, cli, tmp_path):
    definition = {
        "base": {"platform": small, "n": 512, "block": 64, "devices": "cpu+gpu",
                 "gpu-streams": 2},
        "vary": {"nodes": [1, 2, 4], "sched": ["unicorn", "dmda"],
                 "options": [{"gpu-cache": "lru"}, {"gpu-cache": "mru", "prosteal": "off"}]},
        "columns": ["cache_hits", "messages_data"]}
    csv = cli_csv(cli, tmp_path, definition)
    df = narwhal.sweep(definition["base"], definition["vary"], columns=definition["columns"],
                       jobs=2)
    assert df.shape == (12, 3 + 7 + 2)
    same_rows(df, csv)
    assert df["options"][1] == "gpu-cache=mru;prosteal=off"  # the first key varies slowest
    assert len(df.attrs["results"]) == 12 and df.attrs["results"][0]["nodes"] == 1


def test_jobs_do_not_change_the_rows(small):
    base, vary = {"platform": small, "n": 256, "block": 64}, {"nodes": [4, 3, 2, 1]}
    one = narwhal.sweep(base, vary, jobs=1)
    two = narwhal.sweep(base, {"nodes": np.arange(4, 0, -1)}, jobs=2)  # numpy values too
    pd.testing.assert_frame_equal(one, two)
    assert one["nodes"].tolist() == [4, 3, 2, 1]
    assert one["speedup"][0] == 1.0
    assert one["speedup"][3] == pytest.approx(one["makespan_s"][0] / one["makespan_s"][3])


def test_a_sweep_file_and_keyword_spellings(small, cli, tmp_path):
    definition = {"title": "t", "csv": "ignored.csv",
                  "base": {"app": "taskbench", "platform": small, "n": 8, "block": 4,
                           "app-param": {"iterations": 8}},
                  "vary": {"steal-policy": ["two-level", "one-level"]}}
    csv = cli_csv(cli, tmp_path, definition)
    (tmp_path / "file.json").write_text(json.dumps(definition))
    same_rows(narwhal.sweep(str(tmp_path / "file.json"), jobs=2), csv)
    spelled = narwhal.sweep({"app": "taskbench", "platform": small, "n": 8, "block": 4,
                             "app_param": {"iterations": 8}},
                            {"steal_policy": ["two-level", "one-level"]})
    assert list(spelled.columns)[0] == "steal-policy"
    same_rows(spelled, csv)


BAD = [
    {"base": {"n": 256}, "vary": {"nodes": [1, 2]}, "colour": 1},
    {"base": {"n": 256, "json": True}, "vary": {"nodes": [1, 2]}},
    {"base": {"n": 256}, "vary": {"nodes": []}},
    {"base": {"n": 256}, "vary": {"nodes": [1, "two"]}},
    {"base": {"n": 256, "nodez": 1}, "vary": {"nodes": [1]}},
    {"base": {"n": 256}, "vary": {"nodes": [1]}, "columns": ["makespan"]},
]


@pytest.mark.parametrize("definition", BAD, ids=range(len(BAD)))
def test_bad_definitions_raise_the_cli_message(cli, tmp_path, definition):
    path = tmp_path / "bad.json"
    path.write_text(json.dumps(definition))
    code, _, said = cli("sweep", str(path), "--plot", "off")
    assert code == 2 and said.startswith(f"sweep {path}: ")
    with pytest.raises(narwhal.NarwhalInputError) as e:
        narwhal.sweep(str(path))
    assert str(e.value) == said


def test_a_failing_point_is_named(small):
    with pytest.raises(narwhal.NarwhalInputError) as e:
        narwhal.sweep({"platform": small, "n": 256, "block": 64}, {"nodes": [2, 9]}, jobs=2)
    assert str(e.value) == ("narwhal.sweep: the point nodes = 9: platform " + small +
                            " has 4 nodes, 9 requested")


def test_jobs_must_be_a_count(small):
    with pytest.raises(narwhal.NarwhalInputError, match="jobs=0"):
        narwhal.sweep({"platform": small}, {"nodes": [1]}, jobs=0)
