"""A live club evening (docs/rules.md §7, "Live club evening (clubavond)"): the schedule,
nobody sees a round before it opens, an entrant who finished waits for the next round,
the slot's close (the bot finishes, the round does not count), the board after the slot
for everyone, the lobby and what it polls, the organizer's form, the beat task."""

from __future__ import annotations

from datetime import datetime, timedelta
from typing import Any

import factories
import pytest
from django.test import Client
from django.urls import reverse
from django.utils import timezone

from tournaments import permissions, tasks
from tournaments.errors import InvalidSettings, LiveRoundNotOpen, TournamentNotOpen
from tournaments.models import EntryResult, Game, GameRound, Tournament
from tournaments.selectors import standings as standing_selectors
from tournaments.services import closing as closing_services
from tournaments.services import entries as entry_services
from tournaments.services import live as live_services
from tournaments.services import play as play_services
from tournaments.services import tournaments as tournament_services


def _join(t: Tournament, name: str) -> tuple[Any, Game]:
    user = factories.make_user(name)
    game = entry_services.entry_join(tournament_id=t.pk, user=user).game
    assert game is not None
    return user, game


def _play_round(game: Game, user: Any) -> list[dict[str, Any]]:
    """South plays (as the basic bot) until the game's round has ended; every event."""
    game.refresh_from_db()
    start = game.round_index
    events: list[dict[str, Any]] = []
    while game.status == Game.Status.PLAYING and game.round_index == start:
        outcome = play_services.game_play_move(
            game_id=game.pk, user=user, seq=game.seq, action=factories.south_action(game)
        )
        events.extend(outcome.events)
        game = outcome.game
    return events


def _client(user: Any) -> Client:
    client = Client()
    client.force_login(user)
    return client


def test_the_schedule_gives_each_round_its_slot_and_the_close_is_the_last_slots_end(
    db: Any,
) -> None:
    start = datetime(2030, 3, 5, 19, 30, tzinfo=timezone.get_current_timezone())
    slots = live_services.live_schedule(
        start=start, rounds=3, slot_minutes=[20, 25], pause_minutes=5
    )
    got = [(datetime.fromisoformat(o), datetime.fromisoformat(c)) for o, c in slots]
    minutes = timedelta(minutes=1)
    assert got == [
        (start, start + 20 * minutes),
        (start + 25 * minutes, start + 50 * minutes),
        (start + 55 * minutes, start + 80 * minutes),
    ]
    t = factories.make_live_evening(rounds=3, slot_minutes=(20,), pause_minutes=5)
    assert t.live and len(t.live_slots) == 3
    assert t.closes_at == t.live_slot(2)[1]
    with pytest.raises(InvalidSettings):
        live_services.live_schedule(start=start, rounds=2, slot_minutes=[0], pause_minutes=5)
    with pytest.raises(InvalidSettings):
        live_services.live_window(opens_at=start + minutes, slots=slots)


def test_nobody_sees_a_rounds_cards_before_it_opens(db: Any) -> None:
    t = factories.make_live_evening(rounds=2)
    user, game = _join(t, "vroeg")
    client = _client(user)
    answer = client.get(reverse("api_game", args=[game.pk])).json()
    assert answer["observation"] is None and answer["your_turn"] is False
    assert answer["live_wait"]["round"] == 0
    assert answer["live_wait"]["url"] == reverse("tournament_live", args=[t.pk])
    page = client.get(reverse("play", args=[game.pk]))
    assert page.status_code == 302 and page["Location"] == reverse("tournament_live", args=[t.pk])
    with pytest.raises(LiveRoundNotOpen):
        play_services.game_play_move(
            game_id=game.pk, user=user, seq=game.seq, action=factories.south_action(game)
        )
    move = client.post(
        reverse("api_game_move", args=[game.pk]),
        {"seq": game.seq, "action": factories.south_action(game)},
        content_type="application/json",
    )
    assert move.status_code == 400 and move.json()["error"]["code"] == "live_round_not_open"
    # the round opens for everyone at once
    factories.live_clock_at(t, 0)
    answer = client.get(reverse("api_game", args=[game.pk])).json()
    assert answer["observation"]["hand"] and answer["your_turn"] is True
    assert "live_wait" not in answer
    table = client.get(reverse("play", args=[game.pk]))
    assert table.status_code == 200
    # the table counts the round's slot down and goes to the lobby when it ends
    html = table.content.decode()
    assert 'data-testid="live-slot"' in html and "js/live-table.js" in html
    assert reverse("api_tournament_live", args=[t.pk]) in html
    other = factories.make_tournament()
    practice = entry_services.entry_join(tournament_id=other.pk, user=user).game
    assert (
        'data-testid="live-slot"'
        not in client.get(reverse("play", args=[practice.pk])).content.decode()
    )


