"""Errors shared by every game: an illegal move says which rule it breaks, in Dutch and English."""

from __future__ import annotations


class IllegalMove(Exception):
    """An action that the rules do not allow in this state.

    Every kind of illegal move has its own subclass. ``nl`` and ``en`` are the reason
    in Dutch and English; ``code`` is a stable machine name for the kind.
    """

    code: str = "illegal_move"

    def __init__(self, nl: str, en: str) -> None:
        super().__init__(en)
        self.nl = nl
        self.en = en

    def to_json(self) -> dict[str, str]:
        return {"code": self.code, "nl": self.nl, "en": self.en}


class NotYourTurn(IllegalMove):
    """The action is made by a seat that is not to move."""

    code = "not_your_turn"


class RoundOver(IllegalMove):
    """The round has ended: no action is possible any more."""

    code = "round_over"


class MalformedAction(IllegalMove):
    """The action cannot be read (unknown kind, missing or invalid field)."""

    code = "malformed_action"


class InvalidState(ValueError):
    """A stored state (its JSON) that the rules never produce: a card in two places or
    none, a seat that does not exist, a turn that cannot be reached, an empty stock to
    draw from. ``state_from_json`` refuses it with this error instead of loading a state
    that would fail later, in the middle of a move."""


class UnknownBotVersion(ValueError):
    """A bot version the game module does not have (``BOT_VERSIONS``). A stored game
    replays with the bots of the version it was played with; a version that is not
    there any more (or never was) must not silently be replayed with other bots."""

    def __init__(self, game: str, version: object, supported: tuple[int, ...]) -> None:
        known = ", ".join(str(v) for v in supported)
        super().__init__(f"unknown {game} bot version {version!r}: this engine has {known}")
        self.game = game
        self.version = version
        self.supported = supported


def check_bot_version(game: str, version: object, supported: tuple[int, ...]) -> int:
    """``version`` if it is one of ``supported`` (an ``int``, not a ``bool``); raises
    ``UnknownBotVersion`` otherwise."""
    if isinstance(version, bool) or not isinstance(version, int) or version not in supported:
        raise UnknownBotVersion(game, version, supported)
    return version
