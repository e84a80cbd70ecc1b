"""The settings a tournament and a series share, checked (rounds, bot level, maximum of
entrants, the window, the variant by its engine); each refusal an ``InvalidSettings``.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from django.utils.translation import gettext_lazy as _

from engine.protocol import GameModule
from tournaments.errors import InvalidSettings
from tournaments.games import module_of
from tournaments.models import (
    DATES_FROM,
    DATES_UNTIL,
    MAX_ENTRANTS,
    MAX_ROUNDS,
    POOL_MAX_COPIES,
)


def variant_checked(
    module: GameModule, preset: str, variant: Mapping[str, Any] | None, rounds: int
) -> dict[str, Any]:
    """The variant's JSON, checked by the engine, with ``rounds`` set to the game's rounds."""
    if preset not in module.PRESETS:
        raise InvalidSettings.of(_("Unknown variant: %(preset)s."), preset=preset)
    data = dict(variant) if variant is not None else module.PRESETS[preset].to_json()
    if "rounds" in data:
        data["rounds"] = rounds
    try:
        return dict(module.variant_from_json(data).to_json())
    except (ValueError, KeyError, TypeError, ArithmeticError) as exc:
        # ArithmeticError: a number the engine cannot take as a whole one (inf).
        raise InvalidSettings.of(_("Invalid variant settings: %(reason)s"), reason=exc) from exc


def check_rounds(rounds: int) -> None:
    if not 1 <= rounds <= MAX_ROUNDS:
        raise InvalidSettings.of(
            _("The number of rounds must be between 1 and %(max)s."), max=MAX_ROUNDS
        )


def check_bot_level(module: GameModule, bot_level: str, *, stored: str | None = None) -> None:
    """A level of the game's bots that the game offers for new play
    (``OFFERED_BOT_LEVELS``: docs/rules.md, "Bot levels"), or ``stored``: the level a
    tournament or series already has, which it keeps."""
    if bot_level not in module.BOT_LEVELS:
        raise InvalidSettings.of(_("Unknown bot level: %(level)s."), level=bot_level)
    if bot_level not in module.OFFERED_BOT_LEVELS and bot_level != stored:
        raise InvalidSettings.of(
            _(
                "The bot level %(level)s is not offered for this game: it does not play"
                " measurably stronger than the level below it (see the rules page)."
            ),
            level=bot_level,
        )


def check_moment(value: datetime) -> None:
    """An opening or closing time lies in [DATES_FROM, DATES_UNTIL] (the database's
    ``tournament_dates_in_range``)."""
    if not DATES_FROM <= value <= DATES_UNTIL:
        raise InvalidSettings.of(
            _("Dates must lie between the years %(first)s and %(last)s."),
            first=DATES_FROM.year,
            last=DATES_UNTIL.year,
        )


def check_window(opens_at: datetime, closes_at: datetime) -> None:
    check_moment(opens_at)
    check_moment(closes_at)
    if closes_at <= opens_at:
        raise InvalidSettings.of(_("The closing time must be after the opening time."))


def check_pool_copies(pool_copies: int) -> None:
    """The copies of each round of a deal pool: 1 (no pool) to ``POOL_MAX_COPIES``
    (docs/rules.md §5, "Deal pools")."""
    if isinstance(pool_copies, bool) or not isinstance(pool_copies, int):
        raise InvalidSettings.of(_("The number of copies must be a whole number."))
    if not 1 <= pool_copies <= POOL_MAX_COPIES:
        raise InvalidSettings.of(
            _("Each round is dealt in 1 to %(max)s copies."), max=POOL_MAX_COPIES
        )


def check_max_entrants(max_entrants: int, *, entrants: int = 0) -> None:
    """1 to ``MAX_ENTRANTS``, and not below the entrants already in."""
    if isinstance(max_entrants, bool) or not isinstance(max_entrants, int):
        raise InvalidSettings.of(_("The maximum of entrants must be a whole number."))
    if max_entrants > MAX_ENTRANTS:
        raise InvalidSettings.of(
            _("A tournament takes at most %(max)s entrants."), max=MAX_ENTRANTS
        )
    if max_entrants < 1:
        raise InvalidSettings.of(_("A tournament needs room for at least one entrant."))
    if max_entrants < entrants:
        raise InvalidSettings.of(
            _("The maximum cannot be below the %(count)s entrants already in."),
            count=entrants,
        )


@dataclass(frozen=True)
class GameSettings:
    """A tournament's (or a series's) game settings once checked: the game module, the
    bots' level (the game's default unless chosen) and the full variant JSON."""

    module: GameModule
    bot_level: str
    variant: dict[str, Any]


def game_settings_check(
    *,
    game: str,
    preset: str,
    variant: Mapping[str, Any] | None,
    rounds: int,
    max_entrants: int,
    bot_level: str | None,
    stored_level: str | None = None,
) -> GameSettings:
    """Check the settings a tournament and a series share (rounds, bot level, maximum of
    entrants, the variant); raises ``InvalidSettings``. ``stored_level``: a level already
    chosen for these games (a series' editions keep it: ``check_bot_level``)."""
    module = module_of(game)
    check_rounds(rounds)
    level = bot_level if bot_level is not None else module.DEFAULT_BOT_LEVEL
    check_bot_level(module, level, stored=stored_level)
    check_max_entrants(max_entrants)
    return GameSettings(module, level, variant_checked(module, preset, variant, rounds))
