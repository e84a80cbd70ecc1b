"""The play API (docs/api.md): GET the player's view, POST a move; errors 400/403/404/409."""

from __future__ import annotations

import json
import statistics
from typing import Any

import factories
import pytest
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from tournaments.games import PLAYER_SEAT, dealt_round, module_of
from tournaments.models import Game, Tournament
from tournaments.selectors import replay as replay_selectors
from tournaments.services import closing as closing_services
from tournaments.services import entries as entry_services
from tournaments.services import play as play_services

pytestmark = pytest.mark.django_db


@pytest.fixture
def game(tournament: Tournament, user: Any) -> Game:
    return entry_services.entry_join(tournament_id=tournament.pk, user=user).game


@pytest.fixture
def player(client: Client, user: Any) -> Client:
    client.force_login(user)
    return client


def _post(client: Client, game: Game, body: Any, **headers: Any) -> Any:
    return client.post(
        reverse("api_game_move", args=[game.pk]),
        data=json.dumps(body),
        content_type="application/json",
        **headers,
    )


def _walk(value: Any) -> list[Any]:
    """Every value inside a JSON value."""
    out = [value]
    if isinstance(value, dict):
        for v in value.values():
            out.extend(_walk(v))
    elif isinstance(value, list):
        for v in value:
            out.extend(_walk(v))
    return out


def _keys(value: Any) -> set[str]:
    """Every key of every object inside a JSON value."""
    return {k for v in _walk(value) if isinstance(v, dict) for k in v}


def _assert_no_hidden_cards(payload: dict[str, Any], game: Game) -> None:
    """Never another seat's hand, never the stock order, never the secret or seed."""
    full = game.state
    body = json.dumps(payload)
    values = _walk(payload)
    assert not {"stock", "hands", "round_seed", "secret"} & _keys(payload)
    assert bytes(game.secret_bytes).hex() not in body
    for seat, hand in enumerate(full["hands"]):
        if seat != 0 and len(hand) >= 2:
            assert hand not in values and sorted(hand) not in values
    if len(full["stock"]) >= 2:
        assert full["stock"] not in values
    assert payload["observation"]["hand"] == full["hands"][0]


def test_get_returns_the_players_view(player: Client, game: Game) -> None:
    response = player.get(reverse("api_game", args=[game.pk]))
    assert response.status_code == 200
    data = response.json()
    assert data["id"] == game.pk and data["game"] == "jokeren"
    assert data["variant_name"] == "jokeren7" and data["variant"]["hand_size"] == 7
    assert data["tournament"] == {"id": game.entry.tournament_id, "name": "Toernooi"}
    assert (data["round"], data["rounds"], data["seq"]) == (game.round_index, 2, game.seq)
    assert data["status"] == "playing" and data["bot_finished"] is False
    assert data["seat"] == 0 and data["your_turn"] is True and data["result"] is None
    assert data["seat_names"] == ["Jij", "West", "Noord", "Oost"]
    assert data["totals"] == game.totals and data["round_scores"] == game.round_scores
    # (the fixture's deal gives South a turn in round 0: factories.make_tournament)
    assert data["round"] == 0 and data["totals"] == [0, 0, 0, 0] and data["round_scores"] == []
    _assert_no_hidden_cards(data, game)


def test_get_in_english(player: Client, game: Game) -> None:
    data = player.get(reverse("api_game", args=[game.pk]), HTTP_ACCEPT_LANGUAGE="en").json()
    assert data["seat_names"] == ["You", "West", "North", "East"]


def test_a_legal_move_returns_the_events_in_order(player: Client, game: Game) -> None:
    seq = game.seq
    action = factories.south_action(game)
    response = _post(player, game, {"seq": seq, "action": action})
    assert response.status_code == 200
    data = response.json()
    events = data["events"]
    assert events[0]["seat"] == 0 and events[0]["action"] == action
    assert events[0]["text"].startswith("Jij ")  # a sentence: "Jij pakt ..."
    game.refresh_from_db()
    moves = [e for e in events if "seat" in e]
    assert data["seq"] == game.seq == seq + len(moves)
    round_moves = [
        m for m in replay_selectors.game_moves(game=game) if m.round_index == game.round_index
    ]
    assert json.loads(game.round_actions) == [m.action for m in round_moves]
    assert [m.action for m in replay_selectors.game_moves(game=game)[seq:]] == [
        e["action"] for e in moves
    ]
    # Lean events: no observation each, only what changed; the first one changes the hand.
    assert all("observation" not in e for e in events)
    assert "hand" in {**events[0].get("set", {}), **events[0].get("splice", {})}
    for event in moves:
        assert not {"stock", "hands", "round_seed"} & _keys(event.get("set", {}))
    _assert_no_hidden_cards(data, game)
    # The text is in the request's language.
    nxt = {"seq": game.seq, "action": factories.south_action(game)}
    answer = _post(player, game, nxt, HTTP_ACCEPT_LANGUAGE="en").json()
    assert answer["events"][0]["text"].startswith("You ")


