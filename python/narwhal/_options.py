"""Python's keywords and values as `narwhal run`'s command line, through the option table of
the C code (nw_tool_options_json): a keyword is an option's name with '-' as '_' (gpu_cache
for --gpu-cache), so the names, kinds and values can never drift from the command line's. The
C parser then checks the words, and its one-line message is the error's."""
import functools
import os

from . import _library


@functools.lru_cache(maxsize=None)
def table():
    """The option table's rows (dicts), in its order."""
    return tuple(_library.options_table())


@functools.lru_cache(maxsize=None)
def by_keyword():
    return {row["name"].replace("-", "_"): row for row in table()}


def option_name(keyword):
    """The command line's name of a keyword: the table's where it names a row, else the
    keyword with '_' as '-' (the C parser names an unknown one in its message)."""
    row = by_keyword().get(keyword)
    return row["name"] if row else keyword.replace("_", "-")


def _text(value):
    if isinstance(value, os.PathLike):
        return os.fspath(value)
    if isinstance(value, float):  # shortest exact text (numpy's floats are floats too)
        return repr(float(value))
    return str(value)


def _words(row, name, value):
    """The command-line words of one option."""
    kind = row["type"] if row else None
    if kind == "bool" and isinstance(value, bool):
        return [f"--{name}" if value else f"--no-{name}"]
    if kind == "choice" and isinstance(value, bool) and row["choices"] == ["on", "off"]:
        return [f"--{name}=" + ("on" if value else "off")]
    if kind == "param" and isinstance(value, dict):
        return [f"--{name}={k}={_text(v)}" for k, v in value.items()]
    if kind in ("param", "simgrid") and isinstance(value, (list, tuple)):
        return [f"--{name}={_text(v)}" for v in value]
    return [f"--{name}={_text(value)}"]


def to_argv(options):
    """`narwhal run`'s words for keyword options (None: left at its default). config= is the
    command line's --config FILE (a JSON run file), under the options given here."""
    words = []
    for keyword, value in options.items():
        if value is None:
            continue
        if keyword == "config":
            words += ["--config", _text(value)]
            continue
        row = by_keyword().get(keyword)
        words += _words(row, option_name(keyword), value)
    return words


def run_file_keys(obj):
    """A sweep's base or point with keyword spellings (app_param) as the run file's keys
    (app-param); other keys as they are."""
    if not isinstance(obj, dict):
        return obj
    return {option_name(k) if k in by_keyword() else k: v for k, v in obj.items()}
