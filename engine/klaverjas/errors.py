"""Illegal Klaverjas moves: one type per kind, each with its reason in Dutch and English."""

from __future__ import annotations

from engine.errors import IllegalMove, MalformedAction, NotYourTurn, RoundOver

__all__ = [
    "InvalidBid",
    "MalformedAction",
    "MayNotUndertrump",
    "MustFollowSuit",
    "MustOvertrump",
    "MustTrump",
    "NotInHand",
    "NotYourTurn",
    "RoundOver",
    "WrongPhase",
]


class WrongPhase(IllegalMove):
    """A bid while cards are played, a card while bidding, a pass where trump must be chosen."""

    code = "wrong_phase"


class InvalidBid(IllegalMove):
    """A bid that names a suit it may not name (the proposed suit in the second round, or
    any suit in the first)."""

    code = "invalid_bid"


class NotInHand(IllegalMove):
    """The card is not in the player's hand."""

    code = "not_in_hand"


class MustFollowSuit(IllegalMove):
    """You hold the led suit, so you must play it (bekennen)."""

    code = "must_follow_suit"


class MustTrump(IllegalMove):
    """You cannot follow suit and hold a trump, so you must trump (troeven verplicht)."""

    code = "must_trump"


class MustOvertrump(IllegalMove):
    """A trump lies in the trick and you hold a higher one, so you must play it."""

    code = "must_overtrump"


class MayNotUndertrump(IllegalMove):
    """Playing a trump lower than the trump in the trick while you hold another suit."""

    code = "may_not_undertrump"