def test_the_events_changes_rebuild_every_observation_of_the_move(
    player: Client, game: Game
) -> None:
    """Applying each event's ``set`` and ``splice`` to the observation shown before the
    move gives the player's observation after that action (as the replay rebuilds it), and
    the last one is the response's own observation."""
    before = player.get(reverse("api_game", args=[game.pk])).json()["observation"]
    seq = game.seq
    data = _post(player, game, {"seq": seq, "action": factories.south_action(game)}).json()
    game.refresh_from_db()
    frames = replay_selectors.game_replay(game=game, round_index=game.round_index)
    expected = {f.seq: f.state.observation(0) for f in frames if f.seq is not None}
    shown = before
    for event in data["events"]:
        if "seat" not in event:
            continue
        shown = {**shown, **event.get("set", {})}
        for key, (start, removed, items) in event.get("splice", {}).items():
            shown[key] = [*shown[key][:start], *items, *shown[key][start + removed :]]
        seq += 1
        if seq - 1 in expected:
            assert json.loads(json.dumps(expected[seq - 1])) == shown
    # the response's observation leaves out the log, which the events have rebuilt
    assert "log" not in data["observation"]
    assert {k: v for k, v in shown.items() if k != "log"} == data["observation"]
    after = player.get(reverse("api_game", args=[game.pk])).json()["observation"]
    assert shown == after


def test_a_typical_discard_answers_in_a_few_kilobytes(player: Client, user: Any) -> None:
    """The answer to a discard (the bots' replies included) is a few kilobytes, the
    typical (median) one at most 8 KB: the events carry what changed, the observation comes
    once (it was 35 to 124 KB with an observation per event)."""
    # A fixed secret: the same deals, the same moves, the same sizes every run.
    t = factories.make_tournament(preset="jokeren7", rounds=4, secret=bytes(range(32)))
    game = entry_services.entry_join(tournament_id=t.pk, user=user).game
    sizes = []
    while len(sizes) < 6 and game.status == Game.Status.PLAYING:
        game.refresh_from_db()
        action = factories.south_action(game)
        response = _post(player, game, {"seq": game.seq, "action": action})
        assert response.status_code == 200
        if action["type"] == "discard":
            sizes.append(len(response.content))
    print(sizes)
    assert len(sizes) == 6 and statistics.median(sizes) <= 8 * 1024, sizes
    assert max(sizes) <= 16 * 1024, sizes


def test_a_typical_jokeren_13_discard_answers_in_at_most_8_kb(player: Client, user: Any) -> None:
    """Jokeren 13's long rounds too: the median answer to a discard over a game of four
    rounds is at most 8 KB (it was 8.8 KB with the round's whole log in the
    response's observation; the events carry its growth)."""
    t = factories.make_tournament(preset="jokeren13", rounds=4, secret=bytes(range(32)))
    game = entry_services.entry_join(tournament_id=t.pk, user=user).game
    sizes = []
    while game.status == Game.Status.PLAYING:
        action = factories.south_action(game)
        response = _post(player, game, {"seq": game.seq, "action": action})
        assert response.status_code == 200
        if action["type"] == "discard":
            sizes.append(len(response.content))
        game.refresh_from_db()
    assert len(sizes) >= 10 and statistics.median(sizes) <= 8 * 1024, sizes


def test_playing_on_reaches_round_over_events_with_the_cards_left(
    player: Client, game: Game
) -> None:
    """An open tournament's round end: the points and how many cards each seat has left,
    never the hands (docs/rules.md, "The card table", rule 2)."""
    events: list[dict[str, Any]] = []
    first_round = game.round_index
    while not any(e.get("type") == "round_over" for e in events):
        game.refresh_from_db()
        response = _post(player, game, {"seq": game.seq, "action": factories.south_action(game)})
        assert response.status_code == 200
        events.extend(response.json()["events"])
    end = next(e for e in events if e.get("type") == "round_over")
    assert end["round"] == first_round and len(end["scores"]) == 4
    assert end["hands"] == [] and len(end["hand_counts"]) == 4
    assert sum(end["hand_counts"]) > 0  # the others still hold cards
    data = player.get(reverse("api_game", args=[game.pk])).json()
    assert data["round_scores"][first_round] == end["scores"]
    assert data["round"] == first_round + 1 or data["status"] == "finished"


