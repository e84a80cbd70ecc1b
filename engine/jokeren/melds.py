"""Melds ("setjes"): groups and runs, and what every joker on the table stands for.

Rules (docs/rules.md §2, seed 000):

- A **group** is 3 or 4 cards of the same rank, all of different suits:
  ``7h 7c 7s`` yes, ``7h 7c 7c`` no, ``7h 7c **`` yes.
- A **run** is at least 3 consecutive cards of one suit, at most 13 (platform). The ace
  is low (A-2-3) or high (Q-K-A), never both and never wrapping (K-A-2 is no run):
  ``2s 3s 4s`` yes, ``2s 3s 4d`` no, ``2s 3s **`` yes.
- A joker stands for any one card; on the table it stands for one definite card
  ``(rank, suit)`` (rank 1 = ace, also for a high ace). The player may name it; when
  not named the engine takes the first free choice: in a group the first missing suit
  in the order c d h s; in a run the gaps first, then the high end, then the low end.
  A lone natural card with jokers is a group unless the jokers are named otherwise.
- A meld holds at least one natural card (platform).
- A **complete** meld (a group of 4 or a run of 13, without joker) leaves the table.

In a run, cards are kept in table order from low to high; in a group in suit order.
A run's *positions* are 1 (low ace) .. 13 (king) and 14 (high ace).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from functools import lru_cache
from operator import itemgetter
from typing import Any, Generic, Literal, TypeVar, overload

from mypy_extensions import mypyc_attr

from engine.cards import (
    CARD_CODE,
    CARD_POINTS,
    CARD_RANK,
    CARD_SUIT,
    SUIT_NAMES_EN,
    SUIT_NAMES_NL,
    CardCodeError,
    card_id_of,
    card_label,
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


# a Python class also when compiled (engine/native.py): ``_meld`` and the others below set
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
    def _natural(self) -> int:
        """A natural card of the meld (every meld holds one)."""
        for c, sf in zip(self.cards, self.stands_for, strict=True):
            if sf is None:
                return c
        raise AssertionError("a meld holds a natural card")

    @property
    def suit(self) -> int:
        """The suit of a run (``-1`` for a group)."""
        return CARD_SUIT[self._natural] if self.kind == "run" else -1

    @property
    def rank(self) -> int:
        """The rank of a group (``0`` for a run)."""
        return CARD_RANK[self._natural] if self.kind == "group" else 0

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
_RANK = CARD_RANK
_SUIT = CARD_SUIT
#: A card's place in a run with the ace high (14 for an ace).
_PLACE_HIGH = tuple(14 if r == 1 else r for r in CARD_RANK)


def _meld(
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
    ("kind", "cards", "stands_for", "owner", "_natural", "has_joker", "used_suits", "low")
)
_RUN_FIELDS: dict[str, Any] = dict.fromkeys(
    ("kind", "cards", "stands_for", "owner", "_natural", "has_joker", "low")
)


def _group_meld(
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
    d["_natural"] = natural
    d["has_joker"] = has_joker
    d["used_suits"] = used_suits
    d["low"] = 0
    meld = _new(Meld)
    _set(meld, "__dict__", d)
    return meld


def _run_meld(
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
    d["_natural"] = natural
    d["has_joker"] = has_joker
    d["low"] = low
    meld = _new(Meld)
    _set(meld, "__dict__", d)
    return meld


def meld_from_json(obj: dict[str, Any]) -> Meld:
    """A table meld from ``Meld.to_json()``; it is checked again."""
    cards = tuple(int(c) for c in obj["cards"])
    sf = tuple(stands_for_from_json(x) for x in obj["stands_for"])
    meld = check_meld(cards, sf, owner=int(obj["owner"]))
    if meld.kind != obj["kind"]:
        raise ValueError("meld: kind does not match its cards")
    if meld.cards == cards:
        return meld
    # A run of 13 holding 2 and K can put an ace (natural or joker) at either end: the
    # table keeps the end it was laid at, so the stored order stands if it is the same
    # cards standing for the same cards.
    if sorted(zip(meld.cards, meld.stands_for, strict=True), key=repr) != sorted(
        zip(cards, sf, strict=True), key=repr
    ):
        raise ValueError("meld: card order does not match its cards")
    return Meld(meld.kind, cards, sf, meld.owner)


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


# --- checking a new meld ---------------------------------------------------------------


def check_meld(
    cards: Sequence[int], stands_for: Sequence[StandsFor] | None = None, *, owner: int = -1
) -> Meld:
    """The meld these cards form, with every joker's card fixed; raises ``InvalidMeld``.

    ``stands_for`` names the card of each joker (``None`` for a natural card, or for a
    joker whose card the engine may choose: the first free choice, see the module text).
    """
    fast = _quick_meld(cards, stands_for, owner)
    if fast is not None:
        return fast
    n = len(cards)
    if n < 3:
        raise _invalid("Een setje heeft minstens 3 kaarten.", "A meld needs at least 3 cards.")
    if len(set(cards)) != n:
        raise _invalid(
            "Dezelfde kaart staat twee keer in het setje.", "The same card is twice in the meld."
        )
    for c in cards:
        if not isinstance(c, int) or not 0 <= c < len(CARD_RANK):
            raise _invalid(f"Onbekende kaart {c!r}.", f"Unknown card {c!r}.")
    sf: tuple[StandsFor, ...] = (None,) * n if stands_for is None else tuple(stands_for)
    if len(sf) != n:
        raise _invalid(
            "Geef voor elke kaart aan waar hij voor staat.", "Give stands_for for every card."
        )
    naturals: list[tuple[int, int]] = []
    for c, x in zip(cards, sf, strict=True):
        if CARD_RANK[c]:
            if x is not None:
                raise _invalid(
                    "Alleen een joker staat voor een andere kaart.",
                    "Only a joker stands for another card.",
                )
            naturals.append((CARD_RANK[c], CARD_SUIT[c]))
        elif x is not None and not (
            isinstance(x, tuple) and len(x) == 2 and 1 <= x[0] <= 13 and 0 <= x[1] <= 3
        ):
            raise _invalid(
                "Een joker staat voor een gewone kaart.", "A joker stands for an ordinary card."
            )
    if not naturals:
        raise _invalid(
            "Een setje moet minstens één echte kaart bevatten, niet alleen jokers.",
            "A meld needs at least one natural card, not only jokers.",
        )
    ranks = {r for r, _ in naturals}
    suits = {s for _, s in naturals}
    group_ok = len(ranks) == 1 and len(suits) == len(naturals)
    run_ok = len(suits) == 1 and len(ranks) == len(naturals)
    if group_ok and run_ok:  # one natural card with jokers
        r0, s0 = naturals[0]
        named = [x for x in sf if x is not None]
        if any(x[1] == s0 and x[0] != r0 for x in named):
            group_ok = False
        elif named or n <= MAX_GROUP:
            run_ok = False
        else:
            group_ok = False
    if group_ok:
        return _make_group(cards, sf, naturals[0][0], owner)
    if run_ok:
        return _make_run(cards, sf, naturals[0][1], owner)
    if len(ranks) == 1:
        raise _invalid(
            "In een groep (dezelfde waarde) heeft elke kaart een andere kleur.",
            "A group needs cards of different suits.",
        )
    if len(suits) == 1:
        raise _invalid(
            "Een rij kan niet twee keer dezelfde kaart bevatten.",
            "A run cannot hold the same card twice.",
        )
    raise _invalid(
        "Geen set (dezelfde waarde, verschillende kleuren) en geen rij (één kleur, op volgorde).",
        "Neither a group (same rank, different suits) nor a run (one suit, in sequence).",
    )


def _quick_meld(
    cards: Sequence[int], stands_for: Sequence[StandsFor] | None, owner: int
) -> Meld | None:
    """The common cases quickly: a valid meld of natural cards, or one in which every
    joker is named; ``None`` for anything else (``check_meld`` then decides on the full
    path, and finds the reason when it is no meld). Gives the meld of the full path."""
    n = len(cards)
    if n < 3 or n > MAX_RUN:
        return None
    if stands_for is None or not any(stands_for):
        return _natural_meld(cards, n, owner)
    if len(stands_for) != n:
        return None
    ranks: list[int] = []
    suits: list[int] = []
    nat_rank = nat_suit = -1  # of the first natural card
    one_rank = one_suit = True  # the natural cards share a rank / a suit
    naturals = 0
    try:
        for c, x in zip(cards, stands_for, strict=True):
            if type(c) is not int or c < 0:
                return None
            r = _RANK[c]
            if r:
                if x is not None:
                    return None
                s = _SUIT[c]
                if naturals:
                    one_rank = one_rank and r == nat_rank
                    one_suit = one_suit and s == nat_suit
                else:
                    nat_rank, nat_suit = r, s
                naturals += 1
            else:  # a joker: named with a tuple (rank, suit) of whole numbers
                if type(x) is not tuple or len(x) != 2:
                    return None
                r, s = x
                if type(r) is not int or type(s) is not int or not (1 <= r <= 13 and 0 <= s <= 3):
                    return None
            ranks.append(r)
            suits.append(s)
    except IndexError:  # not a card id
        return None
    if not naturals or len(set(cards)) != n:
        return None
    if naturals == 1:
        # a lone natural card with named jokers: a run when a joker names another card
        # of its suit, else a group
        group = not any(s == nat_suit and r != nat_rank for r, s in zip(ranks, suits, strict=True))
    elif one_rank:
        group = True
    elif one_suit:
        group = False
    else:
        return None
    if group:
        if n > MAX_GROUP or ranks.count(nat_rank) != n or len(set(suits)) != n:
            return None
        pick = itemgetter(*sorted(range(n), key=suits.__getitem__))
        laid, sfs = pick(cards), pick(stands_for)
        return _group_meld(laid, sfs, owner, laid[sfs.index(None)], True, frozenset(suits))
    if suits.count(nat_suit) != n or len(set(ranks)) != n:
        return None
    low = min(ranks)
    if max(ranks) - low + 1 == n:
        pick = itemgetter(*sorted(range(n), key=ranks.__getitem__))
    elif low == 1:  # the ace may be high: Q K A
        places = [14 if r == 1 else r for r in ranks]
        low = min(places)
        if 14 - low + 1 != n:
            return None
        pick = itemgetter(*sorted(range(n), key=places.__getitem__))
    else:
        return None
    laid, sfs = pick(cards), pick(stands_for)
    return _run_meld(laid, sfs, owner, laid[sfs.index(None)], True, low)


def _natural_meld(cards: Sequence[int], n: int, owner: int) -> Meld | None:
    """``_quick_meld`` of natural cards only (3 to 13 of them)."""
    try:
        ranks = list(map(_RANK.__getitem__, cards))
        suits = list(map(_SUIT.__getitem__, cards))
    except (IndexError, TypeError):  # not a card id
        return None
    if 0 in ranks or min(cards) < 0:  # a joker without its card, or not a card id
        return None
    low = min(ranks)
    if low == max(ranks):
        used = frozenset(suits)
        if n > MAX_GROUP or len(used) != n:
            return None
        laid = tuple(sorted(cards, key=_SUIT.__getitem__))
        return _group_meld(laid, (None,) * n, owner, laid[0], False, used)
    if suits.count(suits[0]) != n or len(set(ranks)) != n:
        return None
    if max(ranks) - low + 1 == n:
        laid = tuple(sorted(cards, key=_RANK.__getitem__))
    elif low == 1:  # the ace may be high: Q K A
        low = min(_PLACE_HIGH[c] for c in cards)
        if 14 - low + 1 != n:
            return None
        laid = tuple(sorted(cards, key=_PLACE_HIGH.__getitem__))
    else:
        return None
    return _run_meld(laid, (None,) * n, owner, laid[0], False, low)


def analyse(cards: Sequence[int], stands_for: Sequence[StandsFor] | None = None) -> Meld | None:
    """The meld these cards form (as ``check_meld``), or ``None`` when they form none."""
    try:
        return check_meld(cards, stands_for)
    except InvalidMeld:
        return None


def _make_group(cards: Sequence[int], sf: tuple[StandsFor, ...], rank: int, owner: int) -> Meld:
    if len(cards) > MAX_GROUP:
        raise _invalid("Een set heeft hoogstens 4 kaarten.", "A group holds at most 4 cards.")
    used: set[int] = set()
    for c, x in zip(cards, sf, strict=True):
        if x is None and CARD_RANK[c]:
            used.add(CARD_SUIT[c])
    slots: list[tuple[int, int, StandsFor]] = []  # (suit, card, stands_for)
    free: list[int] = []
    for c, x in zip(cards, sf, strict=True):
        if CARD_RANK[c]:
            slots.append((CARD_SUIT[c], c, None))
        elif x is None:
            free.append(c)
        else:
            if x[0] != rank:
                raise _invalid(
                    "Een joker in een groep staat voor een kaart van dezelfde waarde.",
                    "A joker in a group stands for a card of the group's rank.",
                )
            if x[1] in used:
                raise _invalid(
                    "In een groep (dezelfde waarde) heeft elke kaart een andere kleur.",
                    "A group needs cards of different suits.",
                )
            used.add(x[1])
            slots.append((x[1], c, x))
    missing = [s for s in range(4) if s not in used]
    for c, s in zip(free, missing, strict=False):
        slots.append((s, c, (rank, s)))
    slots.sort()
    return Meld("group", tuple(c for _, c, _ in slots), tuple(x for _, _, x in slots), owner)


def _make_run(cards: Sequence[int], sf: tuple[StandsFor, ...], suit: int, owner: int) -> Meld:
    n = len(cards)
    if n > MAX_RUN:
        raise _invalid("Een rij heeft hoogstens 13 kaarten.", "A run holds at most 13 cards.")
    fixed: list[tuple[int, int]] = []  # (rank, card)
    free: list[int] = []
    for c, x in zip(cards, sf, strict=True):
        if CARD_RANK[c]:
            fixed.append((CARD_RANK[c], c))
        elif x is None:
            free.append(c)
        else:
            if x[1] != suit:
                raise _invalid(
                    f"Een joker in deze rij staat voor een {SUIT_NAMES_NL[suit]}-kaart.",
                    f"A joker in this run stands for a card of {SUIT_NAMES_EN[suit]}.",
                )
            fixed.append((x[0], c))
    has_ace = any(r == 1 for r, _ in fixed)
    for ace_high in (False, True) if has_ace else (False,):
        pos = [(14 if (r == 1 and ace_high) else r, c) for r, c in fixed]
        places = {p for p, _ in pos}
        if len(places) != len(pos):
            continue
        lo_f, hi_f = min(places), max(places)
        if hi_f - lo_f + 1 > n:
            continue
        lo = min(lo_f, 15 - n) if free else lo_f
        gaps = [p for p in range(lo, lo + n) if p not in places]
        slots = [(p, c, None if CARD_RANK[c] else (1 if p == 14 else p, suit)) for p, c in pos]
        slots.extend((p, c, (1 if p == 14 else p, suit)) for p, c in zip(gaps, free, strict=True))
        slots.sort()
        return Meld("run", tuple(c for _, c, _ in slots), tuple(x for _, _, x in slots), owner)
    if len({r for r, _ in fixed}) != len(fixed):
        raise _invalid(
            "Een rij kan niet twee keer dezelfde kaart bevatten.",
            "A run cannot hold the same card twice.",
        )
    raise _invalid(
        "De kaarten van een rij zijn opeenvolgend (aas laag of hoog, niet rondom: "
        "heer-aas-2 mag niet).",
        "A run's cards are consecutive (ace low or high, never wrapping: K-A-2 is no run).",
    )


# --- notation helpers (``python -m engine meld``) --------------------------------------


def ids_of_codes(codes: Sequence[str]) -> list[int]:
    """Card ids for codes, each physical card used once (first deck first).

    Raises ``CardCodeError`` for an unknown code and ``ValueError`` when a card occurs
    more often than two decks hold.
    """
    used: set[int] = set()
    out: list[int] = []
    for code in codes:
        rank, suit = parse_code(code)
        options = (
            [card_id_of(0, -1, d, j) for d in (0, 1) for j in (0, 1)]
            if rank == 0
            else [card_id_of(rank, suit, d) for d in (0, 1)]
        )
        for cid in options:
            if cid not in used:
                used.add(cid)
                out.append(cid)
                break
        else:
            raise ValueError(f"more copies of {code} than two decks hold")
    return out


def meld_verdict(codes: Sequence[str]) -> tuple[bool, str, str]:
    """Whether the cards (codes such as ``7h``, ``**``) form a meld: ``(ok, reason_nl,
    reason_en)``; the reasons are empty when it is a meld."""
    # one name per exception type: mypyc types a name by its first ``except``
    try:
        ids = ids_of_codes(codes)
    except CardCodeError as unknown:
        return False, f"Onbekende kaart: {unknown}", f"Unknown card: {unknown}"
    except ValueError as copies:
        return False, f"Te veel exemplaren: {copies}", f"Too many copies: {copies}"
    try:
        check_meld(ids)
    except InvalidMeld as invalid:
        return False, invalid.nl, invalid.en
    return True, "", ""


def is_meld(codes: Sequence[str]) -> bool:
    """Whether the cards (codes) form a group or a run."""
    return meld_verdict(codes)[0]


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


def lay_off(meld: Meld, card: int, stands_for: StandsFor = None) -> Meld:
    """``meld`` with ``card`` added; a natural ace goes to the low end when it fits there.

    Raises ``DoesNotFit`` when the card cannot be added (or the joker cannot stand for
    the named card).
    """
    options = lay_off_options(meld, card)
    if CARD_RANK[card]:
        if stands_for is not None:
            raise DoesNotFit(
                "Alleen een joker staat voor een andere kaart.",
                "Only a joker stands for another card.",
            )
        if not options:
            raise _no_fit(card)
        x: StandsFor = None
    else:
        if not options:
            raise _no_fit(card)
        if stands_for is None:
            x = options[0]
        elif stands_for in options:
            x = stands_for
        else:
            raise DoesNotFit(
                f"De joker kan hier niet voor {card_label(code_of(*stands_for), 'nl')} staan.",
                f"The joker cannot stand for {card_label(code_of(*stands_for), 'en')} here.",
            )
    cards = meld.cards
    sfs = meld.stands_for
    # the new meld keeps what is known of the old one: a natural card, whether it holds
    # a joker, and a group's suits or a run's low end
    natural = meld._natural
    has_joker = x is not None or meld.has_joker
    if meld.kind == "group":
        suit = CARD_SUIT[card] if x is None else x[1]
        i = 0
        for c, y in zip(cards, sfs, strict=True):
            if (CARD_SUIT[c] if y is None else y[1]) > suit:
                break
            i += 1
        return _group_meld(
            (*cards[:i], card, *cards[i:]),
            (*sfs[:i], x, *sfs[i:]),
            meld.owner,
            natural,
            has_joker,
            meld.used_suits | {suit},
        )
    low = meld.low
    rank = CARD_RANK[card] if x is None else x[0]
    if rank == low - 1:
        return _run_meld((card, *cards), (x, *sfs), meld.owner, natural, has_joker, rank)
    return _run_meld((*cards, card), (*sfs, x), meld.owner, natural, has_joker, low)


def _no_fit(card: int) -> DoesNotFit:
    nl, en = card_label(CARD_CODE[card], "nl"), card_label(CARD_CODE[card], "en")
    return DoesNotFit(f"{nl} past niet aan dit setje.", f"{en} cannot be laid off onto this meld.")


def joker_index_for(meld: Meld, card: int) -> int:
    """Index in ``meld.cards`` of the joker that stands for natural ``card``, or -1."""
    rank = CARD_RANK[card]
    if not rank:
        return -1
    want = (rank, CARD_SUIT[card])
    for i, x in enumerate(meld.stands_for):
        if x == want:
            return i
    return -1


def can_swap(meld: Meld, card: int) -> bool:
    """Whether natural ``card`` may replace a joker of ``meld`` (the joker stands for it)."""
    return joker_index_for(meld, card) >= 0


def swap_joker(meld: Meld, card: int) -> tuple[Meld, int]:
    """``meld`` with natural ``card`` in place of the joker that stands for it, and that
    joker's id; raises ``DoesNotFit`` when no joker of the meld stands for the card."""
    i = joker_index_for(meld, card)
    if i < 0:
        raise DoesNotFit(
            f"Geen joker in dit setje staat voor {card_label(CARD_CODE[card], 'nl')}.",
            f"No joker in this meld stands for {card_label(CARD_CODE[card], 'en')}.",
        )
    joker = meld.cards[i]
    cards = (*meld.cards[:i], card, *meld.cards[i + 1 :])
    sfs = (*meld.stands_for[:i], None, *meld.stands_for[i + 1 :])
    # the natural card stands where the joker stood: a natural card of the old meld,
    # a group's suits and a run's low end stay
    has_joker = sfs.count(None) != len(sfs)
    if meld.kind == "group":
        new = _group_meld(cards, sfs, meld.owner, meld._natural, has_joker, meld.used_suits)
    else:
        new = _run_meld(cards, sfs, meld.owner, meld._natural, has_joker, meld.low)
    return new, joker


