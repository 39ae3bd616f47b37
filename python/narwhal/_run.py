"""narwhal.run and narwhal.resolve: one run of `narwhal run`, its --json object as a dict."""
import atexit
import json
import os
import shutil
import tempfile

from . import _library, _options, _process, _real
from ._errors import NarwhalInputError, error_for


class RunResult(dict):
    """The run's --json object (docs/reference/json.md), with where its --trace file went
    (.trace, an absolute path, or None) and the command-line words it ran with (.argv)."""

    trace = None
    argv = ()


_trace_dir = None


def _temporary_trace():
    """A trace file's path in a folder of this interpreter's, removed when it exits."""
    global _trace_dir
    if _trace_dir is None:
        _trace_dir = tempfile.mkdtemp(prefix="narwhal-traces-")
        atexit.register(shutil.rmtree, _trace_dir, True)
    fd, path = tempfile.mkstemp(suffix=".json", dir=_trace_dir)
    os.close(fd)
    return path


def resolve(**options):
    """The configuration these options make, as `narwhal run --dry-run` prints it (and the
    run's own json, dry-run and check), without looking the application up or running."""
    code, why, text = _library.resolve(_options.to_argv(options))
    if code:
        raise error_for(code, why)
    return json.loads(text)


def _child_run(argv, program, symbol):
    """In the run's own process: the library's run, as a JSON-able answer."""
    code, why, text = _library.run(argv, program, symbol)
    return {"code": code, "why": why, "result": text}


def answer_result(answer):
    """The run's result (a dict, or None), or its error raised."""
    result = json.loads(answer["result"]) if answer.get("result") else None
    if answer["code"] not in (0,):
        raise error_for(answer["code"], answer["why"], result)
    return result


def run(app=None, *, program=None, app_symbol="narwhal_app", mpirun=None, **options):
    """Runs one application as `narwhal run ... --json` does and returns its result (a dict:
    the --json object's keys, docs/reference/json.md).

    Keywords are `narwhal run`'s options with '-' as '_': app, platform, nodes, n, block,
    sched, gpu_cache, app_param={'iterations': 4} (or 'iterations=4', or a list), cfg=[...],
    verify=True/False, pipeline=True/'off', trace='t.json' (or True: a temporary file; the
    path is result.trace), config='run.json'. A bad name or value raises NarwhalInputError
    with the command line's message. The run happens in a child process.

    program='path/libmine.so' runs the nw_app the shared object exports as app_symbol
    instead of a built-in application. backend='real' runs narwhal-real under mpirun (the
    `mpirun` list: the launcher and its options, default ['mpirun']), a rank per node.

    dry_run=True returns the resolved configuration; check=True sets the run up and returns
    None. Exit status 3 (the result differs from the reference) raises
    NarwhalUnverifiedError with the result in its .result."""
    if app is not None:
        options["app"] = app
    if options.get("trace") is True:
        options["trace"] = _temporary_trace()
    elif options.get("trace") is False:
        options["trace"] = None
    argv = _options.to_argv(options)
    code, why, text = _library.resolve(argv)
    if code:
        raise error_for(code, why)
    resolved = json.loads(text)
    if program is not None:
        program = os.fspath(program)
    if resolved["backend"] == "real":
        if program is not None:
            raise NarwhalInputError("program=: a shared object runs on the simulator only; on "
                                    "--backend real a program is an executable "
                                    "(docs/guide/programs.md)", 2)
        answer = _real.run(argv, resolved.get("nodes") or 1, mpirun)
    else:
        answer = _process.run_one(_child_run, argv, program, app_symbol if program else None)
    result = answer_result(answer)
    if result is None:
        return None
    if resolved["dry-run"]:
        return result
    out = RunResult(result)
    trace = resolved.get("trace")
    out.trace = os.path.abspath(trace) if trace else None
    out.argv = tuple(argv)
    return out