def test_an_illegal_move_is_400_with_the_reason_in_both_languages(
    player: Client, game: Game
) -> None:
    before = (game.seq, game.state)
    card = game.state["hands"][0][0]
    response = _post(player, game, {"seq": game.seq, "action": {"type": "discard", "card": card}})
    assert response.status_code == 400
    error = response.json()["error"]
    assert error["code"] and error["nl"] and error["en"] and error["nl"] != error["en"]
    assert error["message"] == error["nl"]  # the default language is Dutch
    english = _post(
        player,
        game,
        {"seq": game.seq, "action": {"type": "discard", "card": card}},
        HTTP_ACCEPT_LANGUAGE="en",
    )
    assert english.status_code == 400 and english.json()["error"]["message"] == error["en"]
    game.refresh_from_db()
    assert (game.seq, game.state) == before


@pytest.mark.parametrize(
    "body",
    [
        {"action": {"type": "draw", "source": "stock"}},
        {"seq": "1", "action": {"type": "draw", "source": "stock"}},
        {"seq": 0, "action": "draw"},
        {"seq": 0, "action": {"type": "fly"}},
    ],
)
def test_a_malformed_move_is_400(player: Client, game: Game, body: dict[str, Any]) -> None:
    before = (game.seq, game.round_actions)
    if body.get("seq") == 0:
        body["seq"] = game.seq
    response = _post(player, game, body)
    assert response.status_code == 400
    assert response.json()["error"]["nl"]
    game.refresh_from_db()
    assert (game.seq, game.round_actions) == before


def test_not_json_is_400(player: Client, game: Game) -> None:
    url = reverse("api_game_move", args=[game.pk])
    response = player.post(url, data="seq=1", content_type="application/json")
    assert response.status_code == 400
    assert response.json()["error"]["code"] == "malformed_request"
    # A body not sent as JSON is not read at all (docs/api.md).
    response = player.post(url, data="seq=1", content_type="text/plain")
    assert response.status_code == 415


def test_a_stale_or_repeated_seq_is_409(player: Client, game: Game) -> None:
    body = {"seq": game.seq, "action": factories.south_action(game)}
    assert _post(player, game, body).status_code == 200
    game.refresh_from_db()
    repeated = _post(player, game, body)
    assert repeated.status_code == 409
    data = repeated.json()
    assert data["error"]["code"] == "stale_move" and data["seq"] == game.seq
    assert data["error"]["nl"] and data["error"]["en"]
    before = game.seq
    game.refresh_from_db()
    assert game.seq == before


def test_someone_elses_game_is_404(client: Client, game: Game, other_user: Any) -> None:
    client.force_login(other_user)
    assert client.get(reverse("api_game", args=[game.pk])).status_code == 404
    response = _post(client, game, {"seq": game.seq, "action": factories.south_action(game)})
    assert response.status_code == 404
    assert client.get(reverse("api_game", args=[999999])).status_code == 404
    assert client.get(reverse("play", args=[game.pk])).status_code == 404


def test_anonymous_is_403(client: Client, game: Game) -> None:
    assert client.get(reverse("api_game", args=[game.pk])).status_code == 403
    response = _post(client, game, {"seq": game.seq, "action": factories.south_action(game)})
    assert response.status_code == 403


def test_post_needs_the_csrf_token(user: Any, game: Game) -> None:
    client = Client(enforce_csrf_checks=True)
    client.force_login(user)
    response = _post(client, game, {"seq": game.seq, "action": factories.south_action(game)})
    assert response.status_code == 403
    client.get(reverse("play", args=[game.pk]))
    token = client.cookies["csrftoken"].value
    response = _post(
        client,
        game,
        {"seq": game.seq, "action": factories.south_action(game)},
        HTTP_X_CSRFTOKEN=token,
    )
    assert response.status_code == 200


def test_a_finished_game_reports_the_result(player: Client, game: Game, user: Any) -> None:
    factories.play_to_end(game, user)
    data = player.get(reverse("api_game", args=[game.pk])).json()
    game.refresh_from_db()
    assert data["status"] == "finished" and data["your_turn"] is False
    result = data["result"]
    assert result["total"] == game.totals[0]
    assert result["opponents_average"] == pytest.approx(sum(game.totals[1:]) / 3)
    assert result["result"] == pytest.approx(result["total"] - result["opponents_average"])
    assert result["rank"] == 1
    response = _post(player, game, {"seq": game.seq, "action": {"type": "draw", "source": "stock"}})
    assert response.status_code == 400 and response.json()["error"]["code"] == "game_finished"


