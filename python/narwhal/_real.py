"""--backend real from Python: as `narwhal run --backend real` does, the run goes to
narwhal-real (Open MPI and SimGrid never share a process), started under mpirun with a rank
per node, as a sweep's real-backend points are (tools/narwhal/sweep.c). Its --json object is
read from its stdout (the public contract, docs/reference/json.md), its one-line message from
its stderr: the only place this package reads the tool's printed output, since those ranks
are other processes."""
import os
import subprocess
import sys

from . import _library

SAY = "narwhal: "


def _json_text(stdout):
    """The JSON object a run printed, after any lines of its own (as sweep.c takes it)."""
    if stdout.startswith("{"):
        return stdout
    at = stdout.find("\n{")
    return stdout[at + 1:] if at >= 0 else None


def _message(stderr):
    """The tool's last line on stderr (without "narwhal: "); the other lines are passed on."""
    lines = stderr.splitlines(keepends=True)
    said = [i for i, line in enumerate(lines) if line.startswith(SAY)]
    last = said[-1] if said else None
    sys.stderr.write("".join(line for i, line in enumerate(lines) if i != last))
    return lines[last][len(SAY):].rstrip("\n") if last is not None else ""


def run(argv, ranks, mpirun=None):
    """narwhal-real run ARGV --json under mpirun; the same answer a child of _run gives."""
    exe = _library.real_executable()
    if not exe:
        return {"code": 2, "result": None,
                "why": "--backend real: narwhal-real not found beside libnarwhal_tool.so or on "
                       "PATH (set NARWHAL_REAL)"}
    command = list(mpirun or ["mpirun"]) + ["-np", str(ranks), exe, "run", *argv, "--json"]
    try:
        done = subprocess.run(command, stdin=subprocess.DEVNULL, capture_output=True,
                              text=True, check=False)
    except OSError as e:
        return {"code": 2, "result": None, "why": f"--backend real: cannot run {command[0]}: {e}"}
    code = done.returncode
    why = _message(done.stderr)
    text = _json_text(done.stdout) if code in (0, 3) else None
    if code < 0 or (code in (0, 3) and text is None):
        why = why or f"--backend real: {os.path.basename(command[0])} ended with status {code}"
        code = 1
    return {"code": code, "why": why, "result": text}
