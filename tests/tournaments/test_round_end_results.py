"""A move that ends a round writes only the entry's result rows that change
(``result_services.round_end_results``): after every move of whole games, every column of the
entry's board rows (one per visible-rounds count) and of its per-deal rows is what a full
rewrite of them gives (``result_services.entry_results_update``), and the round's end took the
narrow path (one ``UPDATE`` of the board rows, no upsert of them) unless it must not."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import factories
import pytest
from django.db import connection, transaction
from django.test.utils import CaptureQueriesContext

from engine.jokeren import PRESETS as JOKEREN_PRESETS
from engine.klaverjas import PRESETS as KLAVERJAS_PRESETS
from tournaments.models import DealResult, EntryResult, Game, Tournament
from tournaments.selectors import standings as standing_selectors
from tournaments.services import entries as entry_services
from tournaments.services import play as play_services
from tournaments.services import results as result_services
from tournaments.services import tournaments as tournament_services

pytestmark = pytest.mark.django_db

_BOARD = f'"{EntryResult._meta.db_table}"'
_DEALS = f'"{DealResult._meta.db_table}"'


def _columns(model: Any) -> list[str]:
    return [f.attname for f in model._meta.concrete_fields if not f.primary_key]


def _rows(entry_id: int) -> tuple[list[dict[str, Any]], list[dict[str, Any]]]:
    """Every column but the id of the entry's board rows (by ``upto``) and deal rows."""
    boards = EntryResult.objects.filter(entry_id=entry_id).order_by("upto")
    deals = DealResult.objects.filter(entry_id=entry_id).order_by("round_index")
    return list(boards.values(*_columns(EntryResult))), list(deals.values(*_columns(DealResult)))


def _rewritten(game: Game) -> tuple[list[dict[str, Any]], list[dict[str, Any]]]:
    """The entry's rows as a full rewrite of them from the game leaves them; the database
    keeps what the moves wrote (the rewrite is rolled back)."""
    with transaction.atomic():
        result_services.entry_results_update(game=game)
        rows = _rows(game.entry_id)  # type: ignore[arg-type]
        transaction.set_rollback(True)
    return rows


def _south_plays_every_round(t: Tournament, secret: bytes) -> bool:
    return all(factories.south_gets_a_turn(t, r, secret) for r in range(t.rounds))


def _tournament(
    *, secret_label: str, fits: Callable[[Tournament, bytes], bool] | None = None, **kwargs: Any
) -> Tournament:
    """A tournament on a fixed deal: the first secret of ``secret_label`` that ``fits``
    (default: South has a turn in every round, so each round ends in a move of its own)."""
    t = factories.make_tournament(south_plays=(), **kwargs)
    good = fits or _south_plays_every_round
    factories.set_secret(t, factories.secret_where(secret_label, lambda s: good(t, s)))
    return t


def _play_checking(t: Tournament, user: Any) -> dict[str, int]:
    """Play the user's game of ``t`` to its end, South choosing like the basic bot; after
    each move compare the entry's rows with a full rewrite and check which write the
    round's end took. Returns how many moves ended no round, one, and more."""
    game = entry_services.entry_join(tournament_id=t.pk, user=user).game
    seen = {"none": 0, "one": 0, "more": 0}
    snapshots = []
    while game.status == Game.Status.PLAYING:
        before = len(game.round_scores)
        with CaptureQueriesContext(connection) as queries:
            outcome = play_services.game_play_move(
                game_id=game.pk, user=user, seq=game.seq, action=factories.south_action(game)
            )
        game = outcome.game
        ended = len(game.round_scores) - before
        statements = [q["sql"] for q in queries.captured_queries]
        board = [s for s in statements if _BOARD in s]
        deals = [s for s in statements if _DEALS in s]
        if ended == 0:
            seen["none"] += 1
            assert not board and not deals, statements
        elif ended == 1:
            seen["one"] += 1
            # The narrow write: one UPDATE of the board rows, the new deal's row upserted.
            assert len(board) == 1 and board[0].startswith(f"UPDATE {_BOARD} "), board
            assert len(deals) == 1 and deals[0].startswith(f"INSERT INTO {_DEALS} "), deals
        else:
            seen["more"] += 1
            assert len(board) == 1 and board[0].startswith(f"INSERT INTO {_BOARD} "), board
        written = _rows(game.entry_id)  # type: ignore[arg-type]
        boards, deal_rows = written
        assert [r["upto"] for r in boards] == list(range(t.rounds + 1))
        assert [r["round_index"] for r in deal_rows] == list(range(len(game.round_scores)))
        assert all(r["rounds_played"] == len(game.round_scores) for r in boards)
        assert written == _rewritten(game), (
            f"after move {game.seq}, {len(game.round_scores)} rounds"
        )
        snapshots.append(written)
    # The rows changed along the game (the comparison was not of rows left as they were).
    assert all(r["finished"] for r in snapshots[-1][0])
    distinct = {repr(s) for s in snapshots}
    assert len(distinct) == seen["one"] + seen["more"] + 1
    return seen


