"""Immutable cache entries that Python's cyclic garbage collector need not walk.

A full (generation 2) collection visits every object the collector tracks, so a process
whose caches hold a few hundred thousand tracked objects pays 0.1-0.5 s for one, on
whichever decision happens to trigger it (benchmarks/README.md, "Jokeren expert decision
time: the garbage collector"). CPython stops tracking a plain tuple of atomic values by
itself, but never a tuple subclass such as a ``NamedTuple``, nor a list.

``untrack(obj)`` stops the collector from tracking ``obj`` (CPython's
``PyObject_GC_UnTrack``, the call CPython itself makes for such tuples and dicts) and
returns it. Only for objects that can never be part of a reference cycle: immutable
containers (or lists never changed again) of ints, bools, strings and other such
containers. An untracked object is still freed by reference counting; what it holds is
kept alive as by any reference from outside the collector's view, so the worst a wrong
use could do is leak a cycle, never free a live object. On an interpreter without that
call it does nothing.
"""

from __future__ import annotations

import sys
from typing import TypeVar

_T = TypeVar("_T")


def _identity(obj: _T) -> _T:
    return obj


def _make_untrack() -> object:
    if sys.implementation.name != "cpython":
        return None
    try:
        import ctypes

        fn = ctypes.pythonapi.PyObject_GC_UnTrack
    except (ImportError, AttributeError):  # pragma: no cover - no such C API
        return None
    fn.argtypes = (ctypes.py_object,)
    fn.restype = None
    return fn


_UNTRACK = _make_untrack()


def untrack(obj: _T) -> _T:
    """``obj``, no longer tracked by the cyclic garbage collector (see the module's
    docstring for which objects may be)."""
    if _UNTRACK is not None:
        _UNTRACK(obj)  # type: ignore[operator]
    return obj
