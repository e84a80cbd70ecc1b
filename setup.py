"""Builds the hot engine modules (``engine.native.COMPILED_MODULES``) as C extensions with
mypyc; everything else about the package is in pyproject.toml.

The extensions are optional: where they cannot be built (no C compiler, no Python
headers) pip warns and installs the pure-Python engine, which plays the same game.
So does a module that mypyc cannot compile (a warning; CI's test_native.py then fails).
``JOKEREN_PURE=1 pip install -e .`` skips them on purpose. An editable install
(``pip install -e .``) builds them in place, next to their sources.
"""

from __future__ import annotations

import importlib.util
import os
import sys
from importlib.machinery import EXTENSION_SUFFIXES
from pathlib import Path
from typing import Any

from setuptools import setup
from setuptools.command.build_ext import build_ext

HERE = Path(__file__).resolve().parent


def _compiled_modules() -> tuple[str, ...]:
    # engine/native.py is read on its own: importing the package is not needed to build it
    spec = importlib.util.spec_from_file_location("_jokeren_native", HERE / "engine" / "native.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return tuple(module.COMPILED_MODULES)


def _pure(reason: str) -> list[Any]:
    """No extensions; the ones an earlier build left next to the sources are removed (Python
    would go on loading them)."""
    print(f"WARNING: {reason}: the pure-Python engine only", file=sys.stderr)
    names = [*_compiled_modules(), "engine._native__mypyc"]
    for name in names:
        folder, _, module = name.rpartition(".")
        for suffix in EXTENSION_SUFFIXES:
            (HERE / folder.replace(".", "/") / (module + suffix)).unlink(missing_ok=True)
    return []


def _ext_modules() -> list[Any]:
    if os.environ.get("JOKEREN_PURE", "") not in ("", "0"):
        return _pure("JOKEREN_PURE is set")
    from mypyc.build import mypycify

    paths = [name.replace(".", "/") + ".py" for name in _compiled_modules()]
    try:
        # not pyproject's [tool.mypy] (it loads the django plugin): the engine alone, strict
        extensions = mypycify(
            ["--config-file", os.devnull, "--strict", *paths],
            group_name="engine._native",
            opt_level="3",
        )
    except (Exception, SystemExit) as exc:  # mypyc reports its errors with sys.exit
        # a module mypyc cannot compile must not stop the install: the pure engine (CI's
        # JOKEREN_EXPECT_COMPILED=1 makes tests/engine/test_native.py fail)
        return _pure(f"mypyc failed ({exc})")
    for ext in extensions:
        ext.optional = True  # no compiler or headers: warn, install the pure engine
    return extensions


class _BuildExt(build_ext):
    """``build_ext`` that marks the extensions it leaves next to their sources as new: an
    extension is never older than a source it was built from (test_native.py checks)."""

    def run(self) -> None:
        super().run()
        if self.inplace:
            for ext in self.extensions:
                path = self.get_ext_fullpath(ext.name)
                if os.path.exists(path):
                    os.utime(path)


setup(ext_modules=_ext_modules(), cmdclass={"build_ext": _BuildExt})
