"""Immutable cache entries that Python's cyclic garbage collector need not walk.

A full (generation 2) collection visits every object the collector tracks, so a process
whose caches hold a few hundred thousand tracked objects pays 0.1-0.5 s for one, on
whichever decision happens to trigger it (benchmarks/README.md at 566f5bf, "Jokeren expert decision
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

``untracked_cache(maxsize)`` is ``functools.lru_cache`` for such results, in a cache the
collector never walks at all: an ``lru_cache`` is itself tracked, and a full collection
visits every key and result it holds (tracked or not), so a bot's caches of 10^5 entries
cost it 50-100 ms however few objects they track. The cache is a dict, untracked after
every insertion, so no collection walks it; it is emptied once it holds ``maxsize``
entries (the cache holds facts: emptying it never changes what it returns). A tracked
result would still be walked by every full collection (the dict keeps it alive, as any
reference from outside the collector's view): results should be ints, plain tuples of
such values, or objects made with ``untrack``.
"""

from __future__ import annotations

import sys
from collections.abc import Callable
from typing import ParamSpec, Protocol, TypeVar, cast

_T = TypeVar("_T")
_P = ParamSpec("_P")


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


class UntrackedCache(Protocol[_P, _T]):
    """The type of an ``untracked_cache`` function (for the type checker; the function
    itself is a closure, quicker to call than an object)."""

    cache: dict[tuple[object, ...], _T]

    def __call__(self, *args: _P.args, **kwargs: _P.kwargs) -> _T: ...

    def cache_clear(self) -> None: ...


_MISS: object = object()


def untracked_cache(maxsize: int) -> Callable[[Callable[_P, _T]], UntrackedCache[_P, _T]]:
    """A memo of a function of positional, hashable and immutable arguments whose results
    the collector need not walk (see the module's docstring)."""

    def decorate(fn: Callable[_P, _T]) -> UntrackedCache[_P, _T]:
        cache: dict[tuple[object, ...], _T] = {}
        get = cache.get
        miss = _MISS

        def cached(*args: object) -> _T:
            hit = get(args, miss)
            if hit is not miss:
                return hit  # type: ignore[return-value]
            result = fn(*args)  # type: ignore[arg-type, call-arg]
            if len(cache) >= maxsize:
                cache.clear()
            cache[args] = result
            # a dict tracks itself again when it gets a key or value that may be
            # tracked: untracked once more, it is never walked (and its keys, tuples of
            # immutable values, are untracked by the collector's first look at them)
            untrack(cache)
            return result

        cached.cache = cache  # type: ignore[attr-defined]
        cached.cache_clear = cache.clear  # type: ignore[attr-defined]
        cached.__doc__ = fn.__doc__
        cached.__name__ = fn.__name__
        cached.__qualname__ = fn.__qualname__
        cached.__wrapped__ = fn  # type: ignore[attr-defined]
        return cast("UntrackedCache[_P, _T]", cached)

    return decorate
