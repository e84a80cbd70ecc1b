"""Words a card player trips over (issue 23, item 6): the par row's opponents, "My games"
with one decimal, the tournament header after the close, "je" everywhere in Dutch, the
analysis of another player's game in their name, the what-if reasons, and friendly
403/404/500 pages."""

from __future__ import annotations

import gettext
import re
from datetime import timedelta
from pathlib import Path
from typing import Any

import factories
import pytest
from django.test import Client, RequestFactory
from django.urls import reverse
from django.utils import timezone, translation
from django.views.defaults import server_error

from tournaments import numbers
from tournaments.models import Tournament
from tournaments.services import closing as closing_services
from tournaments.services import entries as entry_services
from tournaments.services import par as par_services
from tournaments.services import results as result_services

pytestmark = pytest.mark.django_db

LOCALE = Path(__file__).resolve().parents[2] / "locale"


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
    game = entry_services.entry_join(tournament_id=t.pk, user=user).game
    par = par_services.tournament_par(tournament=t)[0]
    factories.set_rounds(game, [list(par.scores)])
    result_services.standings_refresh(tournament=t)
    page = _text(_client(user).get(t.get_absolute_url()))
    # Jokeren: the average of the three other seats; Klaverjassen: the other team's points.
    others = par.scores[1:] if game_name == "jokeren" else [par.scores[1]]
    expected = numbers.format_result(sum(others) / len(others), t.result_decimals)
    row = page[page.index('data-testid="par-row"') :]
    row = row[: row.index("</tr>")]
    assert f'<td class="num" data-testid="par-opponents">{expected}</td>' in row
    assert '<td class="num">gelijk</td>' in row


# --- My games: one decimal, as every page -------------------------------------------------


def test_my_games_shows_a_result_with_one_decimal(user: Any) -> None:
    t = factories.make_tournament(rounds=1, south_plays=())
    game = entry_services.entry_join(tournament_id=t.pk, user=user).game
    factories.set_rounds(game, [[10, 20, 30, 41]])  # 10 − 91/3 = −20,33…
    result_services.standings_refresh(tournament=t)
    page = _text(_client(user).get(reverse("my_games")))
    assert 'data-testid="my-result">-20,3' in page
    assert "20,33" not in page


# --- The tournament's times in its header -------------------------------------------------


def _times(page: str) -> str:
    part = page[page.index('data-testid="tournament-times"') :]
    return part[: part.index("</span>")]


def test_the_header_says_when_the_tournament_opened_and_closed(user: Any) -> None:
    t = factories.make_tournament(rounds=1, south_plays=())
    times = _times(_text(_client(user).get(t.get_absolute_url())))
    assert "Geopend " in times and "Sluit " in times and "Opent" not in times
    Tournament.objects.filter(pk=t.pk).update(closes_at=timezone.now())
    closing_services.tournament_close(tournament_id=t.pk)
    for language, opened, closed, wrong in (
        ("nl", "Geopend ", "Gesloten ", ["Opent", "Sluit"]),
        ("en", "Opened ", "Closed ", ["Opens", "Closes"]),
    ):
        times = _times(_text(_client(user, language).get(t.get_absolute_url())))
        assert opened in times and closed in times
        assert not any(w in times for w in wrong)
    upcoming = factories.make_tournament(
        rounds=1,
        south_plays=(),
        opens_at=timezone.now() + timedelta(days=1),
        closes_at=timezone.now() + timedelta(days=2),
    )
    times = _times(_text(_client(user).get(upcoming.get_absolute_url())))
    assert "Opent " in times and "Sluit " in times and "Geopend" not in times


# --- "je", never "Uw" ---------------------------------------------------------------------------


FORMAL = re.compile(r"\b[Uu]w\b")


def test_sign_up_and_log_in_say_je_as_the_rest_of_the_site() -> None:
    client = _client()
    signup = _text(client.get(reverse("signup")))
    assert "Je wachtwoord" in signup
    assert not FORMAL.search(signup)
    login = client.post(reverse("login"), {"username": "niemand", "password": "fout"})
    assert not FORMAL.search(_text(login))
    weak = client.post(
        reverse("signup"), {"username": "nieuw", "password1": "12345", "password2": "12345"}
    )
    assert not FORMAL.search(_text(weak))


