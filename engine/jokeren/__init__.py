"""Jokeren: the rules engine (docs/rules.md §2-3) following ``engine.protocol``.

Use::

    from engine.jokeren import PRESETS, new_round
    state = new_round(PRESETS["jokeren13"], secret=secret, round_index=0)
    while not state.is_terminal:
        state = state.apply(state.legal_actions()[0])      # or bot_action(state, level=...)
    state.scores()

- ``variants``: ``Variant`` (frozen), ``Contract``, ``PRESETS``, ``variant_from_json``;
- ``melds``: ``Meld``, ``check_meld``, ``meld_verdict``, ``is_meld``, ``melds_in``,
  ``meld_readings`` (how a selection reads as a new meld; ``meld_readings_json`` for the
  site), ``can_lay_off``, ``lay_off``, ``swap_joker``;
- ``actions``: ``Draw``, ``LayMelds``, ``LayOff``, ``SwapJoker``, ``Discard``,
  ``action_from_json``, ``move_key`` (which actions are the same move), ``describe`` and
  ``describe_advice`` (an action in words) and one ``IllegalMove`` subclass per broken
  rule;
- ``state``: ``JokerenState`` (``legal_actions``, ``apply``, ``is_legal``, ``same_move``,
  ``scores``, ``observation``, ``observe``, ``to_json``, ``state_hash``), ``new_round``,
  ``state_from_json``, ``deal_summary``;
- ``scoring``: ``results`` (own total minus the opponents' average), ``rank``,
  ``game_parts`` and ``score_sheet_of`` (seed 001's match and its paper form);
- ``bots``: the ``basic``, ``strong`` and ``expert`` bots (a package by concern),
  ``BOT_LEVELS``, ``DEFAULT_BOT_LEVEL``, ``BOT_VERSION``, ``BOT_VERSIONS``, ``bot_action``
  (every level and version), ``simplest_action``, ``near_best_actions`` (the strong
  bot's choice and its near-equal ones: ``engine.fairplay``'s view-best set);
- ``strength``: ``STRENGTHS`` (how the levels measured against each other) and
  ``OFFERED_BOT_LEVELS`` (those new play may choose: ``engine.strength``);
- ``table``: ``TABLE_CSS``, ``card_code``, ``hand_in_table_order`` (what the site's table
  needs to show a round);
- ``variant_fields``: ``VARIANT_FIELDS`` (each setting in the organizer's form, Dutch and
  English) and ``TITLE``.
"""

from __future__ import annotations

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
    describe,
    describe_advice,
    move_key,
)
from engine.jokeren.bots import (
    BOT_LEVELS,
    BOT_VERSION,
    BOT_VERSIONS,
    DEFAULT_BOT_LEVEL,
    bot_action,
    simplest_action,
)
from engine.jokeren.bots.near import near_best_actions
from engine.jokeren.melds import (
    DoesNotFit,
    InvalidMeld,
    Meld,
    can_lay_off,
    check_meld,
    is_meld,
    meld_readings,
    meld_readings_json,
    meld_verdict,
    melds_in,
)
from engine.jokeren.scoring import (
    LOWER_IS_BETTER,
    RESULT_DECIMALS,
    ScoreSheet,
    game_parts,
    rank,
    results,
    score_sheet_of,
)
from engine.jokeren.state import (
    JokerenObservation,
    JokerenState,
    deal_summary,
    new_round,
    state_from_json,
)
from engine.jokeren.strength import OFFERED_BOT_LEVELS, STRENGTHS
from engine.jokeren.table import TABLE_CSS, card_code, hand_in_table_order
from engine.jokeren.variant_fields import TITLE, VARIANT_FIELDS
from engine.jokeren.variants import PRESETS, Contract, Variant, variant_from_json

GAME = "jokeren"


__all__ = [
    "BOT_LEVELS",
    "BOT_VERSION",
    "BOT_VERSIONS",
    "DEFAULT_BOT_LEVEL",
    "GAME",
    "LOWER_IS_BETTER",
    "OFFERED_BOT_LEVELS",
    "PRESETS",
    "RESULT_DECIMALS",
    "STRENGTHS",
    "TABLE_CSS",
    "TITLE",
    "VARIANT_FIELDS",
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
    "ScoreSheet",
    "SwapJoker",
    "Variant",
    "action_from_json",
    "bot_action",
    "can_lay_off",
    "card_code",
    "check_meld",
    "deal_summary",
    "describe",
    "describe_advice",
    "game_parts",
    "hand_in_table_order",
    "is_meld",
    "meld_readings",
    "meld_readings_json",
    "meld_verdict",
    "melds_in",
    "move_key",
    "near_best_actions",
    "new_round",
    "rank",
    "results",
    "score_sheet_of",
    "simplest_action",
    "state_from_json",
    "variant_from_json",
]