# --- finding melds in a hand -----------------------------------------------------------

#: One slot of a meld pattern: (rank, suit, is_joker); rank 1 also for a high ace.
Slot = tuple[int, int, bool]
Pattern = tuple[MeldKind, tuple[Slot, ...]]


def hand_index(cards: Sequence[int]) -> tuple[dict[tuple[int, int], list[int]], list[int]]:
    """The natural cards of a hand by ``(rank, suit)`` (ids ascending) and its jokers."""
    by_key: dict[tuple[int, int], list[int]] = {}
    jokers: list[int] = []
    for c in sorted(cards):
        r = CARD_RANK[c]
        if r:
            by_key.setdefault((r, CARD_SUIT[c]), []).append(c)
        else:
            jokers.append(c)
    return by_key, jokers


def _group_shapes() -> tuple[tuple[tuple[tuple[tuple[int, bool], ...], ...], ...], ...]:
    """Per number of jokers (0..4) and per mask of the suits in hand, every group shape:
    ``(suit, is_joker)`` in suit order; jokers take the first suits the subset lacks."""
    per_jokers = []
    for jokers in range(MAX_GROUP + 1):
        per_mask = []
        for mask in range(16):
            shapes = []
            present = [s for s in range(4) if mask >> s & 1]
            k = len(present)
            for sub in range(1, 1 << k):
                subset = [present[i] for i in range(k) if sub >> i & 1]
                a = len(subset)
                for j in range(max(0, 3 - a), min(jokers, MAX_GROUP - a) + 1):
                    free = [s for s in range(4) if s not in subset][:j]
                    shape = sorted([(s, False) for s in subset] + [(s, True) for s in free])
                    shapes.append(tuple(shape))
            per_mask.append(tuple(shapes))
        per_jokers.append(tuple(per_mask))
    return tuple(per_jokers)


