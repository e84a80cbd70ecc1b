"""The parts of a Klaverjas round that need no whole state (docs/rules.md §6): the seats
and teams (seats 0 and 2 against 1 and 3), the phases, a bid, a trick and its winner,
points and roem, the score of eight tricks (last trick, pit, nat) and a game's result.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any, Final, Literal

from engine.cards import SUITS
from engine.errors import MalformedAction
from engine.klaverjas.roem import roem_points
from engine.klaverjas.rules import trick_points, winning_index
from engine.klaverjas.variants import Variant

Phase = Literal["bidding", "bidding2", "choose_trump", "play", "over"]
PHASES: Final = ("bidding", "bidding2", "choose_trump", "play", "over")
NUM_SEATS: Final = 4
HAND_SIZE: Final = 8
TRICKS: Final = 8


SEAT_NAMES_NL: Final = ("Zuid", "West", "Noord", "Oost")
SEAT_NAMES_EN: Final = ("South", "West", "North", "East")


def check_suit(suit: object) -> None:
    if not isinstance(suit, int) or isinstance(suit, bool) or not 0 <= suit < 4:
        raise MalformedAction(f"Onbekende kleur: {suit!r}.", f"Unknown suit: {suit!r}.")


def team_of(seat: int) -> int:
    """Team 0 = South/North (seats 0, 2), team 1 = West/East (seats 1, 3)."""
    return seat % 2


def suit_json(suit: int | None) -> str | None:
    return None if suit is None else SUITS[suit]


def suit_from_json(value: Any) -> int | None:
    if value is None:
        return None
    if isinstance(value, str) and len(value) == 1 and value in SUITS:
        return SUITS.index(value)
    raise ValueError(f"not a suit: {value!r}")


@dataclass(frozen=True)
class BidRecord:
    """One bid of the current deal: ``bidding_round`` 1 or 2; ``suit`` only in round 2."""

    seat: int
    bidding_round: int
    play: bool
    suit: int | None = None

    def to_json(self) -> dict[str, Any]:
        return {
            "seat": self.seat,
            "round": self.bidding_round,
            "play": self.play,
            "suit": suit_json(self.suit),
        }


@dataclass(frozen=True)
class Trick:
    """A finished trick: the leader, the cards in play order, the winner, its card points
    (without the last-trick bonus) and its roem."""

    leader: int
    cards: tuple[int, ...]
    winner: int
    points: int
    roem: int

    @property
    def seats(self) -> tuple[int, ...]:
        return tuple((self.leader + i) % NUM_SEATS for i in range(len(self.cards)))

    def to_json(self) -> dict[str, Any]:
        return {
            "leader": self.leader,
            "cards": list(self.cards),
            "plays": [{"seat": s, "card": c} for s, c in zip(self.seats, self.cards, strict=True)],
            "winner": self.winner,
            "points": self.points,
            "roem": self.roem,
        }


def make_trick(leader: int, cards: Sequence[int], trump: int, variant: Variant) -> Trick:
    """Score a full trick: its winner, card points and roem."""
    winner = (leader + winning_index(cards, trump)) % NUM_SEATS
    return Trick(
        leader,
        tuple(cards),
        winner,
        trick_points(cards, trump),
        roem_points(cards, trump, variant.four_jacks),
    )


@dataclass(frozen=True)
class RoundResult:
    """The score of a finished round per team (0 = South/North, 1 = West/East).

    ``points``: card points with the last-trick bonus; ``roem``: roem won in tricks;
    ``pit_team``: the team that won all 8 tricks (gets the pit bonus), or ``None``;
    ``nat``: the playing team did not score more than the other team, so it gets 0 and the
    other team gets 162, all roem (and its pit bonus); ``scores``: the points of the round.
    """

    playing_team: int
    points: tuple[int, int]
    roem: tuple[int, int]
    pit_team: int | None
    nat: bool
    scores: tuple[int, int]

    def to_json(self) -> dict[str, Any]:
        return {
            "playing_team": self.playing_team,
            "points": list(self.points),
            "roem": list(self.roem),
            "pit_team": self.pit_team,
            "nat": self.nat,
            "scores": list(self.scores),
        }


def score_round(tricks: Sequence[Trick], *, playing_team: int, variant: Variant) -> RoundResult:
    """Score eight tricks (docs/rules.md §6): cards + 10 for the last trick, roem per trick to its
    winner, pit +100 for a team with all 8 tricks, and nat if the playing team does not
    score more than the other team (a tie is nat unless ``tie_is_nat`` is off)."""
    points = [0, 0]
    roem = [0, 0]
    won = [0, 0]
    for t in tricks:
        team = team_of(t.winner)
        points[team] += t.points
        roem[team] += t.roem
        won[team] += 1
    if tricks:
        points[team_of(tricks[-1].winner)] += variant.last_trick
    pit_team = next((t for t in (0, 1) if won[t] == TRICKS), None)
    bonus = [variant.pit if pit_team == t else 0 for t in (0, 1)]
    other = 1 - playing_team
    mine = points[playing_team] + roem[playing_team]
    theirs = points[other] + roem[other]
    nat = mine < theirs or (mine == theirs and variant.tie_is_nat)
    if nat:
        scores = [0, 0]
        scores[other] = points[0] + points[1] + roem[0] + roem[1] + bonus[other]
    else:
        scores = [points[t] + roem[t] + bonus[t] for t in (0, 1)]
    return RoundResult(
        playing_team,
        (points[0], points[1]),
        (roem[0], roem[1]),
        pit_team,
        nat,
        (scores[0], scores[1]),
    )


def results(totals: Sequence[int]) -> list[float]:
    """Duplicate result per seat: its team's total minus the other team's (higher is better)."""
    n = len(totals)
    return [float(totals[s] - totals[(s + 1) % n]) for s in range(n)]


def game_over(variant: Variant, *, rounds_played: int, totals: Sequence[int]) -> bool:
    """Whether a game is over: all ``rounds`` played, or a team reached ``points_limit``."""
    if rounds_played >= variant.rounds:
        return True
    return variant.points_limit is not None and max(totals, default=0) >= variant.points_limit
