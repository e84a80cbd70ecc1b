"""The ``strong`` Jokeren bot: the basic bot's sense (``engine.jokeren.bots.basic``,
``engine.jokeren.bots.play``), and more (docs/rules.md, sections 3-4):

- a one-card lookahead: for each card it might discard, the chance of going out next
  turn after one more card from the unseen ones (the table's lay-off places included);
- it keeps cards near a meld (pairs, runs with a gap) while cards that complete them are
  still unseen, and cards that fit the table or can replace a table joker;
- it takes an open card that can be swapped for a table joker, one that lowers the
  hand's penalty, and a cheap one that builds a near meld;
- the jokers it lays name the card least likely to be in another hand, so they are
  rarely swapped away;
- it avoids feeding the next player (no card of a rank the next player took from the
  open pile, nor a neighbour of it in that suit) and dumps high cards when an opponent
  is close to going out. Ties between discards are drawn from the round's
  ``bot:<seat>`` stream.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Final

from engine.dealing import Stream
from engine.errors import RoundOver
from engine.jokeren.actions import (
    DISCARDS,
    DRAW_OPEN,
    DRAW_STOCK,
    Action,
    LayOff,
)
from engine.jokeren.bots.going_out import (
    going_out_line,
    open_card_goes_out,
)
from engine.jokeren.bots.hand import (
    CARD_WEIGHTS,
    JOKER_KIND,
    KIND,
    KIND_POINTS,
    POINT_WEIGHTS,
    HandMeld,
    Partition,
    kind_of,
    partition,
    rank_of_position,
    run_positions,
)
from engine.jokeren.bots.lanes import (
    LANE_BIT,
    lane_mask,
    near_bits,
    suit_rank_masks,
)
from engine.jokeren.bots.play import (
    lay_down_melds,
    lay_melds,
    least_loss_discard,
    left_after,
    lowest_id,
    open_card_forced,
    swap_or_lay_off,
)
from engine.jokeren.bots.table import TableBits, TableView
from engine.jokeren.bots.view import BotView, view_of
from engine.jokeren.melds import StandsFor, lay_off_options
from engine.jokeren.state import JokerenObservation, JokerenState

#: a strong bot takes an open card of at most this many points that builds a near meld
_NEAR_TAKE: Final = 5
#: what an unseen card that would complete a near meld is worth, in points
_OUT_VALUE: Final = 1.6
#: a card that fits a meld on the table (to lay off later) is kept like a meld card
_FITS_TABLE: Final = 40.0
#: how much to avoid giving the next player a card near what they took from the pile
_FEED_NEXT: Final = 6.0
#: what going out next turn is worth, in points (own hand saved, the others' counted)
_GO_OUT: Final = 30.0
#: the lookahead runs when the hand (after its melds) holds at most this many cards
_LOOKAHEAD_CARDS: Final = 7


def bot_action(state: JokerenState) -> Action:
    """A strong bot's choice in the seat to move: from that seat's observation and the
    round's ``bot:<seat>`` stream, started at the number of actions so far."""
    seat = state.current_player
    if seat is None:
        raise RoundOver("De ronde is voorbij.", "The round is over.")
    rng = Stream(state.round_seed, f"bot:{seat}", start=state.move_count)
    return choose(state.observe(seat), rng)


def choose(obs: JokerenObservation, rng: Stream | None) -> Action:
    """A strong bot's action for the seat of ``obs`` (its turn), using ``rng`` only to
    break ties: the way out when there is one (``going_out_line``, and the open card
    when it makes going out possible), else ``decide``."""
    if obs.phase == "draw":
        drawn = decide(view_of(obs, strong=True), rng)
        if drawn is DRAW_STOCK and open_card_goes_out(obs):
            return DRAW_OPEN
        return drawn
    line = going_out_line(obs)
    if line is not None:
        return line[0]
    return decide(view_of(obs, strong=True), rng)


def decide(view: BotView, rng: Stream | None) -> Action:
    """A strong bot's action on its view (see the module text). ``rng`` breaks ties
    between discards (``None``: a tie raises ``ValueError``)."""
    if view.drawing:
        return DRAW_OPEN if take_open(view) else DRAW_STOCK
    part = partition(view.naturals, view.jokers, view.by_cards)
    if view.may_lay and (part.melds or (view.requirement is not None and not view.out)):
        melds = lay_down_melds(view, part)
        if melds:
            unseen = unseen_all(view)
            lay = lay_melds(view, tuple(safe_jokers(m, unseen) for m in melds))
            if lay is not None:
                return lay
    if view.lay_off_now:
        action = swap_or_lay_off(view, part)
        if action is not None:
            if type(action) is LayOff:
                return safe_lay_off(view, action)
            return action
    return DISCARDS[discard(view, part, rng)]


