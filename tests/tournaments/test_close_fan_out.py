"""The close as a fan-out: per-batch tasks finish and audit the games, a chord's callback
reveals the secret and writes the standings once; every step safe to repeat (a task
delivered twice)."""

from __future__ import annotations

from typing import Any

import factories
import pytest
from django.core.cache import cache

from tournaments import tasks
from tournaments.games import module_of
from tournaments.models import EntryResult, Game, GameRound, Tournament
from tournaments.selectors import replay as replay_selectors
from tournaments.selectors import standings as standing_selectors
from tournaments.services import closing
from tournaments.services import closing as closing_services
from tournaments.services import entries as entry_services
from tournaments.services import results as result_services

pytestmark = pytest.mark.django_db


def _open_field(organizer: Any, entrants: int) -> tuple[Tournament, list[Game]]:
    t = factories.make_tournament(created_by=organizer, rounds=2, max_entrants=entrants)
    games = [
        entry_services.entry_join(tournament_id=t.pk, user=factories.make_user()).game
        for _ in range(entrants)
    ]
    return t, games


def test_the_close_task_runs_its_group_and_callback_inline_in_eager_mode(
    organizer: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(closing, "CLOSE_BATCH", 2)
    t, games = _open_field(organizer, 3)
    assert tasks.tournament_close.delay(t.pk).get() == t.pk
    t.refresh_from_db()
    assert t.closed_at is not None
    for game in games:
        game.refresh_from_db()
        assert game.status == Game.Status.FINISHED and game.bot_finished
        assert game.entry.audit_status == "ok"
    board = standing_selectors.standings(tournament=t)
    assert len(board) == 3 and all(s.finished and s.bot_finished for s in board)


def test_every_step_of_the_close_is_safe_to_repeat(organizer: Any) -> None:
    t, games = _open_field(organizer, 3)
    batches = closing_services.tournament_close_start(tournament_id=t.pk)
    assert batches == [[g.pk for g in games]]
    first = closing_services.games_close(game_ids=batches[0])

    def stored() -> list[tuple[Any, ...]]:
        rows = GameRound.objects.filter(game__in=games).order_by("game_id", "round_index")
        seqs = list(Game.objects.filter(pk__in=[g.pk for g in games]).values_list("seq", "pk"))
        return [*rows.values_list("game_id", "moves", "actions"), *seqs]

    played = stored()
    # Delivered again: nothing more is played, the audit finds the same.
    again = closing_services.games_close(game_ids=batches[0])
    assert stored() == played
    assert [a.problems for a in again] == [a.problems for a in first] == [[], [], []]
    closed = closing_services.tournament_close_finish(tournament_id=t.pk)
    rows = sorted(
        EntryResult.objects.filter(tournament=t).values_list("entry_id", "upto", "result")
    )
    assert (
        closing_services.tournament_close_finish(tournament_id=t.pk).closed_at == closed.closed_at
    )
    assert (
        sorted(EntryResult.objects.filter(tournament=t).values_list("entry_id", "upto", "result"))
        == rows
    )
    assert closing_services.tournament_close_start(tournament_id=t.pk) is None


def test_the_callback_finishes_a_game_a_failed_batch_left_open(organizer: Any) -> None:
    t, games = _open_field(organizer, 2)
    closing_services.tournament_close_start(tournament_id=t.pk)
    closing_services.games_close(game_ids=[games[0].pk])  # the other batch never ran
    closing_services.tournament_close_finish(tournament_id=t.pk)
    games[1].refresh_from_db()
    assert games[1].status == Game.Status.FINISHED and games[1].entry.audit_status == "ok"


def test_a_second_close_task_while_one_runs_starts_nothing(organizer: Any) -> None:
    t, _games = _open_field(organizer, 1)
    assert closing_services.tournament_close_start(tournament_id=t.pk, claim=True) == [
        [Game.objects.get(entry__tournament=t).pk]
    ]
    assert closing_services.tournament_close_start(tournament_id=t.pk, claim=True) is None


def test_a_running_close_is_not_queued_again_and_a_dead_one_is_after_its_claim(
    organizer: Any,
) -> None:
    """One close of a tournament at a time: while a close runs (its claim held, renewed by
    each batch), neither a page view nor beat queues another; once the claim lapses (its
    worker died: no sign of life for ``CLOSE_CLAIM_SECONDS``), beat starts it again."""
    t, games = _open_field(organizer, 2)
    assert closing_services.tournament_close_start(tournament_id=t.pk, claim=True)
    t.refresh_from_db()
    assert closing_services.close_running(t)
    assert t.pk not in closing_services.tournaments_due()
    assert closing_services.tournament_close_if_due(tournament=t) is False
    # a batch is a sign of life: the claim is held again for the whole period
    cache.delete(closing_services.close_claim_key(t))
    tasks.games_close(game_ids=[games[0].pk], tournament_id=t.pk)
    assert closing_services.close_running(t)
    assert t.pk not in closing_services.tournaments_due()
    # the worker dies: no batch renews the claim; when it lapses the close is due again
    cache.delete(closing_services.close_claim_key(t))
    assert t.pk in closing_services.tournaments_due()
    assert closing_services.tournament_close_start(tournament_id=t.pk, claim=True)


def test_the_close_is_announced_only_once_its_standings_are_written(
    organizer: Any, client: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    """While the close writes the standings the tournament is still closing: its page
    shows no final leaderboard and the secret stays hidden; it is announced closed
    (``closed_at``) with the standings already written."""
    t, _games = _open_field(organizer, 2)
    seen: list[tuple[Any, str]] = []
    rebuild = closing_services.standings_rebuild_part

    def watched(*, tournament: Tournament, first: int, last: int, **kwargs: Any) -> int:
        during = Tournament.objects.get(pk=tournament.pk)
        page = client.get(f"/tournaments/{t.pk}/").content.decode()
        seen.append((during.closed_at, page))
        return rebuild(tournament=tournament, first=first, last=last, **kwargs)

    # the rebuild's parts (one here: two entries)
    monkeypatch.setattr(closing_services, "standings_rebuild_part", watched)
    closing_services.tournament_close(tournament_id=t.pk)
    ((closed_at, page),) = seen
    assert closed_at is None
    assert 'class="badge finished"' not in page and t.secret.hex() not in page
    t.refresh_from_db()
    assert t.closed_at is not None
    rows = EntryResult.objects.filter(tournament=t, upto=t.rounds)
    assert rows.count() == 2 and all(r.finished for r in rows)


def test_the_close_chooses_each_bot_move_once_and_replays_only_the_round_taken_over(
    organizer: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The close's finish and audit share one replay: the rounds the bot dealt and played
    at the close are compared with their stored rows, not played again (twice: the audit
    rebuilt them, then verified the record by choosing every bot move again); the round
    the bot took over from the entrant is still replayed from the stored actions."""
    t = factories.make_tournament(created_by=organizer, rounds=4)
    game = entry_services.entry_join(tournament_id=t.pk, user=factories.make_user()).game
    module = module_of(t.game)
    calls = 0
    real = module.bot_action

    def counting(state: Any, **kwargs: Any) -> Any:
        nonlocal calls
        calls += 1
        return real(state, **kwargs)

    monkeypatch.setattr(module, "bot_action", counting)
    batches = closing_services.tournament_close_start(tournament_id=t.pk)
    assert batches is not None
    (audit,) = closing_services.games_close(game_ids=batches[0])
    assert audit.ok
    monkeypatch.setattr(module, "bot_action", real)
    rounds = replay_selectors.game_record(game=Game.objects.get(pk=game.pk)).actions
    assert len(rounds) == 4
    bot_moves = [sum(1 for a in r if a.by_bot) for r in rounds]
    # every bot move of the game at most once by the finish (those made before the close
    # were made at the join), plus round 0's again by the audit
    assert sum(bot_moves) - bot_moves[0] <= calls <= sum(bot_moves) + bot_moves[0]


def test_the_close_task_rebuilds_in_parts_and_announces_after_the_last(
    organizer: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The standings' rebuild is fanned out in parts of ``REBUILD_BATCH`` entries (a
    chord, inline in eager mode); the close is announced after every part, with every
    entry's final row written; a part delivered again after the close writes nothing."""
    monkeypatch.setattr(result_services, "REBUILD_BATCH", 2)
    t, _games = _open_field(organizer, 5)
    parts = result_services.standings_rebuild_parts(tournament=t)
    assert len(parts) == 3
    written: list[tuple[int, int, Any]] = []
    real = closing_services.standings_rebuild_part

    def part(*, tournament: Tournament, first: int, last: int, **kwargs: Any) -> int:
        written.append((first, last, Tournament.objects.get(pk=tournament.pk).closed_at))
        return real(tournament=tournament, first=first, last=last, **kwargs)

    monkeypatch.setattr(closing_services, "standings_rebuild_part", part)
    tasks.tournament_close.delay(t.pk).get()
    t.refresh_from_db()
    assert t.closed_at is not None
    assert [(first, last) for first, last, _c in written] == parts
    assert all(closed_at is None for _f, _l, closed_at in written)
    rows = EntryResult.objects.filter(tournament=t, upto=t.rounds)
    assert rows.count() == 5 and all(r.finished and r.bot_finished for r in rows)
    first, last = parts[0]
    assert tasks.tournament_rebuild_part(t.pk, first, last) == 0
