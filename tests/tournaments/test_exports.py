"""Exports: standings and season CSV (UTF-8 with BOM, `;` option), the records zip."""

from __future__ import annotations

import csv
import io
import json
import re
import zipfile
from typing import Any

import factories
from django.test import Client
from django.urls import reverse

from engine import record
from tournaments.models import Tournament
from tournaments.services import closing as closing_services
from tournaments.services import entries as entry_services
from tournaments.services import results as result_services


def _rows(response: Any, delimiter: str = ",") -> list[list[str]]:
    # the standings download is streamed, the season's is not
    raw = b"".join(response.streaming_content) if response.streaming else response.content
    assert raw.startswith("\ufeff".encode())
    return list(csv.reader(io.StringIO(raw.decode("utf-8")[1:]), delimiter=delimiter))


def test_the_standings_csv_after_the_close(organizer: Any, client: Any) -> None:
    t = factories.make_tournament(created_by=organizer, rounds=1)
    joelle, bram = factories.make_user("Joëlle"), factories.make_user("bram")
    game = entry_services.entry_join(tournament_id=t.pk, user=joelle).game
    entry_services.entry_join(tournament_id=t.pk, user=bram)
    factories.play_to_end(game, joelle)
    closing_services.tournament_close(tournament_id=t.pk)  # the bot plays bram's round
    game.refresh_from_db()
    factories.set_rounds(game, [[10, 20, 30, 45]])
    result_services.standings_refresh(tournament=t)
    response = client.get(reverse("tournament_standings_csv", args=[t.pk]))
    assert response["Content-Type"] == "text/csv; charset=utf-8"
    assert f'filename="tournament-{t.pk}-standings.csv"' in response["Content-Disposition"]
    rows = _rows(response)
    assert rows[0][:4] == ["Plaats", "Speler", "Botaccount", "Resultaat"]
    # Joëlle: 10 − average(20, 30, 45) = −21.67; bram's round was the bot's: unranked.
    assert [r[:6] + r[6:9] for r in rows[1:]] == [
        ["1", "Joëlle", "", "-21.7", "10", "31.7", "1", "1", ""],
        ["", "bram", "", "", "", "", "1", "0", "1"],
    ]
    # The ";" file is for Dutch Excel: decimal commas (issue 35, item 6).
    semi = _rows(
        client.get(reverse("tournament_standings_csv", args=[t.pk]) + "?sep=semicolon"), ";"
    )
    assert semi[1][3:6] == ["-21,7", "10", "31,7"]
    assert semi == [[c.replace(".", ",") for c in row] for row in rows]


def test_the_standings_csv_during_the_window_follows_the_visibility(
    tournament: Tournament, user: Any
) -> None:
    game = entry_services.entry_join(tournament_id=tournament.pk, user=user).game
    factories.set_rounds(game, [[10, 20, 30, 40]])
    result_services.standings_refresh(tournament=tournament)
    url = reverse("tournament_standings_csv", args=[tournament.pk])
    visitor = _rows(Client().get(url))
    assert visitor[1][1] == "speler"
    assert visitor[1][3] == ""  # no result for a visitor during the window
    me = Client()
    me.force_login(user)
    mine = _rows(me.get(url))
    assert mine[1][3] == "-20.0"  # 10 − average(20, 30, 40)


def test_the_records_zip_after_the_close_verifies(organizer: Any, user: Any) -> None:
    t = factories.make_tournament(created_by=organizer, rounds=1)
    game = entry_services.entry_join(tournament_id=t.pk, user=user).game
    factories.play_to_end(game, user)
    url = reverse("tournament_records_zip", args=[t.pk])
    assert Client().get(url).status_code == 404
    closing_services.tournament_close(tournament_id=t.pk)
    response = Client().get(url)
    assert response.status_code == 200
    with zipfile.ZipFile(io.BytesIO(response.content)) as archive:
        assert archive.namelist() == [f"game-{game.pk}.json"]
        data = json.loads(archive.read(f"game-{game.pk}.json"))
    verification = record.verify(record.read_record(data))
    assert verification.ok


# --- No formulas in a spreadsheet (OWASP, "CSV Injection") ------------------------------

#: What a spreadsheet takes for the start of a formula.
FORMULA = ("=", "+", "-", "@", "\t", "\r")
HOSTILE = ["+1+1", "@A1", '=HYPERLINK("http://evil.example","x")', "-2+3"]


def formula_cells(rows: list[list[str]]) -> list[str]:
    """The cells a spreadsheet would run as a formula: text that starts like one (a
    number such as "-20.0" is a number)."""
    return [
        cell
        for row in rows
        for cell in row
        if cell.startswith(FORMULA) and not re.fullmatch(r"-?\d+([.,]\d+)?", cell)
    ]


def test_the_standings_csv_writes_no_formula_in_either_separator(
    organizer: Any, client: Any
) -> None:
    t = factories.make_tournament(created_by=organizer, rounds=1)
    Tournament.objects.filter(pk=t.pk).update(name=HOSTILE[2])
    for name in HOSTILE:
        entry_services.entry_join(tournament_id=t.pk, user=factories.make_user(name))
    closing_services.tournament_close(tournament_id=t.pk)
    url = reverse("tournament_standings_csv", args=[t.pk])
    for query, sep in (("", ","), ("?sep=semicolon", ";")):
        rows = _rows(client.get(url + query), sep)
        assert formula_cells(rows) == []
        # each name is there as the text it is, after the quote that keeps it text
        assert sorted(row[1] for row in rows[1:]) == sorted("'" + n for n in HOSTILE)
        # the results, negative ones too, stay numbers
        assert any(row[3].startswith("-") for row in rows[1:]) or all(
            row[3] == "" for row in rows[1:]
        )
