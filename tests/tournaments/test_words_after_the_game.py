"""Words a card player trips over (issue 23, item 6): the par row's opponents, "My games"
with one decimal, the tournament header after the close, "je" everywhere in Dutch, the
analysis of another player's game in their name, the what-if reasons, and friendly
403/404/500 pages."""

from __future__ import annotations

import re
from typing import Any

import factories
import pytest
from django.test import Client

from tournaments import analysis, numbers, services

pytestmark = pytest.mark.django_db


def _text(response: Any) -> str:
    return re.sub(r"\s+", " ", response.content.decode())


def _client(user: Any = None, language: str = "nl") -> Client:
    client = Client()
    if user is not None:
        client.force_login(user)
    client.cookies["django_language"] = language
    return client


# --- The par row ----------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("game_name", "preset"), [("jokeren", "jokeren7"), ("klaverjas", "rotterdams")]
)
def test_the_par_row_shows_what_par_is_measured_against(game_name: str, preset: str) -> None:
    t = factories.make_tournament(game=game_name, preset=preset, rounds=1, south_plays=())
    user = factories.make_user()
    game = services.entry_join(tournament_id=t.pk, user=user).game
    par = analysis.tournament_par(tournament=t)[0]
    factories.set_rounds(game, [list(par.scores)])
    services.standings_refresh(tournament=t)
    page = _text(_client(user).get(t.get_absolute_url()))
    # Jokeren: the average of the three other seats; Klaverjassen: the other team's points.
    others = par.scores[1:] if game_name == "jokeren" else [par.scores[1]]
    expected = numbers.format_result(sum(others) / len(others))
    row = page[page.index('data-testid="par-row"') :]
    row = row[: row.index("</tr>")]
    assert f'<td class="num" data-testid="par-opponents">{expected}</td>' in row
    assert '<td class="num">gelijk</td>' in row
