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
``bids`` are those of the current deal (``deal_number`` counts redeals).
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace
from typing import Any, Final, Literal, cast

from engine.cards import (
    SUIT_NAMES_EN,
    SUIT_NAMES_NL,
    SUITS,
    card_label,
    klaverjas_code,
    klaverjas_deck,
)
from engine.dealing import Stream, commitment, deal_hands, round_seed, shuffled_pack
from engine.errors import IllegalMove, InvalidState, MalformedAction, NotYourTurn, RoundOver
from engine.klaverjas.actions import Action, Bid, ChooseTrump, PlayCard
from engine.klaverjas.errors import InvalidBid, NotInHand, WrongPhase
from engine.klaverjas.roem import roem_points
from engine.klaverjas.rules import (
    legal_cards,
    play_error,
    trick_points,
    winning_index,
)
from engine.klaverjas.variants import Variant, variant_from_json

Phase = Literal["bidding", "bidding2", "choose_trump", "play", "over"]
PHASES: Final = ("bidding", "bidding2", "choose_trump", "play", "over")
NUM_SEATS: Final = 4
HAND_SIZE: Final = 8
TRICKS: Final = 8


SEAT_NAMES_NL: Final = ("Zuid", "West", "Noord", "Oost")
SEAT_NAMES_EN: Final = ("South", "West", "North", "East")


def _check_suit(suit: object) -> None:
    if not isinstance(suit, int) or isinstance(suit, bool) or not 0 <= suit < 4:
        raise MalformedAction(f"Onbekende kleur: {suit!r}.", f"Unknown suit: {suit!r}.")


def team_of(seat: int) -> int:
    """Team 0 = South/North (seats 0, 2), team 1 = West/East (seats 1, 3)."""
    return seat % 2


def _suit_json(suit: int | None) -> str | None:
    return None if suit is None else SUITS[suit]


def _suit_from_json(value: Any) -> int | None:
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
            "suit": _suit_json(self.suit),
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


@dataclass(frozen=True)
class KlaverjasObservation:
    """What one seat may see, typed (used by the bots): never another hand, never the seed."""

    variant: Variant
    seat: int
    dealer: int
    phase: Phase
    current_player: int | None
    move_count: int
    deal_number: int
    hand: tuple[int, ...]
    hand_counts: tuple[int, ...]
    proposed_trump: int
    bids: tuple[BidRecord, ...]
    trump: int | None
    playing_seat: int | None
    leader: int
    trick: tuple[int, ...]
    tricks: tuple[Trick, ...]
    legal: tuple[Action, ...]

    @property
    def first_player(self) -> int:
        return (self.dealer + 1) % NUM_SEATS