def open_card_verdict(
    m: int, jokers: int, tk: int, table: TableView | TableBits | None
) -> bool | None:
    """A strong bot's rules for the open card of kind ``tk`` (``open_card_forced``, then):
    take a card that can be laid off or swapped for a table joker this turn (``table``:
    the table when the seat may lay off this turn, else ``None``); ``None``: it weighs
    the card (``take_open``)."""
    forced = open_card_forced(m, jokers, tk)
    if forced is not None:
        return forced
    if table is not None and (table.places & LANE_BIT[tk] or table.swap_bits & LANE_BIT[tk]):
        return True
    return None


def take_open(view: BotView) -> bool:
    """Take the open card when it is a joker, when it can be laid off or swapped for a
    table joker this turn (``open_card_verdict``); also when it
    lowers the hand's penalty or builds a near meld cheaply."""
    top = view.open_top
    if top is None:
        return False
    tk = KIND[top]
    naturals, jokers = view.naturals, view.jokers
    verdict = open_card_verdict(
        lane_mask(naturals), jokers, tk, view.table if view.lay_off_now else None
    )
    if verdict is not None:
        return verdict
    weights = CARD_WEIGHTS if view.by_cards else POINT_WEIGHTS
    now = partition(naturals, jokers, view.by_cards)
    after = partition(tuple(sorted((*naturals, tk))), jokers, view.by_cards)
    if after.cost < now.cost + weights[tk]:
        return True
    if not view.by_cards:
        # a cheap card that joins a loose card into a pair or a close run
        return KIND_POINTS[tk] <= _NEAR_TAKE and outs(view, tk, (*now.loose,), now.melds) >= 4
    return False