@pytest.mark.parametrize("hide_results", [False, True])
def test_jokeren7(user: Any, hide_results: bool) -> None:
    t = _tournament(secret_label="round-end jokeren7", preset="jokeren7", rounds=3)
    if hide_results:
        t = tournament_services.tournament_update(tournament=t, hide_results=True)
        assert t.hide_results
    seen = _play_checking(t, user)
    assert (seen["one"], seen["more"]) == (3, 0) and seen["none"] > 0


def test_the_match_with_its_parts(user: Any) -> None:
    variant = {**JOKEREN_PRESETS["wedstrijd"].to_json(), "part_rounds": 2, "subtotal_after": 1}
    t = _tournament(
        secret_label="round-end wedstrijd", preset="wedstrijd", variant=variant, rounds=4
    )
    assert len(standing_selectors.tournament_parts(tournament=t)) == 2
    seen = _play_checking(t, user)
    assert (seen["one"], seen["more"]) == (4, 0)
    rows = EntryResult.objects.filter(entry__user=user).order_by("upto")
    # The rows below a part's end show that part only; the last one both.
    assert [len([p for p in r.parts if p is not None]) for r in rows] == [0, 1, 1, 2, 2]


def test_klaverjas(user: Any) -> None:
    t = _tournament(
        secret_label="round-end klaverjas", game="klaverjas", preset="rotterdams", rounds=3
    )
    seen = _play_checking(t, user)
    assert seen == {"none": seen["none"], "one": 3, "more": 0}


def test_klaverjas_ended_by_its_points_limit(user: Any) -> None:
    """The game ends before its last round: the rows above the rounds played turn
    complete with its end."""
    # Each round deals at least 162 points to the two teams: 4 rounds give one team 324.
    variant = {**KLAVERJAS_PRESETS["amsterdams"].to_json(), "points_limit": 300}
    t = _tournament(
        secret_label="round-end points limit",
        game="klaverjas",
        preset="amsterdams",
        variant=variant,
        rounds=6,
    )
    seen = _play_checking(t, user)
    game = Game.objects.get(entry__tournament=t)
    assert game.status == Game.Status.FINISHED
    assert seen["one"] == len(game.round_scores) < t.rounds
    assert max(game.totals) >= 300
    rows = EntryResult.objects.filter(entry__tournament=t)
    assert {r.tier for r in rows if r.upto > len(game.round_scores)} == {0}


def test_a_move_that_ends_two_rounds_writes_them_all(user: Any) -> None:
    """A bot goes out before South's first turn of round 1: the move that ends round 0 ends
    round 1 too, and the entry's rows are written in full."""

    def no_turn_in_round_1(t: Tournament, secret: bytes) -> bool:
        south = [factories.south_gets_a_turn(t, r, secret) for r in range(t.rounds)]
        return south == [True, False, True]

    t = _tournament(
        secret_label="round-end two rounds",
        fits=no_turn_in_round_1,
        preset="jokeren7",
        rounds=3,
    )
    seen = _play_checking(t, user)
    assert (seen["one"], seen["more"]) == (1, 1)


def test_rows_missing_are_written_in_full(user: Any) -> None:
    """A round's end that finds fewer board rows than the tournament's rounds + 1 writes
    them all (the UPDATE first, then the upsert)."""
    t = _tournament(
        secret_label="round-end rows missing", game="klaverjas", preset="rotterdams", rounds=2
    )
    game = entry_services.entry_join(tournament_id=t.pk, user=user).game
    EntryResult.objects.filter(entry__tournament=t, upto=2).delete()
    while not game.round_scores:
        with CaptureQueriesContext(connection) as queries:
            outcome = play_services.game_play_move(
                game_id=game.pk, user=user, seq=game.seq, action=factories.south_action(game)
            )
        game = outcome.game
    board = [q["sql"] for q in queries.captured_queries if _BOARD in q["sql"]]
    assert [s.split(" ")[0] for s in board] == ["UPDATE", "INSERT"]
    written = _rows(game.entry_id)  # type: ignore[arg-type]
    assert [r["upto"] for r in written[0]] == [0, 1, 2]
    assert written == _rewritten(game)
