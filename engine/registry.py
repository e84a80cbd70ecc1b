"""Which game module plays which game and preset."""

from __future__ import annotations

import importlib
from typing import Any, cast

from engine.protocol import GameModule

GAMES: tuple[str, ...] = ("jokeren", "klaverjas")


def game_module(game: str) -> GameModule:
    """The module of a game by its name (``jokeren`` or ``klaverjas``)."""
    if game not in GAMES:
        raise KeyError(f"unknown game: {game!r}")
    return cast(GameModule, importlib.import_module(f"engine.{game}"))


def game_of_preset(preset: str) -> str:
    """The game a preset name belongs to (preset names are unique over all games)."""
    for game in GAMES:
        if preset in game_module(game).PRESETS:
            return game
    raise KeyError(f"unknown variant: {preset!r}")


def preset(name: str) -> Any:
    """The preset variant of that name, from whichever game has it."""
    return game_module(game_of_preset(name)).PRESETS[name]
