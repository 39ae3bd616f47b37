"""The keywords come from the C option table: every option `narwhal options --markdown` lists
is one, in the table's order, and is taken by a run with the value the table allows."""
import re

import pytest

import narwhal

# A value each option takes where its row has no default of its own to give back (the table's
# "value" is the default as an option's text; a choice takes its first choice).
GIVEN = {"trace": "t.json", "nodes": 2, "reserved-cores": 1, "perfmodel": "model.json",
         "slow": "1:2", "fail": "1@0.5", "fault": "drop:0.1", "app-param": {"iterations": 4},
         "cfg": "network/model:LV08", "log": "root.thres:info", "verify": True,
         "check-views": "on", "json": True, "dry-run": True, "check": True}


def markdown_names(cli):
    code, out, _ = cli("options", "--markdown")
    assert code == 0
    return re.findall(r"^\| `--([a-z0-9-]+)` \|", out, flags=re.M)


def test_the_table_is_the_reference_page(cli):
    names = markdown_names(cli)
    assert len(names) > 40
    assert [row["name"] for row in narwhal.options()] == names
    assert all(row["keyword"] == row["name"].replace("-", "_") for row in narwhal.options())


def value_for(row):
    if row["name"] in GIVEN:
        return GIVEN[row["name"]]
    if row["type"] == "choice":
        return row["choices"][-1]  # the last: most often not the default
    assert row["value"] is not None, f"--{row['name']}: give the test a value for it"
    return row["value"]


def test_every_option_is_a_keyword(cli):
    for name in markdown_names(cli):
        row = next(r for r in narwhal.options() if r["name"] == name)
        keyword, value = row["keyword"], value_for(row)
        resolved = narwhal.resolve(**{keyword: value})
        if row["output"] or row["type"] == "bool":
            assert resolved.get(name) in (True, "on"), name
        else:
            assert name in resolved, f"--{name} given as {keyword}= is not in the resolved run"


def test_choices_are_the_table_values():
    rows = {row["name"]: row for row in narwhal.options()}
    assert rows["gpu-cache"]["choices"] == ["lru", "mru", "lfu", "mfu", "random", "none"]
    assert "dmda" in rows["sched"]["choices"] and "matmul" in rows["app"]["choices"]
    for choice in rows["gpu-cache"]["choices"]:
        assert narwhal.resolve(gpu_cache=choice)["gpu-cache"] == choice


@pytest.mark.parametrize("keyword,value,message", [
    ("gpu_cache", "fifo", "--gpu-cache: unknown value 'fifo' (one of: lru, mru, lfu, mfu, random, "
                          "none)"),
    ("verify", "yes", "--verify: 'yes' is not true or false"),
    ("gpu_streams", 0, "--gpu-streams: must be from 1 to 512"),
    ("multi_assign", 1, "--multi-assign: unknown value '1' (one of: on, off)"),
])
def test_a_bad_value_is_refused_as_the_table_says(keyword, value, message):
    with pytest.raises(narwhal.NarwhalInputError) as e:
        narwhal.resolve(**{keyword: value})
    assert str(e.value).startswith(message)
