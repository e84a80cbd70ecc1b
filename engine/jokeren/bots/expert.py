"""The Jokeren ``expert`` bot: determinized search over the ``strong`` bot's choices.

One released version (``BOT_VERSIONS``): version 1, described next (``choose_expert``).

Version 1: the expert plays like the ``strong`` bot (its lay-downs, lay-offs and joker
swaps) but searches the two decisions of a turn that matter most:

- the draw: the open card or the stock (when the open card may be taken);
- the discard: the strong bot's card and the ``DISCARD_CANDIDATES - 1`` other loose
  cards of the hand with the most points.

Each candidate is judged on the same ``SAMPLES`` worlds (common random numbers): the
cards the expert has not seen are dealt at random to the other hands (each with its
number of cards) and the stock, a card that a seat took from the open pile and has not
laid or discarded since staying in that seat's hand; the world's reshuffles and the
bots in it get a seed drawn from the expert's stream. The candidate is made and the
round is played on by strong bots (``engine.jokeren.bots.strong``) in every seat to the end of the
expert's next turn, or of the round. The value of a world is the opponents' average
penalty minus the expert's: the round's score at its end, else each hand's loose cards
(the points, or cards, its best split into melds leaves; a card that fits a meld on the
table not counted for a seat that may lay it off). Another candidate replaces the
strong bot's choice only when it is better by more than ``MARGIN`` points in every
world (the worlds are few, and the rollouts noisy).

Measured in duplicate play (benchmarks/README.md at 566f5bf, "The expert level"), this
search does not play better than the strong bot: with the choice made on the total over
the worlds it played 1.2 to 1.3 points a round worse (the loose points at a rollout's
end favour dumping high cards over keeping cards near a meld); longer rollouts (to the
round's end with basic bots), a search of the draw alone, valuing loose cards by their
outs, or counting only finished rounds did no better. Asking for a better result in
every world, it is even with strong.

The search is counted in bot actions (``ACTION_BUDGET``), never in wall-clock time: no
new world is started once the budget is spent. Every choice is a function of the
seat's observation and the round's ``bot:<seat>`` stream.
"""

from __future__ import annotations

from typing import Final

from engine.dealing import Stream
from engine.errors import IllegalMove, RoundOver
from engine.jokeren.actions import (
    DISCARDS,
    DRAW_OPEN,
    DRAW_STOCK,
    Action,
    Discard,
    Draw,
    LayMelds,
    LayOff,
    SwapJoker,
)
from engine.jokeren.bots import strong as strong_bot
from engine.jokeren.bots.hand import KIND_POINTS, hand_partition, kind_of
from engine.jokeren.bots.table import table_view
from engine.jokeren.state import JokerenObservation, JokerenState

#: worlds sampled per decision (at most)
SAMPLES: Final = 8
#: discards compared (the strong bot's card included)
DISCARD_CANDIDATES: Final = 3
#: another candidate replaces the strong bot's choice only when it is better by more
#: than this many points in every world, of at least ``MIN_WORLDS`` (the worlds are few
#: and the rollouts noisy: a choice made on one lucky world is worse than the strong
#: bot's on average)
MARGIN: Final = 2.0
MIN_WORLDS: Final = 2
#: no new world is started once the rollouts have made this many bot actions
ACTION_BUDGET: Final = 90


def _known_in_hands(obs: JokerenObservation) -> list[list[int]]:
    """Per seat, the cards it took from the open pile and has not laid or discarded
    since (the public log shows each of these moves by card id)."""
    last: dict[int, int] = {}
    for kind, seat, action, data in obs.log:
        if kind != "action" or action is None:
            continue
        if data:  # a draw from the open pile
            last[data[0]] = seat
            continue
        if isinstance(action, (Discard, LayOff, SwapJoker)):
            last.pop(action.card, None)
        elif isinstance(action, LayMelds):
            for cards, _ in action.melds:
                for c in cards:
                    last.pop(c, None)
    out: list[list[int]] = [[] for _ in obs.hand_counts]
    unseen = set(_unseen(obs))
    for card, seat in sorted(last.items()):
        if seat != obs.seat and card in unseen:
            out[seat].append(card)
    return out


def _unseen(obs: JokerenObservation) -> list[int]:
    """The card ids this seat cannot see: in other hands or in the stock."""
    seen = set(obs.hand)
    for m in obs.table:
        seen.update(m.cards)
    seen.update(obs.open_pile)
    seen.update(obs.removed)
    return [c for c in range(obs.variant.decks * 54) if c not in seen]


