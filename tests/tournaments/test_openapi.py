"""The OpenAPI description (tournaments/openapi.json): a valid OpenAPI 3.1 document that
names every /api/ route, and real responses of every endpoint, errors included, match it."""

from __future__ import annotations

import itertools
import json
import re
from typing import Any

import factories
import pytest
from django.test import Client
from django.urls import URLPattern, URLResolver, get_resolver, reverse
from jsonschema import Draft202012Validator
from openapi_spec_validator import validate

from tournaments import series as series_services
from tournaments import tokens
from tournaments.api_clubs import openapi_document
from tournaments.games import module_of
from tournaments.models import Game, Tournament
from tournaments.services import closing as closing_services
from tournaments.services import entries as entry_services
from tournaments.services import ratings as rating_services
from tournaments.services import tournaments as tournament_services

SPEC = openapi_document()


def _pointer(*parts: str) -> str:
    return "#/" + "/".join(p.replace("~", "~0").replace("/", "~1") for p in parts)


def check(response: Any, path: str, method: str) -> None:
    """``response`` is one the description lists for ``method path``, and its JSON body
    (when the description gives a schema) validates against it. A method the path does not
    have is 405 with the error body."""
    if method not in SPEC["paths"][path]:
        assert response.status_code == 405
        schema = {**SPEC, "$ref": "#/components/schemas/Error"}
        assert not list(Draft202012Validator(schema).iter_errors(json.loads(response.content)))
        return
    operation = SPEC["paths"][path][method]
    status = str(response.status_code)
    assert status in operation["responses"], f"{method} {path}: {status} not described"
    described = operation["responses"][status]
    content = described.get("content", {}).get("application/json")
    if content is None:
        return
    schema = {
        **SPEC,
        "$ref": _pointer(
            "paths", path, method, "responses", status, "content", "application/json", "schema"
        ),
    }
    errors = list(Draft202012Validator(schema).iter_errors(json.loads(response.content)))
    assert not errors, [e.message for e in errors[:5]]


def test_the_document_is_valid_openapi() -> None:
    validate(SPEC)
    assert SPEC["openapi"].startswith("3.1")


def _routes(resolver: Any, prefix: str = "") -> list[str]:
    out: list[str] = []
    for p in resolver.url_patterns:
        if isinstance(p, URLResolver):
            out.extend(_routes(p, prefix + str(p.pattern)))
        elif isinstance(p, URLPattern):
            out.append(prefix + str(p.pattern))
    return out


def test_every_api_route_is_described() -> None:
    api = {
        "/" + re.sub(r"<(?:int|str|slug):(\w+)>", r"{\1}", r)
        for r in _routes(get_resolver())
        if r.startswith("api/") and r != "api/docs/"
    }
    assert api == set(SPEC["paths"])


@pytest.fixture
def player(user: Any) -> Client:
    client = Client()
    client.force_login(user)
    return client


def test_game_and_move_responses_match(player: Client, user: Any, tournament: Tournament) -> None:
    anonymous = Client()
    joined = player.post(reverse("api_tournament_join", args=[tournament.pk]))
    check(joined, "/api/tournaments/{tournament_id}/join/", "post")
    game_id = joined.json()["game"]
    check(
        player.post(reverse("api_tournament_join", args=[tournament.pk])),
        "/api/tournaments/{tournament_id}/join/",
        "post",
    )
    check(
        anonymous.post(reverse("api_tournament_join", args=[tournament.pk])),
        "/api/tournaments/{tournament_id}/join/",
        "post",
    )
    url = reverse("api_game", args=[game_id])
    check(player.get(url), "/api/games/{game_id}/", "get")
    check(anonymous.get(url), "/api/games/{game_id}/", "get")
    check(player.get(reverse("api_game", args=[10**6])), "/api/games/{game_id}/", "get")
    check(Client().get(url, HTTP_AUTHORIZATION="Bearer jk_wrong"), "/api/games/{game_id}/", "get")
    moves = reverse("api_game_move", args=[game_id])
    game = Game.objects.get(pk=game_id)

    def post(body: Any) -> Any:
        return player.post(moves, data=json.dumps(body), content_type="application/json")

    path = "/api/games/{game_id}/moves/"
    check(post({"seq": "x"}), path, "post")
    check(player.post(moves, data="seq=1", content_type="text/plain"), path, "post")  # 415
    check(player.get(moves), path, "get")  # 405
    check(post({"seq": game.seq + 5, "action": factories.south_action(game)}), path, "post")
    check(post({"seq": game.seq, "action": {"type": "discard", "card": 999}}), path, "post")
    moved = post({"seq": game.seq, "action": factories.south_action(game)})
    assert moved.status_code == 200
    check(moved, path, "post")
    finished, _events = factories.play_to_end(Game.objects.get(pk=game_id), user)
    check(player.get(url), "/api/games/{game_id}/", "get")
    check(post({"seq": finished.seq, "action": {"type": "draw", "source": "stock"}}), path, "post")


