"""Moves, hands and seats in words, in Dutch and English (docs/rules.md §1: cards in
words, the card players' terms).
"""

from __future__ import annotations

import functools
from collections.abc import Sequence
from typing import Any

from django.utils import translation
from django.utils.translation import gettext_lazy as _

from engine.cards import card_label
from engine.protocol import GameModule
from tournaments.games import PLAYER_SEAT, module_of
from tournaments.models import (
    Game,
)


def describe_action(
    action: Any,
    seat: int,
    num_players: int,
    *,
    module: GameModule,
    player: str | None = None,
) -> tuple[str, str]:
    """The action as a sentence, Dutch and English, the seat's name its subject ("Noord
    gooit ♠10 weg" / "North discarded 10♠"): the name, then the game module's
    ``describe(action) -> (nl, en)`` (worded to fit every seat, "Jij"/"You" included).
    ``player`` names the player's seat (``player_name_for``), else it is "Jij"/"You"."""
    names_nl = seat_names("nl", num_players, player=player)
    names_en = seat_names("en", num_players, player=player)
    nl, en = module.describe(action)
    return f"{names_nl[seat]} {nl}", f"{names_en[seat]} {en}"


def hand_text(*, game: str, codes: Sequence[str], language: str, trump: str | None = None) -> str:
    """A hand as a person reads it: in the table's order (the game module's
    ``hand_in_table_order``; Klaverjas: the trump, or while bidding the proposed trump,
    first), each card by ``engine.cards.card_label`` in the language: "♠2 ♠B ♥A joker"."""
    ordered = module_of(game).hand_in_table_order(codes, trump=trump)
    return " ".join(card_label(c, language) for c in ordered)


def seat_names(language: str, num_players: int = 4, *, player: str | None = None) -> list[str]:
    """The seats' names in a language: the player ("Jij"/"You", or ``player``: their
    name), then clockwise."""
    names = list(_seat_names(language, num_players))
    if player is not None:
        names[PLAYER_SEAT] = player
    return names


def player_name_for(*, game: Game, viewer: Any) -> str | None:
    """How a page about ``game`` names its player's seat for ``viewer``: ``None`` (the
    page's "Jij"/"You") for the player themself, their name for anyone else (another
    player, a visitor)."""
    if viewer is not None and viewer.is_authenticated and viewer.pk == game.user_id:
        return None
    return str(game.user.get_username())


@functools.lru_cache(maxsize=64)
def _seat_names(language: str, num_players: int) -> tuple[str, ...]:
    names = [_("You"), _("West"), _("North"), _("East")]
    with translation.override(language):
        out = [str(n) for n in names]
    if num_players == 3:
        return (out[0], out[1], out[3])
    return tuple(out[:num_players])