@dataclass(frozen=True)
class KlaverjasState:
    """A Klaverjas round. Immutable: ``apply`` returns the next state.

    ``phase``: ``bidding`` (play or pass the proposed suit), ``bidding2`` (the second
    round: play with another suit or pass), ``choose_trump`` (the first player names
    trump), ``play`` (tricks) or ``over``. ``hands`` are sorted card ids per seat;
    ``trick`` holds the cards of the current trick in play order from ``leader``.
    """

    variant: Variant
    round_index: int
    round_seed: bytes
    dealer: int
    deal_number: int
    proposed_trump: int
    hands: tuple[tuple[int, ...], ...]
    phase: Phase
    current_player: int | None
    bids: tuple[BidRecord, ...] = ()
    trump: int | None = None
    playing_seat: int | None = None
    leader: int = 0
    trick: tuple[int, ...] = ()
    tricks: tuple[Trick, ...] = ()
    move_count: int = 0

    # --- simple facts ------------------------------------------------------------

    @property
    def first_player(self) -> int:
        """The seat left of (after) the dealer: bids first and leads the first trick."""
        return (self.dealer + 1) % NUM_SEATS

    @property
    def is_terminal(self) -> bool:
        return self.phase == "over"

    @property
    def playing_team(self) -> int | None:
        return None if self.playing_seat is None else team_of(self.playing_seat)

    # --- legal actions -----------------------------------------------------------

    def legal_actions(self) -> list[Action]:
        """Every legal action of the current player, in canonical order: pass before play,
        suits in the order c d h s, cards by id."""
        if self.phase == "bidding":
            return [Bid(False), Bid(True)]
        if self.phase == "bidding2":
            bids: list[Action] = [Bid(False)]
            return bids + [Bid(True, s) for s in range(4) if s != self.proposed_trump]
        if self.phase == "choose_trump":
            return [ChooseTrump(s) for s in range(4)]
        if self.phase == "play":
            assert self.current_player is not None and self.trump is not None
            hand = self.hands[self.current_player]
            return [PlayCard(c) for c in legal_cards(hand, self.trick, self.trump, self.variant)]
        return []

    def is_legal(self, action: Action) -> bool:
        try:
            self.apply(action)
        except IllegalMove:
            return False
        return True

    def same_move(self, a: Action, b: Action) -> bool:
        """Whether actions ``a`` and ``b`` make the same move in this position: every
        Klaverjas action names one card, bid or suit, so only equal actions do."""
        return a == b

    # --- apply -------------------------------------------------------------------

    def apply(self, action: Action, *, seat: int | None = None) -> KlaverjasState:
        """The state after the current player's ``action`` (made by ``seat`` if given).

        Raises an ``IllegalMove`` subclass naming the broken rule in Dutch and English.
        """
        if self.phase == "over" or self.current_player is None:
            raise RoundOver("De ronde is voorbij.", "The round is over.")
        if seat is not None and seat != self.current_player:
            raise NotYourTurn(
                f"Je bent niet aan de beurt: {SEAT_NAMES_NL[self.current_player]} is aan de beurt.",
                f"It is not your turn: {SEAT_NAMES_EN[self.current_player]} is to move.",
            )
        if isinstance(action, Bid):
            return self._apply_bid(action)
        if isinstance(action, ChooseTrump):
            return self._apply_choose(action)
        if isinstance(action, PlayCard):
            return self._apply_play(action)
        raise MalformedAction("Onbekende zet.", f"Unknown action: {action!r}.")

    def _wrong_phase(self, what_nl: str, what_en: str) -> WrongPhase:
        expected = {
            "bidding": ("bieden (spelen of passen)", "bid (play or pass)"),
            "bidding2": ("bieden in de tweede ronde", "bid in the second round"),
            "choose_trump": ("een troefkleur kiezen", "choose a trump suit"),
            "play": ("een kaart spelen", "play a card"),
        }[self.phase]
        return WrongPhase(
            f"{what_nl} kan nu niet: je moet {expected[0]}.",
            f"{what_en} is not possible now: you must {expected[1]}.",
        )

    def _start_play(self, seat: int, trump: int) -> KlaverjasState:
        return replace(
            self,
            phase="play",
            trump=trump,
            playing_seat=seat,
            leader=self.first_player,
            current_player=self.first_player,
            move_count=self.move_count + 1,
        )

    def _apply_bid(self, bid: Bid) -> KlaverjasState:
        seat = self.current_player
        assert seat is not None
        if bid.suit is not None:
            _check_suit(bid.suit)
        if self.phase == "bidding":
            if bid.suit is not None and bid.suit != self.proposed_trump:
                raise InvalidBid(
                    "In de eerste biedronde speel of pas je met de voorgestelde troef "
                    f"({SUIT_NAMES_NL[self.proposed_trump]}).",
                    "In the first bidding round you play or pass the proposed trump "
                    f"({SUIT_NAMES_EN[self.proposed_trump]}).",
                )
            record = BidRecord(seat, 1, bid.play, None)
        elif self.phase == "bidding2":
            if bid.play and (bid.suit is None or bid.suit == self.proposed_trump):
                raise InvalidBid(
                    "In de tweede biedronde noem je een andere troefkleur dan "
                    f"{SUIT_NAMES_NL[self.proposed_trump]}.",
                    "In the second bidding round you name a trump suit other than "
                    f"{SUIT_NAMES_EN[self.proposed_trump]}.",
                )
            if not bid.play and bid.suit is not None:
                raise InvalidBid("Passen noemt geen kleur.", "A pass names no suit.")
            record = BidRecord(seat, 2, bid.play, bid.suit)
        else:
            raise self._wrong_phase("Bieden", "Bidding")
        if bid.play:
            trump = self.proposed_trump if record.bidding_round == 1 else record.suit
            assert trump is not None
            return replace(self, bids=(*self.bids, record))._start_play(seat, trump)
        bids = (*self.bids, record)
        after = replace(self, bids=bids, move_count=self.move_count + 1)
        passes_in_round = sum(1 for b in bids if b.bidding_round == record.bidding_round)
        if passes_in_round < NUM_SEATS:
            return replace(after, current_player=(seat + 1) % NUM_SEATS)
        if record.bidding_round == 1:
            if self.variant.bidding == "two_rounds":
                return replace(after, phase="bidding2", current_player=self.first_player)
            return replace(after, phase="choose_trump", current_player=self.first_player)
        if self.deal_number >= self.variant.max_redeals:
            return replace(after, phase="choose_trump", current_player=self.first_player)
        hands, proposed = deal(self.round_seed, self.dealer, self.deal_number + 1)
        return replace(
            after,
            deal_number=self.deal_number + 1,
            hands=hands,
            proposed_trump=proposed,
            bids=(),
            phase="bidding",
            current_player=self.first_player,
        )

    def _apply_choose(self, choice: ChooseTrump) -> KlaverjasState:
        if self.phase != "choose_trump":
            raise self._wrong_phase("Troef kiezen", "Choosing trump")
        _check_suit(choice.suit)
        assert self.current_player is not None
        return self._start_play(self.current_player, choice.suit)

    def _apply_play(self, play: PlayCard) -> KlaverjasState:
        if self.phase != "play":
            raise self._wrong_phase("Een kaart spelen", "Playing a card")
        seat = self.current_player
        assert seat is not None and self.trump is not None
        hand = self.hands[seat]
        card = play.card
        if card not in hand:
            raise NotInHand(
                f"{card_label(klaverjas_code(card), 'nl')} zit niet in je hand.",
                f"{card_label(klaverjas_code(card), 'en')} is not in your hand.",
            )
        error = play_error(hand, self.trick, self.trump, self.variant, card)
        if error is not None:
            raise error
        hands = list(self.hands)
        hands[seat] = tuple(c for c in hand if c != card)
        trick = (*self.trick, card)
        moves = self.move_count + 1
        if len(trick) < NUM_SEATS:
            return replace(
                self,
                hands=tuple(hands),
                trick=trick,
                current_player=(seat + 1) % NUM_SEATS,
                move_count=moves,
            )
        done = make_trick(self.leader, trick, self.trump, self.variant)
        tricks = (*self.tricks, done)
        if len(tricks) == TRICKS:
            return replace(
                self,
                hands=tuple(hands),
                trick=(),
                tricks=tricks,
                phase="over",
                current_player=None,
                move_count=moves,
            )
        return replace(
            self,
            hands=tuple(hands),
            trick=(),
            tricks=tricks,
            leader=done.winner,
            current_player=done.winner,
            move_count=moves,
        )

    # --- scores ------------------------------------------------------------------

    def team_points(self) -> tuple[int, int]:
        """Card points won so far per team (with the last-trick bonus once it is played)."""
        points = [0, 0]
        for t in self.tricks:
            points[team_of(t.winner)] += t.points
        if len(self.tricks) == TRICKS:
            points[team_of(self.tricks[-1].winner)] += self.variant.last_trick
        return points[0], points[1]

    def team_roem(self) -> tuple[int, int]:
        roem = [0, 0]
        for t in self.tricks:
            roem[team_of(t.winner)] += t.roem
        return roem[0], roem[1]

    def result(self) -> RoundResult | None:
        """The round's score once it is over, else ``None``."""
        if self.phase != "over" or self.playing_seat is None:
            return None
        return score_round(
            self.tricks, playing_team=team_of(self.playing_seat), variant=self.variant
        )

    def scores(self) -> list[int]:
        """Each seat's points for the round: its team's score (nat, pit and roem included).
        Before the end: the points and roem its team has won so far."""
        result = self.result()
        if result is not None:
            team_scores: tuple[int, int] = result.scores
        else:
            p, r = self.team_points(), self.team_roem()
            team_scores = (p[0] + r[0], p[1] + r[1])
        return [team_scores[team_of(s)] for s in range(NUM_SEATS)]

    # --- observation -------------------------------------------------------------

    def observe(self, seat: int) -> KlaverjasObservation:
        """The typed observation of ``seat`` (cheap; for bots)."""
        legal = tuple(self.legal_actions()) if seat == self.current_player else ()
        return KlaverjasObservation(
            variant=self.variant,
            seat=seat,
            dealer=self.dealer,
            phase=self.phase,
            current_player=self.current_player,
            move_count=self.move_count,
            deal_number=self.deal_number,
            hand=self.hands[seat],
            hand_counts=tuple(len(h) for h in self.hands),
            proposed_trump=self.proposed_trump,
            bids=self.bids,
            trump=self.trump,
            playing_seat=self.playing_seat,
            leader=self.leader,
            trick=self.trick,
            tricks=self.tricks,
            legal=legal,
        )

    def observation(self, seat: int, *, log: bool = True) -> dict[str, Any]:
        """What ``seat`` may see, as JSON: its own hand, the bidding, trump, the trick on the
        table and every trick played (cards are public once played), the number of cards
        per seat, points and roem per team, its legal actions when it is to move, and the
        round's score at the end. Never another hand, never the round seed. A Klaverjas
        round keeps no public log beside its tricks, so ``log`` changes nothing."""
        if not 0 <= seat < NUM_SEATS:
            raise ValueError(f"no seat {seat} at this table")
        result = self.result()
        return {
            "game": "klaverjas",
            "variant": self.variant.name,
            "seat": seat,
            "team": team_of(seat),
            "round_index": self.round_index,
            "dealer": self.dealer,
            "first_player": self.first_player,
            "deal_number": self.deal_number,
            "phase": self.phase,
            "current_player": self.current_player,
            "move_count": self.move_count,
            "hand": list(self.hands[seat]),
            "hand_codes": [klaverjas_code(c) for c in self.hands[seat]],
            "hand_counts": [len(h) for h in self.hands],
            "proposed_trump": SUITS[self.proposed_trump],
            "bids": [b.to_json() for b in self.bids],
            "trump": _suit_json(self.trump),
            "playing_seat": self.playing_seat,
            "playing_team": self.playing_team,
            "trick": {
                "leader": self.leader,
                "plays": [
                    {"seat": (self.leader + i) % NUM_SEATS, "card": c}
                    for i, c in enumerate(self.trick)
                ],
            },
            "tricks": [t.to_json() for t in self.tricks],
            "points": list(self.team_points()),
            "roem": list(self.team_roem()),
            "legal_actions": (
                [a.to_json() for a in self.legal_actions()] if seat == self.current_player else []
            ),
            "is_terminal": self.is_terminal,
            "result": None if result is None else result.to_json(),
            "scores": None if result is None else self.scores(),
        }

    @property
    def log_length(self) -> int:
        """How many entries the public log has: none (the tricks are the record)."""
        return 0

    def log_json(self, start: int = 0) -> list[dict[str, Any]]:
        """The public log's entries from ``start`` on: none."""
        return []

    # --- JSON --------------------------------------------------------------------

    def to_json(self) -> dict[str, Any]:
        """The full state (hands and round seed included: for storage, never for a player)."""
        return {
            "game": "klaverjas",
            "variant": self.variant.to_json(),
            "round_index": self.round_index,
            "round_seed": self.round_seed.hex(),
            "dealer": self.dealer,
            "deal_number": self.deal_number,
            "proposed_trump": SUITS[self.proposed_trump],
            "hands": [list(h) for h in self.hands],
            "phase": self.phase,
            "current_player": self.current_player,
            "bids": [b.to_json() for b in self.bids],
            "trump": _suit_json(self.trump),
            "playing_seat": self.playing_seat,
            "leader": self.leader,
            "trick": list(self.trick),
            "tricks": [{"leader": t.leader, "cards": list(t.cards)} for t in self.tricks],
            "move_count": self.move_count,
        }

    def state_hash(self) -> str:
        """SHA-256 (hex) of the canonical JSON of the full state."""
        text = json.dumps(self.to_json(), sort_keys=True, separators=(",", ":"))
        return hashlib.sha256(text.encode("utf-8")).hexdigest()


