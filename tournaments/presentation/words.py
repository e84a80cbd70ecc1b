"""Moves, hands and seats in words, in Dutch and English (docs/rules.md §1: cards in
words, the card players' terms).
"""

from __future__ import annotations

import functools
import sys
from collections.abc import Sequence
from typing import Any

from django.utils import translation
from django.utils.translation import gettext_lazy as _

from engine.cards import (
    CARD_CODE,
    SUITS,
    card_label,
    jokeren_display_order,
    klaverjas_code,
    klaverjas_id,
)
from engine.jokeren.melds import ids_of_codes
from engine.klaverjas.rules import display_order
from tournaments.games import PLAYER_SEAT
from tournaments.models import (
    Game,
)


def describe_action(
    action: Any, seat: int, num_players: int, *, player: str | None = None
) -> tuple[str, str]:
    """The action as a sentence, Dutch and English, the seat's name its subject ("Noord
    gooit ♠10 weg" / "North discarded 10♠"): the game module's ``describe(action) ->
    (nl, en)`` (worded to fit every seat, "Jij"/"You" included) where it has one, else
    the action's JSON after the name and a colon. ``player`` names the player's seat
    (``player_name_for``), else it is "Jij"/"You"."""
    names_nl = seat_names("nl", num_players, player=player)
    names_en = seat_names("en", num_players, player=player)
    describe = getattr(sys.modules.get(type(action).__module__), "describe", None)
    if callable(describe):
        nl, en = describe(action)
        return f"{names_nl[seat]} {nl}", f"{names_en[seat]} {en}"
    body = action.to_json()
    text = " ".join(f"{v}" for v in body.values())
    return f"{names_nl[seat]}: {text}", f"{names_en[seat]}: {text}"


def hand_text(*, game: str, codes: Sequence[str], language: str, trump: str | None = None) -> str:
    """A hand as a person reads it: in the table's order (Jokeren: ``jokeren_display_order``;
    Klaverjas: ``display_order`` with the trump, or while bidding the proposed trump, first),
    each card by ``engine.cards.card_label`` in the language: "♠2 ♠B ♥A joker"."""
    if game == "klaverjas":
        suit = SUITS.index(trump) if trump else None
        ordered = [klaverjas_code(c) for c in display_order([klaverjas_id(c) for c in codes], suit)]
    else:
        ordered = [CARD_CODE[c] for c in jokeren_display_order(ids_of_codes(codes))]
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
