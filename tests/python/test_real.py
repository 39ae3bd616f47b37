"""--backend real from Python: narwhal-real under mpirun, as the command line hands it over."""
import os
import shutil

import pytest

import narwhal

MPIRUN = [os.environ.get("MPIEXEC") or "mpirun", "--oversubscribe", "--bind-to", "none"]


@pytest.fixture(autouse=True)
def mpi_as_root(monkeypatch):
    if shutil.which(MPIRUN[0]) is None:
        pytest.fail("mpirun is not installed (scripts/bootstrap.sh installs openmpi-bin)")
    if os.geteuid() == 0:  # Open MPI refuses root without both
        monkeypatch.setenv("OMPI_ALLOW_RUN_AS_ROOT", "1")
        monkeypatch.setenv("OMPI_ALLOW_RUN_AS_ROOT_CONFIRM", "1")


def test_real_run_on_two_ranks():
    r = narwhal.run(backend="real", n=256, block=64, nodes=2, mpirun=MPIRUN)
    assert r["backend"] == "real" and r["nodes"] == 2 and r["verified"] is True


def test_real_refusals(program):
    with pytest.raises(narwhal.NarwhalInputError, match="--block 63 does not divide --n 256"):
        narwhal.run(backend="real", n=256, block=63, nodes=1, mpirun=MPIRUN)
    with pytest.raises(narwhal.NarwhalInputError, match="simulator only"):
        narwhal.run(backend="real", program=program, app_symbol="squares_app")
    with pytest.raises(narwhal.NarwhalInputError, match="--data phantom is for the simulator"):
        narwhal.run(backend="real", data="phantom")