def test_play_page_renders_the_initial_payload(player: Client, game: Game) -> None:
    response = player.get(reverse("play", args=[game.pk]))
    assert response.status_code == 200
    assert response.context["game"] == game
    initial = response.context["initial"]
    assert initial["id"] == game.pk and initial["seq"] == game.seq
    json.dumps(initial)
    assert 'id="initial-state"' in response.content.decode()


def test_reloading_resumes_exactly(player: Client, game: Game) -> None:
    _post(player, game, {"seq": game.seq, "action": factories.south_action(game)})
    first = player.get(reverse("api_game", args=[game.pk])).json()
    second = player.get(reverse("api_game", args=[game.pk])).json()
    assert first == second
    page = player.get(reverse("play", args=[game.pk]))
    assert page.context["initial"] == first


def test_the_standings_api_is_public(client: Client, game: Game, tournament: Tournament) -> None:
    data = client.get(reverse("api_tournament_standings", args=[tournament.pk])).json()
    assert data["closed"] is False
    assert [s["player"] for s in data["standings"]] == [game.user.username]
    assert data["standings"][0]["rank"] is None  # no round over yet: South plays round 0


def test_moves_are_rate_limited(player: Client, game: Game, settings: Any) -> None:
    settings.MOVE_RATE_LIMIT = "2/m"
    for _ in range(2):
        game.refresh_from_db()
        body = {"seq": game.seq, "action": factories.south_action(game)}
        assert _post(player, game, body).status_code == 200
    game.refresh_from_db()
    response = _post(player, game, {"seq": game.seq, "action": factories.south_action(game)})
    assert response.status_code == 429
    assert response.json()["error"]["code"] == "rate_limited"


def test_without_an_open_card_the_first_draw_is_from_the_stock(player: Client, user: Any) -> None:
    # seed 001 (Klassiek): no card is turned at the deal; the first player (West in round
    # 0) draws from the stock and the open pile holds only cards discarded since
    t = factories.make_tournament(preset="klassiek", rounds=6)
    game = entry_services.entry_join(tournament_id=t.pk, user=user).game
    moves = replay_selectors.game_moves(game=game)
    first = moves[0]
    assert first.seat == 1
    assert first.action == {"type": "draw", "source": "stock"}
    discarded = {m.action["card"] for m in moves if m.action["type"] == "discard"}
    view = player.get(reverse("api_game", args=[game.pk])).json()
    assert set(view["observation"]["open_pile"]) <= discarded
    assert view["variant"]["open_card"] is False


def _move_statements() -> int:
    """A move's own statements when no round ends: on PostgreSQL the game's row locked
    with its entry's and its tournament's (the tournament under a share lock) in one
    query, and the game's update; elsewhere the game, the tournament and the update."""
    return 2 if connection.vendor == "postgresql" else 3


def test_a_move_takes_two_statements_and_the_round_end_its_rows(user: Any) -> None:
    """The write path of a move is bounded: the game read under its lock with its
    tournament under a share lock (one query on PostgreSQL) and the game's update. A round
    that ends adds its row (one insert) and the entry's standings rows, from the game in
    hand: one update of the entry's board rows and the new deal's row upserted. Nothing of
    the bots' moves is written. (South has a turn in each round: every round ends in a
    move of its own.)"""
    t = factories.make_tournament(preset="jokeren7", rounds=2, south_plays=(0, 1))
    game = entry_services.entry_join(tournament_id=t.pk, user=user).game
    counts = []
    while game.status == Game.Status.PLAYING:
        action = factories.south_action(game)
        with CaptureQueriesContext(connection) as queries:
            outcome = play_services.game_play_move(
                game_id=game.pk, user=user, seq=game.seq, action=action
            )
        statements = [q["sql"] for q in queries.captured_queries if "SAVEPOINT" not in q["sql"]]
        ended = sum(1 for e in outcome.events if e.get("type") == "round_over")
        assert ended in (0, 1)
        counts.append((len(statements), ended))
        rows = [s for s in statements if s.startswith('INSERT INTO "tournaments_gameround"')]
        results = [s for s in statements if '"tournaments_entryresult"' in s]
        deals = [s for s in statements if '"tournaments_dealresult"' in s]
        assert len(rows) == ended, statements
        assert [s.split(" ")[0] for s in results] == ["UPDATE"] * ended, results
        assert [s.split(" ")[0] for s in deals] == ["INSERT"] * ended, deals
        assert len(statements) == _move_statements() + 3 * ended, statements
        if connection.vendor == "postgresql":
            assert statements[0].endswith("FOR UPDATE OF g FOR SHARE OF t"), statements[0]
        updates = [s for s in statements if s.startswith('UPDATE "tournaments_game" ')]
        assert len(updates) == 1
        # Within a round only the turn's columns are written; at a round's end all.
        written = {"seq", "round_actions", "updated_at"}
        if ended:
            written |= {"round_index", "totals", "round_scores", "round_results"}
            written |= {"status", "bot_finished", "finished_at"}
        assignments = updates[0].split(" WHERE ")[0]
        for column in [f.column for f in Game._meta.concrete_fields]:
            assert (f'"{column}" = ' in assignments) == (column in written), column
        # ...and the row stored is the game in hand, every column.
        stored = Game.objects.get(pk=game.pk)
        for f in Game._meta.concrete_fields:
            assert getattr(stored, f.attname) == getattr(outcome.game, f.attname), f.name
        game = outcome.game
    assert {ended for _, ended in counts} >= {0, 1}
    assert game.played_rounds.count() == 2