def safe_jokers(meld: HandMeld, unseen: Sequence[int]) -> HandMeld:
    """The meld with its free jokers naming the cards least likely to be held by another
    player (a joker that stands for a card nobody can hold can never be swapped away):
    in a group the missing suits, in a run the jokers beyond its natural cards."""
    if not meld.jokers:
        return meld
    if not meld.run:
        ri = meld.naturals[0] % 13
        used = {k // 13 for k in meld.naturals}
        free = sorted((s for s in range(4) if s not in used), key=lambda s: unseen[s * 13 + ri])
        return HandMeld(False, meld.naturals, tuple((ri + 1, s) for s in free[: len(meld.jokers)]))
    positions = run_positions(meld)
    n_nat = len(meld.naturals)
    nat_pos = positions[:n_nat]
    lo, hi = min(nat_pos), max(nat_pos)
    inner = [p for p in positions[n_nat:] if lo < p < hi]
    ends = len(meld.jokers) - len(inner)
    suit = meld.naturals[0] // 13
    best: tuple[int, int] | None = None
    for below in range(ends + 1):
        above = ends - below
        if lo - below < 1 or hi + above > 14 or (lo - below == 1 and hi + above == 14):
            continue
        span = [*range(lo - below, lo), *range(hi + 1, hi + above + 1)]
        risk = sum(unseen[suit * 13 + (p - 1) % 13] for p in span)
        if best is None or risk < best[0]:
            best = (risk, below)
    if best is None:
        return meld
    below = best[1]
    span = [*inner, *range(lo - below, lo), *range(hi + 1, hi + ends - below + 1)]
    jokers = tuple((rank_of_position(p), suit) for p in span)
    return HandMeld(True, meld.naturals, jokers, max(span + nat_pos) == 14)


def safe_lay_off(view: BotView, action: LayOff) -> LayOff:
    """The lay-off ``action``, a joker it lays naming the card least likely to be held by
    another player (``safe_name``)."""
    if KIND[action.card] != JOKER_KIND:
        return action
    card, index = action.card, action.meld_index
    return LayOff(card, index, safe_name(view, index, card))


def safe_name(view: BotView, index: int, joker: int) -> StandsFor:
    """What a joker laid off on meld ``index`` should stand for: the card least likely
    to be held by another player."""
    options = lay_off_options(view.melds[index], joker)
    if not options:
        return None
    unseen = unseen_all(view)
    return min(options, key=lambda sf: 9 if sf is None else unseen[sf[1] * 13 + sf[0] - 1])


def discard(view: BotView, part: Partition, rng: Stream | None) -> int:
    """The card to discard: the loose card least worth keeping (``discard_score``; ties
    drawn from the bot's stream), else ``least_loss_discard``."""
    taken = view.taken_kind
    hand = view.hand
    loose = [k for k in dict.fromkeys(part.loose) if k != taken]
    if loose:
        scores = {k: discard_score(view, part, k) for k in loose}
        top = max(scores.values())
        best = sorted(k for k in loose if scores[k] == top)
        if len(best) > 1:
            # ties: the strong bot draws from its stream
            if rng is None:
                raise ValueError("a strong bot needs its stream to break ties")
            return lowest_id(hand, rng.choice(best))
        return lowest_id(hand, best[0])
    return least_loss_discard(view)


def discard_score(view: BotView, part: Partition, k: int) -> float:
    """How much a strong bot wants to discard loose card ``k``: its penalty, less what it
    is worth keeping (unseen cards that would meld it, a later lay-off), less the danger
    of feeding the next player; high cards weigh more when an opponent is nearly out."""
    others = [n for s, n in enumerate(view.hand_counts) if s != view.seat]
    fewest = min(others) if others else 99
    value = 1.0 + KIND_POINTS[k] / 20 if view.by_cards else float(KIND_POINTS[k])
    if fewest <= 2:
        value *= 2.5
    elif fewest <= 4:
        value *= 1.5
    if view.lay_off_next and len(part.loose) + part.loose_jokers <= _LOOKAHEAD_CARDS:
        naturals, jokers = view.naturals, view.jokers
        rest = list(naturals)
        rest.remove(k)
        for m in part.melds:
            for c in m.naturals:
                rest.remove(c)
            jokers -= len(m.jokers)
        value += _GO_OUT * go_out_chance(tuple(rest), jokers, view, unseen_all(view))
    keep = _OUT_VALUE * outs(view, k, part.loose, part.melds)
    if view.by_cards:
        keep /= 4
    if k in view.table.fit or k in view.table.swaps:
        keep += _FITS_TABLE
    suit, ri = divmod(k, 13)
    for t in view.next_taken:
        if t == JOKER_KIND:
            continue
        ts, tri = divmod(t, 13)
        if tri == ri or (ts == suit and abs(tri - ri) <= 2):
            keep += _FEED_NEXT
            break
    return value - keep


def _unseen(view: BotView, kind: int, hand_count: dict[int, int]) -> int:
    """Copies of a kind this seat has not seen (in other hands or in the stock)."""
    return max(0, view.decks - hand_count.get(kind, 0) - view.seen[kind])


def outs(view: BotView, k: int, loose: Sequence[int], melds: Sequence[HandMeld]) -> int:
    """Unseen cards that would put loose card ``k`` in a meld with other loose cards
    (pair to group, two cards of a run) or extend a run of the hand next to it."""
    counts: dict[int, int] = {}
    for c in view.hand:
        kc = kind_of(c)
        counts[kc] = counts.get(kc, 0) + 1
    suit, ri = divmod(k, 13)
    others = set(loose)
    outs = 0
    same_rank = {s for s in range(4) if s != suit and s * 13 + ri in others}
    if same_rank:
        for s in range(4):
            if s != suit and s not in same_rank:
                outs += _unseen(view, s * 13 + ri, counts)
    base = suit * 13

    def kind_at(p: int) -> int | None:
        return base + (p - 1) % 13 if 1 <= p <= 14 else None

    positions = (ri + 1, 14) if ri == 0 else (ri + 1,)
    for p in positions:
        for d in (1, 2):
            for q in (p - d, p + d):
                kq = kind_at(q)
                if kq is None or kq not in others or kq == k:
                    continue
                lo, hi = min(p, q), max(p, q)
                if d == 1:
                    for r in (lo - 1, hi + 1):
                        kr = kind_at(r)
                        if kr is not None:
                            outs += _unseen(view, kr, counts)
                else:
                    kr = kind_at(lo + 1)
                    if kr is not None:
                        outs += _unseen(view, kr, counts)
    for m in melds:
        if m.run and m.naturals and m.naturals[0] // 13 == suit:
            pos = run_positions(m)
            lo, hi = min(pos), max(pos)
            for p in positions:
                if p == hi + 2 or p == lo - 2:
                    kr = kind_at((p + hi) // 2 if p > hi else (p + lo) // 2)
                    if kr is not None:
                        outs += _unseen(view, kr, counts)
    return outs


def unseen_all(view: BotView) -> list[int]:
    """Unseen copies per kind (0..52): cards in other hands or in the stock."""
    mine = [0] * 53
    for c in view.hand:
        mine[kind_of(c)] += 1
    out = [max(0, view.decks - mine[k] - view.seen[k]) for k in range(52)]
    out.append(max(0, 2 * view.decks - mine[JOKER_KIND] - view.seen[JOKER_KIND]))
    return out


def go_out_chance(
    naturals: tuple[int, ...], jokers: int, view: BotView, unseen: Sequence[int]
) -> float:
    """The chance that a hand (laid down as far as it goes) goes out next turn after
    drawing one unseen card (each unseen card equally likely)."""
    total = sum(unseen)
    if not total:
        return 0.0
    left = left_after(naturals, jokers, view)
    if left > 3:
        return 0.0  # one more card cannot take four loose cards out
    base = left <= 0
    by_suit, by_rank = suit_rank_masks(naturals)
    good = 0
    for x in range(53):
        n = unseen[x]
        if not n:
            continue
        if x == JOKER_KIND:
            ok = left_after(naturals, jokers + 1, view) <= 1
        else:
            suit, ri = divmod(x, 13)
            near = (
                by_rank[ri]
                or x in view.table.fit
                or (near_bits(by_suit[suit], ri) if ri else by_suit[suit] & 0b11000000001100)
            )
            ok = left_after(tuple(sorted((*naturals, x))), jokers, view) <= 1 if near else base
        if ok:
            good += n
    return good / total