_GROUP_SHAPES = _group_shapes()
#: The group patterns per number of jokers (0..4), mask of suits in hand and rank.
_GROUP_PATTERNS: tuple[tuple[tuple[tuple[Pattern, ...], ...], ...], ...] = tuple(
    tuple(
        tuple(
            tuple(
                ("group", tuple((rank, s, joker) for s, joker in shape))
                for shape in _GROUP_SHAPES[j][mask]
            )
            for rank in range(14)
        )
        for mask in range(16)
    )
    for j in range(MAX_GROUP + 1)
)


def meld_patterns(
    by_key: dict[tuple[int, int], list[int]], num_jokers: int, max_size: int = MAX_RUN
) -> list[Pattern]:
    """Every group and run that can be made from these cards, at most ``max_size`` cards,
    using each natural card at most once and the canonical joker choices (in a group the
    first missing suits; in a run every window of consecutive cards whose gaps the
    jokers fill). Order: groups by rank and suits, then runs by suit, low end, length.
    """
    out: list[Pattern] = []
    by_mask = _GROUP_PATTERNS[min(num_jokers, MAX_GROUP)]
    rank_mask = [0] * 14
    suit_mask = [0, 0, 0, 0]
    for r, s in by_key:
        rank_mask[r] |= 1 << s
        suit_mask[s] |= 1 << r
    for rank in range(1, 14):
        mask = rank_mask[rank]
        if mask:
            for pattern in by_mask[mask][rank]:
                if len(pattern[1]) <= max_size:
                    out.append(pattern)
    max_size = min(max_size, MAX_RUN)
    for suit in range(4):
        if suit_mask[suit]:
            out.extend(_run_patterns(suit, suit_mask[suit], num_jokers, max_size))
    return out