def _refusing_bot(real: Any) -> Any:
    """A Jokeren bot whose West, after its draw, always chooses a discard the engine
    refuses (a card it does not hold); every other choice is the real bot's."""
    from engine.jokeren import BOT_VERSION, Discard

    def bot_action(state: Any, *, level: str, version: int = BOT_VERSION) -> Any:
        if state.current_player == 1 and state.phase == "play":
            return Discard(999)
        return real(state, level=level, version=version)

    return bot_action


def _west_first_refused_discard(t: Tournament, secret: bytes) -> tuple[Any, Any] | None:
    """Where West's first discard is refused in round 0 of ``t`` dealt from ``secret``,
    as the site plays it when the bot is patched after the join (``_refusing_bot``; South
    choosing like the basic bot): the state and the simplest action the site makes
    instead. ``None`` when round 0 ends before it, or before South's next turn after it
    (the move's events then show it in a round already over)."""
    from engine.errors import IllegalMove

    module = module_of(t.game)
    refusing = _refusing_bot(module.bot_action)
    state = module.new_round(module.variant_from_json(t.variant), secret=secret, round_index=0)
    joined = False
    found = None
    while not state.is_terminal:
        if state.current_player == PLAYER_SEAT:
            if found is not None:
                return found
            joined = True
            state = state.apply(module.bot_action(state, level="basic"))
            continue
        bot = refusing if joined else module.bot_action
        choice = bot(state, level=t.bot_level, version=t.bot_version)
        try:
            state = state.apply(choice)
        except IllegalMove:
            fallback = module.simplest_action(state)
            if state.current_player == 1 and found is None:
                found = state, fallback
            state = state.apply(fallback)
    return None


