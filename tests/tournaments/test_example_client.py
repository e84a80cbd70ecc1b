"""docs/examples/bot_client.py, run as a program against the live test server: it joins
with a Bearer token and plays its game to the end."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path
from typing import Any

import factories
import pytest

from tournaments import series as series_services
from tournaments import tokens
from tournaments.models import Game

CLIENT = Path(__file__).resolve().parents[2] / "docs" / "examples" / "bot_client.py"


@pytest.mark.parametrize("game, preset", [("jokeren", "jokeren7"), ("klaverjas", None)])
def test_the_example_client_joins_and_plays_a_tournament(
    live_server: Any, transactional_db: Any, game: str, preset: str | None
) -> None:
    from tournaments.games import module_of

    preset = preset or next(iter(module_of(game).PRESETS))
    t = factories.make_tournament(game=game, preset=preset, rounds=1)
    bot = factories.make_user("klaasbot")
    series_services.account_mark_bot(user=bot)
    key = tokens.token_create(user=bot, name="example").key
    done = subprocess.run(
        [sys.executable, str(CLIENT), "--url", live_server.url, "--token", key],
        capture_output=True,
        text=True,
        timeout=240,
    )
    assert done.returncode == 0, done.stderr
    played = Game.objects.get(entry__tournament=t, user=bot)
    assert played.status == Game.Status.FINISHED
    assert not played.bot_finished
    assert f"game {played.pk} finished" in done.stdout
