"""Hands at a round's end (issue 36, item 3; docs/rules.md, "The card table", rule 2): shown
only where no second account can still use them, otherwise the points and the number of
cards left per seat; an organizer of a members-only tournament may show them anyway."""

from __future__ import annotations

from datetime import timedelta
from typing import Any

import factories
import pytest
from django.test import Client
from django.urls import reverse
from django.utils import timezone

from tournaments.errors import InvalidSettings
from tournaments.models import Access, Game, Tournament
from tournaments.permissions import may_see_round_hands
from tournaments.services import closing as closing_services
from tournaments.services import entries as entry_services
from tournaments.services import play as play_services
from tournaments.services import tournaments as tournament_services
from tournaments.services import what_if as what_if_services

pytestmark = pytest.mark.django_db


def _round_end(game: Game) -> dict[str, Any]:
    """Play ``game`` (South as the basic bot) to its first round's end; that event."""
    while True:
        game.refresh_from_db()
        outcome = play_services.game_play_move(
            game_id=game.pk, user=game.user, seq=game.seq, action=factories.south_action(game)
        )
        for event in outcome.events:
            if event.get("type") == "round_over":
                return event


def _joined(**tournament: Any) -> Game:
    t = factories.make_tournament(**tournament)
    user = factories.make_user()
    if t.access != Access.PUBLIC:
        factories.add_member(t.club, user)
    return entry_services.entry_join(tournament_id=t.pk, user=user).game


def test_an_open_tournament_shows_the_points_and_the_cards_left_not_the_hands() -> None:
    game = _joined()
    end = _round_end(game)
    assert end["hands"] == []
    assert len(end["hand_counts"]) == 4 and sum(end["hand_counts"]) > 0
    assert len(end["scores"]) == 4
    assert not may_see_round_hands(game=game)


def test_a_members_only_tournament_may_show_them_and_only_that() -> None:
    game = _joined(access=Access.MEMBERS)
    Tournament.objects.filter(pk=game.tournament.pk).update(show_round_hands=True)
    game.refresh_from_db()
    end = _round_end(game)
    assert [len(cards) for cards in end["hands"]] == end["hand_counts"]
    assert sum(end["hand_counts"]) > 0
    # A public one with the flag set behind the service's back still hides them.
    public = _joined()
    Tournament.objects.filter(pk=public.tournament.pk).update(show_round_hands=True)
    public.refresh_from_db()
    assert not may_see_round_hands(game=public)
    assert _round_end(public)["hands"] == []


def test_the_hands_are_shown_once_nobody_can_play_the_deals_any_more() -> None:
    game = _joined()
    t = game.tournament
    Tournament.objects.filter(pk=t.pk).update(closes_at=timezone.now() - timedelta(seconds=1))
    game = Game.objects.select_related("entry__tournament").get(pk=game.pk)
    assert may_see_round_hands(game=game)  # past its closing time
    closing_services.tournament_close(tournament_id=t.pk)
    game = Game.objects.select_related("entry__tournament").get(pk=game.pk)
    assert game.tournament.is_closed and may_see_round_hands(game=game)


def test_practice_shows_them_but_not_play_from_here_on_a_running_tournament_s_deal() -> None:
    user = factories.make_user()
    practice = entry_services.game_practice_start(user=user, game="jokeren", preset="jokeren7")
    assert may_see_round_hands(game=practice)
    end = _round_end(practice)
    assert [len(cards) for cards in end["hands"]] == end["hand_counts"]
    # "Speel vanaf hier" from a finished game of a tournament that still runs: its deal.
    t = factories.make_tournament(rounds=1)
    played, _events = factories.play_to_end(
        entry_services.entry_join(tournament_id=t.pk, user=user).game, user
    )
    again = what_if_services.game_what_if_start(
        user=user, source_id=played.pk, round_index=0, start=0
    )
    assert not may_see_round_hands(game=again)
    closing_services.tournament_close(tournament_id=t.pk)
    assert may_see_round_hands(game=Game.objects.get(pk=again.pk))


def test_only_a_members_only_tournament_may_choose_to_show_them(organizer: Any) -> None:
    club = factories.default_club()
    now = timezone.now()
    common = {
        "created_by": organizer,
        "club": club,
        "name": "Clubavond",
        "game": "jokeren",
        "preset": "jokeren7",
        "opens_at": now,
        "closes_at": now + timedelta(days=1),
        "show_round_hands": True,
    }
    with pytest.raises(InvalidSettings):
        tournament_services.tournament_create(access=Access.PUBLIC, **common)
    t = tournament_services.tournament_create(access=Access.MEMBERS, **common)
    assert t.show_round_hands
    with pytest.raises(InvalidSettings):
        tournament_services.tournament_update(tournament=t, access=Access.PUBLIC)
    t.refresh_from_db()
    assert t.access == Access.MEMBERS and t.show_round_hands


def test_the_organizer_s_form_offers_the_choice(organizer: Any) -> None:
    client = Client()
    client.force_login(organizer)
    url = reverse("tournament_create")
    page = client.get(url).content.decode()
    assert 'name="show_round_hands"' in page
    refused = client.post(url, factories.tournament_form_data(show_round_hands="on"))
    assert "show_round_hands" in refused.context["form"].errors
    assert not Tournament.objects.filter(name="Fuzzavond").exists()
    made = client.post(
        url, factories.tournament_form_data(show_round_hands="on", access=Access.MEMBERS)
    )
    assert made.status_code == 302, made.content.decode()[:2000]
    t = Tournament.objects.get(name="Fuzzavond")
    assert t.show_round_hands and t.access == Access.MEMBERS


def test_a_deal_pool_shows_them() -> None:
    game = _joined()
    Tournament.objects.filter(pk=game.tournament.pk).update(pool_copies=5)
    game = Game.objects.select_related("entry__tournament").get(pk=game.pk)
    assert may_see_round_hands(game=game)
