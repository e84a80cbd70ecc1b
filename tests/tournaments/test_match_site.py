"""Seed 001 on the site: tables of three ("Er kan met 3 of 4 personen aan een tafel worden
gespeeld"), the match in parts with its subtotals ("2 ronden van 10", "na vijf beurten
wordt een tussentotaal geteld") and the score sheet ("op het formulier wordt voor de
winnaar een − gezet en voor de andere spelers het aantal kaarten dat is overgehouden ...
ter controle worden de − en geteld")."""

from __future__ import annotations

import json
import re
from typing import Any

import factories
import pytest
from django.test import Client
from django.urls import reverse
from django.utils import translation

from engine.jokeren import PRESETS
from tournaments.forms import TournamentForm
from tournaments.models import Game, Tournament
from tournaments.selectors import deals as deal_selectors
from tournaments.selectors import replay as replay_selectors
from tournaments.selectors import standings as standing_selectors
from tournaments.services import closing as closing_services
from tournaments.services import entries as entry_services
from tournaments.services import results as result_services

pytestmark = pytest.mark.django_db


def three_seats(preset: str = "klassiek", **fields: Any) -> dict[str, Any]:
    return {**PRESETS[preset].to_json(), "num_players": 3, **fields}


# --- three at a table ------------------------------------------------------------------------


def test_organizer_form_offers_three_or_four_players_for_every_jokeren_variant() -> None:
    for preset in PRESETS:
        form = TournamentForm(preset=f"jokeren:{preset}")
        choices = [value for value, _label in form.fields["v_num_players"].choices]
        assert choices == [3, 4]
    with translation.override("nl"):
        form = TournamentForm(preset="jokeren:wedstrijd")
        labels = {b.name: str(b.label) for b in form.variant_fields()}
    assert labels["v_num_players"] == "Spelers aan tafel"
    assert "v_part_rounds" in labels and "v_subtotal_after" in labels
    assert not any("_" in label for label in labels.values())


def test_organizer_creates_a_table_of_three(client: Client, organizer: Any) -> None:
    client.force_login(organizer)
    data: dict[str, Any] = {
        "name": "Drie aan tafel",
        "preset": "jokeren:jokeren13",
        "rounds": 2,
        "max_entrants": 10,
        "bot_level": "basic",
        "opens_at": "2026-12-01T19:00",
        "closes_at": "2026-12-08T19:00",
    }
    for key, value in PRESETS["jokeren13"].to_json().items():
        if isinstance(value, bool):
            if value:
                data[f"v_{key}"] = "on"
        elif isinstance(value, list):
            data[f"v_{key}"] = json.dumps(value)
        elif key not in ("name", "title_nl", "title_en", "rounds"):
            data[f"v_{key}"] = value
    data["v_num_players"] = 3
    response = client.post(reverse("tournament_create"), data)
    assert response.status_code == 302, response.context["form"].errors
    t = Tournament.objects.get(name="Drie aan tafel")
    assert t.variant["num_players"] == 3
    rules = client.get(reverse("tournament_rules", args=[t.pk])).content.decode()
    assert "Je speelt met 3 aan tafel" in rules
    assert "r mod 3" in rules


