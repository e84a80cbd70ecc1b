""" "Play this deal again" from the per-deal tables after the close: an unscored practice
game from the start of a round of the tournament, with its bots; refused before the close."""

from __future__ import annotations

from typing import Any

import factories
import pytest
from django.test import Client
from django.urls import reverse
from django.utils import timezone

from tournaments.games import module_of
from tournaments.models import Game, Tournament, WhatIf
from tournaments.selectors import replay as replay_selectors
from tournaments.selectors import standings as standing_selectors
from tournaments.services import closing as closing_services
from tournaments.services import entries as entry_services

pytestmark = pytest.mark.django_db

BUTTON = 'data-testid="play-deal-again"'


def _client(user: Any = None) -> Client:
    client = Client()
    if user is not None:
        client.force_login(user)
    return client


def _finished(organizer: Any, user: Any) -> tuple[Tournament, Game]:
    """A two-round tournament that ``user`` has played to the end (still open)."""
    t = factories.make_tournament(created_by=organizer, rounds=2, south_plays=(0, 1))
    game = entry_services.entry_join(tournament_id=t.pk, user=user).game
    game, _ = factories.play_to_end(game, user)
    assert game.is_finished
    return t, game


def _close(t: Tournament) -> Tournament:
    Tournament.objects.filter(pk=t.pk).update(closes_at=timezone.now())
    closing_services.tournament_close(tournament_id=t.pk)
    t.refresh_from_db()
    assert t.is_closed
    return t


def _url(t: Tournament, round_index: int) -> str:
    return reverse("tournament_deal_again", args=[t.pk, round_index])


def test_before_the_close_it_is_neither_offered_nor_done(
    organizer: Any, user: Any, other_user: Any
) -> None:
    t, _game = _finished(organizer, user)
    page = _client(user).get(t.get_absolute_url()).content.decode()
    assert 'data-testid="deal-percentage"' in page  # the per-deal rows are there
    assert BUTTON not in page
    games, what_ifs = Game.objects.count(), WhatIf.objects.count()
    for who in (user, other_user):
        response = _client(who).post(_url(t, 0))
        assert response.status_code == 400
        assert "gesloten" in response.content.decode()
    assert (Game.objects.count(), WhatIf.objects.count()) == (games, what_ifs)


def test_after_the_close_it_starts_the_rounds_deal_with_the_tournaments_bots(
    organizer: Any, user: Any, other_user: Any
) -> None:
    t, source = _finished(organizer, user)
    t = _close(t)
    standings = standing_selectors.standings(tournament=t)
    page = _client(other_user).get(t.get_absolute_url()).content.decode()
    rows = page.count('data-testid="deal-percentage"')
    assert rows == 2 and page.count(BUTTON) == t.rounds
    assert _url(t, 1) in page
    # a visitor is not offered it (it needs an account), and is sent to log in
    assert BUTTON not in _client().get(t.get_absolute_url()).content.decode()
    assert _client().post(_url(t, 1)).status_code == 302
    assert not WhatIf.objects.exists()

    response = _client(other_user).post(_url(t, 1))
    g = Game.objects.exclude(pk=source.pk).get()
    assert response.status_code == 302 and response["Location"] == reverse("play", args=[g.pk])
    assert g.user == other_user and g.entry is None and g.round_index == 1
    assert (g.bot_level, g.bot_version) == (t.bot_level, t.bot_version)
    assert g.variant == t.variant and g.secret_bytes == t.secret_bytes
    assert WhatIf.objects.get(game=g).start == 0
    # exactly round 2's deal of the tournament, with only the bots' moves before South's
    module = module_of(t.game)
    deal = module.new_round(
        module.variant_from_json(t.variant), secret=t.secret_bytes, round_index=1
    )
    actions = replay_selectors.game_record(game=g).actions[1]
    assert all(a.seat != 0 for a in actions)
    state = deal
    for a in actions:
        state = state.apply(module.action_from_json(a.action))
    now = module.state_from_json(g.state)
    assert now.state_hash() == state.state_hash()
    assert now.current_player == 0
    assert now.hands[0] == deal.hands[0]
    assert now.observation(0)["hand"] == list(deal.hands[0])
    # the tournament did not change
    assert standing_selectors.standings(tournament=t) == standings
    # out of range
    assert _client(other_user).post(_url(t, 2)).status_code == 400


def test_a_player_plays_again_from_their_own_game(organizer: Any, user: Any) -> None:
    t, source = _finished(organizer, user)
    _close(t)
    response = _client(user).post(_url(t, 0))
    assert response.status_code == 302
    what_if = WhatIf.objects.get()
    assert what_if.source == source and (what_if.round_index, what_if.start) == (0, 0)


def test_it_is_offered_once_per_round_not_in_every_players_row(
    organizer: Any, user: Any, other_user: Any
) -> None:
    """Issue 35, item 7: one "opnieuw spelen" per round, however many played it."""
    t, _game = _finished(organizer, user)
    second = entry_services.entry_join(tournament_id=t.pk, user=other_user).game
    factories.play_to_end(second, other_user)
    t = _close(t)
    page = _client(user).get(t.get_absolute_url()).content.decode()
    assert page.count('data-testid="deal-percentage"') == 4  # two players, two rounds
    assert page.count(BUTTON) == 2
    assert "Ronde 2 opnieuw spelen" in page
