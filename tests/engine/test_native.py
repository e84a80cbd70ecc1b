"""The compiled engine modules (engine/native.py, setup.py): loaded where CI expects them,
and the pure-Python source loaded on request."""

from __future__ import annotations

import importlib
import os
import subprocess
import sys
from importlib.machinery import PathFinder
from pathlib import Path

import pytest

from engine.native import COMPILED_MODULES, EXPECT_COMPILED_ENV, compiled_status, pure_preferred

ROOT = Path(__file__).resolve().parents[2]


def test_the_compiled_modules_are_loaded_where_expected() -> None:
    status = compiled_status()
    if pure_preferred():  # -p tests.pure_engine
        assert not any(status.values()), status
    elif os.environ.get(EXPECT_COMPILED_ENV) == "1":  # .ci/run
        missing = [name for name, compiled in status.items() if not compiled]
        assert not missing, f"pure Python, compiled modules expected: {missing}"
    else:
        pytest.skip(f"{EXPECT_COMPILED_ENV} not set: compiled or pure, either may be loaded")


def test_no_compiled_module_is_older_than_its_source() -> None:
    """An extension built before its ``.py`` was last changed plays the old code: after
    changing a compiled module, ``pip install -e .`` builds it again."""
    stale = []
    for name, compiled in compiled_status().items():
        if compiled:
            # the extension the import system finds (a module's ``__file__`` is not always
            # that file: engine/native.py, ``COMPILED_MODULES``)
            parent, _, last = name.rpartition(".")
            spec = PathFinder.find_spec(name, importlib.import_module(parent).__path__)
            assert spec is not None and spec.origin is not None
            path = Path(spec.origin)
            source = path.parent / (last + ".py")
            if source.stat().st_mtime > path.stat().st_mtime:
                stale.append(name)
    assert not stale, f"built before their source changed, run pip install -e .: {stale}"


def _python(code: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True, check=False
    )


def test_prefer_pure_loads_every_compiled_module_from_its_source() -> None:
    done = _python(
        "from engine.native import prefer_pure, compiled_status\n"
        "prefer_pure()\n"
        "import engine.jokeren.bots.hand as hand\n"
        "print(sorted(compiled_status().items()), hand.__file__)\n"
    )
    assert done.returncode == 0, done.stderr
    expected = sorted((name, False) for name in COMPILED_MODULES)
    assert done.stdout.split(" /")[0] == str(expected)
    assert done.stdout.strip().endswith("engine/jokeren/bots/hand.py")


def test_prefer_pure_refuses_once_a_compiled_module_is_imported() -> None:
    # the package imports both compiled modules
    done = _python("import engine.jokeren\nfrom engine.native import prefer_pure\nprefer_pure()\n")
    assert done.returncode != 0
    assert f"prefer_pure() after importing {', '.join(COMPILED_MODULES)}" in done.stderr
