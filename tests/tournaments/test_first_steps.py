"""A new player's first steps (issue 13, item 7): sign-up confirms and goes back to where
the visitor came from (``next``, a page of this site only); the tournament page offers
sign-up next to log-in; the home page's tournament cards show "you have entered" and the
player's progress; "My games" shows each game's result and rank only as far as
``results_visibility`` lets the player see them (docs/rules.md §4)."""

from __future__ import annotations

import re
from typing import Any

import factories
import pytest
from django.contrib.messages import get_messages
from django.test import Client
from django.urls import reverse

from tournaments.models import Game, Tournament
from tournaments.selectors import standings as standing_selectors
from tournaments.services import closing as closing_services
from tournaments.services import entries as entry_services
from tournaments.services import play as play_services
from tournaments.services import tournaments as tournament_services

pytestmark = pytest.mark.django_db

PASSWORD = "Harten-Vrouw-77"


def _text(response: Any) -> str:
    return re.sub(r"\s+", " ", response.content.decode())


def _sign_up(client: Client, query: str = "", **extra: str) -> Any:
    data = {
        "username": "nieuweling",
        "email": "nieuweling@example.org",
        "password1": PASSWORD,
        "password2": PASSWORD,
        **extra,
    }
    return client.post(reverse("signup") + query, data)


# --- Sign-up ---------------------------------------------------------------------------


def test_sign_up_confirms_and_goes_back_to_the_tournament(
    client: Client, tournament: Tournament
) -> None:
    detail = reverse("tournament_detail", args=[tournament.pk])
    response = _sign_up(client, next=detail)
    assert response.status_code == 302 and response["Location"] == detail
    shown = [str(m) for m in get_messages(response.wsgi_request)]
    assert shown == [
        "Welkom, nieuweling: je account is aangemaakt en je bent ingelogd.",
        "We hebben een mail met een bevestigingslink gestuurd naar nieuweling@example.org.",
    ]
    # Logged in and back on the tournament: it offers joining.
    assert "Doe mee aan dit toernooi" in _text(client.get(detail))


def test_sign_up_carries_next_from_its_query_into_the_form(
    client: Client, tournament: Tournament
) -> None:
    detail = reverse("tournament_detail", args=[tournament.pk])
    page = _text(client.get(reverse("signup") + f"?next={detail}"))
    assert f'name="next" value="{detail}"' in page
    assert _sign_up(client, f"?next={detail}")["Location"] == detail


@pytest.mark.parametrize("target", ["https://evil.example/", "//evil.example/x", "javascript:x"])
def test_sign_up_never_sends_the_visitor_to_another_site(client: Client, target: str) -> None:
    response = _sign_up(client, next=target)
    assert response.status_code == 302 and response["Location"] == reverse("home")


def test_tournament_page_offers_sign_up_next_to_log_in(
    client: Client, tournament: Tournament
) -> None:
    detail = reverse("tournament_detail", args=[tournament.pk])
    page = _text(client.get(detail))
    assert f'href="{reverse("login")}?next={detail}"' in page
    assert f'href="{reverse("signup")}?next={detail}"' in page
    # The log-in page passes the way back on to its own sign-up link.
    login_page = _text(client.get(reverse("login") + f"?next={detail}"))
    assert f'href="{reverse("signup")}?next={detail}"' in login_page


# --- The home page's cards -------------------------------------------------------------


def _card(page: str, name: str) -> str:
    """The home page's card (its <li>) of the tournament named ``name``."""
    match = re.search(r"<li>\s*<a [^>]*><strong>" + re.escape(name) + r"</strong>.*?</li>", page)
    assert match, name
    return match.group(0)


def test_home_cards_show_your_entry_and_progress(client: Client, user: Any) -> None:
    entered = factories.make_tournament(name="Meegedaan", rounds=2)
    factories.make_tournament(name="Niet meegedaan", rounds=2)
    game = entry_services.entry_join(tournament_id=entered.pk, user=user).game
    client.force_login(user)
    page = _text(client.get(reverse("home")))
    card = _card(page, "Meegedaan")
    assert "je doet mee" in card and "0 van 2 rondes gespeeld" in card
    assert "je doet mee" not in _card(page, "Niet meegedaan")

    factories.play_to_end(game, user)
    card = _card(_text(client.get(reverse("home"))), "Meegedaan")
    assert "je doet mee" in card and "klaar: 2 rondes gespeeld" in card


