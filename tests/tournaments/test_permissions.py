"""Who may see or do what (``tournaments.permissions``, docs/rules.md rule 23): every
address of the site has a rule, and the key pages answer each kind of viewer as the rules
say, before and after the close."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import factories
import pytest
from django.http import HttpRequest, HttpResponse
from django.test import Client
from django.urls import URLPattern, URLResolver, get_resolver, path, reverse
from django.urls.resolvers import RegexPattern
from django.utils import timezone

from tournaments import permissions, tokens
from tournaments.games import module_of
from tournaments.models import Game, Tournament
from tournaments.services import closing as closing_services
from tournaments.services import entries as entry_services
from tournaments.services import play as play_services

#: Addresses that are not the site's own: Django's admin (staff only, its own checks).
EXCLUDED_PREFIXES = ("admin/",)


def _routes(patterns: list[Any], prefix: str = "") -> Iterator[tuple[str, str]]:
    """(address, name) of every URL pattern under ``patterns``, includes followed; an
    unnamed pattern is named by its address."""
    for p in patterns:
        route = prefix + str(p.pattern)
        if isinstance(p, URLResolver):
            yield from _routes(p.url_patterns, route)
        elif isinstance(p, URLPattern):
            yield route, p.name or route


def routes_without_rule(resolver: URLResolver) -> list[str]:
    """The site's addresses (the admin's left out) that ``permissions.ROUTES`` has no
    rule for."""
    return sorted(
        f"{name} ({route})"
        for route, name in _routes(resolver.url_patterns)
        if not route.startswith(EXCLUDED_PREFIXES) and name not in permissions.ROUTES
    )


def test_every_address_of_the_site_has_a_rule() -> None:
    assert routes_without_rule(get_resolver()) == []


def test_every_rule_is_a_predicate_of_the_one_module_and_names_a_route() -> None:
    names = {name for _route, name in _routes(get_resolver().url_patterns)}
    for name, rule in permissions.ROUTES.items():
        assert name in names, f"{name}: no such route"
        if rule in (permissions.PUBLIC, permissions.SITE):
            continue
        predicate = getattr(permissions, rule, None)
        assert callable(predicate), f"{name}: {rule} is not in tournaments.permissions"
        assert "rule" in (predicate.__doc__ or ""), f"{rule} cites no rule"


def _dummy(request: HttpRequest) -> HttpResponse:
    return HttpResponse("")


def test_a_new_route_without_a_rule_fails_the_check() -> None:
    site = get_resolver()
    extended = URLResolver(
        RegexPattern(r"^/"),
        [*site.url_patterns, path("games/<int:pk>/secret/", _dummy, name="game_secret")],
    )
    assert routes_without_rule(extended) == ["game_secret (games/<int:pk>/secret/)"]


# --- The viewers and the key routes ---------------------------------------------------------

VIEWERS = (
    "anonymous",
    "entrant_1",  # finished 1 of 3 rounds
    "entrant_done",  # finished all 3: the game the game routes ask about is theirs
    "non_entrant",
    "creator",  # the organizer who created the tournament (an organizer of its club)
    "other_organizer",  # an organizer of another club
    "staff",
    "token",  # entrant_done's API token, without a session
)

LOGIN = "login"  # a redirect to the log-in page

#: route -> the answer of each viewer (in ``VIEWERS``' order) while the tournament runs,
#: then after its close. An int is a status code (302: a redirect elsewhere than the
#: log-in page); a pages' route with a token is a visitor's (the token opens /api/ only).
EXPECTED: dict[str, tuple[tuple[Any, ...], tuple[Any, ...]]] = {
    "replay": (
        (404, 404, 404, 404, 404, 404, 404, 404),
        (200, 200, 200, 200, 200, 200, 200, 200),
    ),
    "sheet": (
        (404, 404, 200, 404, 404, 404, 404, 404),
        (200, 200, 200, 200, 200, 200, 200, 200),
    ),
    "record": (
        (404, 404, 404, 404, 404, 404, 404, 404),
        (200, 200, 200, 200, 200, 200, 200, 200),
    ),
    "review": (
        (LOGIN, 404, 200, 404, 404, 404, 404, LOGIN),
        (LOGIN, 404, 200, 404, 404, 404, 404, LOGIN),
    ),
    "what_if": (
        (LOGIN, 404, 302, 404, 404, 404, 404, LOGIN),
        (LOGIN, 302, 302, 302, 302, 302, 302, LOGIN),
    ),
    "play_again": (
        (LOGIN, 400, 400, 400, 400, 400, 400, LOGIN),
        (LOGIN, 302, 302, 302, 302, 302, 302, LOGIN),
    ),
    "split": (
        (404, 404, 404, 404, 404, 404, 404, 404),
        (200, 200, 200, 200, 200, 200, 200, 200),
    ),
    "edit": (
        (LOGIN, 403, 403, 403, 200, 404, 200, LOGIN),
        (LOGIN, 403, 403, 403, 302, 404, 302, LOGIN),
    ),
    "close": (
        (LOGIN, 403, 403, 403, 302, 404, 302, LOGIN),
        (LOGIN, 403, 403, 403, 302, 404, 302, LOGIN),
    ),
    "entries": (
        (LOGIN, 403, 403, 403, 200, 404, 200, LOGIN),
        (LOGIN, 403, 403, 403, 200, 404, 200, LOGIN),
    ),
    "audit": (
        (LOGIN, 403, 403, 403, 302, 404, 302, LOGIN),
        (LOGIN, 403, 403, 403, 302, 404, 302, LOGIN),
    ),
    "standings_api": (
        (200, 200, 200, 200, 200, 200, 200, 200),
        (200, 200, 200, 200, 200, 200, 200, 200),
    ),
    "game_api": (
        (403, 404, 200, 404, 404, 404, 404, 200),
        (403, 404, 200, 404, 404, 404, 404, 200),
    ),
    # one's own account pages (the accounts app, allauth's): anyone logged in
    "account_email": (
        (LOGIN, 200, 200, 200, 200, 200, 200, LOGIN),
        (LOGIN, 200, 200, 200, 200, 200, 200, LOGIN),
    ),
    "password_change": (
        (LOGIN, 200, 200, 200, 200, 200, 200, LOGIN),
        (LOGIN, 200, 200, 200, 200, 200, 200, LOGIN),
    ),
    "second_factor": (
        (LOGIN, 200, 200, 200, 200, 200, 200, LOGIN),
        (LOGIN, 200, 200, 200, 200, 200, 200, LOGIN),
    ),
}

#: The rounds whose results the standings API shows each viewer (docs/rules.md section 4):
#: an entrant the rounds they finished, everyone else none, until the close.
VISIBLE_ROUNDS = ((0, 1, 3, 0, 0, 0, 0, 3), (3, 3, 3, 3, 3, 3, 3, 3))


def _play_rounds(game: Game, user: Any, rounds: int) -> Game:
    module = module_of(game.game)
    game.refresh_from_db()
    while len(game.round_scores) < rounds and not game.is_finished:
        state = module.state_from_json(game.state)
        action = module.bot_action(state, level="basic").to_json()
        game = play_services.game_play_move(
            game_id=game.pk, user=user, seq=game.seq, action=action
        ).game
    return game


class Field:
    """A three-round tournament of ``creator`` with an entrant one round in and one done,
    and a second tournament of the creator that the close requests act on."""

    def __init__(self) -> None:
        self.users = {
            "entrant_1": factories.make_user(),
            "entrant_done": factories.make_user(),
            "non_entrant": factories.make_user(),
            "creator": factories.make_user(organizer=True),
            "other_organizer": factories.make_user(organizer=True, club=factories.make_club()),
            "staff": factories.make_user(is_staff=True),
        }
        creator = self.users["creator"]
        # Klassiek: a variant with a score sheet (it counts cards, rule 13).
        self.t = factories.make_tournament(
            created_by=creator, preset="klassiek", rounds=3, south_plays=(0, 1, 2)
        )
        self.to_close = factories.make_tournament(created_by=creator, south_plays=())
        first = entry_services.entry_join(
            tournament_id=self.t.pk, user=self.users["entrant_1"]
        ).game
        assert len(_play_rounds(first, self.users["entrant_1"], 1).round_scores) == 1
        done = self.users["entrant_done"]
        self.game = _play_rounds(
            entry_services.entry_join(tournament_id=self.t.pk, user=done).game, done, 3
        )
        assert self.game.is_finished
        self.token = tokens.token_create(user=done, name="bot").key

    def client(self, viewer: str) -> Client:
        if viewer == "token":
            return Client(HTTP_AUTHORIZATION=f"Bearer {self.token}")
        client = Client()
        if viewer in self.users:
            client.force_login(self.users[viewer])
        return client

    def request(self, client: Client, route: str) -> Any:
        g, t = self.game, self.t
        if route == "replay":
            return client.get(reverse("game_replay", args=[g.pk]))
        if route == "sheet":
            return client.get(reverse("game_sheet", args=[g.pk]))
        if route == "record":
            return client.get(reverse("game_record", args=[g.pk]))
        if route == "review":
            return client.get(reverse("game_review", args=[g.pk]))
        if route == "what_if":
            return client.post(reverse("game_what_if", args=[g.pk]), {"round": 0, "start": 0})
        if route == "play_again":
            return client.post(reverse("tournament_deal_again", args=[t.pk, 0]))
        if route == "split":
            return client.get(reverse("game_split", args=[g.pk]) + "?round=0&with=par")
        if route == "edit":
            return client.get(reverse("tournament_edit", args=[t.pk]))
        if route == "close":
            return client.post(reverse("tournament_close", args=[self.to_close.pk]))
        if route == "entries":
            return client.get(reverse("tournament_entries", args=[t.pk]))
        if route == "audit":
            url = reverse("entry_audit", args=[t.pk, g.entry_id])
            return client.post(url, {"action": "resolve"})
        if route == "standings_api":
            return client.get(reverse("api_tournament_standings", args=[t.pk]))
        if route == "account_email":
            return client.get(reverse("account_email"))
        if route == "password_change":
            return client.get(reverse("account_change_password"))
        if route == "second_factor":
            return client.get(reverse("mfa_index"))
        assert route == "game_api"
        return client.get(reverse("api_game", args=[g.pk]))


def _answer(response: Any) -> Any:
    if response.status_code == 302 and response["Location"].startswith(reverse("login")):
        return LOGIN
    return response.status_code


def _close(t: Tournament) -> None:
    Tournament.objects.filter(pk=t.pk).update(closes_at=timezone.now())
    closing_services.tournament_close(tournament_id=t.pk)
    t.refresh_from_db()
    assert t.is_closed


@pytest.mark.django_db
def test_each_viewer_gets_what_the_rules_say_before_and_after_the_close() -> None:
    field = Field()
    clients = {viewer: field.client(viewer) for viewer in VIEWERS}
    for phase in (0, 1):
        if phase == 1:
            _close(field.t)
            field.game.refresh_from_db()
        got = {
            route: tuple(_answer(field.request(clients[v], route)) for v in VIEWERS)
            for route in EXPECTED
        }
        assert got == {route: answers[phase] for route, answers in EXPECTED.items()}, phase
        rounds = tuple(
            field.request(clients[v], "standings_api").json()["visible_rounds"] for v in VIEWERS
        )
        assert rounds == VISIBLE_ROUNDS[phase]


@pytest.mark.django_db
def test_ownership_rule_in_the_predicates() -> None:
    creator = factories.make_user(organizer=True)
    colleague = factories.make_user(organizer=True)  # the same club's
    other = factories.make_user(organizer=True, club=factories.make_club())
    staff = factories.make_user(is_staff=True)
    player = factories.make_user()
    member = factories.make_user()
    factories.add_member(factories.default_club(), member)
    t = factories.make_tournament(created_by=creator, south_plays=())
    for may in (
        permissions.may_edit_tournament,
        permissions.may_close_tournament,
        permissions.may_see_entries,
        permissions.may_audit,
    ):
        assert may(user=creator, tournament=t)
        assert may(user=colleague, tournament=t)
        assert may(user=staff, tournament=t)
        assert not may(user=other, tournament=t)
        assert not may(user=player, tournament=t)
        assert not may(user=member, tournament=t)
    assert permissions.may_create_tournament(other) and not permissions.may_create_tournament(
        player
    )


@pytest.mark.django_db
def test_the_organizer_section_shows_to_the_clubs_organizers_and_staff_only() -> None:
    creator = factories.make_user(organizer=True)
    t = factories.make_tournament(created_by=creator, south_plays=())
    edit = reverse("tournament_edit", args=[t.pk])
    for user, shown in (
        (creator, True),
        (factories.make_user(is_staff=True), True),
        (factories.make_user(organizer=True), True),
        (factories.make_user(organizer=True, club=factories.make_club()), False),
        (factories.make_user(), False),
    ):
        client = Client()
        client.force_login(user)
        page = client.get(t.get_absolute_url()).content.decode()
        assert (edit in page) is shown, user
