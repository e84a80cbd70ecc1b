"""Every released bot version plays exactly as when it was released.

Stored games keep only the entrant's own actions and replay the bots' moves with the
bots of the game's version (``Game.bot_version``), so the audit, the replay page and the
game record of every old game depend on those choices. A change to the bots that changes
any choice of a released (game, version, preset, level) must fail here: make it a new
version instead (the game module's ``BOT_VERSION`` / ``BOT_VERSIONS``, README "Bot
versions") and record that version's fingerprints with
``python -m tests.engine.bot_fingerprints --record GAME VERSION`` (it never overwrites a
released one). A pure speed-up keeps every fingerprint. How a fingerprint is made:
``tests/engine/bot_fingerprints.py``.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from engine.registry import GAMES, game_module
from tests.engine import bot_fingerprints
from tests.engine.bot_fingerprints import fingerprint, load

RELEASED = [
    (game, int(version), preset, level)
    for game, versions in sorted(load().items())
    for version, presets in sorted(versions.items())
    for preset, levels in sorted(presets.items())
    for level in sorted(levels)
]


@pytest.mark.parametrize(("game", "version", "preset", "level"), RELEASED)
def test_a_released_bot_version_makes_the_same_choices(
    game: str, version: int, preset: str, level: str
) -> None:
    recorded = load()[game][str(version)][preset][level]
    assert fingerprint(game, version, preset, level) == recorded, (
        f"the {level} bot of {game} version {version} no longer makes the choices it made "
        f"when it was released ({preset}): stored games would replay differently. Keep "
        "the old choices for this version and make the change a new bot version."
    )


@pytest.mark.parametrize("game", GAMES)
def test_every_version_preset_and_level_of_the_engine_is_pinned(game: str) -> None:
    """The current version has a fingerprint for each preset and level, every supported
    version has fingerprints (it is recorded when it is released), and no released
    version was dropped from the engine (its stored games could not be replayed)."""
    module = game_module(game)
    recorded = load().get(game, {})
    assert module.BOT_VERSION in module.BOT_VERSIONS
    assert sorted(int(v) for v in recorded) == sorted(module.BOT_VERSIONS)
    current = recorded[str(module.BOT_VERSION)]
    assert set(current) == set(module.PRESETS)
    assert all(set(levels) == set(module.BOT_LEVELS) for levels in current.values())


def test_recording_never_rewrites_a_released_fingerprint(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The recording command adds only what is missing: a released fingerprint that no
    longer matches the bots stays as it was (and its test fails)."""
    data = tmp_path / "bot_fingerprints.json"
    released = {"klaverjas": {"1": {"rotterdams": {"basic": "0" * 64}}}}
    data.write_text(json.dumps(released))
    monkeypatch.setattr(bot_fingerprints, "DATA", data)
    added = bot_fingerprints.record("klaverjas", 1)
    after = json.loads(data.read_text())["klaverjas"]["1"]
    assert after["rotterdams"]["basic"] == "0" * 64
    module = game_module("klaverjas")
    assert added == len(module.PRESETS) * len(module.BOT_LEVELS) - 1
    assert after["amsterdams"]["basic"] == load()["klaverjas"]["1"]["amsterdams"]["basic"]
    with pytest.raises(SystemExit, match="no bot version 99"):
        bot_fingerprints.record("klaverjas", 99)
