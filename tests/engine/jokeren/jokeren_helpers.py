"""Helpers for the Jokeren rule tests: cards by code and hand-built round states.

A hand-built state puts every card somewhere (the cards not named go to the bottom of
the stock, or out of the game with ``rest="removed"``), so it is as valid as a dealt one.
"""

from __future__ import annotations

import random
from collections.abc import Sequence

from engine.cards import CARD_CODE, CARD_RANK, card_id_of, code_of, parse_code
from engine.jokeren import JokerenState, LayMelds, Meld, Variant, check_meld, new_round
from engine.jokeren.melds import stands_for_from_json


class Cards:
    """Hands out physical card ids for codes, each id once (first deck first)."""

    def __init__(self, variant: Variant) -> None:
        self.variant = variant
        self.used: set[int] = set()

    def one(self, code: str) -> int:
        rank, suit = parse_code(code)
        decks = range(self.variant.decks)
        options = (
            [card_id_of(0, -1, d, j) for d in decks for j in (0, 1)]
            if rank == 0
            else [card_id_of(rank, suit, d) for d in decks]
        )
        for cid in options:
            if cid not in self.used:
                self.used.add(cid)
                return cid
        raise ValueError(f"no copy of {code} left")

    def many(self, codes: str) -> list[int]:
        return [self.one(c) for c in codes.split()]

    def rest(self) -> list[int]:
        return [c for c in range(self.variant.pack_size) if c not in self.used]


def ids(codes: str) -> list[int]:
    """Ids of codes from a two-deck pack, each physical card once."""
    from engine.jokeren.variants import JOKEREN13

    return Cards(JOKEREN13).many(codes)


def make_state(
    variant: Variant,
    *,
    hands: Sequence[str],
    table: Sequence[tuple[str, int] | tuple[str, int, str]] = (),
    open_pile: str = "",
    stock: str = "",
    current: int = 0,
    phase: str = "play",
    out: Sequence[bool] | None = None,
    came_out_this_turn: bool = False,
    taken_from_open: str | None = None,
    turn: int = 10,
    round_index: int = 0,
    rest: str = "stock",
) -> JokerenState:
    """A state with these hands (codes per seat), table melds ``(codes, owner[, joker
    names])``, open pile (bottom first) and stock (top first). ``taken_from_open`` names
    a card of the current hand that was taken from the open pile this turn."""
    cards = Cards(variant)
    hand_ids = [cards.many(h) for h in hands]
    melds: list[Meld] = []
    for spec in table:
        meld_cards = cards.many(spec[0])
        names = spec[2].split() if len(spec) == 3 else []  # type: ignore[misc]
        sfs = []
        k = 0
        for cid in meld_cards:
            if CARD_RANK[cid] == 0 and k < len(names):
                sfs.append(stands_for_from_json(names[k]))
                k += 1
            else:
                sfs.append(None)
        melds.append(check_meld(meld_cards, sfs, owner=spec[1]))
    open_ids = cards.many(open_pile)
    stock_ids = cards.many(stock)
    leftover = cards.rest()
    removed: list[int] = []
    if rest == "stock":
        stock_ids += leftover
    else:
        removed = leftover
    taken = None
    if taken_from_open is not None:
        code = code_of(*parse_code(taken_from_open))
        taken = next(c for c in hand_ids[current] if CARD_CODE[c] == code)
    base = new_round(variant, secret=b"test", round_index=round_index)
    n = variant.num_players
    return base._evolve(
        current_player=current,
        phase=phase,
        hands=tuple(tuple(sorted(h)) for h in hand_ids),
        stock=tuple(stock_ids),
        open_pile=tuple(open_ids),
        table=tuple(melds),
        out=tuple(out) if out is not None else (False,) * n,
        came_out_this_turn=came_out_this_turn,
        taken_from_open=taken,
        turn=turn,
        removed=tuple(removed),
    )


def random_round(
    variant: Variant, *, secret: bytes, round_index: int, rng: random.Random
) -> tuple[JokerenState, list[JokerenState]]:
    """Play a round choosing uniformly among the legal actions; the final state and
    every state on the way."""
    state = new_round(variant, secret=secret, round_index=round_index)
    seen = [state]
    while not state.is_terminal:
        state = state.apply(rng.choice(state.legal_actions()))
        seen.append(state)
    return state, seen


def card(state: JokerenState, code: str, seat: int | None = None) -> int:
    """The id of the first card with this code in a seat's hand (default: the mover)."""
    s = state.current_player if seat is None else seat
    assert s is not None
    return next(c for c in state.hands[s] if CARD_CODE[c] == code)


def lay(state: JokerenState, *melds: str) -> LayMelds:
    """A ``LayMelds`` of the mover's cards, one meld per string of codes; jokers are
    left for the engine to name (the first free choice)."""
    hand = list(state.hands[state.current_player or 0])
    out = []
    for text in melds:
        cards = []
        for code in text.split():
            c = next(x for x in hand if CARD_CODE[x] == code)
            hand.remove(c)
            cards.append(c)
        out.append((tuple(cards), (None,) * len(cards)))
    return LayMelds(tuple(out))
