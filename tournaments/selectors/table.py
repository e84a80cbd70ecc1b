"""What the card table reads beside the game's payload: how the player's selected cards
read as one new meld (docs/rules.md §2: every card a joker may stand for), from the game
module's ``meld_readings_json`` (engine/protocol.py). A read of the player's own hand
only: a card the player does not hold is refused, so nothing hidden is revealed.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from django.utils.translation import gettext_lazy as _

from tournaments.errors import CardNotInHand
from tournaments.games import PLAYER_SEAT, module_of
from tournaments.models import Account, Game


def game_meld_readings(*, game: Game, cards: Sequence[int]) -> list[dict[str, Any]] | None:
    """Every way the card ids ``cards`` of the player's current hand read as one new meld,
    the engine's own choice first; ``[]`` when they form no meld; ``None`` for a game
    without melds. Raises ``CardNotInHand`` (400) when the player does not hold one of
    them now."""
    module = module_of(game.game)
    if module.meld_readings_json(()) is None:
        return None
    hand = set(game.current_state().observation(PLAYER_SEAT, log=False)["hand"])
    if not set(cards) <= hand or len(set(cards)) != len(cards):
        raise CardNotInHand.of(_("Only the cards in your hand can be read as a meld."))
    return module.meld_readings_json(cards)


def account_pace(*, user: Any) -> str:
    """The bots' pace ``user`` chose for the card table (``Pace``), ``""`` when they never
    chose one (or are not logged in): the table then keeps the browser's choice."""
    if not getattr(user, "is_authenticated", False):
        return ""
    pace: str | None = (
        Account.objects.filter(user_id=user.pk).values_list("pace", flat=True).first()
    )
    return pace or ""