def test_entries_close_when_the_first_round_opens(db: Any) -> None:
    t = factories.make_live_evening(rounds=1)
    _join(t, "optijd")
    late = _client(factories.make_user("laatkomer"))
    join = f"/tournaments/{t.pk}/join/"
    assert join in late.get(reverse("tournament_detail", args=[t.pk])).content.decode()
    factories.live_clock_at(t, 0)
    with pytest.raises(TournamentNotOpen):
        _join(t, "telaat")
    # neither the tournament's page nor the lobby offers to join any more
    assert join not in late.get(reverse("tournament_detail", args=[t.pk])).content.decode()
    lobby = late.get(reverse("tournament_live", args=[t.pk])).content.decode()
    assert 'data-testid="live-join"' not in lobby


def _play_round_through_api(client: Client, game: Game) -> dict[str, Any]:
    """Play South's moves of round 0 through the API, as the basic bot would, and return
    the answer to the move that ended the round."""
    last: dict[str, Any] = {}
    while game.round_index == 0:
        response = client.post(
            reverse("api_game_move", args=[game.pk]),
            {"seq": game.seq, "action": factories.south_action(game)},
            content_type="application/json",
        )
        assert response.status_code == 200
        last = response.json()
        game.refresh_from_db()
    return last


def test_an_entrant_who_finished_a_round_waits_for_the_next_one(db: Any) -> None:
    t = factories.make_live_evening(rounds=2)
    user, game = _join(t, "snel")
    factories.live_clock_at(t, 0)
    client = _client(user)
    game.refresh_from_db()
    # play through the API up to the round's end: its last answer stops at the round's end
    last = _play_round_through_api(client, game)
    assert last["events"][-1]["type"] == "round_over"
    assert last["observation"] is None and last["live_wait"]["round"] == 1
    # round 1's bots may have played up to South, but nothing of it is shown or playable
    with pytest.raises(LiveRoundNotOpen):
        play_services.game_play_move(
            game_id=game.pk, user=user, seq=game.seq, action={"type": "draw"}
        )
    # the results of round 0 wait for its slot's close, for the entrant too
    assert standing_selectors.results_visibility(tournament=t, user=user).rounds == 0
    factories.live_clock_at(t, 1)
    live_services.live_slot_close(tournament_id=t.pk)
    t.refresh_from_db()
    assert t.live_slots_closed == 1
    assert standing_selectors.results_visibility(tournament=t, user=user).rounds == 1
    events = _play_round(game, user)
    assert events[-1]["type"] == "round_over"
    game.refresh_from_db()
    assert game.status == Game.Status.FINISHED and not game.bot_finished