@lru_cache(maxsize=1 << 16)
def _run_patterns(suit: int, mask: int, num_jokers: int, max_size: int) -> tuple[Pattern, ...]:
    """The runs of one suit: ``mask`` has bit r for each rank r (1..13) in hand; every
    window of consecutive positions (1 = low ace .. 14 = high ace) with at least one
    natural card whose gaps the jokers fill, by low end then length."""
    have = [bool(mask >> p & 1) for p in range(15)] + [False]
    have[14] = have[1]
    places = [p for p in range(1, 15) if have[p]]
    row = [(1 if p == 14 else p, suit, not have[p]) for p in range(15)]
    out: list[Pattern] = []
    for lo in range(max(1, places[0] - num_jokers), min(places[-1], 12) + 1):
        if not have[lo] and not num_jokers:
            continue
        count = 0
        for hi in range(lo, min(lo + MAX_RUN - 1, 14) + 1):
            count += have[hi]
            size = hi - lo + 1
            # the jokers needed never drop as the window grows
            if size > max_size or size - count > num_jokers:
                break
            if size >= 3 and count:
                out.append(("run", tuple(row[lo : hi + 1])))
    return tuple(out)


def materialize(
    pattern: Pattern,
    by_key: dict[tuple[int, int], list[int]],
    jokers: Sequence[int],
    owner: int = -1,
) -> Meld:
    """The meld of a pattern with the first ids of each card (the pattern's cards must be
    available; several patterns sharing cards need ``materialize_many``)."""
    kind, slots = pattern
    cards: list[int] = []
    sfs: list[StandsFor] = []
    j = 0
    for r, s, joker in slots:
        if joker:
            cards.append(jokers[j])
            j += 1
            sfs.append((r, s))
        else:
            cards.append(by_key[(r, s)][0])
            sfs.append(None)
    return _meld(kind, tuple(cards), tuple(sfs), owner)


