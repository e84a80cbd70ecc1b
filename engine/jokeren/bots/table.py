"""The melds on the table as a bot sees them: where a card can be laid off, which table
joker a card can replace, and the same places as lane masks (``engine.jokeren.bots.lanes``)
for the quick going-out checks. Cached per table and per meld, by identity.
"""

from __future__ import annotations

from typing import Final, NamedTuple

from engine.jokeren.bots.hand import JOKER_KIND, KIND
from engine.jokeren.bots.lanes import LANE_BIT
from engine.jokeren.melds import Meld

# --- the table, as a bot sees it -------------------------------------------------------


class TableView(NamedTuple):
    """The melds on the table, reduced to what lay-offs and swaps need (a named tuple:
    made for every new table, and cheaply)."""

    #: kind (a natural, or 52 for a joker) -> index of the first meld it can be laid
    #: off on
    fit: dict[int, int]
    #: natural kind -> index of the first meld holding a joker that stands for it
    swaps: dict[int, int]
    #: a natural kind laid off at the end of a run -> the kind that then fits next
    unlock: dict[int, int]
    #: the same places as lane masks (``TableBits``), for the quick going-out checks
    places: int = 0
    swap_bits: int = 0
    next_places: tuple[tuple[int, int], ...] = ()
    next_bits: int = 0
    joker_fits: bool = False