def test_the_slots_close_has_the_bot_finish_the_round_which_does_not_count(db: Any) -> None:
    t = factories.make_live_evening(rounds=3)
    quick, quick_game = _join(t, "bijtijds")
    gone, gone_game = _join(t, "weg")
    factories.live_clock_at(t, 0)
    _play_round(quick_game, quick)
    # the dropout makes one move and leaves
    gone_game.refresh_from_db()
    play_services.game_play_move(
        game_id=gone_game.pk, user=gone, seq=gone_game.seq, action=factories.south_action(gone_game)
    )
    factories.live_clock_at(t, 0, moment="ended")
    # the slot's time has passed: no move of round 0 any more, even before the close runs
    gone_game.refresh_from_db()
    with pytest.raises(LiveRoundNotOpen):
        play_services.game_play_move(
            game_id=gone_game.pk,
            user=gone,
            seq=gone_game.seq,
            action=factories.south_action(gone_game),
        )
    assert live_services.live_slots_due() == [t.pk]
    assert live_services.live_slot_close(tournament_id=t.pk) == 1
    assert live_services.live_slots_due() == []
    gone_game.refresh_from_db()
    assert gone_game.round_index == 1 and gone_game.status == Game.Status.PLAYING
    assert not gone_game.bot_finished and len(gone_game.round_scores) == 1
    row = GameRound.objects.get(game=gone_game, round_index=0)
    assert row.bot_from == 1
    # the board of round 0 is everyone's now; the bot's round does not count
    t.refresh_from_db()
    assert permissions.results_visibility(user=None, tournament=t).rounds == 1
    board = standing_selectors.board_all(t, permissions.results_visibility(user=None, tournament=t))
    by_name = {s.username: s for s in board.rows}
    assert by_name["bijtijds"].rank == 1 and by_name["bijtijds"].rounds_counted == 1
    assert by_name["weg"].bot_rounds == (0,) and by_name["weg"].rounds_counted == 0
    assert by_name["weg"].rank is None
    # the dropout comes back for round 1: what they play themselves counts
    factories.live_clock_at(t, 1)
    _play_round(gone_game, gone)
    _play_round(quick_game, quick)
    factories.live_clock_at(t, 1, moment="ended")
    assert live_services.live_slot_close(tournament_id=t.pk) == 0
    t.refresh_from_db()
    assert t.live_slots_closed == 2
    row = EntryResult.objects.get(entry=gone_game.entry, upto=2)
    assert row.bot_rounds == [0] and row.rounds_counted == 1
    # the last slot: its board at its end like the others, then the close
    factories.live_clock_at(t, 2)
    _play_round(quick_game, quick)
    factories.live_clock_at(t, 2, moment="ended")
    assert live_services.live_closes_due() == []
    assert live_services.live_slot_close(tournament_id=t.pk) == 1
    gone_game.refresh_from_db()
    assert gone_game.status == Game.Status.FINISHED and not gone_game.bot_finished
    t.refresh_from_db()
    assert permissions.results_visibility(user=None, tournament=t).rounds == 3
    assert EntryResult.objects.get(entry=gone_game.entry, upto=3).bot_rounds == [0, 2]
    assert live_services.live_closes_due() == [t.pk]
    # (queued on commit, which a test's transaction never reaches: run here)
    closing_services.tournament_close(tournament_id=t.pk)
    t.refresh_from_db()
    assert t.closed_at is not None
    final = EntryResult.objects.get(entry=gone_game.entry, upto=3)
    assert final.bot_rounds == [0, 2] and final.rounds_counted == 1
    quick_final = EntryResult.objects.get(entry=quick_game.entry, upto=3)
    assert quick_final.bot_rounds == [] and quick_final.rounds_counted == 3
    gone_game.entry.refresh_from_db()
    assert gone_game.entry.audit_status == "ok"


def test_hands_at_a_rounds_end_are_shown_once_its_slot_has_closed(db: Any) -> None:
    t = factories.make_live_evening(rounds=2)
    user, game = _join(t, "handen")
    factories.live_clock_at(t, 0)
    events = _play_round(game, user)
    over = [e for e in events if e.get("type") == "round_over"]
    assert over and over[-1]["hands"] == [] and over[-1]["hand_counts"]
    game.refresh_from_db()
    assert not permissions.may_see_round_hands(game=game, round_index=0)
    factories.live_clock_at(t, 0, moment="ended")
    game = Game.objects.select_related("entry__tournament").get(pk=game.pk)
    assert permissions.may_see_round_hands(game=game, round_index=0)
    assert not permissions.may_see_round_hands(game=game, round_index=1)
    live_services.live_slot_close(tournament_id=t.pk)
    game = Game.objects.select_related("entry__tournament").get(pk=game.pk)
    assert game.entry.tournament.live_slots_closed == 1
    assert permissions.may_see_round_hands(game=game, round_index=0)


def test_the_status_every_page_polls_comes_from_the_cache(
    db: Any, django_assert_num_queries: Any
) -> None:
    t = factories.make_live_evening(rounds=2, starts_in=timedelta(minutes=10))
    url = reverse("api_tournament_live", args=[t.pk])
    client = Client()
    first = client.get(url).json()
    assert first["phase"] == "lobby" and first["round"] == 0 and first["board_rounds"] == 0
    assert datetime.fromisoformat(first["at"]) == t.live_slot(0)[0]
    with django_assert_num_queries(0):
        again = client.get(url)
    assert again.status_code == 200 and again["Cache-Control"] == "no-store"
    factories.live_clock_at(t, 0)
    playing = client.get(url).json()
    assert playing["phase"] == "playing" and playing["round"] == 0
    assert datetime.fromisoformat(playing["at"]) == t.live_slot(0)[1]
    t = factories.live_clock_at(t, 0, moment="ended")
    live_services.live_slot_close(tournament_id=t.pk)
    pause = client.get(url).json()
    assert pause["phase"] == "pause" and pause["round"] == 1 and pause["board_rounds"] == 1
    factories.live_clock_at(t, 1, moment="ended")
    assert client.get(url).json()["phase"] == "closing"
    closing_services.tournament_close(tournament_id=t.pk)
    over = client.get(url).json()
    assert over["phase"] == "over" and over["board_rounds"] == 2
    # not a live evening: not found
    other = factories.make_tournament()
    assert client.get(reverse("api_tournament_live", args=[other.pk])).status_code == 404
    assert client.get(reverse("tournament_live", args=[other.pk])).status_code == 404


