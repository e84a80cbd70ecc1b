"""Klaverjassen (docs/rules.md §6), following the game protocol of ``engine.protocol``.

``GAME``, ``PRESETS``, ``BOT_LEVELS``, ``DEFAULT_BOT_LEVEL``, ``BOT_VERSION``,
``BOT_VERSIONS``, ``OFFERED_BOT_LEVELS``, ``STRENGTHS``, ``LOWER_IS_BETTER``,
``variant_from_json``, ``new_round``, ``state_from_json``, ``action_from_json``,
``bot_action``, ``near_best_actions``, ``simplest_action``, ``results``, ``deal_summary``,
``game_parts``, ``score_sheet_of``, ``describe``, ``describe_advice``, ``card_code``,
``hand_in_table_order``, ``meld_readings_json``, ``TABLE_CSS``, ``VARIANT_FIELDS``,
``TITLE``; plus the variant, state, action and error types and ``trick_roem``.

Modules: ``variants`` (settings, presets), ``rules`` (card order and points, trick winner,
legal cards), ``roem``, ``actions``, ``errors``, ``state`` (deal, bidding, play, scoring,
observation, JSON), ``bots`` (a package by concern: the basic, strong and expert bots,
the released versions, ``bot_action`` of every level and version), ``table`` (what the
site's table needs to show a round), ``variant_fields`` (the settings in the organizer's
form, Dutch and English).

Decisions that docs/rules.md §6 does not settle (platform; docs/rules.md §7 "Klaverjassen"):

- A redeal (k = 1, 2, ...) shuffles with the label ``deal:k`` and draws its proposed trump
  with ``trump:k``; the same dealer deals again. After ``max_redeals`` (3) redeals, a deal
  in which everyone passes twice makes the first player choose trump (so a round always
  ends).
- When the first player must choose trump (everyone passed, or "zonder passen"), any of
  the four suits may be chosen, the proposed one included; the chooser's team plays.
- In the first bidding round a bid names no suit (or the proposed one); in the second
  round a bid to play names a suit other than the proposed one.
- When trump is led you must play a higher trump if you can, also over your partner and
  also in Amsterdams (the partner exemption is about trumping when you cannot follow);
  with "overtroeven niet verplicht" any trump may follow a trump lead.
- "Troeven niet verplicht": without the led suit you may play any other suit; if you do
  play a trump on a trump, the overtrump and undertrump settings still apply.
- Undertrumping is as docs/rules.md §6 defines it: you cannot follow and cannot overtrump. With
  ``no_undertrump_while_other_suit`` you then play another suit if you have one (also in
  Amsterdams while the partner wins); with only trumps left you play any of them.
- ``trick_roem`` takes at most four different cards (one trick).
- ``scores()`` before the end of a round gives each seat its team's points and roem so far.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any, Final

from engine.klaverjas.actions import (
    Action,
    Bid,
    ChooseTrump,
    PlayCard,
    action_from_json,
    describe,
    describe_advice,
)
from engine.klaverjas.bots import (
    BOT_LEVELS,
    BOT_VERSION,
    BOT_VERSIONS,
    DEFAULT_BOT_LEVEL,
    bot_action,
    choose,
    simplest_action,
)
from engine.klaverjas.bots.near import near_best_actions
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
from engine.klaverjas.rules import LOWER_IS_BETTER, RESULT_DECIMALS, card_points, legal_cards
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
from engine.klaverjas.strength import OFFERED_BOT_LEVELS, STRENGTHS
from engine.klaverjas.table import TABLE_CSS, card_code, hand_in_table_order, meld_readings_json
from engine.klaverjas.variant_fields import TITLE, VARIANT_FIELDS
from engine.klaverjas.variants import AMSTERDAMS, PRESETS, ROTTERDAMS, Variant, variant_from_json

GAME: Final = "klaverjas"


def game_parts(variant: Variant) -> list[range]:
    """A Klaverjas game is one part: every round on one score sheet."""
    return [range(variant.rounds)]


def score_sheet_of(
    variant: Variant,
    *,
    round_scores: Sequence[Sequence[int]],
    round_results: Sequence[Mapping[str, Any]],
) -> None:
    """Klaverjassen has no card-count score sheet (seed 001's form is Jokeren's)."""
    return None


__all__ = [
    "AMSTERDAMS",
    "BOT_LEVELS",
    "BOT_VERSION",
    "BOT_VERSIONS",
    "DEFAULT_BOT_LEVEL",
    "GAME",
    "LOWER_IS_BETTER",
    "OFFERED_BOT_LEVELS",
    "PRESETS",
    "RESULT_DECIMALS",
    "ROTTERDAMS",
    "STRENGTHS",
    "TABLE_CSS",
    "TITLE",
    "VARIANT_FIELDS",
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
    "card_code",
    "card_points",
    "choose",
    "deal_summary",
    "describe",
    "describe_advice",
    "game_over",
    "game_parts",
    "hand_in_table_order",
    "legal_cards",
    "meld_readings_json",
    "near_best_actions",
    "new_round",
    "results",
    "score_round",
    "score_sheet_of",
    "simplest_action",
    "state_from_json",
    "trick_roem",
    "variant_from_json",
]
