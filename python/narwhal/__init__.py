"""Narwhal from Python (docs/guide/python.md): runs, sweeps and traces of the simulator.

    import narwhal
    r = narwhal.run(app="matmul", platform="platforms/small.xml", n=256, block=64)
    df = narwhal.sweep({"platform": "platforms/small.xml", "n": 256, "block": 64},
                       {"nodes": [1, 2, 4]}, jobs=2)
    spans = narwhal.trace(narwhal.run(n=256, block=64, platform="platforms/small.xml",
                                      trace=True))
    narwhal.plot.gantt(spans)

Every function calls the narwhal tool's own C code (libnarwhal_tool.so, through ctypes): the
options, checks, one-line messages and results are the command line's."""
from . import plot
from ._errors import (NarwhalError, NarwhalInputError, NarwhalRunError,
                      NarwhalUnverifiedError)
from ._library import library_path
from ._options import table as _table
from ._run import RunResult, resolve, run
from ._sweep import sweep
from ._trace import trace

__all__ = ["run", "sweep", "trace", "plot", "resolve", "options", "version", "library_path",
           "RunResult", "NarwhalError", "NarwhalInputError", "NarwhalRunError",
           "NarwhalUnverifiedError"]


def options():
    """`narwhal run`'s options, from the C option table: a list of dicts (name, keyword,
    type, choices, default, help, ...); a keyword of run() is a name with '-' as '_'."""
    return [dict(row, keyword=row["name"].replace("-", "_")) for row in _table()]


def version():
    """The tool's version, as `narwhal --version` prints it."""
    from ._library import version as _version

    return _version()