def test_a_members_only_evening_polls_through_who_may_see_it(db: Any) -> None:
    t = factories.make_live_evening(rounds=1)
    tournament_services.tournament_update(tournament=t, access="members")
    url = reverse("api_tournament_live", args=[t.pk])
    assert Client().get(url).status_code == 404
    member = factories.make_user("lid")
    assert _client(member).get(url).status_code == 404
    factories.add_member(t.club, member)
    assert _client(member).get(url).json()["phase"] == "lobby"


def test_the_lobby_counts_down_and_sends_an_entrant_to_the_table(db: Any) -> None:
    t = factories.make_live_evening(rounds=2)
    user, game = _join(t, "wachter")
    page = _client(user).get(reverse("tournament_live", args=[t.pk]))
    html = page.content.decode()
    assert page.status_code == 200
    assert 'data-phase="lobby"' in html and 'data-testid="countdown"' in html
    assert f'data-play-url="{reverse("play", args=[game.pk])}"' in html
    assert 'data-my-round="0"' in html and "js/live.js" in html
    assert html.count("<tr") >= 3  # the schedule
    visitor = Client().get(reverse("tournament_live", args=[t.pk])).content.decode()
    assert "data-play-url" not in visitor and 'data-testid="live-join"' not in visitor
    newcomer = _client(factories.make_user("nieuw"))
    assert (
        'data-testid="live-join"'
        in newcomer.get(reverse("tournament_live", args=[t.pk])).content.decode()
    )
    # the tournament's API says its slots
    detail = Client().get(reverse("api_tournament", args=[t.pk])).json()
    assert [s["opens_at"] for s in detail["live"]["slots"]] == [
        t.live_slot(r)[0].isoformat() for r in range(2)
    ]
    assert detail["live"]["slots_closed"] == 0
    other = factories.make_tournament()
    assert Client().get(reverse("api_tournament", args=[other.pk])).json()["live"] is None
    # the tournament's page leads to it
    assert (
        reverse("tournament_live", args=[t.pk])
        in Client().get(reverse("tournament_detail", args=[t.pk])).content.decode()
    )


def test_the_organizer_creates_a_live_evening_with_the_form(db: Any) -> None:
    organizer = factories.make_user("avondleider", organizer=True)
    client = _client(organizer)
    start = timezone.localtime() + timedelta(days=1)
    data = factories.tournament_form_data(
        rounds=3,
        live="on",
        live_start=start.strftime("%Y-%m-%dT%H:%M"),
        live_slot_minutes="20, 30",
        live_pause_minutes=10,
        closes_at=None,
    )
    response = client.post(reverse("tournament_create"), data)
    assert response.status_code == 302, response.content.decode()[:2000]
    t = Tournament.objects.get(name="Fuzzavond")
    assert t.live
    lengths = [(c - o).total_seconds() / 60 for o, c in map(t.live_slot, range(3))]
    assert lengths == [20, 30, 30]
    assert (t.live_slot(1)[0] - t.live_slot(0)[1]) == timedelta(minutes=10)
    assert t.closes_at == t.live_slot(2)[1]
    edit = client.get(reverse("tournament_edit", args=[t.pk])).content.decode()
    assert 'value="20, 30, 30"' in edit
    bad = client.post(
        reverse("tournament_create"),
        factories.tournament_form_data(live="on", live_slot_minutes="twintig", closes_at=None),
    )
    assert bad.status_code == 200 and not Tournament.objects.filter(live=True).exclude(pk=t.pk)
    assert "live_slot_minutes" in bad.context["form"].errors
    assert "live_start" in bad.context["form"].errors


def test_beat_closes_the_slots_whose_time_has_passed(db: Any, settings: Any) -> None:
    assert settings.CELERY_BEAT_SCHEDULE["close-due-live-slots"]["task"] == (
        "tournaments.tasks.live_slots_close_due"
    )
    t = factories.make_live_evening(rounds=2)
    _user, game = _join(t, "laat")
    factories.live_clock_at(t, 0)
    assert tasks.live_slots_close_due.delay().get() == []
    factories.live_clock_at(t, 0, moment="ended")
    assert tasks.live_slots_close_due.delay().get() == [t.pk]
    t.refresh_from_db()
    game.refresh_from_db()
    assert t.live_slots_closed == 1 and game.round_index == 1


