"""Issue 35, item 6: numbers. Klaverjassen's results are whole points on every page
("123", not "123,0"); the standings API rounds every figure the same way; the ``;`` CSV's
decimal commas are in ``test_exports.py``."""

from __future__ import annotations

import re
from typing import Any

import factories
import pytest
from django.test import Client
from django.urls import reverse

from tournaments.numbers import API_DECIMALS, figure_json, format_comparison, format_result
from tournaments.services import closing as closing_services
from tournaments.services import entries as entry_services
from tournaments.services import results as result_services

pytestmark = pytest.mark.django_db


def test_a_klaverjas_result_is_a_whole_number_on_its_pages(client: Client) -> None:
    tournament, game = factories.closed_game("klaverjas", "rotterdams", 1, username="kees")
    we, they = game.totals[0], game.totals[1]
    client.force_login(game.user)
    html = client.get(tournament.get_absolute_url()).content.decode()
    cells = re.findall(r'<td class="num">(-?[\d,]+)</td>', html)
    assert str(we - they) in cells and str(they) in cells
    assert not [c for c in cells if "," in c], cells
    mine = client.get(reverse("my_games")).content.decode()
    assert re.search(rf'data-testid="my-result">{we - they}\b(?!,)', mine)


def test_results_follow_the_games_decimals() -> None:
    assert format_result(123.0, 0) == "123" and format_result(-17.666, 1) == "-17,7"
    assert format_comparison(12.0, decimals=0) == "12 beter"


def test_the_standings_api_rounds_every_figure_alike(organizer: Any, client: Client) -> None:
    t = factories.make_tournament(created_by=organizer, rounds=1)
    user = factories.make_user("anna")
    game = entry_services.entry_join(tournament_id=t.pk, user=user).game
    factories.play_to_end(game, user)
    closing_services.tournament_close(tournament_id=t.pk)
    game.refresh_from_db()
    factories.set_rounds(game, [[10, 20, 30, 45]])
    result_services.standings_refresh(tournament=t)
    (row,) = client.get(reverse("api_tournament_standings", args=[t.pk])).json()["standings"]
    # 10 − average(20, 30, 45): 31.666… and −21.666… as 31.67 and −21.67
    assert row["opponents_average"] == 31.67 and row["result"] == -21.67
    for key in ("result", "opponents_average", "percentage", "vs_par"):
        value = row[key]
        assert value is None or round(value, API_DECIMALS) == value, (key, value)
    assert figure_json(144.66666666666666) == 144.67 and figure_json(None) is None
