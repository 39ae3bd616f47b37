"""A process per run. SimGrid starts once per process, and a crash (a segfault or abort in C,
one's own kernels included) must not take the interpreter with it: each run is a forked child
that calls the library and writes its answer to a pipe; the parent reads the pipes and reaps
the children, up to `jobs` at once.

fork, not spawn: a forked child starts at once with the library already loaded, where spawn
starts a fresh interpreter and imports the package for every run (a tenth of a second or more,
against runs of milliseconds); the child runs C and a few lines of Python, so the parent's
threads, which fork does not copy, are not missed."""
import faulthandler
import json
import os
import selectors
import signal
import sys
import traceback

from ._errors import NarwhalRunError

CHILD_FAILED = 70  # the child's Python itself failed (its traceback is on stderr)


def _write_all(fd, data):
    view = memoryview(data)
    while view:
        view = view[os.write(fd, view):]


def _start(target, args):
    """Forks a child running target(*args) -> a JSON-able answer; (pid, read end)."""
    sys.stdout.flush()
    sys.stderr.flush()
    r, w = os.pipe()
    pid = os.fork()
    if pid == 0:  # the child: never returns into the caller's code
        status = CHILD_FAILED
        try:
            os.close(r)
            signal.signal(signal.SIGINT, signal.SIG_DFL)  # Ctrl-C stops it like a C program
            faulthandler.disable()  # a crash is the C code's: the parent's stack is no clue
            _write_all(w, json.dumps(target(*args)).encode())
            status = 0
        except BaseException:  # noqa: B036 -- whatever it was, the parent is told by the status
            traceback.print_exc()
        finally:
            os._exit(status)
    os.close(w)
    return pid, r


def describe_status(status):
    """A child's wait status as words: "was killed by signal N (SIGNAME)" or "ended with exit
    status N"."""
    if os.WIFSIGNALED(status):
        sig = os.WTERMSIG(status)
        try:
            name = signal.Signals(sig).name
        except ValueError:
            name = "unknown"
        return f"was killed by signal {sig} ({name})"
    code = os.waitstatus_to_exitcode(status)
    if code == CHILD_FAILED:
        return f"ended with exit status {code} (its Python failed: the traceback is on stderr)"
    return f"ended with exit status {code}"


def run_all(tasks, jobs, target, alone=lambda task: False):
    """Runs target(*task) for every task of the list, each in its own child, up to `jobs` at
    once (a task for which alone(task) holds runs with none beside it: it measures the
    machine). Yields (index, answer) as children finish; a child that died or failed raises
    NarwhalRunError naming how. The children still running are stopped when the caller stops
    (an exception, Ctrl-C, a generator closed)."""
    jobs = max(1, int(jobs))
    running = {}  # read end -> [index, pid, chunks]
    sel = selectors.DefaultSelector()
    following = 0
    try:
        while following < len(tasks) or running:
            while following < len(tasks) and len(running) < jobs:
                lone = alone(tasks[following])
                if running and (lone or any(alone(tasks[i]) for i, _, _ in running.values())):
                    break
                pid, fd = _start(target, tasks[following])
                running[fd] = [following, pid, []]
                sel.register(fd, selectors.EVENT_READ)
                following += 1
            for key, _ in sel.select():
                fd = key.fd
                chunk = os.read(fd, 1 << 16)
                if chunk:
                    running[fd][2].append(chunk)
                    continue
                index, pid, chunks = running.pop(fd)
                sel.unregister(fd)
                os.close(fd)
                _, status = os.waitpid(pid, 0)
                if status != 0:
                    error = NarwhalRunError(f"the run's process {describe_status(status)}", 1)
                    error.index = index
                    raise error
                yield index, json.loads(b"".join(chunks))
    finally:
        for fd, (_, pid, _) in running.items():
            try:
                os.kill(pid, signal.SIGTERM)
            except ProcessLookupError:
                pass
            os.waitpid(pid, 0)
            sel.unregister(fd)
            os.close(fd)
        sel.close()


def run_one(target, *args):
    """target(*args) in a child of its own; its answer."""
    for _, answer in run_all([args], 1, target):
        return answer
    raise NarwhalRunError("the run's process gave no answer")