def pattern_spec(
    pattern: Pattern, by_key: dict[tuple[int, int], list[int]], jokers: Sequence[int]
) -> tuple[tuple[int, ...], tuple[StandsFor, ...]]:
    """The card ids and joker choices of a pattern (first ids of each card)."""
    cards: list[int] = []
    sfs: list[StandsFor] = []
    j = 0
    for r, s, joker in pattern[1]:
        if joker:
            cards.append(jokers[j])
            j += 1
            sfs.append((r, s))
        else:
            cards.append(by_key[(r, s)][0])
            sfs.append(None)
    return tuple(cards), tuple(sfs)


def pattern_usage(pattern: Pattern) -> tuple[int, int]:
    """A bit per natural card a pattern uses (bit ``(rank - 1) * 4 + suit``) and the number
    of jokers it needs."""
    mask = 0
    jokers = 0
    for r, s, joker in pattern[1]:
        if joker:
            jokers += 1
        else:
            mask |= 1 << ((r - 1) * 4 + s)
    return mask, jokers


def single_copies(by_key: dict[tuple[int, int], list[int]]) -> int:
    """The bits (as in ``pattern_usage``) of the cards the hand holds only once."""
    mask = 0
    for (r, s), found in by_key.items():
        if len(found) == 1:
            mask |= 1 << ((r - 1) * 4 + s)
    return mask


