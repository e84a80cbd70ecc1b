"""Klaverjas actions: small frozen dataclasses that round-trip through JSON.

JSON shapes (a suit is its letter ``c d h s``, a card its id 0..31):

- ``{"type": "bid", "play": true}`` / ``{"type": "bid", "play": false}``: play ("gaan")
  or pass in the first bidding round (the proposed suit);
- ``{"type": "bid", "play": true, "suit": "h"}``: play with another suit in the second
  bidding round (``"two_rounds"``); a pass is ``{"type": "bid", "play": false}``;
- ``{"type": "choose_trump", "suit": "h"}``: the first player chooses trump;
- ``{"type": "play", "card": 13}``: play a card.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from engine.cards import (
    SUIT_NAMES_EN,
    SUIT_NAMES_NL,
    SUITS,
    CardCodeError,
    card_label,
    klaverjas_code,
    klaverjas_id,
)
from engine.errors import MalformedAction


@dataclass(frozen=True)
class Bid:
    """Play (``play=True``, "gaan") or pass. In the second bidding round a bid to play
    names a suit other than the proposed one."""

    play: bool
    suit: int | None = None

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {"type": "bid", "play": self.play}
        if self.suit is not None:
            out["suit"] = SUITS[self.suit]
        return out


@dataclass(frozen=True)
class ChooseTrump:
    """The first player chooses the trump suit (everyone passed, or no bidding)."""

    suit: int

    def to_json(self) -> dict[str, Any]:
        return {"type": "choose_trump", "suit": SUITS[self.suit]}


@dataclass(frozen=True)
class PlayCard:
    """Play a card from the hand onto the trick."""

    card: int

    def to_json(self) -> dict[str, Any]:
        return {"type": "play", "card": self.card}


Action = Bid | ChooseTrump | PlayCard


def _malformed(nl: str, en: str) -> MalformedAction:
    return MalformedAction(nl, en)


def _suit(value: Any) -> int:
    if isinstance(value, str) and len(value) == 1 and value.lower() in SUITS:
        return SUITS.index(value.lower())
    if isinstance(value, int) and not isinstance(value, bool) and 0 <= value < 4:
        return value
    raise _malformed(f"Onbekende kleur: {value!r}.", f"Unknown suit: {value!r}.")


def action_from_json(obj: Mapping[str, Any]) -> Action:
    """An action from its JSON; anything unreadable raises ``MalformedAction``."""
    if not isinstance(obj, Mapping):
        raise _malformed("Een zet is een JSON-object.", "An action is a JSON object.")
    kind = obj.get("type")
    if kind == "bid":
        play = obj.get("play")
        if not isinstance(play, bool):
            raise _malformed("Een bod heeft 'play': true of false.", "A bid needs 'play': bool.")
        suit = obj.get("suit")
        return Bid(play, None if suit is None else _suit(suit))
    if kind == "choose_trump":
        return ChooseTrump(_suit(obj.get("suit")))
    if kind == "play":
        card = obj.get("card")
        if isinstance(card, str):
            try:
                return PlayCard(klaverjas_id(card))
            except CardCodeError:
                pass
        elif isinstance(card, int) and not isinstance(card, bool) and 0 <= card < 32:
            return PlayCard(card)
        raise _malformed(f"Onbekende kaart: {card!r}.", f"Unknown card: {card!r}.")
    raise _malformed(f"Onbekende soort zet: {kind!r}.", f"Unknown kind of action: {kind!r}.")


def describe(action: Action) -> tuple[str, str]:
    """What a player did, Dutch and English, after the player's name, as the table's log
    says it (Dutch present, English past tense: both fit every seat, "Jij"/"You"
    included): "speelt ♥B" / "played J♥", "past" / "passed"."""
    if isinstance(action, Bid):
        if not action.play:
            return "past", "passed"
        if action.suit is None:
            return "gaat", "chose to play"
        return (
            f"gaat in {SUIT_NAMES_NL[action.suit]}",
            f"chose to play in {SUIT_NAMES_EN[action.suit]}",
        )
    if isinstance(action, ChooseTrump):
        return (
            f"kiest {SUIT_NAMES_NL[action.suit]} als troef",
            f"chose {SUIT_NAMES_EN[action.suit]} as trump",
        )
    code = klaverjas_code(action.card)
    return f"speelt {card_label(code, 'nl')}", f"played {card_label(code, 'en')}"


def describe_advice(action: Action) -> tuple[str, str]:
    """What a player would have done, in card terms, Dutch and English, to follow "de
    sterke bot had ..." / "the strong bot would have ...": "♥B gespeeld" / "played J♥"."""
    if isinstance(action, Bid):
        if not action.play:
            return "gepast", "passed"
        if action.suit is None:
            return "gespeeld (gegaan)", "chosen to play"
        return (
            f"gespeeld in {SUIT_NAMES_NL[action.suit]}",
            f"chosen to play in {SUIT_NAMES_EN[action.suit]}",
        )
    if isinstance(action, ChooseTrump):
        return (
            f"{SUIT_NAMES_NL[action.suit]} als troef gekozen",
            f"chosen {SUIT_NAMES_EN[action.suit]} as trump",
        )
    code = klaverjas_code(action.card)
    return f"{card_label(code, 'nl')} gespeeld", f"played {card_label(code, 'en')}"
