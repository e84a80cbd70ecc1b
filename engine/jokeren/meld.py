"""The ``Meld`` on the table: its cards, what each joker stands for, its JSON, and the
cards it still takes (docs/rules.md §2: a group is 3 or 4 cards of one rank in different
suits, a run 3 to 13 cards of one suit in sequence; a joker on the table stands for one
definite card). Checking new melds is in ``engine.jokeren.meld_check``, laying off and
swapping a joker in ``engine.jokeren.layoff``, finding melds in a hand in
``engine.jokeren.meld_search``; ``engine.jokeren.melds`` gathers them all.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, Generic, Literal, TypeVar, overload

from mypy_extensions import mypyc_attr

from engine.cards import (
    CARD_CODE,
    CARD_POINTS,
    CARD_RANK,
    CARD_SUIT,
    CardCodeError,
    code_of,
    parse_code,
)
from engine.errors import IllegalMove
from engine.jokeren.variants import MAX_GROUP, MAX_RUN

MeldKind = Literal["group", "run"]
#: The id of a joker (any joker lays off the same way).
JOKER_ID = 52
#: What a card on the table stands for: ``(rank, suit)``, or ``None`` for a natural card.
StandsFor = tuple[int, int] | None


class InvalidMeld(IllegalMove):
    """The cards do not form a group or a run (docs/rules.md §2)."""

    code = "invalid_meld"


class DoesNotFit(IllegalMove):
    """The card cannot be laid off onto that meld, or there is no joker it may replace."""

    code = "does_not_fit"


def _invalid(nl: str, en: str) -> InvalidMeld:
    return InvalidMeld(nl, en)


_T = TypeVar("_T")


@mypyc_attr(native_class=False)
class _cached(Generic[_T]):
    """A value computed on first use and kept in the instance's ``__dict__`` (like
    ``functools.cached_property``, without its lock: a meld's values depend only on the
    meld, so two threads computing one at once store the same value)."""

    def __init__(self, func: Callable[[Any], _T]) -> None:
        self.func = func
        self.name = getattr(func, "__name__", "")  # compiled methods have none: __set_name__
        self.__doc__ = func.__doc__

    def __set_name__(self, owner: type, name: str) -> None:
        self.name = name

    @overload
    def __get__(self, obj: None, owner: type | None = None) -> _cached[_T]: ...

    @overload
    def __get__(self, obj: object, owner: type | None = None) -> _T: ...

    def __get__(self, obj: object | None, owner: type | None = None) -> _cached[_T] | _T:
        if obj is None:
            return self
        value = self.func(obj)
        obj.__dict__[self.name] = value
        return value


# a Python class also when compiled (engine/native.py): ``new_meld`` and the others below set
# a new meld's ``__dict__`` directly, and ``_cached`` fills it in
@mypyc_attr(native_class=False)
@dataclass(frozen=True)
class Meld:
    """A meld on the table.

    ``cards`` in table order (runs low to high, groups by suit c d h s), ``stands_for``
    per card (``(rank, suit)`` for a joker, ``None`` for a natural card), ``owner`` the
    seat that laid it (``-1`` for a meld not on the table yet).
    """

    kind: MeldKind
    cards: tuple[int, ...]
    stands_for: tuple[StandsFor, ...]
    owner: int = -1

    def __hash__(self) -> int:
        # the cards alone (equal melds hold the same cards): the dataclass's own hash of
        # every field is a Python function, and the bots' going-out search hashes the
        # table's melds at every position it looks at
        return hash(self.cards)

    @_cached
    def natural_card(self) -> int:
        """A natural card of the meld (every meld holds one)."""
        for c, sf in zip(self.cards, self.stands_for, strict=True):
            if sf is None:
                return c
        raise AssertionError("a meld holds a natural card")

    @property
    def suit(self) -> int:
        """The suit of a run (``-1`` for a group)."""
        return CARD_SUIT[self.natural_card] if self.kind == "run" else -1

    @property
    def rank(self) -> int:
        """The rank of a group (``0`` for a run)."""
        return CARD_RANK[self.natural_card] if self.kind == "group" else 0

    @_cached
    def low(self) -> int:
        """Position of a run's lowest card (1 = low ace); 0 for a group."""
        if self.kind != "run":
            return 0
        sf = self.stands_for[0]
        return CARD_RANK[self.cards[0]] if sf is None else sf[0]

    @property
    def high(self) -> int:
        """Position of a run's highest card (14 = high ace); 0 for a group."""
        if self.kind != "run":
            return 0
        return self.low + len(self.cards) - 1

    @_cached
    def used_suits(self) -> frozenset[int]:
        """The suits a group holds (naturals and what its jokers stand for)."""
        return frozenset(
            CARD_SUIT[c] if sf is None else sf[1]
            for c, sf in zip(self.cards, self.stands_for, strict=True)
        )

    @_cached
    def accepts(self) -> frozenset[tuple[int, int]]:
        """The natural cards ``(rank, suit)`` that can be laid off onto this meld."""
        size = len(self.cards)
        if self.kind == "group":
            if size >= MAX_GROUP:
                return frozenset()
            used = self.used_suits
            return frozenset((self.rank, s) for s in range(4) if s not in used)
        if size >= MAX_RUN:
            return frozenset()
        low, suit = self.low, self.suit
        high = low + size - 1
        fits = set()
        if low > 1:
            fits.add((low - 1, suit))
        if high < 14:
            fits.add((1 if high == 13 else high + 1, suit))
        return frozenset(fits)

    @_cached
    def joker_options(self) -> tuple[StandsFor, ...]:
        """What a joker laid off onto this meld may stand for (first free choice first)."""
        return tuple(lay_off_options(self, JOKER_ID))

    @_cached
    def has_joker(self) -> bool:
        sfs = self.stands_for
        return sfs.count(None) != len(sfs)

    @property
    def is_complete(self) -> bool:
        """A group of 4 or a run of 13 without joker: nothing more can be laid off."""
        size = len(self.cards)
        if size != (MAX_GROUP if self.kind == "group" else MAX_RUN):
            return False
        return not self.has_joker

    @property
    def points(self) -> int:
        """Value of the cards (seed 001: joker 25, ace 11, K/Q/J 10, 2-10 face value)."""
        return sum(CARD_POINTS[c] for c in self.cards)

    def codes(self) -> list[str]:
        return [CARD_CODE[c] for c in self.cards]

    def to_json(self) -> dict[str, Any]:
        return {
            "kind": self.kind,
            "cards": list(self.cards),
            "codes": self.codes(),
            "stands_for": [None if sf is None else code_of(*sf) for sf in self.stands_for],
            "owner": self.owner,
        }