# --- construction ------------------------------------------------------------------


def deal(seed: bytes, dealer: int, deal_number: int) -> tuple[tuple[tuple[int, ...], ...], int]:
    """The hands (sorted, per seat) and the proposed trump of deal ``deal_number`` (0 = the
    first deal; labels ``deal``/``trump``, then ``deal:k``/``trump:k`` for redeal k)."""
    suffix = "" if deal_number == 0 else f":{deal_number}"
    pack = shuffled_pack(seed, klaverjas_deck(), "deal" + suffix)
    hands, _rest = deal_hands(
        pack, num_players=NUM_SEATS, hand_size=HAND_SIZE, first_player=(dealer + 1) % NUM_SEATS
    )
    proposed = Stream(seed, "trump" + suffix).uniform(4)
    return tuple(tuple(sorted(h)) for h in hands), proposed


def new_round(variant: Variant, *, secret: bytes, round_index: int) -> KlaverjasState:
    """The dealt round ``round_index`` of a tournament with ``secret``."""
    seed = round_seed(secret, round_index)
    dealer = round_index % NUM_SEATS
    hands, proposed = deal(seed, dealer, 0)
    first = (dealer + 1) % NUM_SEATS
    return KlaverjasState(
        variant=variant,
        round_index=round_index,
        round_seed=seed,
        dealer=dealer,
        deal_number=0,
        proposed_trump=proposed,
        hands=hands,
        phase="choose_trump" if variant.bidding == "no_passing" else "bidding",
        current_player=first,
    )


