"""What a Jokeren player can do in a turn, and the ways it can be against the rules.

A turn (docs/rules.md §2): ``Draw`` from the closed stock or the open pile; then any number
of ``LayMelds`` (new melds from hand), ``LayOff`` (a card onto any meld on the table)
and ``SwapJoker`` (a natural card for the joker that stands for it); then ``Discard``.

JSON shapes::

    {"type": "draw", "source": "stock" | "open"}
    {"type": "lay_melds", "melds": [{"cards": [id, ...], "stands_for": [null | "7h", ...]}]}
    {"type": "lay_off", "card": id, "meld": i, "stands_for": null | "7h"}
    {"type": "swap_joker", "card": id, "meld": i}
    {"type": "discard", "card": id}

Every illegal move raises its own subclass of ``engine.errors.IllegalMove`` with the
reason in Dutch and English (``InvalidMeld`` and ``DoesNotFit`` live in ``melds``).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Final, Literal

from engine.cards import CARD_CODE, CARD_KIND, CARD_RANK, card_label, code_of, is_joker
from engine.errors import IllegalMove, MalformedAction
from engine.jokeren.melds import (
    InvalidMeld,
    Meld,
    StandsFor,
    check_meld,
    lay_off_options,
    stands_for_from_json,
    stands_for_to_json,
)

DrawSource = Literal["stock", "open"]
#: A new meld in a ``LayMelds``: card ids and, per card, what a joker stands for.
MeldSpec = tuple[tuple[int, ...], tuple[StandsFor, ...]]


@dataclass(frozen=True)
class Draw:
    """Take the top card of the closed stock or of the open pile."""

    source: DrawSource

    def to_json(self) -> dict[str, Any]:
        return {"type": "draw", "source": self.source}


@dataclass(frozen=True)
class LayMelds:
    """Lay one or more new melds from hand in one action (a contract, 40 points or "all
    out" is judged on the melds of one action)."""

    melds: tuple[MeldSpec, ...]

    def to_json(self) -> dict[str, Any]:
        return {
            "type": "lay_melds",
            "melds": [
                {"cards": list(cards), "stands_for": [stands_for_to_json(x) for x in sfs]}
                for cards, sfs in self.melds
            ],
        }

    @property
    def cards(self) -> tuple[int, ...]:
        """Every card laid, in the order of the melds."""
        melds = self.melds
        if len(melds) == 1:
            cards, _ = melds[0]
            return tuple(cards)
        return tuple([c for cards, _ in melds for c in cards])


@dataclass(frozen=True)
class LayOff:
    """Lay a card from hand onto meld ``meld_index`` of the table (anyone's)."""

    card: int
    meld_index: int
    stands_for: StandsFor = None

    def to_json(self) -> dict[str, Any]:
        return {
            "type": "lay_off",
            "card": self.card,
            "meld": self.meld_index,
            "stands_for": stands_for_to_json(self.stands_for),
        }


@dataclass(frozen=True)
class SwapJoker:
    """Put natural ``card`` in place of the joker of meld ``meld_index`` that stands for
    it; the joker goes to the hand."""

    card: int
    meld_index: int

    def to_json(self) -> dict[str, Any]:
        return {"type": "swap_joker", "card": self.card, "meld": self.meld_index}


@dataclass(frozen=True)
class Discard:
    """Put a card from hand on the open pile; this ends the turn."""

    card: int

    def to_json(self) -> dict[str, Any]:
        return {"type": "discard", "card": self.card}


Action = Draw | LayMelds | LayOff | SwapJoker | Discard

# Shared instances (actions are immutable; making frozen dataclasses is the slow part of
# listing and choosing moves).
DRAW_STOCK: Final = Draw("stock")
DRAW_OPEN: Final = Draw("open")
#: One ``Discard`` per card id.
DISCARDS: Final = tuple(Discard(c) for c in range(len(CARD_CODE)))
_LAY_OFFS: dict[tuple[int, int, StandsFor], LayOff] = {}


def lay_off_action(card: int, meld_index: int, stands_for: StandsFor = None) -> LayOff:
    """The shared ``LayOff`` of ``card`` onto meld ``meld_index``."""
    key = (card, meld_index, stands_for)
    action = _LAY_OFFS.get(key)
    if action is None:
        action = _LAY_OFFS[key] = LayOff(card, meld_index, stands_for)
    return action


def _card(value: Any) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or not 0 <= value < len(CARD_CODE):
        raise MalformedAction(
            f"Onbekende kaart: {value!r}.", f"Unknown card: {value!r} (expected an id 0..107)."
        )
    return value


def _index(value: Any) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or value < 0:
        raise MalformedAction(
            f"Onbekend setje: {value!r}.", f"Unknown meld: {value!r} (expected an index)."
        )
    return value


def _sf(value: Any) -> StandsFor:
    try:
        return stands_for_from_json(value)
    except ValueError as exc:
        raise MalformedAction(f"Ongeldige jokerkaart: {exc}", f"Invalid stands_for: {exc}") from exc


def action_from_json(obj: Mapping[str, Any]) -> Action:
    """An action from its JSON; raises ``MalformedAction`` (an ``IllegalMove``)."""
    if not isinstance(obj, Mapping):
        raise MalformedAction("Een zet is een object.", "An action is a JSON object.")
    kind = obj.get("type")
    try:
        if kind == "draw":
            source = obj["source"]
            if source == "stock":
                return DRAW_STOCK
            if source == "open":
                return DRAW_OPEN
            raise MalformedAction(
                "Pak van 'stock' of 'open'.", "Draw source must be 'stock' or 'open'."
            )
        if kind == "lay_melds":
            specs = obj["melds"]
            if not isinstance(specs, list) or not specs:
                raise MalformedAction(
                    "Leg minstens één setje.", "lay_melds needs a non-empty list of melds."
                )
            melds: list[MeldSpec] = []
            for spec in specs:
                cards = tuple(_card(c) for c in spec["cards"])
                raw = spec.get("stands_for")
                sfs = (None,) * len(cards) if raw is None else tuple(_sf(x) for x in raw)
                if len(sfs) != len(cards):
                    raise MalformedAction(
                        "Geef voor elke kaart aan waar hij voor staat.",
                        "stands_for needs one entry per card.",
                    )
                melds.append((cards, sfs))
            return LayMelds(tuple(melds))
        if kind == "lay_off":
            return LayOff(_card(obj["card"]), _index(obj["meld"]), _sf(obj.get("stands_for")))
        if kind == "swap_joker":
            return SwapJoker(_card(obj["card"]), _index(obj["meld"]))
        if kind == "discard":
            return Discard(_card(obj["card"]))
    except (KeyError, TypeError) as exc:
        raise MalformedAction(
            f"Onvolledige zet: {exc}", f"Incomplete or malformed action: {exc}"
        ) from exc
    raise MalformedAction(f"Onbekende zet: {kind!r}.", f"Unknown action type: {kind!r}.")


# --- the same move ----------------------------------------------------------------------

#: One card of a ``move_key``: its kind (``CARD_KIND``: the two copies of a card alike,
#: every joker alike) and what it stands for (``()`` for a natural card).
_KeyCard = tuple[int, tuple[int, ...]]


def _key_card(card: int, stands_for: StandsFor) -> _KeyCard:
    return CARD_KIND[card], () if stands_for is None else stands_for


def _meld_key(cards: Sequence[int], stands_for: Sequence[StandsFor]) -> tuple[Any, ...]:
    try:
        meld = check_meld(cards, stands_for)
    except InvalidMeld:  # no meld: the cards as given, in a fixed order
        return (
            "none",
            tuple(sorted(_key_card(c, x) for c, x in zip(cards, stands_for, strict=False))),
        )
    return (
        meld.kind,
        tuple(_key_card(c, x) for c, x in zip(meld.cards, meld.stands_for, strict=True)),
    )


def move_key(action: Action, table: Sequence[Meld] = ()) -> tuple[Any, ...]:
    """The move an action makes in the rules, as a value to compare: two actions with the
    same key are the same move (docs/rules.md §1-2), whatever order or copy they name.

    - a card is its kind: the two copies of a card are interchangeable, and so are the
      jokers (``CARD_KIND``);
    - a new meld is the meld it forms on the table (``check_meld``): its cards in table
      order (a run by rank, a group by suit) with every joker's card filled in, so the
      order the cards were given in does not count, a joker left for the engine to name
      is the card it would name, and a joker naming another card is another move;
    - the melds laid in one action are a set: their order does not count;
    - a lay-off is the card, the meld (its index on ``table``, the table of the position
      the action is made in) and what a joker stands for; a joker left unnamed stands
      for the meld's first free choice (``lay_off_options``), as the engine lays it;
    - a joker swap is the natural card and the meld; a draw its source; a discard the card.
    """
    if isinstance(action, Draw):
        return ("draw", action.source)
    if isinstance(action, Discard):
        return ("discard", CARD_KIND[action.card])
    if isinstance(action, SwapJoker):
        return ("swap_joker", CARD_KIND[action.card], action.meld_index)
    if isinstance(action, LayOff):
        sf = action.stands_for
        if sf is None and not CARD_RANK[action.card] and 0 <= action.meld_index < len(table):
            options = lay_off_options(table[action.meld_index], action.card)
            sf = options[0] if options else None
        return ("lay_off", *_key_card(action.card, sf), action.meld_index)
    melds = sorted(_meld_key(cards, sfs or (None,) * len(cards)) for cards, sfs in action.melds)
    return ("lay_melds", tuple(melds))


# --- illegal moves ---------------------------------------------------------------------


class MustDrawFirst(IllegalMove):
    """A turn starts by drawing a card."""

    code = "must_draw_first"


class AlreadyDrew(IllegalMove):
    """A player draws only once per turn."""

    code = "already_drew"


class OpenPileEmpty(IllegalMove):
    """There is no open card to take."""

    code = "open_pile_empty"


class CardNotInHand(IllegalMove):
    """The card is not in the player's hand."""

    code = "card_not_in_hand"


class NoSuchMeld(IllegalMove):
    """There is no meld with that index on the table."""

    code = "no_such_meld"


class CannotLayOffYet(IllegalMove):
    """Laying off or swapping a joker is not allowed yet (before coming out, or in the
    turn of coming out, per the variant)."""

    code = "cannot_lay_off_yet"


class CannotDiscardTakenCard(IllegalMove):
    """The card taken from the open pile (or a copy of it) cannot be discarded in the
    same turn."""

    code = "cannot_discard_taken_card"


class MustKeepDiscard(IllegalMove):
    """A meld, lay-off or swap may not leave the player without a card to discard."""

    code = "must_keep_discard"


class ContractNotMet(IllegalMove):
    """Coming out needs the round's contract (or the opening points) in one action."""

    code = "contract_not_met"


class FirstCycleNoMeld(IllegalMove):
    """In the first cycle nobody lays down, lays off or swaps (seed 001)."""

    code = "first_cycle_no_meld"


def card_text(card: int, language: str = "nl", stands_for: StandsFor = None) -> str:
    """A card as players read it (``engine.cards.card_label``): ``♥8`` / ``8♥``,
    ``joker``; a joker laid with the card it stands for: ``joker (♥9)``."""
    text = card_label(CARD_CODE[card], language)
    if stands_for is not None and is_joker(card):
        return f"{text} ({card_label(code_of(*stands_for), language)})"
    return text


def _melds_text(action: LayMelds, language: str) -> str:
    return " · ".join(
        " ".join(
            card_text(c, language, sf)
            for c, sf in zip(cards, sfs or (None,) * len(cards), strict=False)
        )
        for cards, sfs in action.melds
    )


def describe(action: Action) -> tuple[str, str]:
    """What a player did, Dutch and English, after the player's name, as the table's log
    says it (Dutch present, English past tense: both fit every seat, "Jij"/"You"
    included): "gooit ♠10 weg" / "discarded 10♠"."""
    if isinstance(action, Draw):
        if action.source == "stock":
            return "pakt van de dichte stapel", "drew from the closed stock"
        return "pakt de open kaart", "took the open card"
    if isinstance(action, LayMelds):
        return f"legt {_melds_text(action, 'nl')} neer", f"laid down {_melds_text(action, 'en')}"
    if isinstance(action, LayOff):
        nl, en = (card_text(action.card, lang, action.stands_for) for lang in ("nl", "en"))
        return f"legt {nl} aan", f"laid off {en}"
    nl, en = card_text(action.card, "nl"), card_text(action.card, "en")
    if isinstance(action, SwapJoker):
        return f"wisselt {nl} voor een joker", f"swapped {en} for a joker"
    return f"gooit {nl} weg", f"discarded {en}"


def describe_advice(action: Action) -> tuple[str, str]:
    """What a player would have done, in card terms, Dutch and English, to follow "de
    sterke bot had ..." / "the strong bot would have ...": "♥8 aangelegd" / "laid off 8♥"."""
    if isinstance(action, Draw):
        if action.source == "stock":
            return "van de dichte stapel gepakt", "drawn from the closed stock"
        return "de open kaart gepakt", "taken the open card"
    if isinstance(action, LayMelds):
        return f"{_melds_text(action, 'nl')} neergelegd", f"laid down {_melds_text(action, 'en')}"
    if isinstance(action, LayOff):
        nl, en = (card_text(action.card, lang, action.stands_for) for lang in ("nl", "en"))
        return f"{nl} aangelegd", f"laid off {en}"
    nl, en = card_text(action.card, "nl"), card_text(action.card, "en")
    if isinstance(action, SwapJoker):
        return f"{nl} tegen een joker gewisseld", f"swapped {en} for a joker"
    return f"{nl} weggegooid", f"discarded {en}"
