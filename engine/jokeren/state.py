"""The state of one Jokeren round: the deal, the turns, the end and its scores.

Rules (docs/rules.md §2-3, seeds 000 and 001):

- Deal (docs/rules.md §5, ``engine.dealing``): the pack (per deck the suits c d h s, ranks
  A..K, then 2 jokers) is shuffled with the stream ``deal`` of the round seed; the
  dealer is seat ``round_index % num_players``; the cards are dealt one at a time
  clockwise from the next seat until every hand is full; the next card opens the open
  pile; the rest is the closed stock, top first.
- A turn: ``Draw`` (stock or open pile); then any number of ``LayMelds`` / ``LayOff`` /
  ``SwapJoker``; then ``Discard``. No action may leave the player without a card that
  may be discarded. The card taken from the open pile (or a copy of it: copies are
  interchangeable) may not be discarded in the same turn.
- Coming out is the first ``LayMelds``; it must meet the variant's opening (a contract
  or the opening points, judged on the melds of that one action). In the first cycle
  (each seat's first turn) nobody lays down, lays off or swaps when the variant says so.
  Laying off and swapping need the player to have come out (and, per variant, not in
  that same turn) unless the variant allows it always (Jokeren 7).
- A complete meld (group of 4 or run of 13, without joker) leaves the table at once:
  ``recycle`` puts its cards under the open pile (the meld's first card lowest),
  ``remove`` takes them out of the game.
- When the turn passes and the stock is empty, the open pile except its top card (listed
  from the bottom up) is shuffled with the stream ``reshuffle:k`` (k = 0 for the first
  reshuffle of the round) into a new stock, first card on top. With nothing to shuffle
  the round ends without a winner; so it does when ``variant.turn_limit`` turns have
  been played.
- The round ends when a player discards their last card; that player scores 0, every
  other player their hand (points or number of cards, per variant).

Storage: ``hands`` are sorted tuples of card ids per seat; ``stock`` is top first;
``open_pile`` is bottom first, its **top card last** (every card of it is public);
``table`` holds the melds in the order they were laid (when a complete meld leaves, the
later melds move up one index); ``removed`` the cards of complete melds out of the game;
``phase`` is ``draw``, ``play`` or ``over``; ``turn`` counts completed turns (the first
cycle is turns ``0 .. num_players-1``); the public log is ``log`` (kept internally in
chunks); ``open_takes`` lists ``(seat, card id)`` of every card taken from the open pile
this round, in order (public, as the log shows it; derived from the log when a state is
loaded from JSON). ``round_seed`` is hidden (never in an observation).

Observation JSON (``observation(seat)``; ``observe(seat)`` gives the same as a typed
``JokerenObservation``)::

    {
      "game": "jokeren", "variant": "<name>", "seat": 0, "round_index": 0, "dealer": 3,
      "current_player": 0 | null, "phase": "draw" | "play" | "over",
      "turn": 0,            # completed turns this round
      "move_count": 0,      # actions applied this round
      "hand": [ids, sorted], "hand_codes": ["7h", ...],
      "hand_counts": [n per seat], "stock_count": n,
      "open_pile": [ids, bottom first, top last],   # every card of the pile is public
      "open_top": id | null,
      "table": [{"kind": "group" | "run", "cards": [ids], "codes": ["7h", ...],
                 "stands_for": [null | "7h", ...], "owner": seat}, ...],
      "removed": [ids],     # complete melds taken out of the game
      "out": [bool per seat],               # has come out
      "came_out_this_turn": bool,           # of the player to move
      "taken_from_open": id | null,         # card the player to move took from the pile
      "first_cycle": bool,                  # laying down is still forbidden this cycle
      "may_meld": bool, "may_lay_off": bool, "needs_opening": bool,   # for this seat now
      "contract": {contract JSON} | null, "opening": "none" | "contract" | "points",
      "opening_points": 40,
      "reshuffles": 0,
      "log": [{"type": "action", "seat": s, "action": {action JSON}, "card": id (open draws)},
              {"type": "complete", "seat": owner, "cards": [ids], "to": "open_pile" | "removed"},
              {"type": "reshuffle", "k": k, "cards": n},
              {"type": "end", "winner": seat | null, "reason": "out" | "stock" | "turn_limit"}],
      "legal_actions": [{action JSON}, ...],  # the seat to move only, else []: every
                            # legal action but lay_melds, in legal_actions()' order
      "is_terminal": bool, "winner": seat | null, "end_reason": null | "out" | ...,
      "scores": [per seat] | null,    # only once the round is over
      "final_hands": [[ids] per seat] | null   # once over, every hand is shown (seed 001)
    }

The log never shows a card drawn from the stock; a ``lay_melds`` is logged with every
joker's card filled in (as laid on the table).

``legal_actions`` (``actions_but_lay_melds``) lists the draws, every ``lay_off`` (one per
joker choice), ``swap_joker`` and ``discard`` the seat to move may make, so a table offers
exactly these; new melds are not listed (any selection of the hand may be one: the engine
judges a ``lay_melds`` when it is made, and ``engine.jokeren.melds.meld_readings`` gives
how a selection reads as a meld). Only the seat's own cards and the table's appear in it.

This module gathers the round's public names from the modules that own them:
``engine.jokeren.round`` (``JokerenState``: applying actions, the legal actions) on
``engine.jokeren.round_base`` (the fields, what a seat sees, the JSON),
``engine.jokeren.turns`` (the rules of a turn: phases, rights, the opening, the errors),
``engine.jokeren.lay_downs`` (the legal lay-downs, lay-offs and swaps),
``engine.jokeren.observation`` (``JokerenObservation``, ``SeatView``),
``engine.jokeren.round_log`` (the public log), ``engine.jokeren.deal`` (the deal) and
``engine.jokeren.state_json`` (loading a state). The actions are in
``engine.jokeren.actions``, the melds in ``engine.jokeren.melds``.
"""

from __future__ import annotations

from engine.jokeren.deal import deal, deal_summary, new_round
from engine.jokeren.observation import JokerenObservation, SeatView
from engine.jokeren.round import JokerenState, state_of_fields
from engine.jokeren.round_log import Log, LogEntry, LogNode
from engine.jokeren.state_json import state_from_json
from engine.jokeren.turns import EndReason, Phase

__all__ = [
    "EndReason",
    "JokerenObservation",
    "JokerenState",
    "Log",
    "LogEntry",
    "LogNode",
    "Phase",
    "SeatView",
    "deal",
    "deal_summary",
    "new_round",
    "state_from_json",
    "state_of_fields",
]