def test_a_bot_action_the_engine_refuses_is_logged_and_replaced_not_a_500(
    player: Client, user: Any, monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    """The site's bot loop fails safe (issue item 0): the refusal is logged with the
    position, the bot plays its simplest legal action (West discards its lowest card),
    and the entrant's move is answered normally. The deal is fixed, one where West's
    first refused discard comes in round 0 with its lowest card one it may discard (a
    card just drawn from the open pile may not go back: then the simplest discard is
    another)."""
    import engine.jokeren as jokeren

    t = factories.make_tournament(south_plays=())

    def lowest_may_go(secret: bytes) -> bool:
        found = _west_first_refused_discard(t, secret)
        if found is None or not isinstance(found[1], jokeren.Discard):
            return False
        return bool(found[1].card == min(found[0].hands[1]))

    factories.set_secret(t, factories.secret_where("refused bot discard", lowest_may_go))
    game = entry_services.entry_join(tournament_id=t.pk, user=user).game
    monkeypatch.setattr(jokeren, "bot_action", _refusing_bot(jokeren.bot_action))
    caplog.set_level("ERROR", logger="tournaments.services")
    west: list[dict[str, Any]] = []
    west_turns = 0  # West's discards since the patch: each one a refusal
    while not west:
        game.refresh_from_db()
        assert game.status == Game.Status.PLAYING
        response = _post(player, game, {"seq": game.seq, "action": factories.south_action(game)})
        assert response.status_code == 200
        events = response.json()["events"]
        west_turns += sum(
            1 for e in events if e.get("seat") == 1 and e["action"]["type"] == "discard"
        )
        # West's discard in the round now being played (the game's stored actions)
        start = 1 + max(
            (i for i, e in enumerate(events) if e.get("type") == "round_over"), default=-1
        )
        west = [
            e for e in events[start:] if e.get("seat") == 1 and e["action"]["type"] == "discard"
        ]
    # West drew, then (its discard refused) discarded the lowest card it held. The site's
    # own actions are checked (the round's stored actions, every seat's, as the site made
    # them): the game was dealt before the bot was patched, so a replay with the patched
    # bot need not make the bots' moves of the round's start.
    discard = west[0]["action"]
    game.refresh_from_db()
    module = module_of(game.game)
    state = module.new_round(
        module.variant_from_json(game.variant),
        secret=game.secret_bytes,
        round_index=game.round_index,
    )
    for stored in json.loads(game.round_actions):
        action = module.action_from_json(stored)
        if state.current_player == 1 and action.to_json() == discard:
            assert action == module.simplest_action(state)
            assert jokeren.Discard(min(state.hands[1])) in state.legal_actions()
            assert action.card == min(state.hands[1])
            break
        state = state.apply(action)
    else:
        pytest.fail("West's discard is not among the round's stored actions")
    refused = [r for r in caplog.records if "refused a bot action" in r.getMessage()]
    assert len(refused) == west_turns
    message = refused[0].getMessage()
    assert '"card": 999' in message and '"hands"' in message and "CardNotInHand" in message


def test_a_close_finishes_games_whose_bot_actions_the_engine_refuses(
    tournament: Tournament, user: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A close plays every unfinished game to its end even when the engine refuses bot
    actions: the tournament closes."""
    import engine.jokeren as jokeren

    monkeypatch.setattr(jokeren, "bot_action", _refusing_bot(jokeren.bot_action))
    game = entry_services.entry_join(tournament_id=tournament.pk, user=user).game
    closing_services.tournament_close(tournament_id=tournament.pk)
    tournament.refresh_from_db()
    game.refresh_from_db()
    assert tournament.closed_at is not None
    assert game.status == Game.Status.FINISHED
    assert len(game.round_scores) == tournament.rounds
    # the replay audit makes the bots' moves the same way: the game verifies
    game.entry.refresh_from_db()
    assert game.entry.audit_status == "ok", game.entry.audit_detail


@pytest.mark.parametrize("preset", ["klaverjas:rotterdams", "klaverjas:amsterdams"])
def test_a_practice_game_against_expert_bots_plays_moves_through_the_api(
    player: Client, preset: str
) -> None:
    response = player.post(reverse("practice"), {"preset": preset, "bot_level": "expert"})
    game = Game.objects.get(pk=int(response["Location"].rstrip("/").split("/")[-1]))
    assert game.bot_level == "expert"
    module = module_of(game.game)
    bot_moves = 0
    while bot_moves == 0:
        game.refresh_from_db()
        response = _post(player, game, {"seq": game.seq, "action": factories.south_action(game)})
        assert response.status_code == 200
        moves = [e for e in response.json()["events"] if "seat" in e]
        bot_moves += sum(1 for e in moves if e["seat"] != 0)
    game.refresh_from_db()
    # the bots' moves the site made (the round's stored actions) are the expert's choices
    state = module.new_round(
        module.PRESETS[game.preset], secret=bytes(game.secret_bytes), round_index=game.round_index
    )
    for stored in json.loads(game.round_actions):
        action = module.action_from_json(stored)
        if state.current_player != 0:
            assert action == module.bot_action(state, level="expert")
        state = state.apply(action)


def test_a_practice_game_starts_with_strong_bots_by_default(user: Any) -> None:
    game = entry_services.game_practice_start(user=user, game="klaverjas", preset="rotterdams")
    assert game.bot_level == "strong"


def test_a_move_post_reads_its_session_from_the_shared_cache(
    user: Any, settings: Any, client: Client
) -> None:
    """With a shared cache (Redis) the session is read from it, and the session's user
    comes with the game's read: a move POST makes the move's own statements and nothing
    else (it used to read ``django_session``, then the user's row, on their own)."""
    settings.SESSION_ENGINE = "django.contrib.sessions.backends.cached_db"
    t = factories.make_tournament(preset="jokeren7", rounds=2)
    game = entry_services.entry_join(tournament_id=t.pk, user=user).game
    client.force_login(user)
    game.refresh_from_db()
    with CaptureQueriesContext(connection) as queries:
        response = _post(client, game, {"seq": game.seq, "action": factories.south_action(game)})
    assert response.status_code == 200
    assert response.wsgi_request.user.pk == user.pk
    assert not [e for e in response.json()["events"] if e.get("type") == "round_over"]
    statements = [
        q["sql"]
        for q in queries.captured_queries
        if "SAVEPOINT" not in q["sql"] and q["sql"] not in ("BEGIN", "COMMIT")
    ]
    assert not [s for s in statements if "django_session" in s], statements
    # The whole request: the move's own statements; the user's row is read with the
    # game's (its first), the answer is built from the game in hand.
    assert len(statements) == _move_statements(), statements
    assert statements[0].startswith("SELECT "), statements
    assert ' JOIN "auth_user" ' in statements[0], statements[0]
    assert not [s for s in statements[1:] if '"auth_user"' in s], statements


def _logged_in(user: Any) -> Client:
    """A client logged in with ``user``'s password (the session holds the account's hash)."""
    client = Client()
    assert client.login(username=user.username, password=factories.PASSWORD)
    return client


def _move(client: Client, game: Game) -> Any:
    """South's next move in ``game`` as stored, POSTed by ``client``."""
    game.refresh_from_db()
    return _post(client, game, {"seq": game.seq, "action": factories.south_action(game)})


def _refused_as_anonymous(client: Client, game: Game) -> None:
    """The move is answered as for a visitor (403 ``not_logged_in``) and changes nothing."""
    seq = Game.objects.get(pk=game.pk).seq
    response = _move(client, game)
    assert response.status_code == 403, response.content
    assert response.json()["error"]["code"] == "not_logged_in"
    assert not response.wsgi_request.user.is_authenticated
    assert Game.objects.get(pk=game.pk).seq == seq


def test_a_session_whose_password_changed_cannot_move_and_is_logged_out(game: Game) -> None:
    client = _logged_in(game.user)
    assert _move(client, game).status_code == 200
    game.user.set_password("een-ander-wachtwoord-7")
    game.user.save()
    _refused_as_anonymous(client, game)
    # Django's own check ran: the session was flushed, as on any other page.
    assert "_auth_user_id" not in client.session


def test_an_inactive_account_cannot_move(game: Game) -> None:
    client = _logged_in(game.user)
    type(game.user).objects.filter(pk=game.user.pk).update(is_active=False)
    _refused_as_anonymous(client, game)


def test_a_deleted_account_cannot_move(game: Game, user: Any) -> None:
    client = _logged_in(user)
    user_id = user.pk
    user.delete()  # its games go with it
    response = _post(client, game, {"seq": 0, "action": {"type": "draw", "source": "stock"}})
    assert response.status_code == 403 and response.json()["error"]["code"] == "not_logged_in"
    assert not type(user).objects.filter(pk=user_id).exists()


def test_a_session_of_an_older_secret_key_still_moves(game: Game, settings: Any) -> None:
    """A session hashed with a key in ``SECRET_KEY_FALLBACKS`` does not hold as it is:
    Django logs it in (and stores the new hash) and the move is made."""
    client = _logged_in(game.user)
    old = settings.SECRET_KEY
    settings.SECRET_KEY = "a-new-secret-key-" + "x" * 50
    settings.SECRET_KEY_FALLBACKS = [old]
    seq = Game.objects.get(pk=game.pk).seq
    response = _move(client, game)
    assert response.status_code == 200, response.content
    assert response.wsgi_request.user.pk == game.user.pk
    assert Game.objects.get(pk=game.pk).seq > seq
    assert client.session["_auth_user_hash"] == game.user.get_session_auth_hash()


def test_a_session_that_holds_is_not_read_twice(
    game: Game, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The move's read checks the session: Django's ``get_user`` is not asked."""
    from django.contrib import auth

    def refused(request: Any) -> Any:
        raise AssertionError("request.user was read")

    client = _logged_in(game.user)
    monkeypatch.setattr(auth, "get_user", refused)
    response = _move(client, game)
    assert response.status_code == 200, response.content


def test_a_session_that_does_not_hold_gets_the_answer_of_a_visitor_first(
    game: Game, settings: Any
) -> None:
    """A session that no longer holds is 403 before a bad body's 400 and before the rate
    limit's 429."""
    client = _logged_in(game.user)
    settings.MOVE_RATE_LIMIT = "1/m"
    assert _move(client, game).status_code == 200
    assert _post(client, game, {"seq": "x"}).status_code == 429
    type(game.user).objects.filter(pk=game.user.pk).update(is_active=False)
    assert _post(client, game, {"seq": "x"}).status_code == 403
    settings.MOVE_RATE_LIMIT = ""
    type(game.user).objects.filter(pk=game.user.pk).update(is_active=True)
    client = _logged_in(game.user)
    assert _post(client, game, {"seq": "x"}).status_code == 400
    type(game.user).objects.filter(pk=game.user.pk).update(is_active=False)
    assert _post(client, game, {"seq": "x"}).status_code == 403


def test_a_claimed_move_of_someone_elses_game_is_404(game: Game, other_user: Any) -> None:
    client = _logged_in(other_user)
    response = _move(client, game)
    assert response.status_code == 404
    assert response.wsgi_request.user.pk == other_user.pk


def test_the_settings_share_sessions_through_the_cache_only_with_redis() -> None:
    import subprocess
    import sys

    code = "from django.conf import settings; print(settings.SESSION_ENGINE)"
    engines = {}
    for redis in ("", "redis://127.0.0.1:6379/5"):
        env = {
            **__import__("os").environ,
            "DJANGO_SETTINGS_MODULE": "jokeren.settings",
            "DEBUG": "true",
            "REDIS_URL": redis,
        }
        out = subprocess.run(
            [sys.executable, "-c", f"import django; django.setup(); {code}"],
            env=env,
            capture_output=True,
            text=True,
            check=True,
        )
        engines[redis] = out.stdout.strip()
    assert engines[""] == "django.contrib.sessions.backends.db"
    assert engines["redis://127.0.0.1:6379/5"] == "django.contrib.sessions.backends.cached_db"


@pytest.mark.parametrize("game_name", ["jokeren", "klaverjas"])
def test_a_dealt_round_is_kept_and_never_changed_by_play(game_name: str) -> None:
    """``dealt_round`` keeps each round's deal: the engine's deal itself, the same
    object for every game of the tournament, and playing from it leaves it as dealt."""
    module = module_of(game_name)
    preset = next(iter(module.PRESETS))
    variant = module.variant_from_json(module.PRESETS[preset].to_json())
    secret = b"a duplicate deal"
    dealt = dealt_round(game_name, variant, secret, 1)
    fresh = module.new_round(variant, secret=secret, round_index=1)
    assert dealt.to_json() == fresh.to_json()
    again = dealt_round(game_name, module.variant_from_json(variant.to_json()), secret, 1)
    assert again is dealt
    state = dealt
    for _ in range(6):
        state = state.apply(module.action_from_json(state.legal_actions()[0].to_json()))
    assert dealt.to_json() == fresh.to_json()
    assert dealt_round(game_name, variant, secret, 2).to_json() != dealt.to_json()


@pytest.mark.parametrize(
    ("game_name", "preset"),
    [("jokeren", "jokeren7"), ("jokeren", "klassiek"), ("klaverjas", "rotterdams")],
)
def test_the_events_rebuild_the_observation_through_a_whole_game(
    player: Client, user: Any, game_name: str, preset: str
) -> None:
    """Move after move through a whole 8-round game (every seat starts a round, South
    too, so some new rounds begin with South to play and no bot's move), the observation
    the player had, with each event's ``set`` and ``splice`` applied and then the
    response's observation (whose ``log``, when the response carries one, replaces the
    one the events built, as the table does), is the observation a GET gives after the
    move, the public log included."""
    t = factories.make_tournament(game=game_name, preset=preset, rounds=8, secret=bytes(range(32)))
    game = entry_services.entry_join(tournament_id=t.pk, user=user).game
    url = reverse("api_game", args=[game.pk])
    shown = player.get(url).json()["observation"]
    round_ends = 0
    south_starts = 0
    while game.status == Game.Status.PLAYING:
        data = _post(player, game, {"seq": game.seq, "action": factories.south_action(game)})
        assert data.status_code == 200
        answer = data.json()
        for event in answer["events"]:
            if event.get("type") == "round_over":
                round_ends += 1
                continue
            shown = {**shown, **event.get("set", {})}
            for key, (start, removed, items) in event.get("splice", {}).items():
                shown[key] = [*shown[key][:start], *items, *shown[key][start + removed :]]
        shown = {**shown, **answer["observation"]}
        assert shown == player.get(url).json()["observation"]
        game.refresh_from_db()
        if answer["events"] and answer["events"][-1].get("type") == "round_over":
            south_starts += game.status == Game.Status.PLAYING
    assert round_ends == 8
    assert south_starts > 0
