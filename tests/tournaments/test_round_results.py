"""How each finished round went (``Game.round_results``, docs/api.md): one entry per finished
round in the GET payload, the same dict on the round's ``round_over`` event, recorded when
the bot finishes a game at the tournament's close too. Checked against the rules: Klaverjas
nat, pit and the round's points (docs/rules.md §6); Jokeren's winner scores 0 (docs/rules.md §2)."""

from __future__ import annotations

import importlib
import json
from typing import Any

import factories
import pytest
from django.apps import apps
from django.test import Client
from django.urls import reverse

from engine.klaverjas import PRESETS
from tournaments.models import Game, Tournament
from tournaments.services import closing as closing_services
from tournaments.services import entries as entry_services
from tournaments.services import play as play_services

pytestmark = pytest.mark.django_db

#: Card points in a Klaverjas round, the last trick's 10 included (docs/rules.md §6).
ROUND_POINTS = 162


def join(t: Tournament, name: str) -> tuple[Any, Game]:
    user = factories.make_user(name)
    return user, entry_services.entry_join(tournament_id=t.pk, user=user).game


def payload(client: Client, user: Any, game: Game) -> dict[str, Any]:
    client.force_login(user)
    response = client.get(reverse("api_game", args=[game.pk]))
    assert response.status_code == 200
    return json.loads(response.content)


def play_watching(client: Client, user: Any, game: Game) -> list[dict[str, Any]]:
    """Play ``game`` to its end through the service, South choosing like the basic bot; after
    every move the GET payload has exactly one result per finished round so far. Returns
    the ``round_over`` events (of every round: the factory's deal gives South a turn in
    round 0, so no round is over before South's first move)."""
    rounds_over: list[dict[str, Any]] = []
    game.refresh_from_db()
    while game.status == Game.Status.PLAYING:
        outcome = play_services.game_play_move(
            game_id=game.pk, user=user, seq=game.seq, action=factories.south_action(game)
        )
        rounds_over += [e for e in outcome.events if e.get("type") == "round_over"]
        game = outcome.game
        body = payload(client, user, game)
        assert len(body["round_results"]) == len(body["round_scores"]) == len(rounds_over)
    return rounds_over


def check_klaverjas_result(
    result: dict[str, Any], seat_scores: list[int], tie_is_nat: bool
) -> None:
    """One round's Klaverjas result (the flat object the table reads) agrees with the round's
    seat scores and with docs/rules.md §6."""
    assert set(result) == {"playing_team", "points", "roem", "pit_team", "nat", "scores"}
    playing = result["playing_team"]
    other = 1 - playing
    points, roem, scores = result["points"], result["roem"], result["scores"]
    # South and North are team 0, West and East team 1; each seat scores its team's points.
    assert seat_scores == [scores[seat % 2] for seat in range(4)]
    assert sum(points) == ROUND_POINTS
    # Pit: the team that won every trick; the other team then won no points and no roem.
    pit_team = result["pit_team"]
    assert pit_team in (None, 0, 1)
    if pit_team is not None:
        assert points[1 - pit_team] == 0
        assert roem[1 - pit_team] == 0
    bonus = [100 if pit_team == team else 0 for team in (0, 1)]
    # Nat: the playing team did not score more (cards + roem) than the other team.
    mine = points[playing] + roem[playing]
    theirs = points[other] + roem[other]
    assert result["nat"] == (mine < theirs or (mine == theirs and tie_is_nat))
    if result["nat"]:
        assert scores[playing] == 0
        assert scores[other] == ROUND_POINTS + sum(roem) + bonus[other]
    else:
        assert scores == [points[t] + roem[t] + bonus[t] for t in (0, 1)]


def test_klaverjas_round_results_in_the_payload_and_on_the_round_over_events(
    client: Client, organizer: Any
) -> None:
    t = factories.make_tournament(
        created_by=organizer, game="klaverjas", preset="rotterdams", rounds=3
    )
    user, game = join(t, "anna")
    rounds_over = play_watching(client, user, game)
    body = payload(client, user, game)
    assert body["status"] == "finished"
    assert len(body["round_results"]) == len(body["round_scores"]) == 3
    tie_is_nat = PRESETS["rotterdams"].tie_is_nat
    for r, (entry, seat_scores) in enumerate(
        zip(body["round_results"], body["round_scores"], strict=True)
    ):
        check_klaverjas_result(entry, seat_scores, tie_is_nat)
        assert rounds_over[r]["round"] == r
        assert rounds_over[r]["scores"] == seat_scores
        assert rounds_over[r]["result"] == entry


def test_jokeren_round_results_name_the_winner_who_scores_zero(
    client: Client, tournament: Tournament
) -> None:
    user, game = join(tournament, "bram")
    rounds_over = play_watching(client, user, game)
    body = payload(client, user, game)
    assert len(body["round_results"]) == len(body["round_scores"]) == tournament.rounds
    for r, (entry, seat_scores) in enumerate(
        zip(body["round_results"], body["round_scores"], strict=True)
    ):
        assert set(entry) == {"winner", "end_reason"}
        winner = entry["winner"]
        if winner is not None:
            # docs/rules.md §2: the round ends when a player has no cards left; they score 0.
            assert entry["end_reason"] == "out"
            assert seat_scores[winner] == 0
            assert rounds_over[r]["hand_counts"][winner] == 0
            # the cards themselves wait for the close (docs/rules.md, "The card table")
            assert rounds_over[r]["hands"] == []
        else:
            assert entry["end_reason"] in ("stock", "turn_limit")
        assert rounds_over[r]["result"] == entry


def test_the_bot_finish_at_close_records_every_round_result(client: Client, organizer: Any) -> None:
    t = factories.make_tournament(
        created_by=organizer, game="klaverjas", preset="amsterdams", rounds=2
    )
    user, game = join(t, "carla")
    for _ in range(2):  # a couple of moves, then Carla stops
        game.refresh_from_db()
        play_services.game_play_move(
            game_id=game.pk, user=user, seq=game.seq, action=factories.south_action(game)
        )
    closing_services.tournament_close(tournament_id=t.pk)
    game.refresh_from_db()
    assert game.bot_finished is True
    body = payload(client, user, game)
    assert len(body["round_results"]) == len(body["round_scores"]) == 2
    tie_is_nat = PRESETS["amsterdams"].tie_is_nat
    for entry, seat_scores in zip(body["round_results"], body["round_scores"], strict=True):
        check_klaverjas_result(entry, seat_scores, tie_is_nat)


def test_the_migration_keeps_older_rounds_in_their_place(tournament: Tournament) -> None:
    """Rounds finished before the field existed get ``null``, so entry r is round r's."""
    _user, game = join(tournament, "dirk")
    Game.objects.filter(pk=game.pk).update(
        round_scores=[[0, 5, 9, 12], [3, 0, 7, 20]], round_results=[]
    )
    _fresh_user, fresh = join(tournament, "eva")  # no round over (South plays round 0)
    migration = importlib.import_module("tournaments.migrations.0003_game_round_results")
    migration.pad_finished_rounds(apps, None)
    game.refresh_from_db()
    fresh.refresh_from_db()
    assert game.round_results == [None, None]
    assert fresh.round_results == []