def deal_summary(variant: Variant, *, secret: bytes, round_index: int) -> dict[str, Any]:
    """The JSON of ``python -m engine deal``: the commitment, each seat's hand (codes, sorted
    by id) and the proposed trump suit's letter."""
    state = new_round(variant, secret=secret, round_index=round_index)
    return {
        "commitment": commitment(secret),
        "hands": [[klaverjas_code(c) for c in h] for h in state.hands],
        "trump": SUITS[state.proposed_trump],
    }


def results(totals: Sequence[int]) -> list[float]:
    """Duplicate result per seat: its team's total minus the other team's (higher is better)."""
    n = len(totals)
    return [float(totals[s] - totals[(s + 1) % n]) for s in range(n)]


def game_over(variant: Variant, *, rounds_played: int, totals: Sequence[int]) -> bool:
    """Whether a game is over: all ``rounds`` played, or a team reached ``points_limit``."""
    if rounds_played >= variant.rounds:
        return True
    return variant.points_limit is not None and max(totals, default=0) >= variant.points_limit


# --- from JSON ---------------------------------------------------------------------


def _int(obj: Mapping[str, Any], key: str, lo: int, hi: int) -> int:
    value = obj.get(key)
    if not isinstance(value, int) or isinstance(value, bool) or not lo <= value <= hi:
        raise ValueError(f"{key}: an integer {lo}..{hi}")
    return value


