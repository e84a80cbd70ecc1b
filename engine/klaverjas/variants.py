"""Klaverjassen variants (docs/rules.md §6): one frozen dataclass, every setting adjustable.

Settings
--------
- ``bidding``: what happens when everyone passes the proposed trump suit:
  ``"one_round_first_chooses"`` (seed 003: "als iedereen past, dan kiest de 1e speler een
  troefkleur"), ``"two_rounds"`` (a second round in which each may play with another
  suit; if everyone passes again the cards are dealt anew) or ``"no_passing"`` ("zonder
  passen": no bidding, the first player chooses trump and plays).
- ``must_trump``: without the led suit you must trump (off: "troeven niet verplicht").
- ``must_overtrump``: if a trump lies in the trick you must play a higher one if you can
  (off: "overtroeven niet verplicht").
- ``undertrump``: you cannot follow and cannot overtrump but hold a lower trump and
  cards of other suits: ``"must_undertrump"`` (seed 003 read literally) or
  ``"no_undertrump_while_other_suit"`` (Klaverjas Unie reading).
- ``partner_exemption``: Amsterdams: while your partner wins the trick you need not trump
  or overtrump (Rotterdams: off, you trump and overtrump also over your partner).
- ``four_jacks``: roem for four jacks in one trick, 100 (seed 003) or 200.
- ``last_trick``: bonus for the last trick (10); ``pit``: bonus for all 8 tricks (100).
- ``tie_is_nat``: the playing team with exactly as much as the other team is nat.
- ``rounds``: rounds in a game (16); ``points_limit``: optional, the game ends after the
  round in which a team reaches it.
- ``max_redeals`` (platform): with ``two_rounds``, after this many redeals of one round a
  deal where everyone passes twice makes the first player choose trump.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any, Final, Literal, cast

Bidding = Literal["one_round_first_chooses", "two_rounds", "no_passing"]
Undertrump = Literal["must_undertrump", "no_undertrump_while_other_suit"]

BIDDINGS: Final = ("one_round_first_chooses", "two_rounds", "no_passing")
UNDERTRUMPS: Final = ("must_undertrump", "no_undertrump_while_other_suit")


@dataclass(frozen=True)
class Variant:
    """The parameters of a Klaverjas game; presets are instances of this class."""

    name: str = "custom"
    num_players: int = 4
    rounds: int = 16
    points_limit: int | None = None
    bidding: Bidding = "one_round_first_chooses"
    must_trump: bool = True
    must_overtrump: bool = True
    undertrump: Undertrump = "must_undertrump"
    partner_exemption: bool = False
    four_jacks: int = 100
    last_trick: int = 10
    pit: int = 100
    tie_is_nat: bool = True
    max_redeals: int = 3

    def __post_init__(self) -> None:
        _validate(self)

    def to_json(self) -> dict[str, Any]:
        """Every field, as plain JSON."""
        return dataclasses.asdict(self)


def _validate(v: Variant) -> None:
    def check(ok: bool, message: str) -> None:
        if not ok:
            raise ValueError(message)

    check(isinstance(v.name, str) and 0 < len(v.name) <= 64, "name: a text of 1 to 64 chars")
    check(_is_int(v.num_players) and v.num_players == 4, "num_players: Klaverjassen needs 4")
    check(_is_int(v.rounds) and 1 <= v.rounds <= 1000, "rounds: an integer 1..1000")
    check(
        v.points_limit is None or (_is_int(v.points_limit) and 1 <= v.points_limit <= 100_000),
        "points_limit: null or an integer 1..100000",
    )
    check(v.bidding in BIDDINGS, f"bidding: one of {', '.join(BIDDINGS)}")
    for field in ("must_trump", "must_overtrump", "partner_exemption", "tie_is_nat"):
        check(isinstance(getattr(v, field), bool), f"{field}: true or false")
    check(v.undertrump in UNDERTRUMPS, f"undertrump: one of {', '.join(UNDERTRUMPS)}")
    check(_is_int(v.four_jacks) and v.four_jacks in (100, 200), "four_jacks: 100 or 200")
    check(_is_int(v.last_trick) and 0 <= v.last_trick <= 100, "last_trick: an integer 0..100")
    check(_is_int(v.pit) and 0 <= v.pit <= 1000, "pit: an integer 0..1000")
    check(_is_int(v.max_redeals) and 0 <= v.max_redeals <= 20, "max_redeals: an integer 0..20")


def _is_int(x: object) -> bool:
    return isinstance(x, int) and not isinstance(x, bool)


ROTTERDAMS: Final = Variant(name="rotterdams")
"""Rotterdams: always trump and overtrump, also over your partner."""

AMSTERDAMS: Final = Variant(name="amsterdams", partner_exemption=True)
"""Amsterdams: while your partner wins the trick you need not trump or overtrump."""

PRESETS: Final[dict[str, Variant]] = {"rotterdams": ROTTERDAMS, "amsterdams": AMSTERDAMS}

_FIELDS: Final = frozenset(f.name for f in dataclasses.fields(Variant))


def variant_from_json(obj: Mapping[str, Any]) -> Variant:
    """A variant from JSON; a missing field takes its default, an unknown or invalid field
    raises ``ValueError``."""
    if not isinstance(obj, Mapping):
        raise ValueError("a variant is a JSON object")
    unknown = set(obj) - _FIELDS
    if unknown:
        raise ValueError(f"unknown variant fields: {', '.join(sorted(unknown))}")
    try:
        return Variant(**cast(dict[str, Any], dict(obj)))
    except TypeError as exc:  # pragma: no cover - every field is a keyword with a default
        raise ValueError(str(exc)) from exc
