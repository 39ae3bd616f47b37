"""A program of one's own as a shared object (own_program.c), run as a built-in application
is; a program that crashes costs its run, not the interpreter."""
import pytest

import narwhal


def test_own_program_runs_its_kernels(program, small, capfd):
    r = narwhal.run(program=program, app_symbol="squares_app", platform=small, n=64, block=1,
                    nodes=2, seed=5)
    assert r["app"] == "squares" and r["subtasks"] == 64 and r["verified"] is True
    assert "squares: 64 values, 0 wrong" in capfd.readouterr().out  # its driver's own line


def test_own_program_refusals(program, small):
    with pytest.raises(narwhal.NarwhalInputError, match="squares: --n must be 1 to 4096"):
        narwhal.run(program=program, app_symbol="squares_app", platform=small, n=5000)
    with pytest.raises(narwhal.NarwhalInputError, match="exports no nw_app named 'nope'"):
        narwhal.run(program=program, app_symbol="nope", platform=small, n=64)
    with pytest.raises(narwhal.NarwhalInputError, match="--app: a program runs its own"):
        narwhal.run("matmul", program=program, app_symbol="squares_app", platform=small)
    with pytest.raises(narwhal.NarwhalInputError, match="is not a file"):
        narwhal.run(program="no/such.so", app_symbol="squares_app", platform=small)


def test_a_crash_raises_and_the_interpreter_goes_on(program, small, capfd):
    with pytest.raises(narwhal.NarwhalRunError) as e:
        narwhal.run(program=program, app_symbol="crash_app", platform=small, n=64, block=1)
    assert str(e.value) == "the run's process was killed by signal 6 (SIGABRT)"
    assert e.value.code == 1
    assert "crash: aborting on purpose" in capfd.readouterr().err  # its last words
    assert narwhal.run(platform=small, n=256, block=64)["verified"] is True


def test_own_program_sweep(program, small):
    df = narwhal.sweep({"platform": small, "n": 64, "block": 1}, {"seed": [1, 2, 3]},
                       program=program, app_symbol="squares_app", jobs=2)
    assert df.shape == (3, 8)
    assert list(df["seed"]) == [1, 2, 3] and df["verified"].tolist() == [True] * 3


def test_a_crashing_point_is_named(program, small):
    with pytest.raises(narwhal.NarwhalRunError) as e:
        narwhal.sweep({"platform": small, "n": 64, "block": 1}, {"seed": [7, 8]},
                      program=program, app_symbol="crash_app", jobs=2)
    assert str(e.value).startswith("narwhal.sweep: the point seed = ")
    assert str(e.value).endswith(": the run's process was killed by signal 6 (SIGABRT)")
