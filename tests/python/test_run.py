"""narwhal.run: the --json object of the command line, its refusals in the command line's
words, a run per process."""
import json
import os
import shutil
import subprocess
import sys

import pytest

import narwhal


def test_result_is_the_cli_json_object(small, cli_json):
    got = narwhal.run(app="matmul", platform=small, n=256, block=64, nodes=2, sched="dmda")
    want = cli_json("--app", "matmul", "--platform", small, "--n", "256", "--block", "64",
                    "--nodes", "2", "--sched", "dmda")
    assert isinstance(got, dict)
    assert got == want
    assert got["verified"] is True and got["nodes"] == 2


def test_keywords_of_every_kind_reach_the_run(small, cli_json):
    """Dashes as underscores, a bool flag, an on/off choice as a bool, a dict of app params."""
    got = narwhal.run(app="taskbench", platform=small, n=8, block=4, gpu_cache="mru",
                      verify=False, multi_assign=False, app_param={"iterations": 16})
    want = cli_json("--app", "taskbench", "--platform", small, "--n", "8", "--block", "4",
                    "--gpu-cache", "mru", "--no-verify", "--multi-assign", "off",
                    "--app-param", "iterations=16")
    assert got == want
    assert got["gpu_cache"] == "mru" and got["verified"] is None


def test_two_runs_in_one_interpreter_differ_as_their_options(small):
    one = narwhal.run(platform=small, n=256, block=64, nodes=1)
    four = narwhal.run(platform=small, n=256, block=64, nodes=4)
    assert (one["nodes"], four["nodes"]) == (1, 4)
    assert one["bytes_network"] == 0 < four["bytes_network"]


# Bad input: NarwhalInputError (a ValueError), whose message is the tool's one line.
BAD = [
    ({"nodez": 2}, ["--nodez", "2"]),
    ({"nodes": "x"}, ["--nodes", "x"]),
    ({"gpu_cache": "fifo"}, ["--gpu-cache", "fifo"]),
    ({"sched": "nope"}, ["--sched", "nope"]),
    ({"app": "nope"}, ["--app", "nope"]),
    ({"n": 256, "block": 63}, ["--n", "256", "--block", "63"]),
    ({"nodes": 9}, ["--nodes", "9"]),
    ({"data": "phantom", "verify": True}, ["--data", "phantom", "--verify"]),
]


@pytest.mark.parametrize("options,words", BAD, ids=[" ".join(w) for _, w in BAD])
def test_bad_input_raises_the_cli_message(small, cli, options, words):
    code, _, said = cli("run", "--platform", small, *words)
    assert code == 2 and said
    with pytest.raises(narwhal.NarwhalInputError) as e:
        narwhal.run(platform=small, **options)
    assert isinstance(e.value, ValueError) and isinstance(e.value, narwhal.NarwhalError)
    assert str(e.value) == said
    assert e.value.code == 2


def test_relative_platform_starts_from_the_cwd(small, tmp_path, monkeypatch):
    shutil.copy(small, tmp_path / "mine.xml")
    monkeypatch.chdir(tmp_path)
    assert narwhal.run(platform="mine.xml", n=256, block=64, nodes=3)["nodes"] == 3
    with pytest.raises(narwhal.NarwhalInputError, match="missing.xml"):
        narwhal.run(platform="missing.xml", n=256, block=64)


def test_dry_run_and_check(small):
    config = narwhal.run(platform=small, n=256, block=64, nodes=2, dry_run=True)
    assert config["nodes"] == 2 and config["platform"] == small and "makespan_s" not in config
    assert narwhal.run(platform=small, n=256, block=64, nodes=2, check=True) is None
    with pytest.raises(narwhal.NarwhalInputError, match="9 requested"):
        narwhal.run(platform=small, n=256, block=64, nodes=9, check=True)


def test_resolve_is_the_cli_dry_run(small, cli):
    got = narwhal.resolve(platform=small, n=512, block=128, pipeline=False, cfg=["network/model:LV08"])
    code, out, _ = cli("run", "--platform", small, "--n", "512", "--block", "128", "--pipeline",
                       "off", "--cfg", "network/model:LV08", "--dry-run")
    assert code == 0
    want = json.loads(out)
    assert {k: v for k, v in got.items() if k not in ("json", "dry-run", "check")} == want


def test_library_path_and_override(tmp_path):
    path = narwhal.library_path()
    assert path and path.endswith("libnarwhal_tool.so") and os.path.exists(path)
    probe = ("import narwhal\ntry:\n    narwhal.run(n=64, block=64)\n"
             "except narwhal.NarwhalError as e:\n    print(type(e).__name__, e)\n")
    env = dict(os.environ, NARWHAL_LIB=str(tmp_path / "nowhere.so"))
    done = subprocess.run([sys.executable, "-c", probe], env=env, capture_output=True,
                          text=True, check=True)
    assert done.stdout.startswith("NarwhalRunError libnarwhal_tool.so not found")
    assert "nowhere.so (missing)" in done.stdout
    env["NARWHAL_LIB"] = os.path.dirname(path)  # a folder holding it will do
    done = subprocess.run([sys.executable, "-c", "import narwhal; print(narwhal.library_path())"],
                          env=env, capture_output=True, text=True, check=True)
    assert done.stdout.strip() == path


def test_version_is_the_tool_version(cli):
    _, out, _ = cli("--version")
    assert out.strip() == f"narwhal {narwhal.version()}"
