"""Jokeren variants (docs/rules.md §3): one frozen dataclass, the presets are instances.

An organizer may change any field with ``dataclasses.replace``; every variant is
checked when it is made (``ValueError`` with a clear message) and round-trips
through JSON with ``Variant.to_json()`` / ``variant_from_json(obj)``.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, fields, replace
from typing import Any, ClassVar, Literal

from engine.cards import CARDS_PER_DECK

CompleteMeld = Literal["recycle", "remove"]
Opening = Literal["none", "contract", "points"]
Scoring = Literal["points", "cards"]

#: A run holds at most 13 cards (platform rule, docs/rules.md §2).
MAX_RUN = 13
#: A group holds at most 4 cards, all of different suits.
MAX_GROUP = 4


@dataclass(frozen=True)
class Contract:
    """What a player must lay down to come out in one round (seed 001, "potjes").

    ``runs``: the minimum length of each required run; ``groups``: the size of each
    required group. Every required run and group is a separate meld, all laid in the
    same action (more melds may be laid with them). ``all_out``: the player must lay
    down all cards but the one to discard in that action. ``points``: the melds laid
    in that action are worth at least this many points (seed 001: ace 11, king/queen/
    jack 10, joker 25, 2-10 face value). ``any_meld``: any one meld will do.
    """

    runs: tuple[int, ...] = ()
    groups: tuple[int, ...] = ()
    all_out: bool = False
    points: int = 0
    any_meld: bool = False
    description_nl: str = ""
    description_en: str = ""

    def __post_init__(self) -> None:
        for n in self.runs:
            if not isinstance(n, int) or not 3 <= n <= MAX_RUN:
                raise ValueError(f"contract: a required run has 3 to {MAX_RUN} cards, not {n!r}")
        for n in self.groups:
            if not isinstance(n, int) or not 3 <= n <= MAX_GROUP:
                raise ValueError(f"contract: a required group has 3 or 4 cards, not {n!r}")
        if not isinstance(self.points, int) or self.points < 0:
            raise ValueError("contract: points must be a whole number >= 0")
        if not (self.runs or self.groups or self.all_out or self.points or self.any_meld):
            raise ValueError("contract: it must require something (a run, group, points, ...)")

    @property
    def min_cards(self) -> int:
        """The fewest cards the required runs and groups take."""
        return sum(self.runs) + sum(self.groups)

    def to_json(self) -> dict[str, Any]:
        return {
            "runs": list(self.runs),
            "groups": list(self.groups),
            "all_out": self.all_out,
            "points": self.points,
            "any_meld": self.any_meld,
            "description_nl": self.description_nl,
            "description_en": self.description_en,
        }


def contract_from_json(obj: Mapping[str, Any]) -> Contract:
    """A contract from its JSON; unknown fields raise ``ValueError``."""
    if not isinstance(obj, Mapping):
        raise ValueError("contract: expected an object")
    known = {f.name for f in fields(Contract)}
    unknown = set(obj) - known
    if unknown:
        raise ValueError(f"contract: unknown field(s) {sorted(unknown)}")
    try:
        return Contract(
            runs=tuple(int(n) for n in obj.get("runs", ())),
            groups=tuple(int(n) for n in obj.get("groups", ())),
            all_out=_bool(obj.get("all_out", False), "contract.all_out"),
            points=int(obj.get("points", 0)),
            any_meld=_bool(obj.get("any_meld", False), "contract.any_meld"),
            description_nl=str(obj.get("description_nl", "")),
            description_en=str(obj.get("description_en", "")),
        )
    except TypeError as exc:
        raise ValueError(f"contract: {exc}") from exc


@dataclass(frozen=True)
class Variant:
    """The parameters of a Jokeren game (docs/rules.md §3).

    - ``decks`` (1 or 2 full decks with 2 jokers each) and ``hand_size``;
    - ``num_players``: 3 or 4 (seats 0 .. n-1, clockwise);
    - ``rounds``: rounds in a game (the dealer rotates each round);
    - ``lay_off_before_out``: lay off and swap jokers even before coming out (Jokeren 7);
    - ``lay_off_same_turn``: lay off / swap already in the turn you come out; when false,
      only from your next turn;
    - ``complete_meld``: a complete meld (group of 4 or run of 13, no joker) goes under the
      open pile (``recycle``) or is removed from the game (``remove``);
    - ``opening``: the first lay-down needs nothing (``none``), the round's contract
      (``contract``, round r uses ``contracts[r % len(contracts)]``) or melds worth at
      least ``opening_points`` in that one action (``points``);
    - ``first_cycle_no_meld``: nobody may lay down, lay off or swap in their first turn;
    - ``scoring``: a loser scores the points in hand (``points``) or the number of cards
      (``cards``);
    - ``turn_limit``: the round ends with no winner after this many turns (platform);
    - ``open_card``: one card is turned face up at the deal to start the open pile
      (seed 000); without it (seed 001: "de overige kaarten worden gedekt op één stapel
      gelegd") the rest of the pack is the closed stock, the first player's first draw can
      only be from the stock, and the open pile starts with the first discard;
    - ``part_rounds``: the game is played in parts of this many rounds, each on a score
      sheet of its own with its own total (seed 001, the competition: "er worden 2 ronden
      van 10 gespeeld"); 0: the whole game is one part. When ``rounds`` is not a
      multiple, the last part is shorter;
    - ``subtotal_after``: on each part's score sheet a subtotal is counted after every this
      many rounds (seed 001: "na vijf beurten wordt een tussentotaal geteld"); 0: none.
      Fewer than the rounds of a part (of the game, without parts).
    """

    #: The few values a whole-number field allows (the organizer's form offers a choice).
    FIELD_CHOICES: ClassVar[dict[str, tuple[int, ...]]] = {"num_players": (3, 4)}

    name: str
    decks: int
    hand_size: int
    rounds: int
    lay_off_before_out: bool
    lay_off_same_turn: bool
    complete_meld: CompleteMeld
    opening: Opening
    first_cycle_no_meld: bool
    scoring: Scoring
    num_players: int = 4
    opening_points: int = 40
    contracts: tuple[Contract, ...] = ()
    turn_limit: int = 400
    open_card: bool = True
    part_rounds: int = 0
    subtotal_after: int = 0
    title_nl: str = ""
    title_en: str = ""

    def __post_init__(self) -> None:
        if not isinstance(self.name, str) or not self.name:
            raise ValueError("variant: name must be a non-empty string")
        for flag in (
            "lay_off_before_out",
            "lay_off_same_turn",
            "first_cycle_no_meld",
            "open_card",
        ):
            if not isinstance(getattr(self, flag), bool):
                raise ValueError(f"variant: {flag} must be true or false")
        for num in (
            "decks",
            "hand_size",
            "rounds",
            "num_players",
            "opening_points",
            "turn_limit",
            "part_rounds",
            "subtotal_after",
        ):
            value = getattr(self, num)
            if not isinstance(value, int) or isinstance(value, bool):
                raise ValueError(f"variant: {num} must be a whole number")
        if self.decks not in (1, 2):
            raise ValueError("variant: decks must be 1 or 2")
        if self.num_players not in (3, 4):
            raise ValueError("variant: num_players must be 3 or 4")
        if self.hand_size < 1:
            raise ValueError("variant: hand_size must be at least 1")
        pack = CARDS_PER_DECK * self.decks
        # every hand, the open card where one is turned, and at least one card in the stock
        if self.num_players * self.hand_size + 1 + self.open_card > pack:
            raise ValueError(
                f"variant: {self.num_players} hands of {self.hand_size} cards, "
                f"{'an open card ' if self.open_card else ''}and a stock need more than the "
                f"{pack} cards of {self.decks} deck(s)"
            )
        if self.rounds < 1:
            raise ValueError("variant: rounds must be at least 1")
        if self.turn_limit < 1:
            raise ValueError("variant: turn_limit must be at least 1")
        if self.part_rounds < 0 or self.subtotal_after < 0:
            raise ValueError("variant: part_rounds and subtotal_after must be 0 or more")
        if self.subtotal_after and self.subtotal_after >= (self.part_rounds or self.rounds):
            raise ValueError(
                "variant: the subtotal comes after fewer rounds than a part (or the game) has"
            )
        if self.complete_meld not in ("recycle", "remove"):
            raise ValueError("variant: complete_meld must be 'recycle' or 'remove'")
        if self.opening not in ("none", "contract", "points"):
            raise ValueError("variant: opening must be 'none', 'contract' or 'points'")
        if self.scoring not in ("points", "cards"):
            raise ValueError("variant: scoring must be 'points' or 'cards'")
        if self.lay_off_before_out and not self.lay_off_same_turn:
            raise ValueError(
                "variant: lay_off_before_out=true needs lay_off_same_turn=true "
                "(laying off before coming out includes the turn you come out)"
            )
        if self.opening_points < 1:
            raise ValueError("variant: opening_points must be at least 1")
        if not isinstance(self.contracts, tuple) or not all(
            isinstance(c, Contract) for c in self.contracts
        ):
            raise ValueError("variant: contracts must be a tuple of Contract")
        if self.opening == "contract" and not self.contracts:
            raise ValueError("variant: opening 'contract' needs at least one contract")
        if self.opening != "contract" and self.contracts:
            raise ValueError("variant: contracts are only used with opening 'contract'")
        for i, c in enumerate(self.contracts):
            if c.min_cards > self.hand_size:
                raise ValueError(
                    f"variant: contract {i + 1} needs {c.min_cards} cards, "
                    f"more than a hand of {self.hand_size} can lay down"
                )

    @property
    def pack_size(self) -> int:
        """Number of cards in the pack: 54 per deck."""
        return CARDS_PER_DECK * self.decks

    def contract_for(self, round_index: int) -> Contract | None:
        """The contract of round ``round_index`` (from 0), or ``None`` without contracts."""
        if self.opening != "contract":
            return None
        return self.contracts[round_index % len(self.contracts)]

    def to_json(self) -> dict[str, Any]:
        """Every field, as plain JSON."""
        return {
            "name": self.name,
            "title_nl": self.title_nl,
            "title_en": self.title_en,
            "decks": self.decks,
            "hand_size": self.hand_size,
            "num_players": self.num_players,
            "rounds": self.rounds,
            "lay_off_before_out": self.lay_off_before_out,
            "lay_off_same_turn": self.lay_off_same_turn,
            "complete_meld": self.complete_meld,
            "opening": self.opening,
            "opening_points": self.opening_points,
            "contracts": [c.to_json() for c in self.contracts],
            "first_cycle_no_meld": self.first_cycle_no_meld,
            "scoring": self.scoring,
            "turn_limit": self.turn_limit,
            "open_card": self.open_card,
            "part_rounds": self.part_rounds,
            "subtotal_after": self.subtotal_after,
        }

    def parts(self) -> list[range]:
        """The rounds (from 0) of each part of a game (one part without ``part_rounds``)."""
        size = self.part_rounds or self.rounds
        return [
            range(start, min(start + size, self.rounds)) for start in range(0, self.rounds, size)
        ]


def _bool(value: Any, name: str) -> bool:
    if not isinstance(value, bool):
        raise ValueError(f"{name} must be true or false")
    return value


_VARIANT_FIELDS = frozenset(f.name for f in fields(Variant) if f.init)
_REQUIRED = frozenset(
    {
        "name",
        "decks",
        "hand_size",
        "rounds",
        "lay_off_before_out",
        "lay_off_same_turn",
        "complete_meld",
        "opening",
        "first_cycle_no_meld",
        "scoring",
    }
)


def variant_from_json(obj: Mapping[str, Any]) -> Variant:
    """A variant from its JSON (``Variant.to_json()``).

    Every field of a preset may be given; missing optional fields take their defaults.
    Unknown fields, missing required fields and invalid values raise ``ValueError``.
    """
    if not isinstance(obj, Mapping):
        raise ValueError("variant: expected an object")
    unknown = set(obj) - _VARIANT_FIELDS
    if unknown:
        raise ValueError(f"variant: unknown field(s) {sorted(unknown)}")
    missing = _REQUIRED - set(obj)
    if missing:
        raise ValueError(f"variant: missing field(s) {sorted(missing)}")
    kwargs: dict[str, Any] = dict(obj)
    contracts = kwargs.get("contracts", [])
    if not isinstance(contracts, list | tuple):
        raise ValueError("variant: contracts must be a list")
    kwargs["contracts"] = tuple(contract_from_json(c) for c in contracts)
    try:
        return Variant(**kwargs)
    except TypeError as exc:
        raise ValueError(f"variant: {exc}") from exc


def preset_or_json(value: str | Mapping[str, Any]) -> Variant:
    """A preset by name, or a variant from its JSON."""
    if isinstance(value, str):
        try:
            return PRESETS[value]
        except KeyError:
            raise ValueError(f"unknown Jokeren variant: {value!r}") from None
    return variant_from_json(value)


KLASSIEK_CONTRACTS: tuple[Contract, ...] = (
    Contract(runs=(3,), description_nl="een rij van 3", description_en="a run of 3"),
    Contract(groups=(4,), description_nl="4 dezelfde", description_en="a group of 4"),
    Contract(
        runs=(3, 4),
        description_nl="een rij van 3 en een rij van 4",
        description_en="a run of 3 and a run of 4",
    ),
    Contract(
        runs=(4, 5),
        description_nl="een rij van 4 en een rij van 5",
        description_en="a run of 4 and a run of 5",
    ),
    Contract(
        runs=(5,),
        groups=(4,),
        description_nl="een rij van 5 en 4 dezelfde",
        description_en="a run of 5 and a group of 4",
    ),
    Contract(
        runs=(5,),
        all_out=True,
        description_nl="een rij van 5 en in één beurt alles uit",
        description_en="a run of 5 and all cards out in that one turn",
    ),
)

VIJF_RONDES_CONTRACTS: tuple[Contract, ...] = (
    Contract(
        any_meld=True,
        description_nl="3 kaarten op rij, of een set",
        description_en="a run of 3 or a group",
    ),
    Contract(
        points=40,
        description_nl="minimaal 40 punten (set of rij)",
        description_en="at least 40 points (groups or runs)",
    ),
    Contract(runs=(4,), description_nl="4 kaarten op rij", description_en="a run of 4"),
    Contract(runs=(5,), description_nl="5 kaarten op rij", description_en="a run of 5"),
    Contract(
        all_out=True,
        description_nl="alle kaarten in één beurt",
        description_en="all cards out in one turn",
    ),
)

JOKEREN7 = Variant(
    name="jokeren7",
    title_nl="Jokeren 7",
    title_en="Jokeren 7",
    decks=1,
    hand_size=7,
    rounds=8,
    lay_off_before_out=True,
    lay_off_same_turn=True,
    complete_meld="recycle",
    opening="none",
    first_cycle_no_meld=False,
    scoring="points",
)

JOKEREN13 = Variant(
    name="jokeren13",
    title_nl="Jokeren 13",
    title_en="Jokeren 13",
    decks=2,
    hand_size=13,
    rounds=8,
    lay_off_before_out=False,
    lay_off_same_turn=False,
    complete_meld="remove",
    opening="none",
    first_cycle_no_meld=False,
    scoring="points",
)

#: The classic variants of seed 001 play like Jokeren 13 with an opening requirement.
KLASSIEK = replace(
    JOKEREN13,
    name="klassiek",
    title_nl="Klassiek (potjes)",
    title_en="Classic (contracts)",
    rounds=6,
    opening="contract",
    contracts=KLASSIEK_CONTRACTS,
    first_cycle_no_meld=True,
    scoring="cards",
    open_card=False,
)

VEERTIGEN = replace(
    JOKEREN13,
    name="veertigen",
    title_nl="Veertigen",
    title_en="Forty",
    opening="points",
    opening_points=40,
    first_cycle_no_meld=True,
    open_card=False,
)

VIJF_RONDES = replace(
    KLASSIEK,
    name="vijf-rondes",
    title_nl="Vijf rondes",
    title_en="Five rounds",
    rounds=5,
    contracts=VIJF_RONDES_CONTRACTS,
)

#: The match of seed 001 ("Wedstrijd"): the classic rules (the potjes in order, starting
#: again from the first after the sixth), card-count scoring, 13 cards each, no open card;
#: two parts of 10 rounds ("er worden 2 ronden van 10 gespeeld"), each on its own score
#: sheet with a subtotal after five ("na vijf beurten wordt een tussentotaal geteld").
WEDSTRIJD = replace(
    KLASSIEK,
    name="wedstrijd",
    title_nl="Wedstrijd",
    title_en="Match",
    rounds=20,
    part_rounds=10,
    subtotal_after=5,
)

#: The presets an organizer chooses from, by name.
PRESETS: dict[str, Variant] = {
    v.name: v for v in (JOKEREN7, JOKEREN13, KLASSIEK, VEERTIGEN, VIJF_RONDES, WEDSTRIJD)
}