def test_a_klaverjas_evening_waits_for_the_next_round_the_same_way(db: Any) -> None:
    """Klaverjassen: the bots before South in the next round play when it is dealt (at the
    end of the last one), but nothing of it is shown before it opens."""
    t = factories.make_live_evening(game="klaverjas", preset="rotterdams", rounds=2)
    user, game = _join(t, "klaverjasser")
    factories.live_clock_at(t, 0)
    client = _client(user)
    game.refresh_from_db()
    last = _play_round_through_api(client, game)
    assert last["events"][-1]["type"] == "round_over"
    assert last["observation"] is None and last["live_wait"]["round"] == 1
    assert client.get(reverse("api_game", args=[game.pk])).json()["observation"] is None
    factories.live_clock_at(t, 0, moment="ended")
    live_services.live_slot_close(tournament_id=t.pk)
    factories.live_clock_at(t, 1)
    answer = client.get(reverse("api_game", args=[game.pk])).json()
    assert answer["observation"]["hand"] and answer["round"] == 1
    _play_round(game, user)
    game.refresh_from_db()
    assert game.status == Game.Status.FINISHED and not game.bot_finished


def test_the_live_answers_are_the_ones_the_api_description_gives(db: Any) -> None:
    """The lobby's status, a game waiting for its round, a move that ends a round before
    the next opens and the tournament with its slots validate against the OpenAPI
    description (tournaments/openapi.json)."""
    from tests.tournaments.test_openapi import check

    t = factories.make_live_evening(rounds=2)
    user, game = _join(t, "beschreven")
    client = _client(user)
    check(
        client.get(reverse("api_tournament_live", args=[t.pk])),
        "/api/tournaments/{tournament_id}/live/",
        "get",
    )
    check(
        Client().get(reverse("api_tournament_live", args=[0])),
        "/api/tournaments/{tournament_id}/live/",
        "get",
    )
    check(client.get(reverse("api_game", args=[game.pk])), "/api/games/{game_id}/", "get")
    check(
        client.get(reverse("api_tournament", args=[t.pk])),
        "/api/tournaments/{tournament_id}/",
        "get",
    )
    factories.live_clock_at(t, 0)
    game.refresh_from_db()
    while game.round_index == 0:
        response = client.post(
            reverse("api_game_move", args=[game.pk]),
            {"seq": game.seq, "action": factories.south_action(game)},
            content_type="application/json",
        )
        game.refresh_from_db()
    check(response, "/api/games/{game_id}/moves/", "post")
    refused = client.post(
        reverse("api_game_move", args=[game.pk]),
        {"seq": game.seq, "action": {"type": "draw", "source": "stock"}},
        content_type="application/json",
    )
    assert refused.json()["error"]["code"] == "live_round_not_open"
    check(refused, "/api/games/{game_id}/moves/", "post")


def test_every_lobby_takes_the_same_board_from_the_cache(
    db: Any, django_assert_max_num_queries: Any
) -> None:
    t = factories.make_live_evening(rounds=2)
    first, first_game = _join(t, "eerste")
    second, _second_game = _join(t, "tweede")
    url = reverse("tournament_live_board", args=[t.pk])
    before = Client().get(url).content.decode()
    assert "eerste" in before and 'data-testid="vs-par"' not in before
    factories.live_clock_at(t, 0)
    _play_round(first_game, first)
    # finished, but the slot is open: nobody sees the round's figures yet
    assert 'data-testid="vs-par"' not in _client(first).get(url).content.decode()
    factories.live_clock_at(t, 0, moment="ended")
    live_services.live_slot_close(tournament_id=t.pk)
    mine = _client(first).get(url + "?ratings=1").content.decode()
    assert 'data-testid="vs-par"' in mine and 'class="me"' not in mine
    assert "board-rating" not in mine
    # the same HTML for everyone, from the cache: no render, a few reads of who may see
    other = _client(second)
    with django_assert_max_num_queries(4):
        theirs = other.get(url).content.decode()
    assert theirs == mine == Client().get(url).content.decode()
    page = Client().get(reverse("tournament_live", args=[t.pk])).content.decode()
    assert f'data-board-url="{url}"' in page
