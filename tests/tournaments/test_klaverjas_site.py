"""Klaverjas tournaments on the site (docs/rules.md §4, §6): identical deals for every entrant,
the result is the own team's points minus the other team's (higher is better, equal
results share a rank), per-deal results, the bot finishing at close, the play API with
Klaverjas moves, and the organizer's form for the Klaverjas presets."""

from __future__ import annotations

import json
from typing import Any

import factories
import pytest
from django.test import Client
from django.urls import reverse

from engine.klaverjas import PRESETS, Variant, state_from_json
from engine.klaverjas.rules import legal_cards
from tournaments.forms import HIDDEN_VARIANT_KEYS, VARIANT_PREFIX, TournamentForm
from tournaments.models import Game, Tournament
from tournaments.selectors import deals as deal_selectors
from tournaments.selectors import replay as replay_selectors
from tournaments.selectors import standings as standing_selectors
from tournaments.services import closing as closing_services
from tournaments.services import entries as entry_services
from tournaments.services import play as play_services
from tournaments.services import results as result_services
from tournaments.services import tournaments as tournament_services

pytestmark = pytest.mark.django_db

#: Card points in a round with the last trick (docs/rules.md §6).
ROUND_POINTS = 162


def klaverjas_tournament(*, preset: str = "rotterdams", rounds: int = 2, **kw: Any) -> Tournament:
    return factories.make_tournament(
        name="Klaverjasavond", game="klaverjas", preset=preset, rounds=rounds, **kw
    )


def join(t: Tournament, name: str) -> tuple[Any, Game]:
    user = factories.make_user(name)
    return user, entry_services.entry_join(tournament_id=t.pk, user=user).game


def set_totals(game: Game, round_scores: list[list[int]]) -> None:
    """Give a game these finished rounds (per seat: the team's points), as if played."""
    totals = [sum(r[s] for r in round_scores) for s in range(4)]
    finished = len(round_scores) >= game.rounds
    Game.objects.filter(pk=game.pk).update(
        round_scores=round_scores,
        totals=totals,
        status=Game.Status.FINISHED if finished else Game.Status.PLAYING,
    )
    result_services.entry_results_update(game=game)


def team_scores(we: int, they: int) -> list[int]:
    """Seat scores of a round: South and North share their team's, West and East theirs."""
    return [we, they, we, they]


# --- Identical deals ------------------------------------------------------------------


def test_every_entrant_gets_the_same_deals_and_the_same_bot_moves(organizer: Any) -> None:
    t = klaverjas_tournament(rounds=2, created_by=organizer)
    user_a, game_a = join(t, "anna")
    user_b, game_b = join(t, "bram")
    # Round 0 is dealt identically: same hands, same proposed trump, same bots' bids.
    assert game_a.state["hands"] == game_b.state["hands"]
    assert game_a.state["proposed_trump"] == game_b.state["proposed_trump"]
    assert game_a.state["bids"] == game_b.state["bids"]

    game_a, _ = factories.play_to_end(game_a, user_a)
    game_b, _ = factories.play_to_end(game_b, user_b)
    # Both chose like the basic bot, so both games are the same move for move.
    moves_a = [(m.round_index, m.seat, m.action) for m in replay_selectors.game_moves(game=game_a)]
    moves_b = [(m.round_index, m.seat, m.action) for m in replay_selectors.game_moves(game=game_b)]
    assert moves_a == moves_b
    assert game_a.round_scores == game_b.round_scores
    for r in range(2):
        deal_a = replay_selectors.game_replay(game=game_a, round_index=r)[0].observations
        deal_b = replay_selectors.game_replay(game=game_b, round_index=r)[0].observations
        assert [o["hand"] for o in deal_a] == [o["hand"] for o in deal_b]
        assert len({c for o in deal_a for c in o["hand"]}) == 32  # the whole pack, dealt


