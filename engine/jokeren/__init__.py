"""Jokeren: the rules engine (RULES.md §2-3) following ``engine.protocol``.

``new_round(variant, *, secret, round_index)`` deals a round; ``state.legal_actions()``,
``state.apply(action)``, ``state.scores()``, ``state.observation(seat)``; presets in
``PRESETS``; bots in ``engine.jokeren.bots``.
"""

from __future__ import annotations

from engine.jokeren import bots as _bots
from engine.jokeren.actions import (
    Action,
    AlreadyDrew,
    CannotDiscardTakenCard,
    CannotLayOffYet,
    CardNotInHand,
    ContractNotMet,
    Discard,
    Draw,
    FirstCycleNoMeld,
    LayMelds,
    LayOff,
    MustDrawFirst,
    MustKeepDiscard,
    NoSuchMeld,
    OpenPileEmpty,
    SwapJoker,
    action_from_json,
)
from engine.jokeren.melds import (
    DoesNotFit,
    InvalidMeld,
    Meld,
    can_lay_off,
    check_meld,
    is_meld,
    meld_verdict,
    melds_in,
)
from engine.jokeren.scoring import LOWER_IS_BETTER, rank, results
from engine.jokeren.state import (
    JokerenObservation,
    JokerenState,
    deal_summary,
    new_round,
    state_from_json,
)
from engine.jokeren.variants import PRESETS, Contract, Variant, variant_from_json

GAME = "jokeren"
BOT_LEVELS = _bots.BOT_LEVELS


def bot_action(state: JokerenState, *, level: str) -> Action:
    """The bot's choice for ``state.current_player`` (``engine.jokeren.bots``)."""
    return _bots.bot_action(state, level=level)


__all__ = [
    "BOT_LEVELS",
    "GAME",
    "LOWER_IS_BETTER",
    "PRESETS",
    "Action",
    "AlreadyDrew",
    "CannotDiscardTakenCard",
    "CannotLayOffYet",
    "CardNotInHand",
    "Contract",
    "ContractNotMet",
    "Discard",
    "DoesNotFit",
    "Draw",
    "FirstCycleNoMeld",
    "InvalidMeld",
    "JokerenObservation",
    "JokerenState",
    "LayMelds",
    "LayOff",
    "Meld",
    "MustDrawFirst",
    "MustKeepDiscard",
    "NoSuchMeld",
    "OpenPileEmpty",
    "SwapJoker",
    "Variant",
    "action_from_json",
    "bot_action",
    "can_lay_off",
    "check_meld",
    "deal_summary",
    "is_meld",
    "meld_verdict",
    "melds_in",
    "new_round",
    "rank",
    "results",
    "state_from_json",
    "variant_from_json",
]
