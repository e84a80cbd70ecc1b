"""Lean storage (migration 0009): games stored with the old per-action ``Move`` log are
converted into one ``GameRound`` row per finished round holding the entrant's own actions;
every converted game replays to the same moves and the same scores, a bot-finished game
keeps where the bot took over, and a game still being played plays on."""

from __future__ import annotations

import hashlib
import json
from collections.abc import Iterator
from typing import Any

import pytest
from django.db import connection
from django.db.migrations.executor import MigrationExecutor

from engine.registry import game_module
from tournaments.models import Game
from tournaments.selectors import replay as replay_selectors
from tournaments.services import audit
from tournaments.services import play as play_services

BEFORE = [("tournaments", "0008_entry_results")]


def _migrate(targets: list[tuple[str, str]]) -> Any:
    executor = MigrationExecutor(connection)
    executor.loader.build_graph()
    executor.migrate(targets)
    return MigrationExecutor(connection).loader.project_state(targets).apps


def _latest() -> list[tuple[str, str]]:
    return MigrationExecutor(connection).loader.graph.leaf_nodes()


@pytest.fixture
def old_apps() -> Iterator[Any]:
    """The schema before lean storage; migrated back to the latest at the end whatever
    happens (the other tests need it)."""
    latest = _latest()
    try:
        yield _migrate(BEFORE)
    finally:
        _migrate(latest)


def _play_old_game(
    apps: Any,
    user: Any,
    *,
    game: str,
    preset: str,
    rounds: int,
    bot_takes_over: tuple[int, int] | None = None,
    stop_at: tuple[int, int] | None = None,
    seed: str = "",
) -> tuple[int, list[tuple[int, int, dict[str, Any], bool]]]:
    """A practice game as the old code stored it: every action a ``Move`` row (the
    entrant plays what the bot would, so the game is legal); ``bot_takes_over`` (round,
    n): from the entrant's ``n``-th action of that round on the bot plays seat 0
    (``by_bot``), as the close did; ``stop_at`` (round, n): the game stops there, seat 0 to
    move (a game still being played). The deals come from a fixed secret (``seed``), so
    the takeover and the stop are reached on every run (a random deal can end the round
    before seat 0's ``n``-th action). Returns the game's id and its log."""
    old_game = apps.get_model("tournaments", "Game")
    old_move = apps.get_model("tournaments", "Move")
    module = game_module(game)
    variant = module.PRESETS[preset]
    secret = hashlib.sha256(f"lean-storage {game} {preset} {seed}".encode()).digest()
    log: list[tuple[int, int, dict[str, Any], bool]] = []
    round_scores: list[list[int]] = []
    state: Any = None
    taken = False
    for r in range(rounds):
        state = module.new_round(variant, secret=secret, round_index=r)
        seat0 = 0
        while not state.is_terminal:
            seat = state.current_player
            if seat == 0 and stop_at == (r, seat0):
                break
            if seat == 0 and bot_takes_over == (r, seat0):
                taken = True
            # a game stored before the bot versions is replayed with version 1's bots
            action = module.bot_action(state, level=module.BOT_LEVELS[-1], version=1)
            log.append((r, seat, action.to_json(), seat != 0 or taken))
            state = state.apply(action)
            seat0 += seat == 0
        if not state.is_terminal:
            break
        round_scores.append([int(s) for s in state.scores()])
    finished = len(round_scores) == rounds
    assert bot_takes_over is None or taken, "the deal ended the round before the takeover"
    assert stop_at is None or not finished, "the deal ended the round before the stop"
    totals = [sum(col) for col in zip(*round_scores, strict=True)]
    g = old_game.objects.create(
        user_id=user.pk,
        game=game,
        preset=preset,
        variant=variant.to_json(),
        rounds=rounds,
        bot_level=module.BOT_LEVELS[-1],
        secret=secret,
        status="finished" if finished else "playing",
        bot_finished=taken,
        seq=len(log),
        round_index=len(round_scores) - 1 if finished else len(round_scores),
        state=json.loads(json.dumps(state.to_json())),
        totals=totals or [0] * variant.num_players,
        round_scores=round_scores,
        round_results=[None] * len(round_scores),
    )
    old_move.objects.bulk_create(
        old_move(game_id=g.pk, seq=i, round_index=r, seat=seat, action=action, by_bot=by_bot)
        for i, (r, seat, action, by_bot) in enumerate(log)
    )
    return g.pk, log


@pytest.mark.django_db(transaction=True)
def test_the_migration_keeps_every_game_move_for_move_and_score_for_score(
    old_apps: Any, django_user_model: Any
) -> None:
    user = django_user_model.objects.create_user("oud", password="pw-123")
    games = {
        "jokeren7": _play_old_game(old_apps, user, game="jokeren", preset="jokeren7", rounds=2),
        "jokeren13": _play_old_game(old_apps, user, game="jokeren", preset="jokeren13", rounds=2),
        "klaverjas": _play_old_game(
            old_apps, user, game="klaverjas", preset="rotterdams", rounds=2
        ),
        "bot": _play_old_game(
            old_apps,
            user,
            game="jokeren",
            preset="jokeren7",
            rounds=3,
            bot_takes_over=(1, 2),
            seed="bot",
        ),
        "playing": _play_old_game(
            old_apps,
            user,
            game="jokeren",
            preset="jokeren7",
            rounds=3,
            stop_at=(1, 3),
            seed="playing",
        ),
    }
    before = {
        name: old_apps.get_model("tournaments", "Game")
        .objects.filter(pk=pk)
        .values("seq", "state", "round_scores", "totals")
        .get()
        for name, (pk, _log) in games.items()
    }
    _migrate(_latest())

    for name, (pk, log) in games.items():
        game = Game.objects.get(pk=pk)
        moves = replay_selectors.game_moves(game=game)
        # Move for move: the same seats, actions, and who chose them.
        assert [(m.round_index, m.seat, m.action, m.by_bot) for m in moves] == log, name
        assert [m.seq for m in moves] == list(range(game.seq)), name
        # The state is rebuilt from the current (or last) round's actions, as it was.
        after = {"seq": game.seq, "state": game.state}
        after.update(round_scores=game.round_scores, totals=game.totals)
        assert after == before[name], name
        if game.status == Game.Status.FINISHED:
            # The audit replays the converted game to the scores stored for it.
            assert audit.audit_problems(game) == [], name
            assert game.played_rounds.count() == game.rounds
    # Where the bot took over: round 1 after two of the entrant's actions, then round 2.
    bot = Game.objects.get(pk=games["bot"][0])
    assert [r.bot_from for r in bot.played_rounds.all()] == [None, 2, 0]
    # The game being played: round 0 stored, round 1's actions on the game.
    playing = Game.objects.get(pk=games["playing"][0])
    assert playing.played_rounds.count() == 1
    round_1 = [action for r, _seat, action, _by_bot in games["playing"][1] if r == 1]
    assert json.loads(playing.round_actions) == round_1
    # ... and it plays on from where it stood (the move: what the bot would choose).
    module = game_module(playing.game)
    state = module.state_from_json(playing.state)
    choice = module.bot_action(
        state, level=playing.bot_level, version=playing.bot_version
    ).to_json()
    outcome = play_services.game_play_move(
        game_id=playing.pk, user=user, seq=playing.seq, action=choice
    )
    assert outcome.game.seq > playing.seq
    assert outcome.game.round_index > 1 or json.loads(outcome.game.round_actions)[
        : len(round_1) + 1
    ] == [*round_1, choice]