def test_different_choices_still_meet_the_same_deal_next_round(organizer: Any) -> None:
    t = klaverjas_tournament(rounds=2, created_by=organizer)
    user_a, game_a = join(t, "anna")
    user_b, game_b = join(t, "bram")
    # Anna always plays the last legal action, Bram the first: their round 0 may differ.
    for user, game, pick in ((user_a, game_a, -1), (user_b, game_b, 0)):
        while game.round_index == 0 and game.status == Game.Status.PLAYING:
            state = state_from_json(game.state)
            action = state.legal_actions()[pick].to_json()
            game = play_services.game_play_move(
                game_id=game.pk, user=user, seq=game.seq, action=action
            ).game
    game_a.refresh_from_db()
    game_b.refresh_from_db()
    assert game_a.round_index == game_b.round_index == 1
    first_a = replay_selectors.game_replay(game=game_a, round_index=1)[0].observations
    first_b = replay_selectors.game_replay(game=game_b, round_index=1)[0].observations
    assert [o["hand"] for o in first_a] == [o["hand"] for o in first_b]
    assert first_a[0]["proposed_trump"] == first_b[0]["proposed_trump"]


# --- Scores and results ------------------------------------------------------------------


def test_round_scores_give_both_partners_their_teams_points_by_the_rules(organizer: Any) -> None:
    t = klaverjas_tournament(rounds=3, created_by=organizer)
    user, game = join(t, "anna")
    game, events = factories.play_to_end(game, user)
    assert len(game.round_scores) == 3
    for r, scores in enumerate(game.round_scores):
        we, they = scores[0], scores[1]
        assert scores == team_scores(we, they)  # partners share the team's points
        end = replay_selectors.game_replay(game=game, round_index=r)[-1].observations[0]
        result = end["result"]
        assert result["scores"] == [we, they]
        # Every point of the round goes to a team: 162 and all roem (and a pit bonus).
        pit = t.variant["pit"] if result["pit_team"] is not None else 0
        assert we + they == ROUND_POINTS + sum(result["roem"]) + pit
        playing, other = result["playing_team"], 1 - result["playing_team"]
        mine = result["points"][playing] + result["roem"][playing]
        theirs = result["points"][other] + result["roem"][other]
        # Nat: the playing team did not score more, gets 0, the other team everything.
        assert result["nat"] == (mine <= theirs)
        if result["nat"]:
            assert result["scores"][playing] == 0
    assert game.totals == [sum(r[s] for r in game.round_scores) for s in range(4)]
    over = [e for e in events if e.get("type") == "round_over"]
    assert [e["scores"] for e in over] == game.round_scores


def test_result_is_own_team_minus_the_other_team(organizer: Any) -> None:
    t = klaverjas_tournament(rounds=2, created_by=organizer)
    user, game = join(t, "anna")
    game, _ = factories.play_to_end(game, user)
    total, opponents, result = standing_selectors.game_result(game)
    we, they = game.totals[0], game.totals[1]
    assert total == we
    assert result == we - they
    # What the own total is measured against: the other team's points (not an average of
    # the three other seats, which would count the partner).
    assert opponents == they
    row = next(s for s in standing_selectors.standings(tournament=t) if s.game_id == game.pk)
    assert (row.result, row.total, row.opponents_average, row.rank) == (we - they, we, they, 1)


def test_ranking_is_higher_is_better_and_equal_results_share_a_rank(organizer: Any) -> None:
    t = klaverjas_tournament(rounds=2, created_by=organizer)
    games = {name: join(t, name)[1] for name in ("anna", "bram", "cees", "dirk", "eva")}
    set_totals(games["anna"], [team_scores(100, 62), team_scores(0, 182)])  # -144
    set_totals(games["bram"], [team_scores(120, 42), team_scores(90, 72)])  # +96
    set_totals(games["cees"], [team_scores(162, 0), team_scores(81, 101)])  # +142
    set_totals(games["dirk"], [team_scores(142, 20), team_scores(81, 107)])  # +96
    # eva has not finished a round: unranked, listed last.
    rows = result_services.standings_refresh(tournament=t)
    assert [(s.username, s.rank, s.result) for s in rows] == [
        ("cees", 1, 142.0),
        ("bram", 2, 96.0),
        ("dirk", 2, 96.0),
        ("anna", 4, -144.0),
        ("eva", None, None),
    ]
    # The standings API says the same to an entrant who has finished both rounds.
    client = Client()
    client.force_login(games["dirk"].user)
    data = client.get(reverse("api_tournament_standings", args=[t.pk])).json()
    assert [(r["player"], r["rank"], r["result"]) for r in data["standings"]] == [
        ("cees", 1, 142.0),
        ("bram", 2, 96.0),
        ("dirk", 2, 96.0),
        ("anna", 4, -144.0),
        ("eva", None, None),
    ]
    # A finished game reports its rank in the play API.
    payload = client.get(reverse("api_game", args=[games["dirk"].pk])).json()
    assert payload["result"]["result"] == 96.0
    assert payload["result"]["rank"] == 2


