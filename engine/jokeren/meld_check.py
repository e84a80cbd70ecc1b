"""Checking a new meld (docs/rules.md §2): whether cards form a group or a run, and which
card each joker stands for when the player names none (in a group the first missing suit
in the order c d h s; in a run the gaps first, then the high end, then the low end); the
notation helpers of ``python -m engine meld``.
"""

from __future__ import annotations

from collections.abc import Sequence
from itertools import combinations
from operator import itemgetter
from typing import Any

from engine.cards import (
    CARD_RANK,
    CARD_SUIT,
    SUIT_NAMES_EN,
    SUIT_NAMES_NL,
    CardCodeError,
    card_id_of,
    parse_code,
)
from engine.jokeren.meld import (
    InvalidMeld,
    Meld,
    StandsFor,
    group_meld,
    run_meld,
    stands_for_from_json,
)
from engine.jokeren.variants import MAX_GROUP, MAX_RUN

_RANK = CARD_RANK
_SUIT = CARD_SUIT
#: A card's place in a run with the ace high (14 for an ace).
_PLACE_HIGH = tuple(14 if r == 1 else r for r in CARD_RANK)


def _invalid(nl: str, en: str) -> InvalidMeld:
    return InvalidMeld(nl, en)


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
        return group_meld(laid, sfs, owner, laid[sfs.index(None)], True, frozenset(suits))
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
    return run_meld(laid, sfs, owner, laid[sfs.index(None)], True, low)


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
        return group_meld(laid, (None,) * n, owner, laid[0], False, used)
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
    return run_meld(laid, (None,) * n, owner, laid[0], False, low)


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


# --- the readings of a selection --------------------------------------------------------


def meld_readings(cards: Sequence[int]) -> list[Meld]:
    """Every way the cards ``cards`` lie as one new meld (docs/rules.md §2: on the table a
    joker stands for one definite card; in a group a suit the group lacks, in a run its
    place), each a ``Meld`` (``owner=-1``) in table order; empty when they form no meld.

    ``check_meld`` judges every naming of the jokers tried (in a group the suits it
    lacks, in a run every window of places that holds the natural cards). The first
    reading is its own choice when no joker is named (docs/rules.md §7 Jokeren 9: the
    first free choice); the others follow in the same preference: the melds of that kind
    first (the other kind only for one natural card with jokers); a group's jokers by the
    suits they take, in the order c d h s; a run with its natural ace low before one with
    it high, then the jokers as high as they go (the run's low end from high to low).
    Selections without a joker have one reading.
    """
    n = len(cards)
    if n < 3 or n > MAX_RUN or len(set(cards)) != n:
        return []
    for c in cards:
        if not isinstance(c, int) or not 0 <= c < len(CARD_RANK):
            return []
    first = analyse(cards)
    jokers = [c for c in cards if not CARD_RANK[c]]
    if first is None or not jokers:
        return [] if first is None else [first]
    # a reading is what laying the cards with its jokers so named gives (the action names
    # each joker's card, not the run's end: a run 2..K with a joker as its ace lies with
    # the ace low, docs/rules.md §7 Jokeren 10)
    first = analyse(first.cards, first.stands_for) or first
    ranks = {CARD_RANK[c] for c in cards if CARD_RANK[c]}
    suits = {CARD_SUIT[c] for c in cards if CARD_RANK[c]}
    # the namings to try: in a group the jokers take suits it lacks; in a run a window of
    # consecutive places (1 = low ace .. 14 = high ace) holding the natural cards, the
    # jokers its other places
    namings: list[list[tuple[int, int]]] = []
    if len(ranks) == 1 and n <= MAX_GROUP:
        rank = next(iter(ranks))
        missing = [s for s in range(4) if s not in suits]
        for chosen in combinations(missing, len(jokers)):
            namings.append([(rank, s) for s in chosen])
    if len(suits) == 1:
        suit = next(iter(suits))
        for low in range(1, 16 - n):
            high = low + n - 1
            places = {r if low <= r <= high else 14 if r == 1 and high == 14 else 0 for r in ranks}
            free = [p for p in range(low, high + 1) if p not in places]
            if 0 not in places and len(free) == len(jokers):
                namings.append([(1 if p == 14 else p, suit) for p in free])
    readings: dict[tuple[tuple[int, StandsFor], ...], Meld] = {}
    for naming in namings:
        sfs: list[StandsFor] = []
        k = 0
        for c in cards:
            if CARD_RANK[c]:
                sfs.append(None)
            else:
                sfs.append(naming[k])
                k += 1
        meld = analyse(cards, sfs)
        if meld is not None:
            readings.setdefault(_naming(meld), meld)
    readings.pop(_naming(first), None)
    rest = sorted(readings.values(), key=lambda m: _reading_order(m, first.kind))
    return [first, *rest]


def _naming(meld: Meld) -> tuple[tuple[int, StandsFor], ...]:
    """What a ``LayMelds`` action says of a reading: each card with what it stands for
    (two readings that say the same are one move)."""
    return tuple(sorted(zip(meld.cards, meld.stands_for, strict=True), key=lambda x: x[0]))


def meld_readings_json(cards: Sequence[int]) -> list[dict[str, Any]]:
    """``meld_readings(cards)`` as JSON, for a table that asks how a selection reads as a
    new meld: per reading ``{"kind", "cards", "codes", "stands_for"}`` (``Meld.to_json``
    without the owner; ``stands_for`` a code per joker, ``null`` per natural card)."""
    out = []
    for meld in meld_readings(cards):
        shown = meld.to_json()
        del shown["owner"]
        out.append(shown)
    return out


def _reading_order(meld: Meld, first_kind: str) -> tuple[int, int, int, tuple[int, ...]]:
    """The sort key of a reading after the first (``meld_readings``)."""
    jokers = tuple(x[1] for x in meld.stands_for if x is not None)
    if meld.kind == "group":
        return (int(meld.kind != first_kind), 0, 0, tuple(sorted(jokers)))
    ace_high = int(meld.high == 14 and meld.stands_for[-1] is None)
    return (int(meld.kind != first_kind), ace_high, -meld.low, ())


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
