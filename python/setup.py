"""What pyproject.toml cannot say: the package's version is the tool's (lib/version.h), and the
installed package records the build folder of the repository it was installed from, where it
finds libnarwhal_tool.so by default (narwhal/_library.py). NARWHAL_BUILD_DIR names another
build folder at install time (scripts/bootstrap.sh passes its own)."""
import os
import re

from setuptools import setup
from setuptools.command.build_py import build_py

HERE = os.path.dirname(os.path.abspath(__file__))
REPO = os.path.dirname(HERE)


def tool_version():
    with open(os.path.join(REPO, "lib", "version.h"), encoding="utf-8") as f:
        found = re.search(r'#define NW_TOOL_VERSION "([0-9.]+)"', f.read())
    if not found:
        raise RuntimeError("lib/version.h: no NW_TOOL_VERSION")
    return found.group(1)


class build_py_recording_paths(build_py):
    """build_py, plus narwhal/_build_info.py: where this repository and its build are."""

    def run(self):
        super().run()
        build_dir = os.environ.get("NARWHAL_BUILD_DIR") or os.path.join(REPO, "build")
        target = os.path.join(self.build_lib, "narwhal", "_build_info.py")
        with open(target, "w", encoding="utf-8") as f:
            f.write('"""Written at install time by setup.py: where the package came from."""\n')
            f.write(f"SOURCE_DIR = {REPO!r}\n")
            f.write(f"BUILD_DIR = {os.path.abspath(build_dir)!r}\n")


setup(version=tool_version(), cmdclass={"build_py": build_py_recording_paths})