def _opt_seat(obj: Mapping[str, Any], key: str) -> int | None:
    if obj.get(key) is None:
        return None
    return _int(obj, key, 0, NUM_SEATS - 1)


def _cards(value: Any, what: str) -> tuple[int, ...]:
    if not isinstance(value, list) or not all(
        isinstance(c, int) and not isinstance(c, bool) and 0 <= c < 32 for c in value
    ):
        raise ValueError(f"{what}: a list of card ids 0..31")
    return tuple(value)


def state_from_json(obj: Mapping[str, Any]) -> KlaverjasState:
    """A state from ``KlaverjasState.to_json``; checks the shape and that all 32 cards are
    accounted for, and raises ``InvalidState`` (a ``ValueError``) otherwise, never another
    exception. Trick winners, points and roem are recomputed."""
    try:
        state = _read_state(obj)
    except InvalidState:
        raise
    except (KeyError, TypeError, ValueError, AttributeError, IndexError, IllegalMove) as exc:
        raise InvalidState(f"state: {exc}") from exc
    _check_reachable(state)
    return state


def _check_reachable(state: KlaverjasState) -> None:
    """Raise ``InvalidState`` unless the rules can reach ``state``: the dealer of round r
    is seat r mod 4; bidding comes before any card is played; in play the trump is known,
    the trick's leader won the last trick (the first player leads the first) and the seat
    after the trick's last card is to move; every hand holds 8 cards less the cards its
    seat played; the round is over after 8 tricks, and nobody is to move then."""
    if state.dealer != state.round_index % NUM_SEATS:
        raise InvalidState("state: the dealer of round r is seat r mod 4")
    if (state.phase == "over") != (state.current_player is None):
        raise InvalidState("state: nobody is to move exactly when the round is over")
    if len(state.trick) >= NUM_SEATS:
        raise InvalidState("state: a trick in play holds at most three cards")
    if state.phase in ("bidding", "bidding2", "choose_trump"):
        if state.tricks or state.trick or state.trump is not None:
            raise InvalidState("state: no card is played before the trump is chosen")
    elif state.trump is None or state.playing_seat is None:
        raise InvalidState("state: play needs a trump suit and a playing seat")
    if state.phase == "over" and (len(state.tricks) != TRICKS or state.trick):
        raise InvalidState("state: a round is over after eight tricks")
    if state.phase == "play":
        leader = state.tricks[-1].winner if state.tricks else state.first_player
        if state.leader != leader:
            raise InvalidState("state: the winner of a trick leads the next")
        if state.current_player != (leader + len(state.trick)) % NUM_SEATS:
            raise InvalidState("state: the seat after the trick's last card is to move")
    played = {(state.leader + i) % NUM_SEATS for i in range(len(state.trick))}
    for seat, hand in enumerate(state.hands):
        if len(hand) != HAND_SIZE - len(state.tricks) - (seat in played):
            raise InvalidState("state: every hand holds 8 cards less those its seat played")


