"""The errors of the site's use cases: each with its message in Dutch and English and a
stable ``code`` for the API (docs/api.md).
"""

from __future__ import annotations

from typing import Any

from django.utils import translation
from django.utils.translation import gettext_lazy as _

from engine.errors import IllegalMove


class ServiceError(Exception):
    """A use case that cannot be carried out; the reason in Dutch and English."""

    status = 400
    code = "error"

    def __init__(self, nl: str, en: str, *, code: str | None = None) -> None:
        super().__init__(en)
        self.nl = nl
        self.en = en
        if code is not None:
            self.code = code

    @classmethod
    def of(cls, message: Any, **params: Any) -> ServiceError:
        """The error with ``message`` (a lazy gettext string) in both languages."""
        with translation.override("nl"):
            nl = str(message) % params if params else str(message)
        with translation.override("en"):
            en = str(message) % params if params else str(message)
        return cls(nl, en)

    def message(self, language: str | None = None) -> str:
        lang = language or translation.get_language() or "nl"
        return self.en if lang.startswith("en") else self.nl

    def to_json(self, language: str | None = None) -> dict[str, str]:
        return {"code": self.code, "nl": self.nl, "en": self.en, "message": self.message(language)}


class InvalidSettings(ServiceError):
    code = "invalid_settings"


class TournamentNotOpen(ServiceError):
    code = "tournament_not_open"


class TournamentFull(ServiceError):
    code = "tournament_full"


class AlreadyEntered(ServiceError):
    code = "already_entered"


class TournamentLocked(ServiceError):
    """The game settings cannot change once someone has entered."""

    code = "tournament_locked"


class TournamentClosed(ServiceError):
    code = "tournament_closed"


class GameFinished(ServiceError):
    code = "game_finished"


class GameNotFinished(ServiceError):
    code = "game_not_finished"


class NothingToResolve(ServiceError):
    code = "nothing_to_resolve"


class IllegalMoveError(ServiceError):
    """The engine refused the action (``engine.errors.IllegalMove``)."""

    code = "illegal_move"

    @classmethod
    def from_engine(cls, exc: IllegalMove) -> IllegalMoveError:
        return cls(exc.nl, exc.en, code=exc.code)


class PracticeOnly(ServiceError):
    """Hints and undo are for practice games only, never in a tournament's game."""

    status = 403
    code = "practice_only"


class NothingToUndo(ServiceError):
    code = "nothing_to_undo"


class CardNotInHand(ServiceError):
    """A card the player does not hold now (the table asked about a card not in hand)."""

    code = "card_not_in_hand"


class StaleMove(ServiceError):
    """The move quotes a ``seq`` that is not the game's current one (stale or repeated)."""

    status = 409
    code = "stale_move"

    def __init__(self, nl: str, en: str, *, code: str | None = None, seq: int = 0) -> None:
        super().__init__(nl, en, code=code)
        self.seq = seq

    @classmethod
    def at(cls, seq: int) -> StaleMove:
        base = ServiceError.of(
            _("This move is out of date: the game has moved on. Reload to continue.")
        )
        return cls(base.nl, base.en, seq=seq)


class ClaimNotHeld(Exception):
    """A move made with a session's claim (``common.auth.SessionClaim``) that its read
    could not check: no such game of the claimed user (or not a tournament game, on
    PostgreSQL), or the user's row does not hold it. Nothing was read for the move and
    nothing is stored; the caller reads the request's user as Django does and answers
    from that (403, or the move made with the user)."""


class BotsNotAdmitted(ServiceError):
    code = "bots_not_admitted"
    status = 403


class NotABot(ServiceError):
    code = "bot_account_locked"


class NotAMember(ServiceError):
    """A members-only (or invite) tournament and a user who is not a member of its club
    (and brings no valid invite code)."""

    code = "not_a_member"
    status = 403


class ClubRefused(ServiceError):
    """A club change the rules do not allow (the last owner leaving, a wrong invite code,
    a role that does not exist)."""

    code = "club_refused"


class InvitationGone(ServiceError):
    """A personal club invitation that expired, was withdrawn or was used already."""

    code = "invitation_gone"
    status = 409


class PlayBarred(ServiceError):
    """An account barred from rated play (docs/rules.md, "Fair play") may not enter."""

    code = "play_barred"
    status = 403


class AlreadyDecided(ServiceError):
    """A fair-play decision on an entry that is not (or no longer) under review, or a bar
    lifted that is not there: decided already (a repeated or stale request)."""

    code = "already_decided"
    status = 409


class LiveRoundNotOpen(ServiceError):
    """A live evening's round is played only in its slot (docs/rules.md §7, "Live club
    evening (clubavond)")."""

    code = "live_round_not_open"
