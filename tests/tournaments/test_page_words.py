"""Issue 35, item 5: the words of the pages (not the card table's): the organizer's list
of entrants with its places and "… geleden", the rules pages in Dutch only."""

from __future__ import annotations

import re
from typing import Any

import factories
import pytest
from django.test import Client
from django.urls import reverse

from tournaments.games import available_games
from tournaments.models import Tournament
from tournaments.services import entries as entry_services

pytestmark = pytest.mark.django_db


def _places(html: str) -> list[str]:
    """The last number column (the place) of every row of the entries table."""
    body = html[html.index("<tbody>") : html.index("</tbody>")]
    return [re.findall(r'<td class="num">([^<]*)</td>', row)[-1] for row in body.split("<tr>")[1:]]


def _field(organizer: Any, **extra: Any) -> Tournament:
    """An open one-round tournament that two entrants have played to its end."""
    t = factories.make_tournament(created_by=organizer, rounds=1, **extra)
    for name in ("anna", "bram"):
        user = factories.make_user(name)
        factories.play_to_end(entry_services.entry_join(tournament_id=t.pk, user=user).game, user)
    return t


def test_the_organizer_sees_the_place_of_every_ranked_entrant_while_it_runs(
    client: Client,
) -> None:
    organizer = factories.make_user("clubleider", organizer=True)
    t = _field(organizer)
    client.force_login(organizer)
    html = client.get(reverse("tournament_entries", args=[t.pk])).content.decode()
    assert sorted(_places(html)) in (["1", "2"], ["1", "1"])
    assert re.search(r"<td>\d+\xa0minuten geleden</td>", html)
    english = client.get(
        reverse("tournament_entries", args=[t.pk]), HTTP_ACCEPT_LANGUAGE="en"
    ).content.decode()
    assert re.search(r"<td>\d+\xa0minutes ago</td>", english)


def test_no_places_while_the_results_are_hidden_or_the_organizer_plays_too(
    client: Client,
) -> None:
    organizer = factories.make_user("clubleider", organizer=True)
    hidden = _field(organizer)
    Tournament.objects.filter(pk=hidden.pk).update(hide_results=True)
    client.force_login(organizer)
    html = client.get(reverse("tournament_entries", args=[hidden.pk])).content.decode()
    assert _places(html) == ["–", "–"]
    # An organizer who entered and has not finished sees what any such entrant sees.
    Tournament.objects.filter(pk=hidden.pk).update(hide_results=False)
    entry_services.entry_join(tournament_id=hidden.pk, user=organizer)
    html = client.get(reverse("tournament_entries", args=[hidden.pk])).content.decode()
    assert _places(html) == ["–", "–", "–"]


def test_the_dutch_rules_pages_have_no_english_duplicate(client: Client) -> None:
    for game, module in available_games().items():
        for preset in module.PRESETS:
            html = client.get(reverse("preset_rules", args=[game, preset])).content.decode()
            assert "(duplicate" not in html, (game, preset)


def test_the_verify_page_says_it_plainly_first(client: Client) -> None:
    """Issue 35, item 9: one sentence a card player understands, then the technical part
    (SHA-256, HMAC, the secret, the engine's commands) under its own heading."""
    tournament, _game = factories.closed_game(username="anna")
    html = client.get(reverse("tournament_verify", args=[tournament.pk])).content.decode()
    main = html[html.index("<main") :]
    plain = main.index('data-testid="verify-plain"')
    technical = main.index("Voor wie het technisch wil weten")
    assert "precies dezelfde kaarten" in main[plain:technical]
    assert "Nagekeken" in main[plain:technical]
    for word in ("SHA-256", "HMAC", "python -m engine verify-game", 'id="commitment"'):
        assert main.index(word) > technical, word


def test_the_brand_names_both_games(client: Client) -> None:
    html = client.get("/").content.decode()
    assert '🃏 <span class="brand-name">Jokeren &amp; Klaverjassen</span></a>' in html
    assert "· Jokeren &amp; Klaverjassen</title>" in html