def _read_state(obj: Mapping[str, Any]) -> KlaverjasState:
    if not isinstance(obj, Mapping) or obj.get("game") != "klaverjas":
        raise ValueError("not a Klaverjas state")
    if not isinstance(obj.get("variant"), Mapping):
        raise ValueError("variant: the variant's JSON object")
    variant = variant_from_json(obj["variant"])
    phase = obj.get("phase")
    if phase not in PHASES:
        raise ValueError(f"phase: one of {', '.join(PHASES)}")
    seed_hex = obj.get("round_seed")
    if not isinstance(seed_hex, str):
        raise ValueError("round_seed: hex text")
    seed = bytes.fromhex(seed_hex)
    proposed = _suit_from_json(obj.get("proposed_trump"))
    if proposed is None:
        raise ValueError("proposed_trump: a suit letter")
    trump = _suit_from_json(obj.get("trump"))
    hands_raw = obj.get("hands")
    if not isinstance(hands_raw, list) or len(hands_raw) != NUM_SEATS:
        raise ValueError("hands: four lists")
    hands = tuple(tuple(sorted(_cards(h, "hands"))) for h in hands_raw)
    bids: list[BidRecord] = []
    for b in obj.get("bids", []):
        if not isinstance(b, Mapping) or not isinstance(b.get("play"), bool):
            raise ValueError("bids: objects with seat, round, play, suit")
        bids.append(
            BidRecord(
                _int(b, "seat", 0, 3),
                _int(b, "round", 1, 2),
                b["play"],
                _suit_from_json(b.get("suit")),
            )
        )
    tricks: list[Trick] = []
    for t in obj.get("tricks", []):
        if trump is None or not isinstance(t, Mapping):
            raise ValueError("tricks need a trump suit")
        cards = _cards(t.get("cards"), "tricks")
        if len(cards) != NUM_SEATS:
            raise ValueError("a finished trick holds four cards")
        tricks.append(make_trick(_int(t, "leader", 0, 3), cards, trump, variant))
    trick = _cards(obj.get("trick", []), "trick")
    every = [c for h in hands for c in h] + list(trick) + [c for t in tricks for c in t.cards]
    if sorted(every) != list(range(32)):
        raise ValueError("the 32 cards are not all accounted for exactly once")
    return KlaverjasState(
        variant=variant,
        round_index=_int(obj, "round_index", 0, 10**6),
        round_seed=seed,
        dealer=_int(obj, "dealer", 0, 3),
        deal_number=_int(obj, "deal_number", 0, 100),
        proposed_trump=proposed,
        hands=hands,
        phase=cast(Phase, phase),
        current_player=_opt_seat(obj, "current_player"),
        bids=tuple(bids),
        trump=trump,
        playing_seat=_opt_seat(obj, "playing_seat"),
        leader=_int(obj, "leader", 0, 3),
        trick=trick,
        tricks=tuple(tricks),
        move_count=_int(obj, "move_count", 0, 10**6),
    )
