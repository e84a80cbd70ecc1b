"""The rebuild in bulk (issue 28, item 2): ``standings_rebuild`` writes with one ``COPY``
and one upsert per table and batch on PostgreSQL (``common.rows.copy_rows``), the
multi-row upserts on SQLite; either way the rows are those of the upserts a round's end
sends."""

from __future__ import annotations

from typing import Any

import factories
import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

from tournaments.models import DealResult, Entry, EntryResult, Game, GameRound, Tournament
from tournaments.services import results as result_services


def _rows(t: Tournament) -> tuple[list[tuple[Any, ...]], list[tuple[Any, ...]]]:
    def of(model: Any, order: tuple[str, ...]) -> list[tuple[Any, ...]]:
        names = [f.attname for f in model._meta.concrete_fields if f.name != "id"]
        return list(model.objects.filter(tournament=t).order_by(*order).values_list(*names))

    return of(EntryResult, ("entry_id", "upto")), of(DealResult, ("entry_id", "round_index"))


@pytest.mark.parametrize("batch", [1000, 7])
def test_the_rebuilds_rows_are_the_upserts_rows(
    organizer: Any, monkeypatch: pytest.MonkeyPatch, batch: int
) -> None:
    """A field of 300, some games part-way, one under review, one the bot finished: the
    rows written by the rebuild (in batches of ``batch`` games) are, column for column,
    those the row-by-row path writes; written again over themselves they stay so."""
    t = factories.make_closed_field(organizer, 300)
    games = list(Game.objects.filter(entry__tournament=t).order_by("pk"))
    for g in games[10:40]:
        factories.set_rounds(g, g.round_scores[: 1 + g.pk % 2])
    Entry.objects.filter(pk=games[50].entry_id).update(audit_status=Entry.AuditStatus.MISMATCH)
    bot = games[60]
    Game.objects.filter(pk=bot.pk).update(bot_finished=True)
    GameRound.objects.create(game=bot, round_index=1, moves=1, bot_from=0, actions="[]")
    EntryResult.objects.filter(tournament=t).delete()
    DealResult.objects.filter(tournament=t).delete()

    monkeypatch.setattr(result_services, "REBUILD_COPY", False)
    assert result_services.standings_rebuild(tournament=t) == 300
    row_by_row = _rows(t)
    EntryResult.objects.filter(tournament=t).delete()
    DealResult.objects.filter(tournament=t).delete()

    monkeypatch.setattr(result_services, "REBUILD_COPY", True)
    monkeypatch.setattr(result_services, "REBUILD_BATCH", batch)
    assert result_services.standings_rebuild(tournament=t) == 300
    assert _rows(t) == row_by_row
    assert len(row_by_row[0]) == 300 * (t.rounds + 1)
    # over the rows already there (the upsert), as the close's rebuild after the play
    assert result_services.standings_rebuild(tournament=t) == 300
    assert _rows(t) == row_by_row


def test_the_rebuild_sends_one_upsert_per_table_and_batch_on_postgresql(organizer: Any) -> None:
    """On PostgreSQL one ``INSERT ... SELECT`` from the staging table the ``COPY`` filled,
    per table; on SQLite the multi-row ``INSERT ... VALUES`` of ``insert_rows``."""
    t = factories.make_closed_field(organizer, 30)
    with CaptureQueriesContext(connection) as captured:
        result_services.standings_rebuild(tournament=t)
    inserts = [q["sql"] for q in captured.captured_queries if q["sql"].startswith("INSERT")]
    if connection.vendor == "postgresql":
        assert len(inserts) == 2
        assert all(" SELECT " in sql and "VALUES" not in sql for sql in inserts)
    else:
        assert inserts
        assert all("VALUES" in sql for sql in inserts)
