"""The strong Klaverjas bot's near-equal choices (docs/rules.md, "Fair play"): the cards a
strong player could as well have played from the seat's own view, for the fair-play
check (``engine.fairplay``). The strong bot's own choice comes first; following, every
card whose worth it rates within ``NEAR`` points of its own follows
(``strong.follow_gain``); leading a cheap card (its lead's third rule), every card whose
cost is within ``NEAR`` of its own (``strong.lead_cost``). A bid, a pulled trump and a
sure winner have no near-equal rivals in its reckoning. Reads only the seat's
observation."""

from __future__ import annotations

from typing import Final

from engine.klaverjas.actions import Action, PlayCard
from engine.klaverjas.bots import strong
from engine.klaverjas.bots.knowledge import knowledge
from engine.klaverjas.bots.versions import BOT_VERSION, bot_action
from engine.klaverjas.state import KlaverjasState

#: a card rated within this many points of the strong bot's own is near-equal to it
NEAR: Final = 2.0


def near_best_actions(state: KlaverjasState, *, version: int = BOT_VERSION) -> list[Action]:
    """The strong bot's choice for the seat to move, then its near-equal cards."""
    seat = state.current_player
    if seat is None:
        raise ValueError("the round is over: no seat to move")
    choice = bot_action(state, level="strong", version=version)
    if not isinstance(choice, PlayCard):
        return [choice]
    obs = state.observe(seat)
    cards = [a.card for a in obs.legal if isinstance(a, PlayCard)]
    if len(cards) < 2:
        return [choice]
    k = knowledge(obs)
    if obs.trick:
        gains = {c: strong.follow_gain(obs, k, c) for c in cards}
        near = [c for c in cards if gains[c] >= gains[choice.card] - NEAR]
    else:
        costs = {c: strong.lead_cost(obs, k, c) for c in cards}
        if costs[choice.card] > min(costs.values()):
            return [choice]  # a pulled trump or a sure winner
        near = [c for c in cards if costs[c] <= costs[choice.card] + NEAR]
    out: list[Action] = [choice]
    return out + [PlayCard(c) for c in sorted(near) if c != choice.card]
