"""Fixtures shared by the engine tests (cards, dealing, Jokeren, game records)."""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import Any

import pytest

from engine import record
from engine.registry import game_module

#: The secret of the games in ``play_record``.
RECORD_SECRET = bytes(range(32, 64))


@pytest.fixture
def secret() -> bytes:
    """A fixed 32-byte tournament secret."""
    return bytes(range(32))


def _play_record(game: str, preset: str, rounds: int, *, level: str = "strong") -> dict[str, Any]:
    """The record (as read from a file) of a game where seat 0 plays like the basic bot
    (not a bot: ``by_bot`` false) and the other seats are bots of ``level``, as the site
    plays them; the scores are the engine's."""
    module = game_module(game)
    variant = module.PRESETS[preset]
    actions: list[list[record.RecordedAction]] = []
    scores: list[list[int]] = []
    for r in range(rounds):
        state = module.new_round(variant, secret=RECORD_SECRET, round_index=r)
        row = []
        while not state.is_terminal:
            seat = state.current_player
            action = module.bot_action(state, level="basic" if seat == 0 else level)
            row.append(record.RecordedAction(seat, action.to_json(), by_bot=seat != 0))
            state = state.apply(action)
        actions.append(row)
        scores.append(state.scores())
    data = record.build_record(
        game=game,
        variant=variant.to_json(),
        bot_level=level,
        bot_version=module.BOT_VERSION,
        secret=RECORD_SECRET,
        rounds=rounds,
        actions=actions,
        round_scores=scores,
        totals=[sum(column) for column in zip(*scores, strict=True)],
    ).to_json()
    out: dict[str, Any] = json.loads(json.dumps(data))
    return out


@pytest.fixture
def play_record() -> Callable[..., dict[str, Any]]:
    """``play_record(game, preset, rounds, level=...)``: a played game's record."""
    return _play_record


@pytest.fixture(scope="session")
def jokeren_record() -> dict[str, Any]:
    """A record of two rounds of Jokeren 7 against strong bots (do not change it: copy)."""
    return _play_record("jokeren", "jokeren7", 2)