def test_per_deal_results_rank_the_field_higher_is_better(organizer: Any) -> None:
    t = klaverjas_tournament(rounds=2, created_by=organizer)
    games = {name: join(t, name)[1] for name in ("anna", "bram", "cees")}
    set_totals(games["anna"], [team_scores(100, 62), team_scores(0, 182)])
    set_totals(games["bram"], [team_scores(62, 100), team_scores(81, 81)])
    set_totals(games["cees"], [team_scores(100, 62)])  # round 2 not played yet
    deals = deal_selectors.deal_results(
        tournament=t, visibility=standing_selectors.Visibility(rounds=2)
    )
    assert [
        (d.username, d.score, d.opponents_average, d.result, d.rank) for d in deals[0].rows
    ] == [
        ("anna", 100, 62, 38.0, 1),
        ("cees", 100, 62, 38.0, 1),
        ("bram", 62, 100, -38.0, 3),
    ]
    assert [(d.username, d.result, d.rank) for d in deals[1].rows] == [
        ("bram", 0.0, 1),
        ("anna", -182.0, 2),
    ]


def test_the_tournament_page_shows_the_klaverjas_result_rule(organizer: Any) -> None:
    t = klaverjas_tournament(rounds=1, created_by=organizer)
    user, game = join(t, "anna")
    factories.play_to_end(game, user)
    client = Client()
    client.force_login(user)
    html = client.get(reverse("tournament_detail", args=[t.pk]), HTTP_ACCEPT_LANGUAGE="en")
    text = html.content.decode()
    assert "higher is better" in text
    assert "lower is better" not in text
    assert "Per deal" in text  # a finished entrant sees the field on the same deal


# --- Closing -------------------------------------------------------------------------------


def test_the_bot_finishes_an_unfinished_game_when_the_tournament_closes(organizer: Any) -> None:
    t = klaverjas_tournament(rounds=2, created_by=organizer)
    user, game = join(t, "anna")
    _other, untouched = join(t, "bram")
    for _ in range(3):  # a few moves of Anna's, then she stops
        game.refresh_from_db()
        play_services.game_play_move(
            game_id=game.pk, user=user, seq=game.seq, action=factories.south_action(game)
        )
    closing_services.tournament_close(tournament_id=t.pk)
    t.refresh_from_db()
    assert t.closed_at is not None
    for g in (game, untouched):
        g.refresh_from_db()
        assert g.status == Game.Status.FINISHED
        assert g.bot_finished is True
        assert len(g.round_scores) == 2
        assert any(m.seat == 0 and m.by_bot for m in replay_selectors.game_moves(game=g))
    # Anna's own moves stay hers.
    own = [m for m in replay_selectors.game_moves(game=game) if m.seat == 0 and not m.by_bot]
    assert len(own) == 3
    # The bot played both rounds in both seats: no round counts, nobody is ranked.
    rows = standing_selectors.standings(tournament=t)
    assert all(s.bot_finished and s.bot_rounds == (0, 1) for s in rows)
    assert all(s.rank is None and s.result is None and s.rounds_played == 2 for s in rows)


# --- The play API with Klaverjas moves -------------------------------------------------------