def _meld_fits(meld: Meld) -> list[tuple[int, int]]:
    """The kinds that can be laid off on a meld (52: a joker), each with the kind that
    fits after it (-1: none). Read from the meld's cards and stands-for alone: a run is
    listed low to high, so its first card gives its lowest position."""
    cards = meld.cards
    stands_for = meld.stands_for
    size = len(cards)
    kinds = KIND
    if meld.kind == "run":
        if size >= 13:
            return []
        first = stands_for[0]
        lo = kinds[cards[0]] % 13 + 1 if first is None else first[0]
        hi = lo + size - 1
        suit = -1
        for i in range(size):  # (an index loop: compiled, ``zip(strict=True)`` is a call)
            if stands_for[i] is None:
                suit = kinds[cards[i]] // 13
                break
        base = suit * 13
        room = size + 1 < 13
        out = [(JOKER_KIND, -1)]
        if lo > 1:
            out.append((base + lo - 2, base + lo - 3 if lo > 2 and room else -1))
        if hi < 14:
            out.append((base + hi % 13, base + (hi + 1) % 13 if hi < 13 and room else -1))
        return out
    if size >= 4:
        return []
    used = [False] * 4
    ri = -1
    for i in range(size):
        sf = stands_for[i]
        if sf is None:
            k = kinds[cards[i]]
            used[k // 13] = True
            ri = k % 13
        else:
            used[sf[1]] = True
    return [(JOKER_KIND, -1), *((s * 13 + ri, -1) for s in range(4) if not used[s])]


def table_view(table: tuple[Meld, ...]) -> TableView:
    """The ``TableView`` of the melds on the table (cached per table)."""
    hit = _TABLE_CACHE.get(id(table))
    if hit is not None and hit[0] is table:
        return hit[1]
    last_table, last = _LAST_VIEW[0]
    n0 = len(last_table)
    if n0 and len(table) > n0 and table[:n0] == last_table:
        # the last table viewed with melds laid after its own (a lay-down): its view, and
        # the new melds' places where no earlier meld took them
        fit, swaps, unlock, places, swap_bits, nexts, next_bits, joker_fits = last
        fit = fit.copy()
        swaps = swaps.copy()
        unlock = unlock.copy()
    else:
        n0 = 0
        fit = {}
        swaps = {}
        unlock = {}
        places = swap_bits = next_bits = 0
        nexts = ()
        joker_fits = False
    for i in range(n0, len(table)):
        m = table[i]
        hit_m = _FITS_CACHE.get(id(m))
        if hit_m is not None and hit_m[0] is m:
            fits, b = hit_m[1], hit_m[2]
        else:
            fits, b = _meld_places(m)
        places |= b.places
        swap_bits |= b.swap_bits
        next_bits |= b.next_bits
        if b.next_places:
            nexts += b.next_places
        joker_fits = joker_fits or b.joker_fits
        for k, after in fits:
            fit.setdefault(k, i)
            if after >= 0:
                unlock.setdefault(k, after)
        for sf in m.stands_for:
            if sf is not None:
                swaps.setdefault(sf[1] * 13 + sf[0] - 1, i)
    view = _new_view(
        TableView, (fit, swaps, unlock, places, swap_bits, nexts, next_bits, joker_fits)
    )
    if len(_TABLE_CACHE) >= _TABLES_KEPT:
        _TABLE_CACHE.clear()
    _TABLE_CACHE[id(table)] = (table, view)
    _LAST_VIEW[0] = (table, view)
    return view


class TableBits(NamedTuple):
    """The lay-off places of a meld as lane masks (``LANE_BIT``), for the quick
    going-out checks (``table_view`` joins them for the table)."""

    #: every natural kind that fits a meld
    places: int
    #: the natural kinds that a table joker stands for
    swap_bits: int
    #: a kind that fits a run's end and the kind that fits after it, per run end
    next_places: tuple[tuple[int, int], ...]
    #: the kinds that fit one place beyond a lay-off place
    next_bits: int
    #: a joker can be laid off
    joker_fits: bool


def _meld_places(meld: Meld) -> tuple[list[tuple[int, int]], TableBits]:
    """``_meld_fits`` of a meld and the same places as lane masks (cached per meld)."""
    fits = _meld_fits(meld)
    bits = LANE_BIT
    places = swap_bits = next_bits = 0
    nexts: list[tuple[int, int]] = []
    joker_fits = False
    for k, after in fits:
        if k == JOKER_KIND:
            joker_fits = True
            continue
        places |= bits[k]
        if after >= 0:
            nexts.append((bits[k], bits[after]))
            next_bits |= bits[after]
    for sf in meld.stands_for:
        if sf is not None:
            swap_bits |= bits[sf[1] * 13 + sf[0] - 1]
    out = _new_view(TableBits, (places, swap_bits, tuple(nexts), next_bits, joker_fits))
    if len(_FITS_CACHE) >= _MELDS_KEPT:
        _FITS_CACHE.clear()
    _FITS_CACHE[id(meld)] = (meld, fits, out)
    return fits, out


def table_bits(table: tuple[Meld, ...]) -> TableBits | TableView:
    """The ``TableBits`` of the whole table (its melds' joined), without the dicts of a
    ``TableView``: the going-out checks need no more (cached per table, like
    ``table_view``; the search makes a new table at every lay-down and lay-off). The
    table's ``TableView`` when one is cached (it holds the same bits)."""
    hit = _BITS_CACHE.get(id(table))
    if hit is not None and hit[0] is table:
        return hit[1]
    full = _TABLE_CACHE.get(id(table))
    if full is not None and full[0] is table:
        return full[1]
    places = swap_bits = next_bits = 0
    nexts: tuple[tuple[int, int], ...] = ()
    joker_fits = False
    fits_cache = _FITS_CACHE
    for m in table:
        hit_m = fits_cache.get(id(m))
        b = hit_m[2] if hit_m is not None and hit_m[0] is m else _meld_places(m)[1]
        places |= b.places
        swap_bits |= b.swap_bits
        next_bits |= b.next_bits
        if b.next_places:
            nexts += b.next_places
        if b.joker_fits:
            joker_fits = True
    out = _new_view(TableBits, (places, swap_bits, nexts, next_bits, joker_fits))
    if len(_BITS_CACHE) >= _TABLES_KEPT:
        _BITS_CACHE.clear()
    _BITS_CACHE[id(table)] = (table, out)
    return out


#: how many tables (``table_view``, ``table_bits``) and melds (``_meld_places``) the caches
#: below keep before they are emptied: the tables of a turn and of its going-out search.
#: Few, so that what they keep dies young: objects that outlive a collection of the
#: youngest generation make the older ones long and frequent (256 tables and 1,024
#: melds kept the collector busy for about a tenth of a basic round).
_TABLES_KEPT: Final = 32
_MELDS_KEPT: Final = 128
#: the lay-off places of each meld, by the identity of the meld (kept, as above)
_FITS_CACHE: dict[int, tuple[Meld, list[tuple[int, int]], TableBits]] = {}
#: ``table_bits`` by the identity of the table tuple (kept, as above)
_BITS_CACHE: dict[int, tuple[tuple[Meld, ...], TableBits]] = {}
#: the table whose view was made last, and its view (a table that only adds melds to it
#: extends its view)
_LAST_VIEW: list[tuple[tuple[Meld, ...], TableView]] = [((), TableView({}, {}, {}))]
#: table views by the identity of the table tuple (the tuple is kept, so its id is not
#: reused while cached)
_TABLE_CACHE: dict[int, tuple[tuple[Meld, ...], TableView]] = {}


#: makes a named tuple positionally (the named form calls its Python ``__new__``)
_new_view: Final = tuple.__new__


def clear_caches() -> None:
    """Forget the tables' bits and the table viewed last (for benchmarks of the worst
    case; the views and the melds' places stay cached by identity)."""
    _BITS_CACHE.clear()
    _LAST_VIEW[0] = ((), TableView({}, {}, {}))
