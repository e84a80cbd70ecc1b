"""One round of Klaverjassen: the deal, the bidding, eight tricks and the score.

Dealing (docs/rules.md §5): the round seed is ``HMAC-SHA256(secret, "round:" + r)``; the
ordered 32-card pack is shuffled with the stream of label ``deal`` and dealt one card at
a time clockwise from the first player (the seat after the dealer, dealer = ``r % 4``),
8 cards each. The proposed trump suit is ``Stream(round_seed, "trump").uniform(4)``
(0..3 = c d h s). The k-th redeal of a round (after everyone passed twice with
``bidding="two_rounds"``) uses the labels ``deal:k`` and ``trump:k`` instead.

Teams: seats 0 and 2 (South, North) are team 0, seats 1 and 3 (West, East) team 1.
The first player (left of the dealer) bids first and leads the first trick.

Observation JSON (``KlaverjasState.observation(seat)``; cards are ids 0..31, suits letters)::

    {"game": "klaverjas", "variant": "rotterdams", "seat": 0, "team": 0,
     "round_index": 3, "dealer": 3, "first_player": 0, "deal_number": 0,
     "phase": "bidding" | "bidding2" | "choose_trump" | "play" | "over",
     "current_player": 0 | null, "move_count": 5,
     "hand": [ids], "hand_codes": ["7c", ...], "hand_counts": [8, 7, 7, 7],
     "proposed_trump": "h", "bids": [{"seat": 0, "round": 1, "play": false, "suit": null}],
     "trump": "h" | null, "playing_seat": 1 | null, "playing_team": 1 | null,
     "trick": {"leader": 1, "plays": [{"seat": 1, "card": 13}, ...]},
     "tricks": [{"leader", "cards", "plays", "winner", "points", "roem"}, ...],
     "points": [team0, team1], "roem": [team0, team1],
     "legal_actions": [action JSON, ...] (only for the seat to move),
     "is_terminal": false,
     "result": null | {"playing_team", "points", "roem", "pit_team", "nat", "scores"},
     "scores": null | [per seat]}

``points`` are card points won so far (the last-trick bonus once the round is over);
``bids`` are those of the current deal (``deal_number`` counts redeal
This module gathers the round's public names from the modules that own them:
``engine.klaverjas.round`` (``KlaverjasState``, ``KlaverjasObservation``, the dealt state),
``engine.klaverjas.tricks`` (seats and teams, bids, tricks, the score),
``engine.klaverjas.deal`` (the deal) and ``engine.klaverjas.state_json`` (loading a
state). Card order and which cards may be played are in ``engine.klaverjas.rules``.
"""

from __future__ import annotations

from engine.klaverjas.deal import deal
from engine.klaverjas.round import (
    KlaverjasObservation,
    KlaverjasState,
    deal_summary,
    new_round,
)
from engine.klaverjas.state_json import (
    state_from_json,
)
from engine.klaverjas.tricks import (
    HAND_SIZE,
    NUM_SEATS,
    PHASES,
    SEAT_NAMES_EN,
    SEAT_NAMES_NL,
    TRICKS,
    BidRecord,
    Phase,
    RoundResult,
    Trick,
    game_over,
    make_trick,
    results,
    score_round,
    team_of,
)

__all__ = [
    "HAND_SIZE",
    "NUM_SEATS",
    "PHASES",
    "SEAT_NAMES_EN",
    "SEAT_NAMES_NL",
    "TRICKS",
    "BidRecord",
    "KlaverjasObservation",
    "KlaverjasState",
    "Phase",
    "RoundResult",
    "Trick",
    "deal",
    "deal_summary",
    "game_over",
    "make_trick",
    "new_round",
    "results",
    "score_round",
    "state_from_json",
    "team_of",
]
