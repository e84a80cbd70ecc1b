"""Which Klaverjas bot plays: the levels, the released versions, and the protocol's bot
entry points (``bot_action``, ``simplest_action``; ``engine.protocol``).

Stored games keep only the entrant's own actions and replay the bots' moves with the bots
of the game's version (``engine.match.bot_move``), so a released version's choices never
change (tests/engine/test_bot_fingerprints.py pins them): a change of any level's choices
is a new version (README, "Bot versions"), in a module of its own.

The ``basic`` and ``strong`` bots (``engine.klaverjas.bots.basic``,
``engine.klaverjas.bots.strong``) are the same in every version; the ``expert`` of
version 1 (``engine.klaverjas.bots.expert_v1``) searches the last four tricks, the one of
version 2 (``engine.klaverjas.bots.expert_v2``) every trick, the one of version 3
(``engine.klaverjas.bots.expert_v3``) plays as version 2's within one work cap per
decision.

A bot's choice is a function of ``state.observe(seat)`` and of the stream
``Stream(round_seed, f"bot:{seat}", start=state.move_count)``, so two entrants who make
the same moves meet the same bot moves.
"""

from __future__ import annotations

from typing import Final

from engine.dealing import Stream
from engine.errors import check_bot_version
from engine.klaverjas.actions import Action
from engine.klaverjas.bots import basic, expert_v1, expert_v2, expert_v3, strong
from engine.klaverjas.state import KlaverjasObservation, KlaverjasState

#: the bot levels, weakest first (the site's default stays ``strong``)
BOT_LEVELS: Final = ("basic", "strong", "expert")
DEFAULT_BOT_LEVEL: Final = "strong"
#: The bots' version that new games get. Version 3: the expert plays as version 2's
#: within one work cap per decision (``engine.klaverjas.bots.expert_v3``); version 2's
#: searches every trick (``engine.klaverjas.bots.expert_v2``), version 1's the last four
#: tricks only (``engine.klaverjas.bots.expert_v1``).
BOT_VERSION: Final = 3
#: Every version this engine can still play, oldest first (each pinned by
#: tests/engine/test_bot_fingerprints.py).
BOT_VERSIONS: Final[tuple[int, ...]] = (1, 2, 3)


def choose(obs: KlaverjasObservation, *, level: str, rng: Stream) -> Action:
    """The choice of a ``basic`` or ``strong`` bot from an observation (pure: same
    observation and stream, same action)."""
    if level == "basic":
        return basic.choose(obs, rng)
    if level == "strong":
        return strong.choose(obs, rng)
    raise ValueError(f"unknown bot level: {level!r}")


def choose_expert(obs: KlaverjasObservation, *, rng: Stream, version: int = BOT_VERSION) -> Action:
    """The expert's action for the seat of ``obs``: version 1 as
    ``engine.klaverjas.bots.expert_v1`` says, version 2 as
    ``engine.klaverjas.bots.expert_v2``, version 3 as ``engine.klaverjas.bots.expert_v3``."""
    check_bot_version("klaverjas", version, BOT_VERSIONS)
    if version == 3:
        return expert_v3.choose_expert_v3(obs, rng=rng)
    if version == 2:
        return expert_v2.choose_expert_v2(obs, rng=rng)
    return expert_v1.choose_expert(obs, rng=rng)


def bot_action(state: KlaverjasState, *, level: str, version: int = BOT_VERSION) -> Action:
    """The action of a bot of any level (``BOT_LEVELS``) and version (``BOT_VERSIONS``;
    an unknown one raises ``UnknownBotVersion``) for the seat to move: from that seat's
    observation and the round's ``bot:<seat>`` stream from the current move count."""
    check_bot_version("klaverjas", version, BOT_VERSIONS)
    seat = state.current_player
    if seat is None:
        raise ValueError("the round is over: no seat to move")
    rng = Stream(state.round_seed, f"bot:{seat}", start=state.move_count)
    if level == "expert":
        return choose_expert(state.observe(seat), rng=rng, version=version)
    return choose(state.observe(seat), level=level, rng=rng)


def simplest_action(state: KlaverjasState) -> Action:
    """The simplest legal action of the seat to move, for a caller that must go on when
    an action was refused: the first of the engine's legal actions (canonical order)."""
    legal = state.legal_actions()
    if not legal:
        raise ValueError("the round is over: no seat to move")
    return legal[0]
