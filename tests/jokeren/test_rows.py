"""Model instances from rows read with SQL written once (jokeren/rows.py) are the ORM's."""

from __future__ import annotations

from typing import Any

import pytest
from django.db import connection

from jokeren.rows import columns_of, instance_from_row
from tournaments import services
from tournaments.models import Entry, Game, Tournament

pytestmark = pytest.mark.django_db


@pytest.mark.parametrize("model", [Game, Entry, Tournament])
def test_an_instance_from_its_row_equals_the_orms(
    model: Any, tournament: Tournament, user: Any
) -> None:
    game = services.entry_join(tournament_id=tournament.pk, user=user).game
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
