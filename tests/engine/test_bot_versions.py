"""Bot versions in the engine: each game module names its current bots' version and every
version it still plays; a bot of a version it does not have is refused, never replaced by
another version's; matches and game records carry the version (README, "Bot versions")."""

from __future__ import annotations

import copy
from pathlib import Path
from typing import Any

import pytest

from engine import record
from engine.errors import UnknownBotVersion
from engine.match import bot_move, play_match, play_round
from engine.registry import GAMES, game_module

SECRET = bytes(range(32))


def _variant(game: str) -> Any:
    module = game_module(game)
    return next(iter(module.PRESETS.values()))


@pytest.mark.parametrize("game", GAMES)
def test_every_game_module_names_its_current_and_supported_bot_versions(game: str) -> None:
    module = game_module(game)
    assert isinstance(module.BOT_VERSION, int)
    assert module.BOT_VERSION in module.BOT_VERSIONS
    assert list(module.BOT_VERSIONS) == sorted(set(module.BOT_VERSIONS))


@pytest.mark.parametrize("game", GAMES)
@pytest.mark.parametrize("version", [0, 99, -1, "1", True, 1.0, None])
def test_a_bot_of_an_unknown_version_is_refused(game: str, version: Any) -> None:
    module = game_module(game)
    state = module.new_round(_variant(game), secret=SECRET, round_index=0)
    for level in module.BOT_LEVELS:
        with pytest.raises(UnknownBotVersion, match=f"unknown {game} bot version"):
            module.bot_action(state, level=level, version=version)
        # the site's one bot move does not fall back to a simple move: it is refused too
        with pytest.raises(UnknownBotVersion):
            bot_move(module, state, level=level, version=version)


@pytest.mark.parametrize("game", GAMES)
def test_a_bot_of_the_current_version_is_the_default(game: str) -> None:
    module = game_module(game)
    variant = _variant(game)
    levels = [module.DEFAULT_BOT_LEVEL] * variant.num_players
    state = module.new_round(variant, secret=SECRET, round_index=1)
    assert module.bot_action(state, level="strong") == module.bot_action(
        state, level="strong", version=module.BOT_VERSION
    )
    default = play_round(module, variant, secret=SECRET, round_index=1, levels=levels)[1]
    current = play_round(
        module, variant, secret=SECRET, round_index=1, levels=levels, version=module.BOT_VERSION
    )[1]
    assert [a.to_json() for a in default] == [a.to_json() for a in current]


def test_a_match_is_played_with_the_version_asked(next_bot_version: int) -> None:
    module = game_module("jokeren")
    variant = module.PRESETS["jokeren7"]
    levels = ["basic"] * variant.num_players
    old = play_match(module, variant, secret=SECRET, rounds=2, levels=levels, version=1)
    new = play_match(module, variant, secret=SECRET, rounds=2, levels=levels)
    assert new == play_match(
        module, variant, secret=SECRET, rounds=2, levels=levels, version=next_bot_version
    )
    assert old != new


# --- game records ---------------------------------------------------------------------------


def test_a_record_carries_its_bot_version(jokeren_record: dict[str, Any]) -> None:
    assert jokeren_record["bot_version"] == game_module("jokeren").BOT_VERSION
    assert record.read_record(jokeren_record).bot_version == jokeren_record["bot_version"]


def test_a_record_without_a_bot_version_is_of_version_1(jokeren_record: dict[str, Any]) -> None:
    """Records written before bot versions existed were played with version 1."""
    data = copy.deepcopy(jokeren_record)
    del data["bot_version"]
    read = record.read_record(data)
    assert read.bot_version == 1
    assert record.verify(read).ok


@pytest.mark.parametrize("version", [99, 0, "1", True, None])
def test_a_record_of_a_bot_version_the_engine_lacks_is_refused(
    jokeren_record: dict[str, Any], version: Any
) -> None:
    data = copy.deepcopy(jokeren_record)
    data["bot_version"] = version
    with pytest.raises(record.RecordError, match="bot_version"):
        record.read_record(data)


def test_a_record_verifies_with_the_bots_of_its_own_version(
    jokeren_record: dict[str, Any], next_bot_version: int
) -> None:
    """A game of a released version still verifies after a newer version is released;
    claimed as a game of the newer version, its bots' moves are not that version's
    choices."""
    old = copy.deepcopy(jokeren_record)
    assert old["bot_version"] < next_bot_version
    assert record.verify(record.read_record(old)).ok
    old["bot_version"] = next_bot_version
    result = record.verify(record.read_record(old))
    assert not result.ok
    assert "is not the bot's choice" in result.all_problems()[0]


def test_replay_round_plays_the_bots_of_the_version_given(next_bot_version: int) -> None:
    module = game_module("jokeren")
    variant = module.PRESETS["jokeren7"]
    replays = {
        v: record.replay_round(
            module,
            variant,
            secret=SECRET,
            round_index=0,
            bot_level="strong",
            bot_version=v,
            own_actions=[],
            bot_from=0,
        )
        for v in (1, next_bot_version)
    }
    for v, replay in replays.items():
        levels = ["strong"] * variant.num_players
        _state, actions = play_round(
            module, variant, secret=SECRET, round_index=0, levels=levels, version=v
        )
        assert [a.action for a in replay.actions] == [a.to_json() for a in actions]
    assert replays[1].actions != replays[next_bot_version].actions


def test_verify_game_uses_the_records_bot_version(
    tmp_path: Path, jokeren_record: dict[str, Any]
) -> None:
    from tests.engine.test_cli import run, write

    unversioned = copy.deepcopy(jokeren_record)
    del unversioned["bot_version"]
    assert run("verify-game", write(tmp_path, unversioned)).returncode == 0
    unknown = dict(unversioned, bot_version=99)
    proc = run("verify-game", write(tmp_path, unknown, "unknown.json"))
    assert proc.returncode == 2
    assert "bot_version 99" in proc.stderr and "Traceback" not in proc.stderr