_new = object.__new__
_set = object.__setattr__


def new_meld(
    kind: MeldKind, cards: tuple[int, ...], stands_for: tuple[StandsFor, ...], owner: int
) -> Meld:
    """``Meld(kind, cards, stands_for, owner)``, built without the frozen dataclass's
    ``__init__`` (a meld is built for every lay-down and lay-off)."""
    meld = _new(Meld)
    _set(meld, "__dict__", {"kind": kind, "cards": cards, "stands_for": stands_for, "owner": owner})
    return meld


#: The fields and known values of a group and of a run, in one dict each (a copy is
#: filled in: no dict grows while a meld is made).
_GROUP_FIELDS: dict[str, Any] = dict.fromkeys(
    ("kind", "cards", "stands_for", "owner", "natural_card", "has_joker", "used_suits", "low")
)
_RUN_FIELDS: dict[str, Any] = dict.fromkeys(
    ("kind", "cards", "stands_for", "owner", "natural_card", "has_joker", "low")
)


def group_meld(
    cards: tuple[int, ...],
    stands_for: tuple[StandsFor, ...],
    owner: int,
    natural: int,
    has_joker: bool,
    used_suits: frozenset[int],
) -> Meld:
    """A group with its ``_cached`` values already known (``natural``: a natural card)."""
    d = _GROUP_FIELDS.copy()
    d["kind"] = "group"
    d["cards"] = cards
    d["stands_for"] = stands_for
    d["owner"] = owner
    d["natural_card"] = natural
    d["has_joker"] = has_joker
    d["used_suits"] = used_suits
    d["low"] = 0
    meld = _new(Meld)
    _set(meld, "__dict__", d)
    return meld


def run_meld(
    cards: tuple[int, ...],
    stands_for: tuple[StandsFor, ...],
    owner: int,
    natural: int,
    has_joker: bool,
    low: int,
) -> Meld:
    """A run with its ``_cached`` values already known (``low``: its lowest position)."""
    d = _RUN_FIELDS.copy()
    d["kind"] = "run"
    d["cards"] = cards
    d["stands_for"] = stands_for
    d["owner"] = owner
    d["natural_card"] = natural
    d["has_joker"] = has_joker
    d["low"] = low
    meld = _new(Meld)
    _set(meld, "__dict__", d)
    return meld


def stands_for_from_json(value: Any) -> StandsFor:
    """``None`` or a card code such as ``"7h"`` -> ``(7, 2)``."""
    if value is None:
        return None
    if not isinstance(value, str):
        raise ValueError(f"stands_for must be null or a card code, not {value!r}")
    try:
        rank, suit = parse_code(value)
    except CardCodeError as exc:
        raise ValueError(str(exc)) from exc
    if rank == 0:
        raise ValueError("a joker cannot stand for a joker")
    return rank, suit


def stands_for_to_json(value: StandsFor) -> str | None:
    return None if value is None else code_of(*value)


# --- laying off and swapping -----------------------------------------------------------


def lay_off_options(meld: Meld, card: int) -> list[StandsFor]:
    """The ways ``card`` can be laid off onto ``meld``: ``[None]`` for a natural card
    that fits, the cards a joker may stand for (first free choice first), or ``[]``."""
    rank = CARD_RANK[card]
    size = len(meld.cards)
    if meld.kind == "group":
        if size >= MAX_GROUP:
            return []
        g = meld.rank
        used = meld.used_suits
        if rank:
            return [None] if rank == g and CARD_SUIT[card] not in used else []
        return [(g, s) for s in range(4) if s not in used]
    if size >= MAX_RUN:
        return []
    suit = meld.suit
    low = meld.low
    high = low + size - 1
    if rank:
        if CARD_SUIT[card] != suit:
            return []
        if rank == low - 1 or (rank == 1 and high == 13) or rank == high + 1:
            return [None]
        return []
    out: list[StandsFor] = []
    if high < 14:
        out.append((1 if high == 13 else high + 1, suit))
    if low > 1 and (low - 1, suit) not in out:
        out.append((low - 1, suit))
    return out


def can_lay_off(meld: Meld, card: int) -> bool:
    """Whether ``card`` can be laid off onto ``meld`` (any joker choice)."""
    return bool(lay_off_options(meld, card))
