"""Melds ("setjes"): groups and runs, and what every joker on the table stands for.

Rules (docs/rules.md §2, seed 000):

- A **group** is 3 or 4 cards of the same rank, all of different suits:
  ``7h 7c 7s`` yes, ``7h 7c 7c`` no, ``7h 7c **`` yes.
- A **run** is at least 3 consecutive cards of one suit, at most 13 (platform). The ace
  is low (A-2-3) or high (Q-K-A), never both and never wrapping (K-A-2 is no run):
  ``2s 3s 4s`` yes, ``2s 3s 4d`` no, ``2s 3s **`` yes.
- A joker stands for any one card; on the table it stands for one definite card
  ``(rank, suit)`` (rank 1 = ace, also for a high ace). The player may name it; when
  not named the engine takes the first free choice: in a group the first missing suit
  in the order c d h s; in a run the gaps first, then the high end, then the low end.
  A lone natural card with jokers is a group unless the jokers are named otherwise.
- A meld holds at least one natural card (platform).
- A **complete** meld (a group of 4 or a run of 13, without joker) leaves the table.

In a run, cards are kept in table order from low to high; in a group in suit order.
A run's *positions* are 1 (low ace) .. 13 (king) and 14 (high ace).

This module gathers the melds' public names from the modules that own them:
``engine.jokeren.meld`` (the ``Meld`` on the table, what a joker may stand for when laid
off), ``engine.jokeren.meld_check`` (checking a new meld, the notation helpers),
``engine.jokeren.layoff`` (laying off, swapping a joker) and
``engine.jokeren.meld_search`` (finding the melds in a hand).
"""

from __future__ import annotations

from engine.jokeren.layoff import (
    can_swap,
    joker_index_for,
    lay_off,
    swap_joker,
)
from engine.jokeren.meld import (
    JOKER_ID,
    DoesNotFit,
    InvalidMeld,
    Meld,
    MeldKind,
    StandsFor,
    can_lay_off,
    lay_off_options,
    stands_for_from_json,
    stands_for_to_json,
)
from engine.jokeren.meld_check import (
    analyse,
    check_meld,
    ids_of_codes,
    is_meld,
    meld_from_json,
    meld_readings,
    meld_readings_json,
    meld_verdict,
)
from engine.jokeren.meld_search import (
    Pattern,
    Slot,
    hand_index,
    materialize,
    materialize_many,
    meld_patterns,
    melds_in,
    pattern_spec,
    pattern_usage,
    single_copies,
)

__all__ = [
    "JOKER_ID",
    "DoesNotFit",
    "InvalidMeld",
    "Meld",
    "MeldKind",
    "Pattern",
    "Slot",
    "StandsFor",
    "analyse",
    "can_lay_off",
    "can_swap",
    "check_meld",
    "hand_index",
    "ids_of_codes",
    "is_meld",
    "joker_index_for",
    "lay_off",
    "lay_off_options",
    "materialize",
    "materialize_many",
    "meld_from_json",
    "meld_patterns",
    "meld_readings",
    "meld_readings_json",
    "meld_verdict",
    "melds_in",
    "pattern_spec",
    "pattern_usage",
    "single_copies",
    "stands_for_from_json",
    "stands_for_to_json",
    "swap_joker",
]
