"""Fixtures of the python tests (run.sh sets the environment): the repository, the build's
narwhal tool, the test program (own_program.c) and a way to run the tool and read its answer,
which the package's answers are compared with."""
import json
import os
import subprocess
from pathlib import Path

import pytest

SOURCE = Path(os.environ.get("NARWHAL_TEST_SOURCE", Path(__file__).resolve().parents[2]))
BUILD = Path(os.environ.get("NARWHAL_TEST_BUILD", SOURCE / "build"))
SMALL = str(SOURCE / "platforms" / "small.xml")


@pytest.fixture
def small():
    """platforms/small.xml (4 nodes of 4 cores and a GPU), by its absolute path."""
    return SMALL


@pytest.fixture
def tool():
    return os.environ.get("NARWHAL_TEST_TOOL", str(BUILD / "narwhal"))


@pytest.fixture
def program():
    path = os.environ.get("NARWHAL_TEST_PROGRAM", str(BUILD / "tests" / "python" /
                                                       "libtest_python_program.so"))
    assert os.path.exists(path), f"the test program {path} is not built"
    return path


@pytest.fixture
def cli(tool):
    """cli(*words) runs the narwhal tool: (exit status, stdout, its one line without
    "narwhal: ", or "")."""

    def run(*words, cwd=None):
        done = subprocess.run([tool, *words], capture_output=True, text=True, cwd=cwd,
                              check=False)
        said = [line[len("narwhal: "):] for line in done.stderr.splitlines()
                if line.startswith("narwhal: ")]
        return done.returncode, done.stdout, said[-1] if said else ""

    return run


@pytest.fixture
def cli_json(cli):
    """The --json object of `narwhal run WORDS --json`."""

    def run(*words):
        code, out, said = cli("run", *words, "--json")
        assert code == 0, said
        return json.loads(out)

    return run
