"""The engine modules that ``setup.py`` compiles with mypyc, and which of them are loaded.

``pip install -e .`` builds each of ``COMPILED_MODULES`` as a C extension next to its
source (``hand.cpython-311-x86_64-linux-gnu.so`` beside ``bots/hand.py``); Python imports the
extension when it is there and the pure-Python source when it is not (no C compiler,
``JOKEREN_PURE=1`` at install time, or the ``.so`` files removed). Both play the same
game: tests/engine/test_bot_fingerprints.py pins every bot's choices on either.

This module itself is never compiled (setup.py reads ``COMPILED_MODULES`` from it).
"""

from __future__ import annotations

import importlib
import importlib.abc
import importlib.machinery
import importlib.util
import os
import sys
from collections.abc import Sequence
from types import ModuleType
from typing import Final

#: The modules compiled by setup.py (mypyc compiles them as one group): the Jokeren melds
#: (``melds`` gathers the names of the four meld modules after it) and the Jokeren bots
#: (``engine.jokeren.bots``: every module but ``versions`` and ``expert``), about 60% of a
#: basic round's time. The others stay pure Python: compiled
#: code checks its arguments' types itself (``bot_move(version="1")`` would raise
#: ``TypeError``, not ``UnknownBotVersion``: so ``bots.versions`` is not compiled), calls its
#: own functions directly (a test that replaces ``expert._world`` would no longer see the
#: calls), and cannot set an instance's ``__dict__`` (``engine.jokeren.round``). A compiled
#: module is never a package's ``__init__`` (``prefer_pure`` finds ``<name>.py`` files). A
#: compiled module that another compiled one imports first gets its ``__file__`` from mypyc,
#: derived from the shared library's folder (``engine/engine/jokeren/bots/hand...so``):
#: ``is_compiled`` still holds; the extension's real file is the one the import system finds
#: (``importlib.machinery.PathFinder``, as tests/engine/test_native.py looks it up).
COMPILED_MODULES: Final = (
    "engine.jokeren.melds",
    "engine.jokeren.meld",
    "engine.jokeren.meld_check",
    "engine.jokeren.layoff",
    "engine.jokeren.meld_search",
    "engine.jokeren.bots.lanes",
    "engine.jokeren.bots.hand",
    "engine.jokeren.bots.opening",
    "engine.jokeren.bots.table",
    "engine.jokeren.bots.view",
    "engine.jokeren.bots.going_out",
    "engine.jokeren.bots.play",
    "engine.jokeren.bots.basic",
    "engine.jokeren.bots.strong",
)

#: Set (to ``1``) where the compiled modules must be loaded, as in CI (.ci/run):
#: tests/engine/test_native.py then fails if any of them is pure Python.
EXPECT_COMPILED_ENV: Final = "JOKEREN_EXPECT_COMPILED"


def is_compiled(module: ModuleType) -> bool:
    """Whether ``module`` was loaded from a C extension."""
    path = getattr(module, "__file__", None) or ""
    return path.endswith(tuple(importlib.machinery.EXTENSION_SUFFIXES))


def compiled_status() -> dict[str, bool]:
    """For each of ``COMPILED_MODULES`` (imported now if needed): loaded compiled?"""
    return {name: is_compiled(importlib.import_module(name)) for name in COMPILED_MODULES}


class _PureFinder(importlib.abc.MetaPathFinder):
    """Finds the ``.py`` source of the compiled modules, ahead of their extensions."""

    def find_spec(
        self,
        fullname: str,
        path: Sequence[str] | None,
        target: ModuleType | None = None,
    ) -> importlib.machinery.ModuleSpec | None:
        if fullname not in COMPILED_MODULES or path is None:
            return None
        filename = fullname.rpartition(".")[2] + ".py"
        for entry in path:
            source = os.path.join(entry, filename)
            if os.path.isfile(source):
                return importlib.util.spec_from_file_location(fullname, source)
        return None


def pure_preferred() -> bool:
    """Whether ``prefer_pure()`` has run in this process."""
    return any(isinstance(f, _PureFinder) for f in sys.meta_path)


def prefer_pure() -> None:
    """Load the pure-Python source of ``COMPILED_MODULES`` from now on, even where their
    extensions are built (tests and benchmarks that compare the two). Must run before
    any of them is imported."""
    loaded = [name for name in COMPILED_MODULES if name in sys.modules]
    if loaded:
        raise RuntimeError(f"prefer_pure() after importing {', '.join(loaded)}")
    if not pure_preferred():
        sys.meta_path.insert(0, _PureFinder())