def test_rate_limited_moves_match(
    player: Client, user: Any, tournament: Tournament, settings: Any
) -> None:
    settings.MOVE_RATE_LIMIT = "1/m"
    game = entry_services.entry_join(tournament_id=tournament.pk, user=user).game
    moves = reverse("api_game_move", args=[game.pk])
    for _ in range(2):
        response = player.post(
            moves, data=json.dumps({"seq": 99, "action": {}}), content_type="application/json"
        )
    assert response.status_code == 429
    check(response, "/api/games/{game_id}/moves/", "post")


def test_hint_and_undo_responses_match(
    player: Client, user: Any, tournament: Tournament, settings: Any
) -> None:
    practice = entry_services.game_practice_start(user=user, game="jokeren", preset="jokeren7")
    while practice.current_state().current_player != 0:  # a bot went out before South
        practice = entry_services.game_practice_start(user=user, game="jokeren", preset="jokeren7")
    entered = entry_services.entry_join(tournament_id=tournament.pk, user=user).game
    hint, undo = "/api/games/{game_id}/hint/", "/api/games/{game_id}/undo/"

    def post(game: Game, body: Any) -> Any:
        url = reverse("api_game_undo", args=[game.pk])
        return player.post(url, data=json.dumps(body), content_type="application/json")

    check(player.get(reverse("api_game_hint", args=[practice.pk])), hint, "get")
    check(player.get(reverse("api_game_hint", args=[entered.pk])), hint, "get")  # 403
    check(player.get(reverse("api_game_hint", args=[10**6])), hint, "get")  # 404
    check(Client().get(reverse("api_game_hint", args=[practice.pk])), hint, "get")  # 403
    check(player.post(reverse("api_game_hint", args=[practice.pk])), hint, "post")  # 405
    check(player.get(reverse("api_game_undo", args=[practice.pk])), undo, "get")  # 405
    check(post(practice, {"seq": "x"}), undo, "post")  # 400
    check(post(practice, {"seq": practice.seq}), undo, "post")  # 400 nothing_to_undo
    check(post(practice, {"seq": practice.seq + 3}), undo, "post")  # 409
    check(post(entered, {"seq": entered.seq}), undo, "post")  # 403
    url = reverse("api_game_undo", args=[practice.pk])
    check(player.post(url, data="seq=1", content_type="text/plain"), undo, "post")  # 415
    action = factories.south_action(practice)
    moved = player.post(
        reverse("api_game_move", args=[practice.pk]),
        data=json.dumps({"seq": practice.seq, "action": action}),
        content_type="application/json",
    )
    undone = post(practice, {"seq": moved.json()["seq"]})
    assert undone.status_code == 200
    check(undone, undo, "post")
    settings.MOVE_RATE_LIMIT = "1/m"
    for _ in range(2):
        limited = player.get(reverse("api_game_hint", args=[practice.pk]))
    assert limited.status_code == 429
    check(limited, hint, "get")


def test_meld_readings_responses_match(player: Client, user: Any, other_user: Any) -> None:
    """The readings of cards of the player's hand (some a meld or not), a card not in hand,
    not card ids, a game without melds, someone else's game, logged out, a POST."""
    game = entry_services.game_practice_start(user=user, game="jokeren", preset="jokeren7")
    state = game.current_state()
    hand = state.hands[0]
    path = "/api/games/{game_id}/meld-readings/"

    def ask(client: Client, pk: int, cards: str) -> Any:
        return client.get(reverse("api_game_meld_readings", args=[pk]) + f"?cards={cards}")

    for cards in itertools.combinations(hand, 3):
        response = ask(player, game.pk, ",".join(map(str, cards)))
        assert response.status_code == 200
        check(response, path, "get")
    check(ask(player, game.pk, f"{hand[0]},{hand[1]},{state.stock[0]}"), path, "get")  # 400
    check(ask(player, game.pk, "x"), path, "get")  # 400
    klaverjas = entry_services.game_practice_start(user=user, game="klaverjas", preset="rotterdams")
    check(ask(player, klaverjas.pk, "0,1,2"), path, "get")  # 404
    other = Client()
    other.force_login(other_user)
    check(ask(other, game.pk, "0,1,2"), path, "get")  # 404
    check(ask(Client(), game.pk, "0,1,2"), path, "get")  # 403
    check(player.post(reverse("api_game_meld_readings", args=[game.pk])), path, "post")  # 405