def test_a_game_at_a_table_of_three(client: Client, user: Any) -> None:
    t = factories.make_tournament(
        preset="klassiek", variant=three_seats(), rounds=2, south_plays=(0, 1)
    )
    game = entry_services.entry_join(tournament_id=t.pk, user=user).game
    client.force_login(user)
    payload = client.get(reverse("api_game", args=[game.pk]), HTTP_ACCEPT_LANGUAGE="nl").json()
    assert len(payload["seat_names"]) == 3
    assert payload["observation"]["dealer"] == 0
    game, events = factories.play_to_end(game, user)
    assert len(game.totals) == 3
    assert all(len(r) == 3 for r in game.round_scores)
    # the dealer of round 1 is seat 1 (1 mod 3), and every seat that moved is 0, 1 or 2
    assert {e["seat"] for e in events if "seat" in e} <= {0, 1, 2}
    assert next(m for m in replay_selectors.game_moves(game=game) if m.round_index == 1).seat == 2
    # own total minus the average of the two opponents
    total, against, result = standing_selectors.game_result(game)
    assert total == game.totals[0]
    assert against == pytest.approx((game.totals[1] + game.totals[2]) / 2)
    assert result == pytest.approx(game.totals[0] - against)
    (row,) = standing_selectors.standings(tournament=t)
    assert row.result == pytest.approx(result)
    deals = deal_selectors.deal_results(
        tournament=t, visibility=standing_selectors.Visibility(rounds=2)
    )
    for r, deal in enumerate(deals):
        scores = game.round_scores[r]
        assert deal.rows[0].score == scores[0]
        assert deal.rows[0].result == pytest.approx(scores[0] - (scores[1] + scores[2]) / 2)
    # after the close: the replay shows three hands
    closing_services.tournament_close(tournament_id=t.pk)
    page = client.get(reverse("game_replay", args=[game.pk]) + "?round=1").content.decode()
    frames = re.search(r'id="replay-frames"[^>]*>(.*?)</script>', page, re.S)
    assert frames is not None
    assert frames.group(1).count('"hands": [[') >= 1
    names = re.search(r'id="replay-seat-names"[^>]*>(.*?)</script>', page, re.S)
    assert names is not None and names.group(1).count('"') == 6


# --- the match: results per part -------------------------------------------------------------


def test_rules_page_of_the_match(client: Client) -> None:
    url = reverse("preset_rules", args=["jokeren", "wedstrijd"])
    html = client.get(url, HTTP_ACCEPT_LANGUAGE="nl").content.decode()
    assert "Wedstrijd" in html
    assert "A game has 20 rounds" in client.get(url, HTTP_ACCEPT_LANGUAGE="en").content.decode()
    assert "delen van 10 rondes" in html  # "2 ronden van 10"
    assert "Na elke 5 rondes van een scoreblad wordt een tussentotaal geteld" in html
    assert "de winnaar van een ronde krijgt een „−”" in html
    plain = client.get(reverse("preset_rules", args=["jokeren", "jokeren13"])).content.decode()
    assert "tussentotaal" not in plain and "scoreblad" not in plain.lower()


def match_tournament(**kwargs: Any) -> Any:
    variant = {**PRESETS["wedstrijd"].to_json(), "part_rounds": 2, "subtotal_after": 1}
    return factories.make_tournament(
        preset="wedstrijd", variant=variant, rounds=4, south_plays=(), **kwargs
    )


def test_standings_show_the_result_of_each_part(user: Any, other_user: Any) -> None:
    t = match_tournament()
    mine = entry_services.entry_join(tournament_id=t.pk, user=user).game
    theirs = entry_services.entry_join(tournament_id=t.pk, user=other_user).game
    factories.set_rounds(mine, [[0, 3, 6, 9], [4, 0, 4, 4], [2, 2, 0, 2], [0, 1, 1, 1]])
    factories.set_rounds(theirs, [[5, 0, 5, 5], [0, 2, 2, 2]])
    result_services.standings_refresh(tournament=t)
    rows = {s.username: s for s in standing_selectors.standings(tournament=t)}
    # part 1: rounds 1-2 (own 4; opponents 3, 10 and 13); part 2: rounds 3-4 (own 2; 3, 1, 3)
    assert rows[user.username].parts == pytest.approx((4 - 26 / 3, 2 - 7 / 3))
    assert rows[other_user.username].parts == (pytest.approx(5 - 16 / 3 + 0), None)
    # an entrant who finished two rounds sees the first part only
    board = standing_selectors.standings_for_viewer(tournament=t, user=other_user)
    assert board.visibility.rounds == 2
    seen = {s.username: s.parts for s in board.rows}
    assert seen[user.username] == (pytest.approx(4 - 26 / 3), None)
    # the API gives the same
    api = Client()
    api.force_login(other_user)
    data = api.get(reverse("api_tournament_standings", args=[t.pk])).json()
    by_player = {s["player"]: s["parts"] for s in data["standings"]}
    assert by_player[user.username] == [round(4 - 26 / 3, 2), None]  # two decimals