def _world(
    obs: JokerenObservation, known: list[list[int]], unseen: list[int], rng: Stream
) -> JokerenState:
    """A full round state consistent with the observation: the unseen cards dealt at
    random (the known ones to their holders), a round seed drawn from ``rng``."""
    pool = [c for c in unseen if not any(c in k for k in known)]
    pool = rng.shuffle(pool)
    hands: list[tuple[int, ...]] = []
    for seat, count in enumerate(obs.hand_counts):
        if seat == obs.seat:
            hands.append(obs.hand)
            continue
        mine = known[seat][:count]
        need = count - len(mine)
        hands.append(tuple(sorted((*mine, *pool[:need]))))
        pool = pool[need:]
    seed = b"".join(rng.uniform(1 << 32).to_bytes(4, "big") for _ in range(8))
    return JokerenState(
        variant=obs.variant,
        round_index=obs.round_index,
        dealer=obs.dealer,
        round_seed=seed,
        current_player=obs.current_player,
        phase=obs.phase,
        hands=tuple(hands),
        stock=tuple(pool[: obs.stock_count]),
        open_pile=obs.open_pile,
        table=obs.table,
        out=obs.out,
        came_out_this_turn=obs.came_out_this_turn,
        taken_from_open=obs.taken_from_open,
        turn=obs.turn,
        move_count=obs.move_count,
        reshuffles=obs.reshuffles,
        removed=obs.removed,
        winner=obs.winner,
        end_reason=obs.end_reason,
        log_chunks=obs.log_chunks,
        log_tail=obs.log_tail,
        open_takes=obs.open_takes,
    )


def _penalty(state: JokerenState, seat: int, by_cards: bool) -> float:
    """A seat's penalty: its score once the round is over, else its loose cards (those
    that fit a meld on the table not counted when the seat may lay them off later)."""
    if state.is_terminal:
        return float(state.scores()[seat])
    part = hand_partition(state.hands[seat], by_cards)
    loose = part.loose
    if state.out[seat] or state.variant.lay_off_before_out:
        fit = table_view(state.table).fit
        loose = tuple(k for k in loose if k not in fit)
    if by_cards:
        return float(len(loose) + part.loose_jokers)
    return float(sum(KIND_POINTS[k] for k in loose) + 25 * part.loose_jokers)


def _value(state: JokerenState, seat: int, by_cards: bool) -> float:
    """The opponents' average penalty minus the seat's own."""
    n = state.variant.num_players
    others = sum(_penalty(state, s, by_cards) for s in range(n) if s != seat)
    return others / (n - 1) - _penalty(state, seat, by_cards)


def _candidates(obs: JokerenObservation, strong: Action) -> list[Action]:
    """The actions worth comparing, the strong bot's first (one: nothing to search)."""
    if obs.phase == "draw":
        if not obs.open_pile or not isinstance(strong, Draw):
            return [strong]
        top = kind_of(obs.open_pile[-1])
        if not any(kind_of(c) != top for c in obs.hand):
            return [strong]  # taking it would leave nothing to discard
        return [strong, DRAW_STOCK if strong == DRAW_OPEN else DRAW_OPEN]
    if not isinstance(strong, Discard):
        return [strong]
    by_cards = obs.variant.scoring == "cards"
    part = hand_partition(obs.hand, by_cards)
    taken = None if obs.taken_from_open is None else kind_of(obs.taken_from_open)
    chosen = kind_of(strong.card)
    table = table_view(obs.table)
    keep = {taken, chosen, *table.fit, *table.swaps}
    kinds = sorted(
        {k for k in part.loose if k not in keep},
        key=lambda k: (-KIND_POINTS[k], k),
    )
    out: list[Action] = [strong]
    for k in kinds[: DISCARD_CANDIDATES - 1]:
        out.append(DISCARDS[k if k in obs.hand else k + 54])
    return out


def choose_expert(obs: JokerenObservation, *, rng: Stream) -> Action:
    """The expert's action for the seat of ``obs`` (see the module text)."""
    strong = strong_bot.choose(obs, rng)
    candidates = _candidates(obs, strong)
    if len(candidates) < 2:
        return strong
    seat = obs.seat
    by_cards = obs.variant.scoring == "cards"
    known = _known_in_hands(obs)
    unseen = _unseen(obs)
    # to the end of the expert's next turn: the card it keeps meets its next draw
    end_turn = obs.turn + obs.variant.num_players + 1
    totals = [0.0] * len(candidates)
    #: the candidates better than the strong choice by ``MARGIN`` in every world so far
    always = set(range(1, len(candidates)))
    actions = 0
    worlds = 0
    for _ in range(SAMPLES):
        if actions >= ACTION_BUDGET:
            break
        worlds += 1
        world = _world(obs, known, unseen, rng)
        values = []
        for action in candidates:
            state = world.apply(action)
            while not state.is_terminal and state.turn < end_turn:
                try:
                    state = state.apply(strong_bot.bot_action(state))
                except IllegalMove:
                    break  # a rollout bot's mistake ends the rollout where it stands
                actions += 1
            values.append(_value(state, seat, by_cards))
        for i, value in enumerate(values):
            totals[i] += value
            if value - values[0] <= MARGIN:
                always.discard(i)
    if not always or worlds < MIN_WORLDS:
        return strong
    return candidates[max(always, key=lambda i: (totals[i], -i))]


def bot_action(state: JokerenState) -> Action:
    """The expert's choice in the seat to move: from that seat's observation and the
    round's ``bot:<seat>`` stream, started at the number of actions so far."""
    seat = state.current_player
    if seat is None:
        raise RoundOver("De ronde is voorbij.", "The round is over.")
    rng = Stream(state.round_seed, f"bot:{seat}", start=state.move_count)
    return choose_expert(state.observe(seat), rng=rng)