def test_home_cards_show_no_entry_to_a_visitor_or_another_player(
    client: Client, user: Any, other_user: Any
) -> None:
    t = factories.make_tournament(name="Meegedaan")
    entry_services.entry_join(tournament_id=t.pk, user=user)
    assert "je doet mee" not in _card(_text(client.get(reverse("home"))), "Meegedaan")
    client.force_login(other_user)
    assert "je doet mee" not in _card(_text(client.get(reverse("home"))), "Meegedaan")


# --- My games --------------------------------------------------------------------------


def _cells(client: Client) -> dict[str, str]:
    """The result and rank cells of the only row of "My games", as text."""
    page = client.get(reverse("my_games")).content.decode()
    cells = {}
    for key in ("my-result", "my-rank"):
        match = re.search(rf'data-testid="{key}">(.*?)</td>', page, re.S)
        assert match, key
        cells[key] = re.sub(r"\s+", " ", re.sub(r"<[^>]+>", "", match.group(1))).strip()
    return cells


def _number(cell: str) -> float:
    """The number a cell starts with, in Dutch ("-12,50") or English ("-12.50")."""
    return float(cell.split(" ")[0].replace(",", "."))


def _play_one_round(game: Game, user: Any) -> Game:
    game.refresh_from_db()
    while game.round_index == 0 and game.status == "playing":
        outcome = play_services.game_play_move(
            game_id=game.pk, user=user, seq=game.seq, action=factories.south_action(game)
        )
        game = outcome.game
    return game


def test_my_games_shows_result_and_rank_of_the_rounds_you_may_see(
    client: Client, user: Any, other_user: Any
) -> None:
    t = factories.make_tournament(rounds=2)
    game = entry_services.entry_join(tournament_id=t.pk, user=user).game
    entry_services.entry_join(tournament_id=t.pk, user=other_user)
    client.force_login(user)
    # Nothing played: nothing to see.
    assert _cells(client) == {"my-result": "–", "my-rank": "–"}

    game = _play_one_round(game, user)
    assert game.rounds_played == 1
    board = standing_selectors.standings_page(tournament=t, user=user)
    assert board.visibility.rounds == 1 and board.me is not None
    cells = _cells(client)
    # one decimal, as every page shows a result (issue 23, item 6)
    assert _number(cells["my-result"]) == pytest.approx(board.me.result, abs=0.05)
    assert "na 1 ronde" in cells["my-result"]
    assert cells["my-rank"] == f"{board.me.rank} (tot nu toe)"

    game, _events = factories.play_to_end(game, user)
    _total, _average, result = standing_selectors.game_result(game)
    cells = _cells(client)
    assert _number(cells["my-result"]) == pytest.approx(result, abs=0.05)
    assert "na" not in cells["my-result"]
    assert cells["my-rank"] == "1 (tot nu toe)"  # the other entrant has played nothing

    closing_services.tournament_close(tournament_id=t.pk)
    assert _cells(client)["my-rank"] == "1"


def test_my_games_never_shows_a_hidden_result_or_rank(client: Client, user: Any) -> None:
    t = factories.make_tournament(rounds=2)
    tournament_services.tournament_update(tournament=t, hide_results=True)
    game = entry_services.entry_join(tournament_id=t.pk, user=user).game
    factories.play_to_end(game, user)
    client.force_login(user)
    assert _cells(client) == {"my-result": "–", "my-rank": "–"}
    closing_services.tournament_close(tournament_id=t.pk)
    cells = _cells(client)
    # one decimal, as every page shows a result (issue 23, item 6)
    assert cells["my-rank"] == "1" and _number(cells["my-result"]) == pytest.approx(
        standing_selectors.game_result(Game.objects.get(pk=game.pk))[2], abs=0.05
    )