def test_leaderboard_page_has_a_column_per_part(client: Client, user: Any) -> None:
    t = match_tournament()
    game = entry_services.entry_join(tournament_id=t.pk, user=user).game
    factories.set_rounds(game, [[0, 3, 6, 9], [4, 0, 4, 4], [2, 2, 0, 2], [0, 1, 1, 1]])
    Game.objects.filter(pk=game.pk).update(status=Game.Status.FINISHED)
    result_services.standings_refresh(tournament=t)
    client.force_login(user)
    page = client.get(reverse("tournament_detail", args=[t.pk]), HTTP_ACCEPT_LANGUAGE="nl")
    html = page.content.decode()
    assert "Deel 1" in html and "Deel 2" in html
    assert html.count('data-testid="part-result"') == 2
    assert "-4,7" in html and "-0,3" in html  # one decimal
    assert "-4,67" not in html


def test_a_game_without_parts_has_no_part_columns(user: Any) -> None:
    t = factories.make_tournament(preset="klassiek", rounds=2, south_plays=())
    game = entry_services.entry_join(tournament_id=t.pk, user=user).game
    factories.set_rounds(game, [[0, 1, 2, 3], [1, 0, 2, 3]])
    result_services.standings_refresh(tournament=t)
    assert standing_selectors.tournament_parts(tournament=t) == []
    assert standing_selectors.standings(tournament=t)[0].parts == ()


# --- the score sheet ---------------------------------------------------------------------------

#: Ten games at a table of four: (winner, the cards kept by every seat).
TEN_GAMES = [
    [0, 5, 7, 2],
    [3, 0, 9, 4],
    [6, 2, 0, 8],
    [1, 4, 6, 0],
    [0, 3, 3, 3],
    [7, 0, 2, 5],
    [4, 6, 0, 1],
    [2, 2, 2, 2],  # no winner: the stock ran out
    [0, 8, 4, 6],
    [5, 1, 3, 0],
]


def sheet_game(user: Any, **kwargs: Any) -> tuple[Any, Game]:
    variant = {**PRESETS["wedstrijd"].to_json(), "part_rounds": 0}
    t = factories.make_tournament(
        preset="wedstrijd", variant=variant, rounds=10, south_plays=(), **kwargs
    )
    game = entry_services.entry_join(tournament_id=t.pk, user=user).game
    results = [
        {"winner": row.index(0) if 0 in row else None, "end_reason": "out" if 0 in row else "stock"}
        for row in TEN_GAMES
    ]
    factories.set_rounds(game, TEN_GAMES)
    Game.objects.filter(pk=game.pk).update(round_results=results, status=Game.Status.FINISHED)
    game.refresh_from_db()
    return t, game


def cells(html: str, testid: str) -> list[list[str]]:
    rows = re.findall(rf'<tr[^>]*data-testid="{testid}"[^>]*>(.*?)</tr>', html, re.S)
    return [
        [
            re.sub(r"<[^>]+>", "", c).strip()
            for c in re.findall(r"<t[hd][^>]*>(.*?)</t[hd]>", row, re.S)
        ]
        for row in rows
    ]


