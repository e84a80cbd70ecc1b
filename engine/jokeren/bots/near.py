"""The strong Jokeren bot's near-equal choices (docs/rules.md, "Fair play"): the choices a
strong player could as well have made from the seat's own view, for the fair-play check
(``engine.fairplay``). The strong bot's own choice comes first; where it discards, every
loose card whose discard it rates within ``NEAR`` points of its own follows (its
``discard_score``). Its other choices (a draw, a meld, a lay-off, a joker swap, a way
out) have no near-equal rivals in its reckoning. Reads only the seat's observation."""

from __future__ import annotations

from typing import Final

from engine.errors import RoundOver
from engine.jokeren.actions import DISCARDS, Action, Discard
from engine.jokeren.bots import strong
from engine.jokeren.bots.hand import partition
from engine.jokeren.bots.play import lowest_id
from engine.jokeren.bots.versions import BOT_VERSION, bot_action
from engine.jokeren.bots.view import view_of
from engine.jokeren.state import JokerenState

#: a discard rated within this many points of the strong bot's own is near-equal to it
NEAR: Final = 1.0


def near_best_actions(state: JokerenState, *, version: int = BOT_VERSION) -> list[Action]:
    """The strong bot's choice for the seat to move, then its near-equal discards."""
    seat = state.current_player
    if seat is None:
        raise RoundOver("De ronde is voorbij.", "The round is over.")
    choice = bot_action(state, level="strong", version=version)
    if type(choice) is not Discard:
        return [choice]
    view = view_of(state.observe(seat), strong=True)
    part = partition(view.naturals, view.jokers, view.by_cards)
    loose = [k for k in dict.fromkeys(part.loose) if k != view.taken_kind]
    if not loose:
        return [choice]
    scores = {k: strong.discard_score(view, part, k) for k in loose}
    top = max(scores.values())
    near: list[Action] = [choice]
    for k in sorted(loose):
        action = DISCARDS[lowest_id(view.hand, k)]
        if scores[k] >= top - NEAR and not state.same_move(action, choice):
            near.append(action)
    return near
