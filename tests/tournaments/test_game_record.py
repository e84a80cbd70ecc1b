"""The game record download (/games/<id>/record.json, docs/game-record.md): exported from
a real game once its replay is public, it verifies with ``python -m engine verify-game``
without the site; a changed score is reported with its round; before the replay is
public there is no record."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path
from typing import Any

import factories
import pytest
from django.test import Client
from django.urls import reverse

from engine.dealing import commitment
from tournaments.models import Game
from tournaments.services import closing as closing_services
from tournaments.services import entries as entry_services

pytestmark = pytest.mark.django_db

ROOT = Path(__file__).resolve().parents[2]


def verify_game(path: Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "engine", "verify-game", str(path)],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=120,
    )


def closed_game(game: str, preset: str, rounds: int) -> Game:
    tournament = factories.make_tournament(game=game, preset=preset, rounds=rounds)
    user = factories.make_user()
    played = entry_services.entry_join(tournament_id=tournament.pk, user=user).game
    played, _ = factories.play_to_end(played, user)
    closing_services.tournament_close(tournament_id=tournament.pk)
    played.refresh_from_db()
    return played


def download(client: Client, game: Game) -> dict[str, Any]:
    response = client.get(reverse("game_record", args=[game.pk]))
    assert response.status_code == 200
    assert response["Content-Type"] == "application/json"
    assert response["Content-Disposition"] == f'attachment; filename="game-{game.pk}.json"'
    data: dict[str, Any] = json.loads(response.content)
    return data


@pytest.mark.parametrize(
    ("game", "preset", "rounds"), [("jokeren", "jokeren7", 2), ("klaverjas", "rotterdams", 1)]
)
def test_an_exported_record_verifies_without_the_site(
    client: Client, tmp_path: Path, game: str, preset: str, rounds: int
) -> None:
    played = closed_game(game, preset, rounds)
    data = download(client, played)
    tournament = played.tournament
    assert tournament is not None
    assert data["secret"] == tournament.secret_bytes.hex()
    assert data["commitment"] == tournament.commitment == commitment(tournament.secret_bytes)
    assert data["round_scores"] == played.round_scores and data["totals"] == played.totals
    assert sum(len(r) for r in data["actions"]) == played.seq
    assert [sum(not a["by_bot"] for a in r) for r in data["actions"]] == [
        len(r.action_list) for r in played.played_rounds.all()
    ]
    assert data["context"]["tournament"] == {"id": tournament.pk, "name": tournament.name}

    path = tmp_path / "game.json"
    path.write_text(json.dumps(data), encoding="utf-8")
    proc = verify_game(path)
    assert proc.returncode == 0, proc.stdout + proc.stderr
    lines = proc.stdout.splitlines()
    for r, scores in enumerate(played.round_scores, start=1):
        assert f"round {r}: {' '.join(map(str, scores))}  ok" in lines


def test_a_changed_score_in_an_exported_record_is_reported(client: Client, tmp_path: Path) -> None:
    played = closed_game("jokeren", "jokeren7", 2)
    data = download(client, played)
    data["round_scores"][1][0] -= 5
    data["totals"][0] -= 5
    path = tmp_path / "changed.json"
    path.write_text(json.dumps(data), encoding="utf-8")
    proc = verify_game(path)
    assert proc.returncode == 1
    lines = proc.stdout.splitlines()
    assert lines[0].endswith("ok")
    assert lines[1].startswith("round 2: MISMATCH: recorded scores")


def test_no_record_before_the_tournament_closes(client: Client, tournament: Any) -> None:
    user = factories.make_user()
    played = entry_services.entry_join(tournament_id=tournament.pk, user=user).game
    played, _ = factories.play_to_end(played, user)
    client.force_login(user)
    assert client.get(reverse("game_record", args=[played.pk])).status_code == 404


def test_a_practice_record_is_its_players_once_finished(
    client: Client, user: Any, other_user: Any
) -> None:
    practice = entry_services.game_practice_start(
        user=user, game="jokeren", preset="jokeren7", bot_level="basic"
    )
    url = reverse("game_record", args=[practice.pk])
    client.force_login(user)
    assert client.get(url).status_code == 404  # not finished
    practice, _ = factories.play_to_end(practice, user)
    assert download(client, practice)["context"]["tournament"] is None
    client.force_login(other_user)
    assert client.get(url).status_code == 404


def test_the_replay_page_links_the_record(client: Client) -> None:
    played = closed_game("jokeren", "jokeren7", 1)
    page = client.get(reverse("game_replay", args=[played.pk])).content.decode()
    assert reverse("game_record", args=[played.pk]) in page