def _to_follow_suit(game: Game, user: Any) -> Game:
    """Play on (South like the basic bot) until South must follow the led suit and also
    holds another suit."""
    for _ in range(200):
        game.refresh_from_db()
        state = state_from_json(game.state)
        if state.phase == "play" and state.current_player == 0 and state.trick:
            suits = {c // 8 for c in state.hands[0]}
            if state.trick[0] // 8 in suits and len(suits) > 1:
                return game
        play_services.game_play_move(
            game_id=game.pk, user=user, seq=game.seq, action=factories.south_action(game)
        )
    raise AssertionError("no such position")


def test_api_refuses_a_card_that_does_not_follow_suit(organizer: Any) -> None:
    t = klaverjas_tournament(rounds=3, created_by=organizer)
    user, game = join(t, "anna")
    game = _to_follow_suit(game, user)
    state = state_from_json(game.state)
    assert state.trump is not None
    led = state.trick[0] // 8
    wrong = min(c for c in state.hands[0] if c // 8 != led)
    client = Client()
    client.force_login(user)
    url = reverse("api_game_move", args=[game.pk])
    body = json.dumps({"seq": game.seq, "action": {"type": "play", "card": wrong}})
    response = client.post(url, data=body, content_type="application/json")
    assert response.status_code == 400
    error = response.json()["error"]
    assert error["code"] == "must_follow_suit"
    assert error["message"] == error["nl"] and "bekennen" in error["nl"]
    english = client.post(
        url, data=body, content_type="application/json", HTTP_ACCEPT_LANGUAGE="en"
    )
    assert english.json()["error"]["message"] == error["en"]
    before = Game.objects.get(pk=game.pk)
    assert (before.seq, before.state) == (game.seq, game.state)
    # The payload lists the legal cards: those of the led suit.
    payload = client.get(reverse("api_game", args=[game.pk])).json()
    legal = [a["card"] for a in payload["observation"]["legal_actions"]]
    assert legal == legal_cards(state.hands[0], state.trick, state.trump, state.variant)
    assert all(c // 8 == led for c in legal)
    assert payload["your_turn"] is True


def test_api_bidding_and_the_events_of_a_move(organizer: Any) -> None:
    t = klaverjas_tournament(rounds=1, created_by=organizer)
    user, game = join(t, "anna")
    client = Client()
    client.force_login(user)
    payload = client.get(reverse("api_game", args=[game.pk])).json()
    obs = payload["observation"]
    assert payload["game"] == "klaverjas" and payload["seat"] == 0
    assert len(obs["hand"]) == 8 and "hands" not in json.dumps(payload)
    # If a bot played ("gaat"), West led and the bots up to South have played a card.
    assert obs["hand_counts"][0] == 8
    assert sum(obs["hand_counts"]) + len(obs["trick"]["plays"]) == 32
    assert [p["seat"] for p in obs["trick"]["plays"]] == [1, 2, 3][: len(obs["trick"]["plays"])]
    # Round 0 is dealt by South: West, North and East bid first (seed 003).
    assert obs["dealer"] == 0 and obs["first_player"] == 1
    assert [b["seat"] for b in obs["bids"]] == [1, 2, 3][: len(obs["bids"])]
    action = factories.south_action(game)
    response = client.post(
        reverse("api_game_move", args=[game.pk]),
        data=json.dumps({"seq": game.seq, "action": action}),
        content_type="application/json",
    )
    assert response.status_code == 200
    data = response.json()
    events = data["events"]
    assert events[0]["seat"] == 0 and events[0]["action"] == action
    seats = [e["seat"] for e in events if "seat" in e]
    assert all(s in (1, 2, 3) for s in seats[1:])
    assert data["seq"] == game.seq + len(seats)
    # Each event carries South's view only: never another seat's cards in hand.
    for e in events:
        if "observation" in e:
            assert len(e["observation"]["hand"]) == e["observation"]["hand_counts"][0]


def test_the_play_page_uses_the_klaverjas_table(organizer: Any) -> None:
    t = klaverjas_tournament(rounds=1, created_by=organizer)
    user, game = join(t, "anna")
    client = Client()
    client.force_login(user)
    html = client.get(reverse("play", args=[game.pk])).content.decode()
    assert 'id="kj-table"' in html
    assert "js/klaverjas.js" in html and "css/klaverjas.css" in html
    assert 'id="table-strings"' in html and 'id="initial-state"' in html
    strings = html.split('id="table-strings">', 1)[1].split("</script>", 1)[0]
    assert json.loads(strings)["partner"]  # the strings blob is valid JSON


# --- The organizer's form -----------------------------------------------------------------


def _form_data(preset: str, **variant: Any) -> dict[str, Any]:
    base = PRESETS[preset.split(":")[1]].to_json()
    data: dict[str, Any] = {
        "name": "Klaverjasavond",
        "preset": preset,
        "rounds": 4,
        "max_entrants": 6,
        "bot_level": "strong",
        "opens_at": "2030-01-01T19:00",
        "closes_at": "2030-01-08T19:00",
    }
    for key, value in {**base, **variant}.items():
        if key in HIDDEN_VARIANT_KEYS:
            continue
        if isinstance(value, bool):
            if value:
                data[VARIANT_PREFIX + key] = "on"
        elif value is None:
            data[VARIANT_PREFIX + key] = ""
        else:
            data[VARIANT_PREFIX + key] = str(value)
    return data


@pytest.mark.parametrize("preset", ["rotterdams", "amsterdams"])
def test_the_form_offers_every_setting_of_the_klaverjas_presets(preset: str) -> None:
    form = TournamentForm(preset=f"klaverjas:{preset}")
    fields = {name.removeprefix(VARIANT_PREFIX) for name in form.fields if name.startswith("v_")}
    expected = set(PRESETS[preset].to_json()) - set(HIDDEN_VARIANT_KEYS)
    assert fields == expected
    for key, value in PRESETS[preset].to_json().items():
        if key not in HIDDEN_VARIANT_KEYS:
            assert form.fields[VARIANT_PREFIX + key].initial == value, key
    # The choices of the Literal settings are the engine's.
    assert {c for c, _ in form.fields["v_bidding"].choices} == {
        "one_round_first_chooses",
        "two_rounds",
        "no_passing",
    }
    assert {c for c, _ in form.fields["v_undertrump"].choices} == {
        "must_undertrump",
        "no_undertrump_while_other_suit",
    }


@pytest.mark.parametrize("preset", ["rotterdams", "amsterdams"])
def test_the_form_creates_a_klaverjas_tournament_with_the_preset(
    organizer: Any, preset: str
) -> None:
    form = TournamentForm(_form_data(f"klaverjas:{preset}"))
    assert form.is_valid(), form.errors
    t = tournament_services.tournament_create(
        created_by=organizer, club=factories.default_club(), **form.service_kwargs()
    )
    assert (t.game, t.preset, t.rounds, t.bot_level) == ("klaverjas", preset, 4, "strong")
    expected = {**PRESETS[preset].to_json(), "rounds": 4}
    assert t.variant == expected
    assert t.variant["partner_exemption"] is (preset == "amsterdams")


def test_the_form_carries_every_changed_klaverjas_setting(organizer: Any) -> None:
    changed = {
        "points_limit": 1500,
        "bidding": "two_rounds",
        "must_trump": False,
        "must_overtrump": False,
        "undertrump": "no_undertrump_while_other_suit",
        "partner_exemption": True,
        "four_jacks": 200,
        "last_trick": 20,
        "pit": 200,
        "tie_is_nat": False,
        "max_redeals": 5,
    }
    form = TournamentForm(_form_data("klaverjas:rotterdams", **changed))
    assert form.is_valid(), form.errors
    t = tournament_services.tournament_create(
        created_by=organizer, club=factories.default_club(), **form.service_kwargs()
    )
    for key, value in changed.items():
        assert t.variant[key] == value, key
    variant = Variant(**{k: v for k, v in t.variant.items()})
    assert variant.bidding == "two_rounds"


def test_the_form_through_the_organizer_page(organizer: Any) -> None:
    client = Client()
    client.force_login(organizer)
    url = reverse("tournament_create")
    page = client.get(url, {"preset": "klaverjas:amsterdams"}).content.decode()
    assert 'name="v_partner_exemption"' in page and 'name="v_bidding"' in page
    response = client.post(url, _form_data("klaverjas:amsterdams", bidding="no_passing"))
    assert response.status_code == 302
    t = Tournament.objects.get(name="Klaverjasavond")
    assert (t.game, t.preset) == ("klaverjas", "amsterdams")
    assert t.variant["bidding"] == "no_passing" and t.variant["partner_exemption"] is True
