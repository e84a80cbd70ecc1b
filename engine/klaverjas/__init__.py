"""Klaverjassen (RULES.md §6), following the game protocol of ``engine.protocol``.

``GAME``, ``PRESETS``, ``BOT_LEVELS``, ``LOWER_IS_BETTER``, ``variant_from_json``,
``new_round``, ``state_from_json``, ``action_from_json``, ``bot_action``, ``results``,
``deal_summary``; plus the variant, state, action and error types and ``trick_roem``.
"""

from __future__ import annotations

from typing import Final

from engine.klaverjas.actions import Action, Bid, ChooseTrump, PlayCard, action_from_json
from engine.klaverjas.bots import BOT_LEVELS, bot_action, choose
from engine.klaverjas.errors import (
    InvalidBid,
    MayNotUndertrump,
    MustFollowSuit,
    MustOvertrump,
    MustTrump,
    NotInHand,
    WrongPhase,
)
from engine.klaverjas.roem import trick_roem
from engine.klaverjas.rules import card_points, legal_cards
from engine.klaverjas.state import (
    BidRecord,
    KlaverjasObservation,
    KlaverjasState,
    RoundResult,
    Trick,
    deal_summary,
    game_over,
    new_round,
    results,
    score_round,
    state_from_json,
)
from engine.klaverjas.variants import AMSTERDAMS, PRESETS, ROTTERDAMS, Variant, variant_from_json

GAME: Final = "klaverjas"
LOWER_IS_BETTER: Final = False

__all__ = [
    "AMSTERDAMS",
    "BOT_LEVELS",
    "GAME",
    "LOWER_IS_BETTER",
    "PRESETS",
    "ROTTERDAMS",
    "Action",
    "Bid",
    "BidRecord",
    "ChooseTrump",
    "InvalidBid",
    "KlaverjasObservation",
    "KlaverjasState",
    "MayNotUndertrump",
    "MustFollowSuit",
    "MustOvertrump",
    "MustTrump",
    "NotInHand",
    "PlayCard",
    "RoundResult",
    "Trick",
    "Variant",
    "WrongPhase",
    "action_from_json",
    "bot_action",
    "card_points",
    "choose",
    "deal_summary",
    "game_over",
    "legal_cards",
    "new_round",
    "results",
    "score_round",
    "state_from_json",
    "trick_roem",
    "variant_from_json",
]