def test_tournament_responses_match(
    player: Client, user: Any, other_user: Any, tournament: Tournament, organizer: Any
) -> None:
    anonymous = Client()
    entry_services.entry_join(tournament_id=tournament.pk, user=user)
    check(anonymous.get(reverse("api_tournaments")), "/api/tournaments/", "get")
    check(anonymous.get(reverse("api_tournaments") + "?status=open"), "/api/tournaments/", "get")
    detail = "/api/tournaments/{tournament_id}/"
    check(player.get(reverse("api_tournament", args=[tournament.pk])), detail, "get")
    check(anonymous.get(reverse("api_tournament", args=[10**6])), detail, "get")
    check(anonymous.delete(reverse("api_tournament", args=[tournament.pk])), detail, "delete")
    standings = "/api/tournaments/{tournament_id}/standings/"
    mine = player.get(reverse("api_tournament_standings", args=[tournament.pk]))
    assert mine.json()["me"]["player"] == user.username
    check(mine, standings, "get")
    url = reverse("api_tournament_standings", args=[tournament.pk])
    paged = anonymous.get(url + "?page=1&page_size=1&q=" + user.username)
    assert paged.json()["me"] is None and paged.json()["page_size"] == 1
    check(paged, standings, "get")
    refused_page = anonymous.get(url + "?page=0")
    assert refused_page.status_code == 400
    check(refused_page, standings, "get")
    closing_services.tournament_close(tournament_id=tournament.pk)
    check(
        anonymous.get(reverse("api_tournament_standings", args=[tournament.pk])), standings, "get"
    )
    closed = anonymous.get(reverse("api_tournament", args=[tournament.pk]))
    assert closed.json()["status"] == "finished"
    check(closed, detail, "get")
    # A bot account at a tournament without bots: 403 bots_not_admitted.
    no_bots = factories.make_tournament(created_by=organizer)
    tournament_services.tournament_update(tournament=no_bots, admits_bots=False)
    series_services.account_mark_bot(user=other_user)
    key = tokens.token_create(user=other_user, name="b").key
    refused = Client().post(
        reverse("api_tournament_join", args=[no_bots.pk]), HTTP_AUTHORIZATION=f"Bearer {key}"
    )
    assert refused.status_code == 403
    check(refused, "/api/tournaments/{tournament_id}/join/", "post")


def test_ping_matches() -> None:
    response = Client().get(reverse("api_ping"))
    assert response.json() == {"ok": True}
    check(response, "/api/ping/", "get")
    check(Client().post(reverse("api_ping")), "/api/ping/", "post")


def test_series_responses_match(organizer: Any, user: Any) -> None:
    from datetime import date, time, timedelta

    from django.utils import timezone

    s = series_services.series_create(
        created_by=organizer,
        club=factories.default_club(),
        name="Donderdag",
        game="klaverjas",
        preset=next(iter(module_of("klaverjas").PRESETS)),
        rounds=1,
        kind="weekly",
        weekdays=[3],
        time_of_day=time(19, 30),
        window_minutes=90,
        starts_on=date(2026, 1, 1),
        best_k=3,
    )
    t = series_services.series_edition_create(
        series=s, opens_at=timezone.now() - timedelta(minutes=5)
    )
    assert t is not None
    game = entry_services.entry_join(tournament_id=t.pk, user=user).game
    factories.play_to_end(game, user)
    closing_services.tournament_close(tournament_id=t.pk)
    client = Client()
    check(client.get(reverse("api_series", args=[s.pk])), "/api/series/{series_id}/", "get")
    check(client.get(reverse("api_series", args=[10**6])), "/api/series/{series_id}/", "get")
    season = client.get(reverse("api_series_season", args=[s.pk]))
    assert [r["player"] for r in season.json()["standings"]] == ["speler"]
    check(season, "/api/series/{series_id}/season/", "get")


def test_the_description_and_its_docs_page_are_served(client: Any) -> None:
    response = client.get(reverse("api_openapi"))
    check(response, "/api/openapi.json", "get")
    assert response.json() == SPEC
    page = client.get(reverse("api_docs")).content.decode()
    assert "js/api-docs.js" in page
    assert "cdn" not in page.lower()