def test_the_sheet_looks_like_the_paper_form(client: Client, user: Any) -> None:
    _t, game = sheet_game(user)
    client.force_login(user)
    response = client.get(reverse("game_sheet", args=[game.pk]), HTTP_ACCEPT_LANGUAGE="nl")
    assert response.status_code == 200
    html = response.content.decode()
    assert "Scoreblad" in html
    rounds = cells(html, "sheet-round")
    assert [r[0] for r in rounds] == [str(n) for n in range(1, 11)]
    # the winner gets a "−", the others the number of cards they kept
    assert rounds[0][1:] == ["−", "5", "7", "2"]
    assert rounds[3][1:] == ["1", "4", "6", "−"]
    assert rounds[7][1:] == ["2", "2", "2", "2"]  # no winner, no "−"
    # a subtotal after five, the columns added at the end
    (subtotal,) = cells(html, "sheet-subtotal")
    assert subtotal[0] == "Tussentotaal na 5"
    assert subtotal[1:] == [str(sum(r[s] for r in TEN_GAMES[:5])) for s in range(4)]
    (total,) = cells(html, "sheet-total")
    assert total[1:] == [str(sum(r[s] for r in TEN_GAMES)) for s in range(4)]
    # the "−" marks counted as the check, at the top of the form
    (dashes,) = cells(html, "sheet-dashes")
    # games 1, 5, 9 went to seat 0; 2, 6 to seat 1; 3, 7 to seat 2; 4, 10 to seat 3: nine
    # marks for the nine games with a winner
    assert dashes[0] == "− (controle)" and dashes[1:] == ["3", "2", "2", "2"]
    assert html.index('data-testid="sheet-dashes"') < html.index('data-testid="sheet-round"')
    # printable on A4
    assert "css/sheet.css" in html and "data-print" in html
    english = client.get(reverse("game_sheet", args=[game.pk]), HTTP_ACCEPT_LANGUAGE="en")
    assert "Subtotal after 5" in english.content.decode()


def test_a_sheet_of_two_parts(client: Client, user: Any) -> None:
    t = match_tournament(name="Wedstrijd")
    game = entry_services.entry_join(tournament_id=t.pk, user=user).game
    factories.set_rounds(game, [[0, 3, 6, 9], [4, 0, 4, 4], [2, 2, 0, 2]])
    client.force_login(user)
    html = client.get(
        reverse("game_sheet", args=[game.pk]), HTTP_ACCEPT_LANGUAGE="en"
    ).content.decode()
    assert 'data-testid="sheet-part-1"' in html and 'data-testid="sheet-part-2"' in html
    assert [row[1:] for row in cells(html, "sheet-total")] == [
        ["4", "3", "10", "13"],
        ["2", "2", "0", "2"],
    ]
    (grand,) = cells(html, "sheet-grand-total")
    assert grand[1:] == ["6", "5", "10", "15"]
    assert "not finished" in html


def test_nobody_else_sees_a_tournament_sheet_before_the_close(
    client: Client, user: Any, other_user: Any
) -> None:
    t, game = sheet_game(user)
    url = reverse("game_sheet", args=[game.pk])
    assert client.get(url).status_code == 404
    client.force_login(other_user)
    assert client.get(url).status_code == 404
    closing_services.tournament_close(tournament_id=t.pk)
    assert client.get(url).status_code == 200
    assert Client().get(url).status_code == 200


def test_no_sheet_for_a_variant_that_scores_points(client: Client, user: Any) -> None:
    t = factories.make_tournament(preset="jokeren13", rounds=1, south_plays=())
    game = entry_services.entry_join(tournament_id=t.pk, user=user).game
    client.force_login(user)
    assert client.get(reverse("game_sheet", args=[game.pk])).status_code == 404
    assert client.get(reverse("game_sheet", args=[999999])).status_code == 404


def test_practice_sheet_only_for_its_player(client: Client, user: Any, other_user: Any) -> None:
    game = entry_services.game_practice_start(
        user=user, game="jokeren", preset="wedstrijd", bot_level="basic"
    )
    factories.set_rounds(game, TEN_GAMES[:3])
    url = reverse("game_sheet", args=[game.pk])
    client.force_login(other_user)
    assert client.get(url).status_code == 404
    client.force_login(user)
    assert client.get(url).status_code == 200


def test_links_to_the_sheet(client: Client, user: Any) -> None:
    t, game = sheet_game(user)
    client.force_login(user)
    url = reverse("game_sheet", args=[game.pk])
    assert url in client.get(reverse("my_games")).content.decode()
    closing_services.tournament_close(tournament_id=t.pk)
    assert url in client.get(reverse("game_replay", args=[game.pk])).content.decode()
    assert url in client.get(reverse("tournament_detail", args=[t.pk])).content.decode()