def materialize_many(
    patterns: Sequence[Pattern], by_key: dict[tuple[int, int], list[int]], jokers: Sequence[int]
) -> list[Meld] | None:
    """Melds for several patterns from one hand, each physical card used once; ``None``
    when the hand does not hold enough copies."""
    taken: dict[tuple[int, int], int] = {}
    j = 0
    melds: list[Meld] = []
    for kind, slots in patterns:
        cards: list[int] = []
        sfs: list[StandsFor] = []
        for r, s, joker in slots:
            if joker:
                if j >= len(jokers):
                    return None
                cards.append(jokers[j])
                j += 1
                sfs.append((r, s))
            else:
                key = (r, s)
                i = taken.get(key, 0)
                ids = by_key.get(key)
                if ids is None or i >= len(ids):
                    return None
                taken[key] = i + 1
                cards.append(ids[i])
                sfs.append(None)
        melds.append(_meld(kind, tuple(cards), tuple(sfs), -1))
    return melds


def melds_in(cards: Sequence[int], max_size: int = MAX_RUN) -> list[Meld]:
    """Every single meld in these cards (see ``meld_patterns``), at most ``max_size``
    cards each, as melds with the lowest ids of each card and ``owner=-1``."""
    by_key, jokers = hand_index(cards)
    return [materialize(p, by_key, jokers) for p in meld_patterns(by_key, len(jokers), max_size)]
