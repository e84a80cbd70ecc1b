"""Model instances from rows read with SQL written once (common/rows.py) are the ORM's."""

from __future__ import annotations

from typing import Any

import pytest
from django.db import connection

from common.rows import columns_of, instance_from_row
from tournaments.models import Entry, Game, Tournament
from tournaments.services import entries as entry_services

pytestmark = pytest.mark.django_db


@pytest.mark.parametrize("model", [Game, Entry, Tournament])
def test_an_instance_from_its_row_equals_the_orms(
    model: Any, tournament: Tournament, user: Any
) -> None:
    game = entry_services.entry_join(tournament_id=tournament.pk, user=user).game
    pk = {Game: game.pk, Entry: game.entry_id, Tournament: tournament.pk}[model]
    table = connection.ops.quote_name(model._meta.db_table)
    with connection.cursor() as cursor:
        cursor.execute(f'SELECT {columns_of(model)} FROM {table} WHERE "id" = %s', [pk])
        row = cursor.fetchone()
    got = instance_from_row(model, row)
    stored = model.objects.get(pk=pk)
    names = [f.attname for f in model._meta.concrete_fields]
    assert [getattr(got, n) for n in names] == [getattr(stored, n) for n in names]
    assert not got._state.adding


def test_insert_rows_inserts_upserts_and_keeps_the_constraints(
    tournament: Tournament, user: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    from django.db import IntegrityError, transaction

    from common import rows
    from tournaments.models import GameRound

    game = entry_services.entry_join(tournament_id=tournament.pk, user=user).game
    monkeypatch.setattr(rows, "INSERT_BATCH", 2)  # three rows: two statements
    made = [GameRound(game=game, round_index=r, moves=10 + r, actions="[]") for r in range(3)]
    rows.insert_rows(GameRound, made)
    assert list(game.played_rounds.values_list("round_index", "moves")) == [
        (0, 10),
        (1, 11),
        (2, 12),
    ]
    # A second row for a round breaks its unique constraint without an upsert...
    with pytest.raises(IntegrityError), transaction.atomic():
        rows.insert_rows(GameRound, [GameRound(game=game, round_index=1, moves=99)])
    # ... and with one, the existing row takes the new values.
    again = [GameRound(game=game, round_index=r, moves=20 + r, actions="[1]") for r in (1, 3)]
    rows.insert_rows(
        GameRound, again, unique_fields=["game", "round_index"], update_fields=["moves"]
    )
    assert list(game.played_rounds.values_list("round_index", "moves", "actions")) == [
        (0, 10, "[]"),
        (1, 21, "[]"),
        (2, 12, "[]"),
        (3, 23, "[1]"),
    ]
