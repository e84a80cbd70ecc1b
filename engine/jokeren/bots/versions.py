"""Which Jokeren bot plays: the levels, the released versions, and the protocol's bot
entry points (``bot_action``, ``simplest_action``; ``engine.protocol``).

Stored games keep only the entrant's own actions and replay the bots' moves with the bots
of the game's version (``engine.match.bot_move``), so a released version's choices never
change (tests/engine/test_bot_fingerprints.py pins them): a change of any level's choices
is a new version (README, "Bot versions"), its levels in modules of their own next to
the released ones, and chosen here by version.

Version 1 (the only one): ``engine.jokeren.bots.basic``, ``engine.jokeren.bots.strong``
and ``engine.jokeren.bots.expert``.

(Not compiled: compiled code would check ``version``'s type itself, raising
``TypeError`` where the protocol promises ``UnknownBotVersion``.)
"""

from __future__ import annotations

from typing import Final

from engine.dealing import Stream
from engine.errors import RoundOver, check_bot_version
from engine.jokeren.actions import DRAW_STOCK, Action, Discard
from engine.jokeren.bots import basic, expert, strong
from engine.jokeren.bots.going_out import clear_caches as going_out_clear_caches
from engine.jokeren.bots.hand import clear_caches as hand_clear_caches
from engine.jokeren.bots.opening import clear_caches as opening_clear_caches
from engine.jokeren.bots.table import clear_caches as table_clear_caches
from engine.jokeren.state import JokerenObservation, JokerenState

#: the bot levels, weakest first (the site's default stays ``strong``)
BOT_LEVELS: Final = ("basic", "strong", "expert")
DEFAULT_BOT_LEVEL: Final = "strong"
#: The bots' version that new games get.
BOT_VERSION: Final = 1
#: Every version this engine can still play, oldest first (each pinned by
#: tests/engine/test_bot_fingerprints.py).
BOT_VERSIONS: Final[tuple[int, ...]] = (1,)


def bot_action(state: JokerenState, *, level: str, version: int = BOT_VERSION) -> Action:
    """The action of a bot of any level (``BOT_LEVELS``) and version (``BOT_VERSIONS``;
    an unknown one raises ``UnknownBotVersion``) in the seat to move: from that seat's
    observation and the round's ``bot:<seat>`` stream, started at the number of actions
    so far."""
    if type(version) is not int or version not in BOT_VERSIONS:
        check_bot_version("jokeren", version, BOT_VERSIONS)  # (raises)
    if level == "basic":
        return basic.bot_action(state)
    if level == "strong":
        return strong.bot_action(state)
    if level == "expert":
        return expert.bot_action(state)
    raise ValueError(f"unknown bot level {level!r}; choose from {', '.join(BOT_LEVELS)}")


def choose(obs: JokerenObservation, *, level: str, rng: Stream | None) -> Action:
    """The action of a ``basic`` or ``strong`` bot (of the current version) for the seat
    of ``obs`` (its turn), using ``rng`` only to break ties. A pure function of the
    observation and the stream."""
    if level not in ("basic", "strong"):
        raise ValueError(f"unknown bot level {level!r}; choose from basic, strong")
    if obs.current_player != obs.seat:
        raise ValueError("a bot decides only on its own turn")
    if level == "strong":
        return strong.choose(obs, rng)
    return basic.draw(obs) if obs.phase == "draw" else basic.play(obs)


def simplest_action(state: JokerenState) -> Action:
    """The simplest legal action of the seat to move, for a caller that must go on when
    an action was refused: a draw from the stock (else from the open pile), after the
    draw the discard of the lowest card that may go."""
    legal = state.legal_actions()
    if not legal:
        raise RoundOver("De ronde is voorbij.", "The round is over.")
    if DRAW_STOCK in legal:
        return DRAW_STOCK
    for action in legal:
        if type(action) is Discard:
            return action
    return legal[0]


def clear_caches() -> None:
    """Empty the bots' caches (for benchmarks of the worst case)."""
    hand_clear_caches()
    opening_clear_caches()
    going_out_clear_caches()
    table_clear_caches()
