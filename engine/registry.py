"""Which game module plays which game and preset.

``MODULES`` is typed as a mapping to ``engine.protocol.GameModule``: mypy checks that every
game module has every member of the protocol (a module satisfies a protocol as an object
does), and ``tests/engine/test_protocol.py`` checks it again at run time.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Final

import engine.jokeren
import engine.klaverjas
from engine.protocol import GameModule

#: Each game module, typed as the protocol: mypy checks here that it has every member.
JOKEREN: Final[GameModule] = engine.jokeren
KLAVERJAS: Final[GameModule] = engine.klaverjas

#: Every game the site plays, by name, and the module that follows the protocol for it.
MODULES: Final[Mapping[str, GameModule]] = {"jokeren": JOKEREN, "klaverjas": KLAVERJAS}

GAMES: tuple[str, ...] = tuple(MODULES)


def game_module(game: str) -> GameModule:
    """The module of a game by its name (``jokeren`` or ``klaverjas``)."""
    if game not in MODULES:
        raise KeyError(f"unknown game: {game!r}")
    return MODULES[game]


def game_of_preset(preset: str) -> str:
    """The game a preset name belongs to (preset names are unique over all games)."""
    for game in GAMES:
        if preset in game_module(game).PRESETS:
            return game
    raise KeyError(f"unknown variant: {preset!r}")


def preset(name: str) -> Any:
    """The preset variant of that name, from whichever game has it."""
    return game_module(game_of_preset(name)).PRESETS[name]
