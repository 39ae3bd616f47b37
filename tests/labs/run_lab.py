#!/usr/bin/env python3
"""run_lab.py NOTEBOOK [--root DIR] [--disable] [--timeout S] [--output FILE]: runs one
teaching lab (labs/*.ipynb) headless, with nbclient, in a kernel of this interpreter (the
build's venv, where the narwhal package is), from DIR (default: the repository this file is
in), as a student's "Run all" would; nothing is written back to the notebook (--output writes
the executed copy elsewhere).

Exit 0 when every cell ran. With --disable, LAB_DISABLE=1 is set for the kernel, which makes the
lab switch its mechanism off (its first code cell says how); the run then goes on past lesson
cells (tagged "lesson") that stop on an AssertionError, lists them, and exits 0 only when at
least one did and no cell failed otherwise: the lab's assertions measure the mechanism, so
without it one of them must fail. Either way the lab must hold at least two assert statements
in its lesson cells. Prints each code cell's time and the total.
"""
import argparse
import json
import os
import sys
import tempfile
import time
from pathlib import Path

import nbformat
from nbclient import NotebookClient
from nbclient.exceptions import CellExecutionError


def kernel_spec_dir(parent):
    """A "python3" kernel spec that starts this interpreter: the system's own spec names
    Debian's python3, which does not see the venv's narwhal package."""
    spec = Path(parent) / "kernels" / "python3"
    spec.mkdir(parents=True)
    (spec / "kernel.json").write_text(json.dumps({
        "argv": [sys.executable, "-Xfrozen_modules=off", "-m", "ipykernel_launcher", "-f",
                 "{connection_file}"],
        "display_name": "Python 3 (narwhal)", "language": "python"}))
    return parent


def is_lesson(cell):
    return "lesson" in cell.get("metadata", {}).get("tags", [])


def count_asserts(nb):
    return sum(line.lstrip().startswith("assert ")
               for cell in nb.cells if cell.cell_type == "code" and is_lesson(cell)
               for line in cell.source.splitlines())


def first_line(e):
    return e.evalue.splitlines()[0] if e.evalue else ""


def run(nb, args):
    """Runs the notebook's code cells in order; returns the lesson cells that failed on an
    AssertionError (with --disable, as (index, message)) and what else failed first, or None."""
    lessons_failed = []
    with tempfile.TemporaryDirectory(prefix="narwhal-lab-") as tmp:
        old = os.environ.get("JUPYTER_PATH")
        os.environ["JUPYTER_PATH"] = kernel_spec_dir(tmp) + (os.pathsep + old if old else "")
        client = NotebookClient(nb, timeout=max(1, int(args.timeout)), kernel_name="python3",
                                allow_errors=True, resources={"metadata": {"path": args.root}})
        start = time.monotonic()
        with client.setup_kernel():
            for index, cell in enumerate(nb.cells):
                if cell.cell_type != "code":
                    continue
                left = args.timeout - (time.monotonic() - start)
                if left <= 0:
                    return lessons_failed, f"over {args.timeout:g} s before cell {index}"
                client.timeout = max(1, int(left))
                t = time.monotonic()
                note = " (lesson)" if is_lesson(cell) else ""
                # Errors are read from the cell's outputs rather than raised: a raised one
                # makes the kernel drop the requests that follow it for a moment
                # (stop_on_error), so the next cell would silently not run.
                try:
                    client.execute_cell(cell, index)
                except Exception as e:  # a timeout, or the kernel died
                    return lessons_failed, f"cell {index}: {type(e).__name__}: {e}"
                error = next((o for o in cell.outputs if o.output_type == "error"), None)
                if error is not None:
                    e = CellExecutionError.from_cell_and_msg(cell, error)
                    if args.disable and is_lesson(cell) and e.ename == "AssertionError":
                        lessons_failed.append((index, first_line(e)))
                        note += " failed: AssertionError: " + first_line(e)
                    else:
                        return lessons_failed, f"cell {index} raised {e.ename}: " \
                            f"{first_line(e)}\n{str(e)[-4000:]}"
                print(f"  cell {index:2d}: {time.monotonic() - t:6.2f} s{note}")
    return lessons_failed, None


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("notebook")
    ap.add_argument("--root", default=str(Path(__file__).resolve().parents[2]),
                    help="folder the notebook runs in (default: the repository)")
    ap.add_argument("--disable", action="store_true",
                    help="run with LAB_DISABLE=1 and expect a lesson's assertion to fail")
    ap.add_argument("--timeout", type=float, default=240, help="seconds for the whole lab")
    ap.add_argument("--output", metavar="FILE",
                    help="also write the notebook with its outputs to FILE (to read them)")
    args = ap.parse_args()
    name = Path(args.notebook).name
    nb = nbformat.read(args.notebook, as_version=4)
    asserts = count_asserts(nb)
    if asserts < 2:
        print(f"{name}: {asserts} assert statements in lesson cells; a lab needs at least 2")
        return 1

    os.environ["LAB_DISABLE"] = "1" if args.disable else "0"
    os.environ.setdefault("MPLBACKEND", "Agg")  # headless: figures are made, not shown
    os.environ.setdefault("PYDEVD_DISABLE_FILE_VALIDATION", "1")  # ipykernel's debugger's warning
    start = time.monotonic()
    lessons_failed, other = run(nb, args)
    total = time.monotonic() - start
    if args.output:
        nbformat.write(nb, args.output)

    mode = "mechanism off" if args.disable else "mechanism on"
    if other:
        print(f"{name} ({mode}): {other}")
        return 1
    if not args.disable:
        print(f"{name} ({mode}): all cells passed in {total:.1f} s ({asserts} assertions)")
        return 0
    lessons = sum(is_lesson(c) for c in nb.cells if c.cell_type == "code")
    if not lessons_failed:
        print(f"{name} ({mode}): every cell passed in {total:.1f} s, but with the mechanism"
              " off a lesson's assertion should have failed")
        return 1
    print(f"{name} ({mode}): {len(lessons_failed)} of {lessons} lesson cells failed as expected"
          f" in {total:.1f} s: cells {', '.join(str(i) for i, _ in lessons_failed)}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
