"""Which lay-downs and table plays are legal for the player to move after the draw
(docs/rules.md §2-§3): the ``LayMelds`` (single melds, or the smallest combinations that
meet the opening), and the ``LayOff`` and ``SwapJoker`` actions onto the melds on the
table, in the canonical order ``JokerenState.legal_actions`` lists them.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from itertools import combinations

from engine.cards import CARD_KIND, CARD_RANK, CARD_SUIT
from engine.jokeren.actions import Action, LayMelds, SwapJoker, lay_off_action
from engine.jokeren.melds import (
    Meld,
    Pattern,
    hand_index,
    materialize_many,
    meld_patterns,
    pattern_spec,
    pattern_usage,
    single_copies,
)
from engine.jokeren.turns import (
    JOKER_KIND,
    discardable,
    fits_requirement,
    meets_requirements,
    pattern_points,
    without,
)
from engine.jokeren.variants import Contract, Variant

#: Caps on the enumerated opening combinations (``legal_actions`` stays finite and fast;
#: ``is_legal``/``apply`` accept every legal combination).
MAX_COMBOS = 400
MAX_NODES = 20000


def lay_melds_options(
    variant: Variant,
    round_index: int,
    hand: tuple[int, ...],
    taken: int | None,
    *,
    is_out: bool,
) -> list[LayMelds]:
    """The ``LayMelds`` a player holding ``hand`` may make after the draw (``taken``: the
    card taken from the open pile this turn, which must not be the only kind left to
    discard): once out, or where the variant has no opening, every single meld with
    canonical joker choices; to come out, the smallest combinations that meet the opening
    (docs/rules.md §3: the opening points, or the round's contract judged on the melds of
    one action). Capped at ``MAX_COMBOS`` combinations (``apply`` accepts every legal one).
    """
    by_key, jokers = hand_index(hand)
    patterns = meld_patterns(by_key, len(jokers), len(hand) - 1)
    v = variant
    result: list[LayMelds] = []

    size = len(hand)

    def add(melds: Sequence[Meld]) -> None:
        used = [c for m in melds for c in m.cards]
        if len(used) >= size:
            return
        if taken is None or discardable(without(hand, used), taken):
            result.append(LayMelds(tuple((m.cards, m.stands_for) for m in melds)))

    if is_out or v.opening == "none":
        return _single_melds(hand, taken, patterns, by_key, jokers)
    if v.opening == "points":
        _points_combos(patterns, by_key, jokers, v.opening_points, add)
        return result
    contract = v.contract_for(round_index)
    assert contract is not None
    if contract.all_out:
        _all_out_combos(contract, hand, taken, add)
        return result
    if contract.points:

        def ok_points(melds: Sequence[Meld]) -> None:
            if meets_requirements(contract, melds):
                add(melds)

        _points_combos(patterns, by_key, jokers, contract.points, ok_points)
        return result
    k = len(contract.runs) + len(contract.groups)
    if k == 0:  # any meld
        return _single_melds(hand, taken, patterns, by_key, jokers)
    fitting = [p for p in patterns if fits_requirement(contract, p)]
    usage = [pattern_usage(p) for p in fitting]
    single = single_copies(by_key)
    num_jokers = len(jokers)
    for combo in combinations(range(len(fitting)), k):
        mask = 0
        need_jokers = 0
        clash = False
        for i in combo:
            m, j = usage[i]
            if mask & m & single:
                clash = True
                break
            mask |= m
            need_jokers += j
        if clash or need_jokers > num_jokers:
            continue
        melds = materialize_many([fitting[i] for i in combo], by_key, jokers)
        if melds is not None and meets_requirements(contract, melds):
            add(melds)
            if len(result) >= MAX_COMBOS:
                break
    return result


def _single_melds(
    hand: tuple[int, ...],
    taken: int | None,
    patterns: Sequence[Pattern],
    by_key: dict[tuple[int, int], list[int]],
    jokers: Sequence[int],
) -> list[LayMelds]:
    """One ``LayMelds`` per pattern (each already leaves a card in hand)."""
    out: list[LayMelds] = []
    for p in patterns:
        cards, sfs = pattern_spec(p, by_key, jokers)
        if taken is not None and not discardable(without(hand, cards), taken):
            continue
        out.append(LayMelds(((cards, sfs),)))
    return out


def _points_combos(
    patterns: Sequence[Pattern],
    by_key: dict[tuple[int, int], list[int]],
    jokers: Sequence[int],
    need: int,
    add: Callable[[Sequence[Meld]], None],
) -> None:
    """Every minimal set of melds worth at least ``need`` points (dropping any meld
    would fall short), found by a bounded depth-first search."""
    pts = [pattern_points(p) for p in patterns]
    usage = [pattern_usage(p) for p in patterns]
    single = single_copies(by_key)
    num_jokers = len(jokers)
    count = [0, 0]  # nodes visited, results

    def dfs(start: int, chosen: list[int], total: int, mask: int, used_jokers: int) -> None:
        for i in range(start, len(patterns)):
            if count[0] >= MAX_NODES or count[1] >= MAX_COMBOS:
                return
            m, j = usage[i]
            if mask & m & single or used_jokers + j > num_jokers:
                continue
            count[0] += 1
            sel = [*chosen, i]
            new_total = total + pts[i]
            if new_total >= need:
                if new_total - min(pts[x] for x in sel) < need:
                    melds = materialize_many([patterns[x] for x in sel], by_key, jokers)
                    if melds is not None:
                        add(melds)
                        count[1] += 1
            else:
                dfs(i + 1, sel, new_total, mask | m, used_jokers + j)

    dfs(0, [], 0, 0, 0)


def _all_out_combos(
    contract: Contract,
    hand: tuple[int, ...],
    taken: int | None,
    add: Callable[[Sequence[Meld]], None],
) -> None:
    """Every way to lay all cards but one in melds that meet the contract: a search
    that covers the lowest natural card left by a meld holding it, or keeps it as the
    card to discard (once), remembering dead ends."""
    by_key, jokers = hand_index(hand)
    patterns = meld_patterns(by_key, len(jokers), len(hand) - 1)
    if not patterns:
        return
    covered = {(r, s) for _, slots in patterns for r, s, j in slots if not j}
    if sum(len(v) for k, v in by_key.items() if k not in covered) > 1:
        return
    taken_key = None if taken is None else (CARD_RANK[taken], CARD_SUIT[taken])
    counts = {k: len(v) for k, v in by_key.items()}
    found: list[list[Pattern]] = []
    dead: set[tuple[tuple[tuple[tuple[int, int], int], ...], int, bool]] = set()
    nodes = [0]

    def search(left: int, jokers_left: int, skipped: bool, chosen: list[Pattern]) -> None:
        if len(found) >= MAX_COMBOS or nodes[0] >= MAX_NODES:
            return
        nodes[0] += 1
        present = sorted(k for k, n in counts.items() if n)
        state_key = (tuple((k, counts[k]) for k in present), jokers_left, skipped)
        if state_key in dead:
            return
        before = len(found)
        if not present:
            if (skipped and not jokers_left) or (
                not skipped and jokers_left == 1 and taken_key != (0, -1)
            ):
                found.append(list(chosen))
        else:
            first = present[0]
            if not skipped and first != taken_key:
                counts[first] -= 1
                search(left - 1, jokers_left, True, chosen)
                counts[first] += 1
            rest = {k: by_key[k] for k in present}
            for p in meld_patterns(rest, jokers_left, left):
                if not any(not j and (r, s) == first for r, s, j in p[1]):
                    continue
                used_jokers = 0
                for r, s, j in p[1]:
                    if j:
                        used_jokers += 1
                    else:
                        counts[(r, s)] -= 1
                chosen.append(p)
                search(left - len(p[1]), jokers_left - used_jokers, skipped, chosen)
                chosen.pop()
                for r, s, j in p[1]:
                    if not j:
                        counts[(r, s)] += 1
        if len(found) == before:
            dead.add(state_key)

    search(len(hand), len(jokers), False, [])
    for combo in found:
        melds = materialize_many(combo, by_key, jokers)
        if melds is None:
            continue
        if not meets_requirements(contract, melds):
            continue
        if contract.points and sum(m.points for m in melds) < contract.points:
            continue
        add(melds)


def table_play_actions(
    hand: tuple[int, ...], taken: int | None, table: tuple[Meld, ...]
) -> list[Action]:
    """Every ``LayOff`` (by card, meld, joker choice) and then every ``SwapJoker`` of a
    player holding ``hand`` who may lay off now (docs/rules.md §3), that leaves a card the
    player may discard (``taken``: the card taken from the open pile this turn)."""
    out: list[Action] = []
    # cards that may be discarded this turn: a card may leave the hand if
    # another such card stays
    taken_kind = -1 if taken is None else CARD_KIND[taken]
    free = sum(1 for c in hand if CARD_KIND[c] != taken_kind)
    for card in hand:
        if free - (CARD_KIND[card] != taken_kind) < 1:
            continue
        rank = CARD_RANK[card]
        if rank:
            key = (rank, CARD_SUIT[card])
            for i, meld in enumerate(table):
                if key in meld.accepts:
                    out.append(lay_off_action(card, i, None))
        else:
            for i, meld in enumerate(table):
                for sf in meld.joker_options:
                    out.append(lay_off_action(card, i, sf))
    with_jokers = [(i, m.stands_for) for i, m in enumerate(table) if m.has_joker]
    if with_jokers:
        joker_free = taken_kind != JOKER_KIND
        for card in hand:
            rank = CARD_RANK[card]
            if not rank:
                continue
            if free - (CARD_KIND[card] != taken_kind) + joker_free < 1:
                continue  # only the taken card (or copies) would be left
            key = (rank, CARD_SUIT[card])
            for i, sfs in with_jokers:
                if key in sfs:
                    out.append(SwapJoker(card, i))
    return out