def test_the_answers_of_a_failing_part_are_described() -> None:
    """Every operation lists what the site answers when a part fails or a request is
    hostile (docs/api.md): 500 server_error; 503 unavailable where it reads the database;
    400 malformed_request for a control character; 429 for too many bad bearer tokens."""
    for path, item in SPEC["paths"].items():
        for method, operation in item.items():
            if method == "parameters":
                continue
            responses = operation["responses"]
            assert "500" in responses, (method, path)
            if path in ("/api/ping/", "/api/openapi.json"):
                continue
            assert "503" in responses and "400" in responses, (method, path)
            assert "malformed_request" in responses["400"]["description"], (method, path)
            if any("bearer" in s for s in operation.get("security", [])):
                assert "429" in responses, (method, path)


def test_a_control_character_and_a_bad_token_flood_match(
    tournament: Tournament, settings: Any
) -> None:
    settings.TOKEN_FAIL_RATE_LIMIT = "2/m"
    path = "/api/tournaments/{tournament_id}/standings/"
    standings = reverse("api_tournament_standings", args=[tournament.pk])
    nul = Client().get(standings + "?q=%00")
    assert nul.status_code == 400 and nul.json()["error"]["code"] == "malformed_request"
    check(nul, path, "get")
    bad = Client(headers={"Authorization": "Bearer not-a-token"})
    games = reverse("api_tournament_join", args=[tournament.pk])
    answers = [bad.post(games) for _ in range(4)]
    assert {a.status_code for a in answers} == {401, 429}
    for answer in answers:
        check(answer, "/api/tournaments/{tournament_id}/join/", "post")


def test_rating_responses_match(client: Client, organizer: Any) -> None:
    """The rating list (rated players, a page beyond the last, a bad page, an unknown
    game), a player with and without ratings, an unknown player, and the standings with
    their ratings."""
    t = factories.make_closed_field(organizer, 4)
    rating_services.ratings_apply_tournament(tournament_id=t.pk)
    ratings, player = "/api/ratings/{game}/", "/api/players/{username}/"
    listed = client.get(reverse("api_ratings", args=["jokeren"]))
    assert listed.status_code == 200 and listed.json()["count"] == 3
    check(listed, ratings, "get")
    check(client.get(reverse("api_ratings", args=["klaverjas"]) + "?page=99"), ratings, "get")
    check(client.get(reverse("api_ratings", args=["jokeren"]) + "?page=0"), ratings, "get")
    check(client.get(reverse("api_ratings", args=["schaken"])), ratings, "get")
    check(client.post(reverse("api_ratings", args=["jokeren"])), ratings, "post")
    rated = client.get(reverse("api_player", args=["veld0000"]))
    assert rated.json()["ratings"]["jokeren"] is not None and rated.json()["changes"]
    check(rated, player, "get")
    check(client.get(reverse("api_player", args=[organizer.username])), player, "get")
    check(client.get(reverse("api_player", args=["niemand"])), player, "get")
    standings = client.get(reverse("api_tournament_standings", args=[t.pk]) + "?ratings=1")
    assert "rating" in standings.json()["standings"][0]
    check(standings, "/api/tournaments/{tournament_id}/standings/", "get")


def test_club_responses_match(player: Client, user: Any) -> None:
    """The clubs' list and a club as the API gives them, to a visitor and to a member."""
    club = factories.make_club("De Troefkaart", owner=factories.make_user("cor"))
    factories.add_member(club, user)
    factories.make_tournament(club=club, name="Clubavond")
    check(Client().get(reverse("api_clubs")), "/api/clubs/", "get")
    visitor = Client().get(reverse("api_club", args=[club.slug]))
    check(visitor, "/api/clubs/{slug}/", "get")
    assert visitor.json()["role"] is None
    assert [t["name"] for t in visitor.json()["open"]] == ["Clubavond"]
    member = player.get(reverse("api_club", args=[club.slug]))
    check(member, "/api/clubs/{slug}/", "get")
    # the owner, this member and the organizer the tournament's factory made
    assert member.json()["role"] == "member" and member.json()["members"] == 3
    check(Client().get(reverse("api_club", args=["geen-club"])), "/api/clubs/{slug}/", "get")


def test_pace_responses_match(player: Client) -> None:
    path = "/api/account/pace/"

    def post(client: Client, body: Any) -> Any:
        return client.post(path, data=json.dumps(body), content_type="application/json")

    check(post(player, {"pace": "fast"}), path, "post")
    check(post(player, {"pace": "warp"}), path, "post")
    check(post(player, {"speed": 1}), path, "post")
    check(player.post(path, data="pace=fast", content_type="text/plain"), path, "post")  # 415
    check(post(Client(), {"pace": "fast"}), path, "post")
    check(player.get(path), path, "get")  # 405
