"""Where libnarwhal_tool.so is and how to call it (ctypes). The library is the narwhal tool's own
code (tools/narwhal/embed/narwhal_tool.h), so options, checks, messages and results are the
command line's.

Found, in this order: $NARWHAL_LIB (the file, or a folder holding it); the build folder
recorded when the package was installed (_build_info.py, written by setup.py), or, run from
the source tree, the repository's build/; then the dynamic loader's own search
(LD_LIBRARY_PATH, ldconfig's folders: an installed prefix)."""
import ctypes
import functools
import json
import os
import shutil

from ._errors import NarwhalRunError

NAME = "libnarwhal_tool.so"
ABI = 1  # NW_TOOL_ABI of the header this module was written against
WHY_LEN = 2048


def _recorded_build_dir():
    try:
        from . import _build_info
    except ImportError:  # run from the source tree: the repository's own build/
        here = os.path.dirname(os.path.abspath(__file__))
        return os.path.join(os.path.dirname(os.path.dirname(here)), "build")
    return _build_info.BUILD_DIR


def candidates():
    """The places looked at, in order: paths, and last the bare name for the loader."""
    found = []
    env = os.environ.get("NARWHAL_LIB")
    if env:
        found.append(os.path.join(env, NAME) if os.path.isdir(env) else env)
        return found  # named explicitly: nothing else stands in for it
    found.append(os.path.join(_recorded_build_dir(), "lib", NAME))
    found.append(NAME)
    return found


def _declare(lib):
    c_int, c_char_p, c_size_t = ctypes.c_int, ctypes.c_char_p, ctypes.c_size_t
    text_out = ctypes.POINTER(ctypes.c_void_p)  # char **: freed with nw_tool_free
    argv = ctypes.POINTER(ctypes.c_char_p)
    lib.nw_tool_abi.restype = c_int
    lib.nw_tool_abi.argtypes = []
    lib.nw_tool_version.restype = c_char_p
    lib.nw_tool_version.argtypes = []
    lib.nw_tool_options_json.restype = c_char_p
    lib.nw_tool_options_json.argtypes = []
    lib.nw_tool_resolve_json.restype = c_int
    lib.nw_tool_resolve_json.argtypes = [c_int, argv, text_out, c_char_p, c_size_t]
    lib.nw_tool_run_json.restype = c_int
    lib.nw_tool_run_json.argtypes = [c_int, argv, c_char_p, c_char_p, text_out, c_char_p,
                                     c_size_t]
    lib.nw_tool_sweep_plan_json.restype = c_int
    lib.nw_tool_sweep_plan_json.argtypes = [c_char_p, c_char_p, text_out, c_char_p, c_size_t]
    lib.nw_tool_free.restype = None
    lib.nw_tool_free.argtypes = [ctypes.c_void_p]


@functools.lru_cache(maxsize=None)
def library():
    """The loaded library (once per process; forked children share it)."""
    tried = []
    for path in candidates():
        if os.sep in path and not os.path.exists(path):
            tried.append(f"{path} (missing)")
            continue
        try:
            # PyDLL: calls keep the GIL, since the library's option parsing is not made for two
            # threads at once; a run itself happens in a child process of its own.
            lib = ctypes.PyDLL(path)
        except OSError as e:
            tried.append(f"{path} ({e})")
            continue
        _declare(lib)
        if lib.nw_tool_abi() != ABI:
            raise NarwhalRunError(f"{path}: library interface {lib.nw_tool_abi()}, this package "
                                  f"speaks {ABI}: reinstall the package from the same tree")
        return lib
    raise NarwhalRunError(f"{NAME} not found (looked at: {'; '.join(tried)}); build the "
                          f"repository (cmake --build build) or set NARWHAL_LIB to the file")


def library_path():
    """The file the library was loaded from (as the dynamic loader mapped it)."""
    library()
    deleted = " (deleted)"  # how the map names a file rebuilt since it was loaded
    with open("/proc/self/maps", encoding="utf-8") as f:
        for line in f:
            path = line.split(None, 5)[-1].strip()
            path = path[:-len(deleted)] if path.endswith(deleted) else path
            if os.path.basename(path) == NAME:
                return path
    return None


def real_executable():
    """narwhal-real, which runs --backend real (MPI and the simulator never share a process):
    $NARWHAL_REAL, else beside the library's build or prefix, else on PATH; None if nowhere."""
    env = os.environ.get("NARWHAL_REAL")
    if env:
        return env
    libdir = os.path.dirname(library_path() or "")
    for rel in ("..", os.path.join("..", "bin"), os.path.join("..", "..", "bin")):
        path = os.path.normpath(os.path.join(libdir, rel, "narwhal-real"))
        if libdir and os.access(path, os.X_OK):
            return path
    return shutil.which("narwhal-real")


def _argv(args):
    words = [a.encode() for a in args]
    return len(words), (ctypes.c_char_p * (len(words) + 1))(*words, None)


def _take(lib, out):
    """The text a char ** handed out, freed."""
    if not out.value:
        return None
    try:
        return ctypes.string_at(out.value).decode()
    finally:
        lib.nw_tool_free(out.value)


def _call(fn, *args):
    """Calls an entry point that hands out text: (status, why, text)."""
    lib = library()
    out = ctypes.c_void_p()
    why = ctypes.create_string_buffer(WHY_LEN)
    code = fn(*args, ctypes.byref(out), why, WHY_LEN)
    return code, why.value.decode(errors="replace"), _take(lib, out)


def options_table():
    text = library().nw_tool_options_json()
    if text is None:
        raise NarwhalRunError("the option table: out of memory")
    return json.loads(text)


def version():
    return library().nw_tool_version().decode()


def resolve(args):
    lib = library()
    return _call(lib.nw_tool_resolve_json, *_argv(args))


def run(args, program=None, symbol=None):
    """nw_tool_run_json: once per process (the caller forks one per run)."""
    lib = library()
    enc = (lambda s: s.encode() if s is not None else None)
    return _call(lib.nw_tool_run_json, *_argv(args), enc(program), enc(symbol))


def sweep_plan(definition_text, where):
    lib = library()
    return _call(lib.nw_tool_sweep_plan_json, definition_text.encode(), where.encode())
