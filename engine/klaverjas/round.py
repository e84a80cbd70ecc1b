"""``KlaverjasState``: one Klaverjas round, immutable (docs/rules.md §6; the rules and the
observation JSON are in ``engine.klaverjas.state``): the bidding, the tricks, applying an
action, the legal actions, what a seat sees (``KlaverjasObservation``), the JSON, and
the dealt state of a round.
"""

from __future__ import annotations

import hashlib
import json
from dataclasses import dataclass, replace
from typing import Any

from engine.cards import SUIT_NAMES_EN, SUIT_NAMES_NL, SUITS, card_label, klaverjas_code
from engine.dealing import commitment, round_seed
from engine.errors import IllegalMove, MalformedAction, NotYourTurn, RoundOver
from engine.klaverjas.actions import Action, Bid, ChooseTrump, PlayCard
from engine.klaverjas.deal import deal
from engine.klaverjas.errors import InvalidBid, NotInHand, WrongPhase
from engine.klaverjas.rules import legal_cards, play_error
from engine.klaverjas.tricks import (
    NUM_SEATS,
    SEAT_NAMES_EN,
    SEAT_NAMES_NL,
    TRICKS,
    BidRecord,
    Phase,
    RoundResult,
    Trick,
    check_suit,
    make_trick,
    score_round,
    suit_json,
    team_of,
)
from engine.klaverjas.variants import Variant


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
            check_suit(bid.suit)
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
        check_suit(choice.suit)
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
            "trump": suit_json(self.trump),
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
            "trump": suit_json(self.trump),
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