def test_the_dutch_catalogue_never_says_uw() -> None:
    """The site's own words, and Django's password rules it shows on sign-up (whose own
    Dutch catalogue says "Uw"), say "je"."""
    with (LOCALE / "nl" / "LC_MESSAGES" / "django.mo").open("rb") as f:
        own = gettext.GNUTranslations(f)._catalog  # type: ignore[attr-defined]
    assert not [v for v in own.values() if isinstance(v, str) and FORMAL.search(v)]
    with translation.override("nl"):
        rules = [
            translation.ngettext(
                "Your password must contain at least %(min_length)d character.",
                "Your password must contain at least %(min_length)d characters.",
                8,
            ),
            translation.gettext(
                "Your password can’t be too similar to your other personal information."
            ),
            translation.gettext("Your password can’t be a commonly used password."),
            translation.gettext("Your password can’t be entirely numeric."),
        ]
    assert all(rule.startswith("Je wachtwoord") for rule in rules)
    assert not any(FORMAL.search(rule) for rule in rules)


# --- Another player's replay: the analysis in their name -------------------------------------


def test_the_analysis_on_another_players_replay_names_that_player(user: Any) -> None:
    _t, game = factories.closed_game(username="anna")
    page = _text(_client(user).get(reverse("game_replay", args=[game.pk])))
    section = page[page.index('id="analysis"') :]
    section = section[: section.index("</section>")]
    assert "<td>anna " in section
    assert "<td>Jij " not in section
    english = _text(_client(None, "en").get(reverse("game_replay", args=[game.pk])))
    section = english[english.index('id="analysis"') :]
    assert "<td>anna " in section and "<td>You " not in section
    own = _text(_client(game.user).get(reverse("game_replay", args=[game.pk])))
    assert "<td>Jij " in own[own.index('id="analysis"') :]


# --- What if: the right reason --------------------------------------------------------------


def test_what_if_on_someone_elses_game_before_the_close_is_not_found(
    user: Any, other_user: Any
) -> None:
    t = factories.make_tournament(rounds=1)
    game, _events = factories.play_to_end(
        entry_services.entry_join(tournament_id=t.pk, user=user).game, user
    )
    assert game.is_finished
    url = reverse("game_what_if", args=[game.pk])
    response = _client(other_user).post(url, {"round": 0, "start": 0})
    assert response.status_code == 404
    assert "afgelopen" not in _text(response)
    # a practice game of someone else: not found either
    practice = entry_services.game_practice_start(
        user=user, game="jokeren", preset="jokeren7", bot_level="basic"
    )
    response = _client(other_user).post(
        reverse("game_what_if", args=[practice.pk]), {"round": 0, "start": 0}
    )
    assert response.status_code == 404
    # their own unfinished game: the reason is that it is not finished
    response = _client(user).post(
        reverse("game_what_if", args=[practice.pk]), {"round": 0, "start": 0}
    )
    assert response.status_code == 400
    assert "als het is afgelopen" in response.content.decode()
    # after the close anyone may play on from it
    closing_services.tournament_close(tournament_id=t.pk)
    assert _client(other_user).post(url, {"round": 0, "start": 0}).status_code == 302


# --- Error pages in the site's style -------------------------------------------------------------


def test_a_forbidden_page_is_the_sites_page_in_the_language(user: Any) -> None:
    for language, title in (("nl", "Geen toegang"), ("en", "No access")):
        response = _client(user, language).get(reverse("tournament_create"))
        assert response.status_code == 403
        page = _text(response)
        assert f"<h1>{title}</h1>" in page and 'class="site-header"' in page
        assert 'data-testid="error-page"' in page


def test_a_csrf_failure_is_a_friendly_page() -> None:
    client = Client(enforce_csrf_checks=True)
    client.cookies["django_language"] = "nl"
    response = client.post(reverse("login"), {"username": "a", "password": "b"})
    assert response.status_code == 403
    page = _text(response)
    assert "<h1>De pagina is verlopen</h1>" in page and 'class="site-header"' in page
    assert "laad de pagina opnieuw" in page
    # the API keeps its JSON error body
    api = client.post("/api/games/1/moves/", "{}", content_type="application/json")
    assert api.status_code == 403 and api.json()["error"]["code"] == "csrf_failed"


def test_not_found_and_server_error_pages_are_the_sites() -> None:
    response = _client().get("/toernooien/bestaat-niet/")
    assert response.status_code == 404
    page = _text(response)
    assert "<h1>Pagina niet gevonden</h1>" in page and 'class="site-header"' in page
    request = RequestFactory().get("/")
    with translation.override("nl"):
        error = server_error(request)
    assert error.status_code == 500
    assert "Er ging iets mis" in error.content.decode()
