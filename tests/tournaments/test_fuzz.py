"""Property-based fuzz of the whole site (issue 8): generated requests to every JSON API
address and every form, as an anonymous visitor, a player and an organizer, with any
method, Content-Type and body (valid-ish moves, random JSON, deep nesting, random bytes,
form fields with huge numbers, far dates, unicode, NUL), through the CSRF check as in
production (the token sent, now and then left out). Every answer is below 500 (the
test client re-raises a view's exception, so a 500 cannot hide), every ``/api/`` error
has the error body of docs/api.md, every ``PLAY_EVERY`` requests the player's next real
move is accepted (``play_on``: the games go on between the fuzzed requests), and
afterwards every game still replays from its secret and move log to its stored state and
scores.

Every form and every query parameter the site reads is among them (``QUERY_NAMES``,
the series and account forms), with NUL and other control bytes, numbers beyond any
column and junk in the default tier.

Default tier: ``DEFAULT_REQUESTS`` requests; ``-m slow``: ``SLOW_REQUESTS``."""

from __future__ import annotations

import json
from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import datetime, timedelta
from typing import Any
from urllib.parse import quote, urlencode

import factories
import pytest
from django.contrib.auth import get_user_model
from django.test import Client
from django.utils import timezone
from django.utils.crypto import get_random_string
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from tournaments.games import PLAYER_SEAT, module_of
from tournaments.models import Game, GameRound, Tournament, compact_json
from tournaments.services import audit as audit_services
from tournaments.services import closing as closing_services
from tournaments.services import entries as entry_services
from tournaments.services import play as play_services

pytestmark = pytest.mark.django_db

DEFAULT_REQUESTS = 600
#: Every this many fuzzed requests, the player plays one real move (``play_on``).
PLAY_EVERY = 20
SLOW_REQUESTS = 6000
HUGE = 10**20
ROLES = ("anonymous", "player", "organizer")
METHODS = ("GET", "POST", "PUT", "PATCH", "DELETE", "HEAD", "OPTIONS")
JSON_TYPES = ("application/json", "application/json; charset=utf-8")
OTHER_TYPES = (
    "text/plain",
    "application/x-www-form-urlencoded",
    "multipart/form-data; boundary=BoUnDaRy",
    "application/xml",
    "",
    "application/json; charset=latin-1",
    "application/jsonx",
    "\u00e9/\u00e9",
)


# --- The site the fuzz runs against ------------------------------------------------------


@dataclass
class World:
    clients: dict[str, Client]
    player: Any
    organizer: Any
    #: Tournaments the player plays in: never edited or closed by the fuzz.
    kept: list[int]
    closed: int
    sent: list[tuple[str, str, int]] = field(default_factory=list)
    #: Moves of ``play_on``: one every ``PLAY_EVERY`` fuzzed requests.
    played: int = 0

    def tournament_ids(self) -> list[int]:
        return list(Tournament.objects.values_list("pk", flat=True))

    def game_ids(self) -> list[int]:
        return list(Game.objects.values_list("pk", flat=True))

    def playing_games(self) -> list[Game]:
        return list(Game.objects.filter(user=self.player, status=Game.Status.PLAYING))


@pytest.fixture
def world(db: Any) -> World:
    player = factories.make_user("fuzz-speler")
    organizer = factories.make_user("fuzz-organisator", organizer=True)
    kept = [
        factories.make_tournament(created_by=organizer, name="Jokeren 7", rounds=3),
        factories.make_tournament(
            created_by=organizer, name="Klaverjas", game="klaverjas", preset="rotterdams", rounds=2
        ),
        factories.make_tournament(
            created_by=organizer, name="Klassiek", preset="klassiek", rounds=2, south_plays=()
        ),
    ]
    for t in kept:
        entry_services.entry_join(tournament_id=t.pk, user=player)
    closed = factories.make_tournament(created_by=organizer, name="Gesloten")
    entry_services.entry_join(tournament_id=closed.pk, user=factories.make_user())
    closing_services.tournament_close(tournament_id=closed.pk)
    entry_services.game_practice_start(user=player, game="klaverjas", preset="amsterdams")
    clients = {"anonymous": csrf_client()}
    for role, user in (("player", player), ("organizer", organizer)):
        clients[role] = csrf_client()
        clients[role].force_login(user)
    return World(clients, player, organizer, [t.pk for t in kept], closed.pk)


def csrf_client() -> Client:
    """A client the CSRF check applies to, as in production (the check reads a form or
    multipart body before the view does), with a CSRF cookie; ``send`` quotes it in the
    ``X-CSRFToken`` header unless the fuzz leaves it out."""
    client = Client(enforce_csrf_checks=True)
    client.cookies["csrftoken"] = get_random_string(32)
    return client


# --- Values -------------------------------------------------------------------------------


def json_values() -> st.SearchStrategy[Any]:
    scalars = (
        st.none()
        | st.booleans()
        | st.integers()
        | st.integers(min_value=-(10**400), max_value=10**400)
        | st.floats(allow_nan=True, allow_infinity=True)
        | st.text(max_size=30)
    )
    return st.recursive(
        scalars,
        lambda children: (
            st.lists(children, max_size=5)
            | st.dictionaries(st.text(max_size=10), children, max_size=5)
        ),
        max_leaves=15,
    )


def deep_nesting() -> st.SearchStrategy[bytes]:
    return st.builds(
        lambda n, opener, close: opener * n + (b"1" + b"]" * n if close else b""),
        st.integers(min_value=10, max_value=6000),
        st.sampled_from([b"[", b'{"a":', b'{"seq": 0, "action": [']),
        st.booleans(),
    )


def moments() -> st.SearchStrategy[str]:
    """Dates as the form's widget sends them, in any year, and junk."""
    dated = st.datetimes(min_value=datetime(1, 1, 1), max_value=datetime(9999, 12, 31, 23, 59))
    near = st.integers(min_value=-3000, max_value=3000).map(
        lambda days: timezone.localtime() + timedelta(days=days)
    )
    return st.one_of(
        (dated | near).map(
            lambda d: f"{d.year:04d}-{d.month:02d}-{d.day:02d}T{d.hour:02d}:{d.minute:02d}"
        ),
        st.sampled_from(["", "0", "now", "2026-02-30T10:00", "2026-13-01T00:00", "-1-01-01T00:00"]),
        st.text(max_size=20),
    )


def form_values() -> st.SearchStrategy[str]:
    return st.one_of(
        st.text(max_size=40),
        st.integers().map(str),
        st.sampled_from(
            [
                *(str(2**31), str(2**63), "9" * 5000, "-" + "9" * 40, "1e400", "NaN", "on"),
                *("\x00", "32768", "-32769", "a\x00b", "\x01", "\x1b[0m", "x\x7f", "\t\r\n"),
            ]
        ),
        moments(),
        json_values().map(lambda v: json.dumps(v)),
        deep_nesting().map(lambda b: b.decode()),
    )


#: An id in a URL, drawn without looking at the database (Hypothesis needs what it draws
#: to be the same on a replay): ``("known", i)`` is the i-th existing id (modulo their
#: number), else the text itself.
IdSpec = tuple[str, Any]
ID_SPECS: st.SearchStrategy[IdSpec] = st.one_of(
    st.tuples(st.just("known"), st.integers(min_value=0, max_value=2**16)),
    st.tuples(st.just("known"), st.integers(min_value=0, max_value=2**16)),
    st.tuples(st.just("text"), st.integers(min_value=0, max_value=2**70).map(str)),
    st.tuples(st.just("text"), st.just(str(HUGE))),
    st.tuples(st.just("text"), st.text(min_size=1, max_size=8).map(lambda s: quote(s, safe=""))),
)


def pick(items: list[Any], index: int) -> Any:
    return items[index % len(items)] if items else None


def resolve_id(spec: IdSpec, known: list[int]) -> str:
    kind, value = spec
    if kind == "known":
        return str(pick(known, value) or 1)
    return str(value)


# --- Requests -----------------------------------------------------------------------------


@dataclass
class Request:
    method: str
    path: str
    body: bytes | dict[str, str] | None = None
    content_type: str = "application/json"
    query: dict[str, str] | None = None


Draw = Callable[[st.SearchStrategy[Any]], Any]


def _method(draw: Draw, natural: str) -> str:
    return str(draw(st.sampled_from([natural] * 20 + list(METHODS))))


def _legal_actions(game: Game) -> list[dict[str, Any]]:
    """A few actions the engine allows South now (none when it is not South's turn)."""
    module = module_of(game.game)
    state = module.state_from_json(game.state)
    if state.is_terminal or state.current_player != PLAYER_SEAT:
        return []
    legal = state.legal_actions()
    picks = [legal[0], legal[-1], legal[len(legal) // 2], module.bot_action(state, level="basic")]
    return [dict(a.to_json()) for a in picks]


def move_request(draw: Draw, world: World) -> Request:
    use_game, game_index = draw(st.integers(0, 9)), draw(st.integers(0, 2**16))
    other_id = draw(ID_SPECS)
    seq_spec = draw(
        st.one_of(
            *[st.just(("now", 0))] * 6,
            st.tuples(st.just("off"), st.sampled_from([-1, 1, -(10**6)])),
            st.tuples(st.just("any"), st.integers()),
            st.tuples(st.just("any"), json_values()),
        )
    )
    keys = st.sampled_from(["type", "card", "meld", "melds", "source", "suit", "play", "x"])
    action_spec = draw(
        st.one_of(
            *[st.tuples(st.just("legal"), st.integers(0, 2**16))] * 6,
            st.tuples(st.just("mutated"), st.integers(0, 2**16), keys, json_values()),
            st.tuples(st.just("any"), json_values()),
        )
    )
    body_pick = draw(st.integers(0, 19))
    other_body = draw(
        st.one_of(
            json_values().map(lambda v: json.dumps(v).encode()),
            deep_nesting(),
            st.binary(max_size=300),
        )
    )
    content_type = draw(st.sampled_from(list(JSON_TYPES) * 20 + list(OTHER_TYPES)))
    method = _method(draw, "POST")

    games = world.playing_games()
    game = pick(games, game_index) if use_game < 8 else None
    game_id = str(game.pk) if game is not None else resolve_id(other_id, world.game_ids())
    legal = _legal_actions(game) if game is not None else []
    seq_now = game.seq if game is not None else 0
    kind, value = seq_spec
    seq = seq_now if kind == "now" else seq_now + value if kind == "off" else value
    kind, *rest = action_spec
    if kind == "legal" and legal:
        action = pick(legal, rest[0])
    elif kind == "mutated" and legal:
        action = {**pick(legal, rest[0]), rest[1]: rest[2]}
    else:
        action = rest[-1] if kind == "any" else {"type": "draw", "source": "stock"}
    body = json.dumps({"seq": seq, "action": action}).encode() if body_pick < 14 else other_body
    return Request(method, f"/api/games/{game_id}/moves/", body, content_type)


def api_get_request(draw: Draw, world: World) -> Request:
    kind = draw(st.sampled_from(["game", "standings", "unknown"]))
    if kind == "game":
        path = f"/api/games/{resolve_id(draw(ID_SPECS), world.game_ids())}/"
    elif kind == "standings":
        spec = draw(ID_SPECS)
        path = f"/api/tournaments/{resolve_id(spec, world.tournament_ids())}/standings/"
    else:
        tail = draw(st.text(max_size=15).map(lambda s: quote(s, safe="/")))
        path = "/api/" + tail
    body = draw(st.none() | st.binary(max_size=50) | deep_nesting())
    return Request(
        _method(draw, "GET"), path, body, draw(st.sampled_from(JSON_TYPES + OTHER_TYPES))
    )


def tournament_form_request(draw: Draw, world: World) -> Request:
    presets = ["jokeren:jokeren7", "jokeren:klassiek", "jokeren:veertigen", "klaverjas:rotterdams"]
    preset = draw(st.sampled_from([*presets, "nope:nope", "jokeren:", ""]))
    data = factories.tournament_form_data(
        preset if ":" in preset and preset[-1] != ":" else presets[0]
    )
    data["preset"] = preset
    keys = [*sorted(data), "load_preset", "v_unknown", "csrfmiddlewaretoken"]
    for key in draw(st.lists(st.sampled_from(keys), max_size=4, unique=True)):
        if draw(st.integers(0, 4)) == 0:
            data.pop(key, None)
        else:
            data[key] = draw(form_values())
    target, spec = draw(st.integers(0, 9)), draw(ID_SPECS)
    editable = [pk for pk in world.tournament_ids() if pk not in world.kept]
    if target < 5:
        path = "/tournaments/new/"
    elif target < 9:
        path = f"/tournaments/{resolve_id(spec, editable)}/edit/"
    else:
        path = f"/tournaments/{resolve_id(spec, world.tournament_ids())}/edit/"
        # any tournament, the kept ones too (their game settings are locked), but never
        # with a closing time: a kept tournament whose window the fuzz ended could no
        # longer be played on (``play_on``)
        data.pop("closes_at", None)
    method = _method(draw, "POST")
    if method == "GET":
        return Request(
            method, path, query={"preset": draw(st.sampled_from(presets) | st.text(max_size=10))}
        )
    encoding = draw(st.integers(0, 5))
    if encoding == 0:
        return Request(method, path, urlencode(data).encode(), "application/x-www-form-urlencoded")
    if encoding == 1:
        return Request(method, path, json.dumps(data).encode(), "application/json")
    return Request(method, path, data)


def other_form_request(draw: Draw, world: World) -> Request:
    kind = draw(st.sampled_from(["practice", "join", "close", "setlang"]))
    method = _method(draw, "POST")
    if kind == "practice":
        data = {
            "preset": draw(
                st.sampled_from(["jokeren:jokeren7", "klaverjas:amsterdams"]) | form_values()
            ),
            "bot_level": draw(st.sampled_from(["basic", "strong"]) | form_values()),
        }
        return Request(method, "/practice/", data)
    if kind == "setlang":
        data = {
            "language": draw(st.sampled_from(["nl", "en"]) | form_values()),
            "next": draw(st.sampled_from(["/", "/practice/", "//evil.example/"]) | form_values()),
        }
        return Request("POST", "/i18n/setlang/", data)
    spec = draw(ID_SPECS)
    tournaments = world.tournament_ids()
    if kind == "join":
        return Request(method, f"/tournaments/{resolve_id(spec, tournaments)}/join/", {})
    closable = [pk for pk in tournaments if pk not in world.kept]
    return Request(method, f"/tournaments/{resolve_id(spec, closable)}/close/", {})


def page_request(draw: Draw, world: World) -> Request:
    tournament = resolve_id(draw(ID_SPECS), world.tournament_ids())
    game = resolve_id(draw(ID_SPECS), world.game_ids())
    known_path = draw(
        st.sampled_from(
            [
                "/",
                "/practice/",
                "/my-games/",
                "/tournaments/new/",
                f"/tournaments/{tournament}/",
                f"/tournaments/{tournament}/rules/",
                f"/tournaments/{tournament}/verify/",
                f"/tournaments/{tournament}/entries/",
                f"/tournaments/{tournament}/edit/",
                f"/games/{game}/",
                f"/games/{game}/replay/",
                f"/tournaments/{world.closed}/verify/",
                "/rules/jokeren/jokeren7/",
                "/rules/klaverjas/rotterdams/",
            ]
        )
    )
    random_path = draw(
        st.tuples(st.text(max_size=10), st.text(max_size=10)).map(
            lambda gp: f"/rules/{quote(gp[0], safe='')}/{quote(gp[1], safe='')}/"
        )
    )
    path = random_path if draw(st.integers(0, 9)) == 0 else known_path
    query = {"round": draw(form_values()), "preset": draw(form_values())}
    return Request(_method(draw, "GET"), path, query=query)


#: Every query parameter a page or an API address reads (views, api, api_clubs), with the
#: addresses that read it; the fuzz sends any of them to any address.
QUERY_NAMES = (
    "q",
    "page",
    "page_size",
    "round",
    "with",
    "cards",
    "sep",
    "status",
    "preset",
    "ratings",
    "code",
    "club",
)


def query_request(draw: Draw, world: World) -> Request:
    """A GET of any page or API address with query parameters the site reads (and a
    per-deal page, ``deal<r>``), each any form value: NUL and other control bytes, huge
    and negative numbers, junk."""
    tournament = resolve_id(draw(ID_SPECS), world.tournament_ids())
    game = resolve_id(draw(ID_SPECS), world.game_ids())
    series = draw(st.sampled_from(["1", "2", str(HUGE)]))
    path = draw(
        st.sampled_from(
            [
                f"/tournaments/{tournament}/",
                f"/tournaments/{tournament}/leaderboard/",
                f"/tournaments/{tournament}/standings.csv",
                f"/tournaments/{tournament}/entries/",
                f"/tournaments/{world.closed}/",
                f"/games/{game}/replay/",
                f"/games/{game}/review/",
                f"/games/{game}/split/",
                f"/games/{game}/sheet/",
                f"/games/{game}/record.json",
                f"/series/{series}/",
                f"/series/{series}/season.csv",
                "/series/",
                "/account/",
                "/practice/",
                "/my-games/",
                "/api/tournaments/",
                f"/api/tournaments/{tournament}/",
                f"/api/tournaments/{tournament}/standings/",
                f"/api/games/{game}/",
                f"/api/games/{game}/hint/",
                f"/api/games/{game}/meld-readings/",
                f"/api/series/{series}/season/",
                "/ratings/jokeren/",
                "/ratings/klaverjas/",
                "/players/fuzz-speler/",
                "/api/ratings/jokeren/",
                "/api/players/fuzz-speler/",
                "/clubs/",
                "/clubs/standaard/",
                "/clubs/standaard/join/",
                "/clubs/code/",
            ]
        )
    )
    names = draw(st.lists(st.sampled_from([*QUERY_NAMES, "deal0", "deal1"]), max_size=4))
    query = {name: draw(form_values()) for name in names}
    return Request(draw(st.sampled_from(["GET"] * 9 + ["HEAD"])), path, query=query)


def series_form_request(draw: Draw, world: World) -> Request:
    """The organizer's series form with any value in any field (its own ones too: the
    schedule, the window, the days, best k)."""
    data = factories.tournament_form_data("jokeren:jokeren7")
    for key in ("opens_at", "closes_at"):
        data.pop(key)
    data.update(
        kind="daily",
        weekdays="0",
        time_of_day="20:00",
        window_minutes="120",
        starts_on=timezone.localdate().isoformat(),
        best_k="10",
    )
    keys = [*sorted(data), "ends_on", "load_preset"]
    for key in draw(st.lists(st.sampled_from(keys), max_size=4, unique=True)):
        data[key] = draw(form_values())
    return Request(_method(draw, "POST"), "/series/new/", data)


def account_page_request(draw: Draw, world: World) -> Request:
    """The account page's forms: a token by any name, revoking any token, marking a bot,
    the mail settings (language and each kind on or off)."""
    action = draw(
        st.sampled_from(["create_token", "revoke_token", "mark_bot", "mail_settings"])
        | form_values()
    )
    data = {"action": action, "name": draw(form_values()), "token": draw(form_values())}
    for key in ("language", "mail_results", "mail_series", "mail_invites"):
        data[key] = draw(st.sampled_from(["nl", "en", "on", ""]) | form_values())
    return Request(_method(draw, "POST"), "/account/", data)


def club_form_request(draw: Draw, world: World) -> Request:
    """The clubs' forms, any value in any field: joining with a code, typing a code,
    leaving, the owner's role change, a new invite link, an invitation by name; and the
    mail's "off" link (any token, GET or the one-click POST)."""
    kind = draw(st.sampled_from(["join", "code", "leave", "role", "renew", "invite", "off"]))
    slug = draw(
        st.sampled_from(["standaard", "geen-club"])
        | st.text(max_size=8).map(lambda text: quote(text, safe="") or "x")
    )
    method = _method(draw, "POST")
    value = draw(form_values())
    if kind == "join":
        return Request(method, f"/clubs/{slug}/join/", {"code": value}, query={"code": value})
    if kind == "code":
        return Request(method, "/clubs/code/", {"code": value})
    if kind == "leave":
        return Request(method, f"/clubs/{slug}/leave/", {})
    if kind == "role":
        data = {"user": value, "role": draw(st.sampled_from(["organizer", "member", "owner"]))}
        return Request(method, f"/clubs/{slug}/members/", data)
    if kind == "renew":
        return Request(method, f"/clubs/{slug}/invite/", {})
    if kind == "invite":
        name = draw(st.sampled_from(["fuzz-speler", "fuzz-organisator"]) | form_values())
        return Request(method, f"/clubs/{slug}/invite-player/", {"username": name})
    token = draw(st.text(max_size=60).map(lambda text: quote(text, safe="") or "x"))
    return Request(method, f"/mail/off/{token}/", {"List-Unsubscribe": "One-Click"})


def account_request(draw: Draw, world: World) -> Request:
    """The ways in (accounts/, allauth's pages): sign-up, log-in by name or address, the
    password reset, any value in any field."""
    kind = draw(st.sampled_from(["signup", "login", "password/reset"]))
    password = draw(st.sampled_from([factories.PASSWORD, "kort"]) | st.text(max_size=30))
    name = draw(st.text(max_size=40) | st.sampled_from(["fuzz-speler", "nieuw"]))
    data = {
        "username": name,
        "login": draw(st.just(name) | st.sampled_from(["fuzz-speler@example.org"])),
        "email": draw(
            st.sampled_from(["nieuw@example.org", "fuzz-speler@example.org"]) | form_values()
        ),
        "password": password,
        "password1": password,
        "password2": draw(st.just(password) | st.text(max_size=10)),
    }
    return Request(_method(draw, "POST"), f"/accounts/{kind}/", data)


def account_settings_request(draw: Draw, world: World) -> Request:
    """One's own account pages (accounts/, allauth's): the address page (add, make
    primary, send again, remove), the password change, the second factor's pages, the
    deletion (never with the right password: the fuzz's accounts stay), the download of
    one's data, the privacy page; any value in any field."""
    path = draw(
        st.sampled_from(
            [
                "/accounts/email/",
                "/accounts/password/change/",
                "/accounts/2fa/",
                "/accounts/2fa/totp/activate/",
                "/accounts/2fa/totp/deactivate/",
                "/accounts/2fa/recovery-codes/",
                "/accounts/2fa/recovery-codes/generate/",
                "/accounts/2fa/authenticate/",
                "/account/delete/",
                "/account/export/",
                "/privacy/",
            ]
        )
    )
    data = {
        draw(st.sampled_from(["action_add", "action_primary", "action_send", "action_remove"])): "",
        "email": draw(
            st.sampled_from(["fuzz-speler@example.org", "ander@example.org"]) | form_values()
        ),
        "oldpassword": draw(st.just(factories.PASSWORD) | form_values()),
        "password1": draw(form_values()),
        "password2": draw(form_values()),
        "code": draw(st.sampled_from(["123456", ""]) | form_values()),
        "password": draw(st.sampled_from(["fout", ""]) | form_values()),
    }
    return Request(_method(draw, "POST"), path, data)


#: Each kind of request, how often it comes (repeats) and who sends it (repeats).
BUILDERS: list[tuple[Callable[[Draw, World], Request], tuple[str, ...]]] = (
    [(move_request, ("player",) * 8 + ("organizer", "anonymous"))] * 8
    + [(api_get_request, ("player", "player", "organizer", "anonymous"))] * 3
    + [(tournament_form_request, ("organizer",) * 6 + ("player", "anonymous"))] * 4
    + [(other_form_request, ("player",) * 3 + ("organizer", "organizer", "anonymous"))] * 2
    + [(page_request, ROLES)] * 3
    + [(query_request, ROLES)] * 3
    + [(series_form_request, ("organizer",) * 3 + ("player", "anonymous"))]
    + [(account_page_request, ("player", "organizer", "anonymous"))]
    + [(club_form_request, ("player", "player", "organizer", "anonymous"))]
    + [(account_request, ("anonymous",))]
    + [(account_settings_request, ("player", "organizer", "anonymous"))]
)


# --- Sending and checking -------------------------------------------------------------------


def send(client: Client, request: Request, *, token: bool = True) -> Any:
    """The request through Django's test client (``raise_request_exception``: a view's
    exception is raised here, not turned into a 500 page), with the CSRF token in its
    header unless ``token`` is false."""
    headers = {"HTTP_X_CSRFTOKEN": client.cookies["csrftoken"].value} if token else {}
    if isinstance(request.body, dict):
        if request.method == "POST":
            return client.post(request.path, request.body, **headers)
        data: Any = urlencode(request.body)
        content_type = "application/x-www-form-urlencoded"
    else:
        data, content_type = request.body or b"", request.content_type
    if request.query is not None and request.method in ("GET", "HEAD"):
        path = request.path + "?" + urlencode(request.query)
        return client.generic(request.method, path, **headers)
    return client.generic(request.method, request.path, data, content_type, **headers)


def check(request: Request, response: Any) -> None:
    where = f"{request.method} {request.path} {request.content_type!r}"
    assert response.status_code < 500, where
    if not request.path.startswith("/api/") or request.method == "HEAD":
        return
    if response.status_code >= 400:
        assert response["Content-Type"].startswith("application/json"), where
        error = json.loads(response.content)["error"]
        assert {"code", "nl", "en", "message"} <= set(error), where
        assert all(isinstance(error[k], str) and error[k] for k in ("code", "nl", "en")), where
    elif response.status_code == 200:
        json.loads(response.content)


def play_on(world: World, game_index: int) -> None:
    """The player's next move in one of their games still going (``game_index`` modulo
    their number), sent as the table sends it: a legal action at the current seq, JSON,
    with the CSRF token. Whatever the fuzz sent before, it is accepted: a refusal means a
    fuzzed request left a game the site cannot go on with. (Fuzzed moves alone rarely hit
    a legal action at the current seq, so without these the fuzz could end with its games
    barely begun.)"""
    game = pick(
        [g for g in world.playing_games() if _legal_actions(g)],
        game_index,
    )
    if game is None:
        return
    action = factories.south_action(game)
    request = Request(
        "POST",
        f"/api/games/{game.pk}/moves/",
        json.dumps({"seq": game.seq, "action": action}).encode(),
    )
    response = send(world.clients["player"], request)
    assert response.status_code == 200, (game.pk, game.seq, action, response.content[:300])
    world.played += 1


# --- The replay audit -------------------------------------------------------------------------


def replay_audit(game: Game) -> None:
    """The replay audit (``audit_services.game_audit``) of ``game``, played to its end by the bot
    first if it is still going: every move by the seat to move and accepted by the engine,
    every bot move the bot's own choice, each round's scores, the stored state, seq and
    totals as stored."""
    if not game.is_finished:
        game = play_services.game_bot_finish(game_id=game.pk)
    audit = audit_services.game_audit(game_id=game.pk)
    assert audit.ok, (game.pk, audit.problems)


# --- The fuzz ---------------------------------------------------------------------------------


def _fuzz(world: World, requests: int) -> None:
    @settings(
        max_examples=requests,
        deadline=None,
        database=None,
        suppress_health_check=list(HealthCheck),
    )
    @given(data=st.data())
    def one_request(data: st.DataObject) -> None:
        build, roles = data.draw(st.sampled_from(BUILDERS), label="builder")
        role = data.draw(st.sampled_from(roles), label="role")
        request = build(data.draw, world)
        token = data.draw(st.integers(0, 19), label="token") > 0
        client = world.clients[role]
        if request.path.startswith("/accounts/"):
            client = csrf_client()  # never log out the fuzz's own users
        response = send(client, request, token=token)
        world.sent.append((request.method, request.path, response.status_code))
        check(request, response)

        played_game = data.draw(st.integers(0, 2**16), label="played game")
        if len(world.sent) % PLAY_EVERY == 0:
            play_on(world, played_game)

    one_request()
    assert len(world.sent) >= requests
    statuses = {status for _m, _p, status in world.sent}
    # The fuzz reached the site's happy paths as well as its refusals.
    assert 200 in statuses and {400, 404} <= statuses
    # Between the fuzzed requests the games went on (until they ended, in the slow tier).
    assert world.played >= 10, "the fuzz did not play: its games barely began"
    games = list(Game.objects.select_related("entry__tournament").order_by("pk"))
    assert len(games) >= 5
    for game in games:
        replay_audit(game)


@pytest.mark.parametrize(
    "requests",
    [
        pytest.param(DEFAULT_REQUESTS, id="default"),
        pytest.param(SLOW_REQUESTS, id="slow", marks=pytest.mark.slow),
    ],
)
def test_no_generated_request_gets_a_5xx(world: World, requests: int) -> None:
    _fuzz(world, requests)


def test_the_replay_audit_notices_a_changed_log(world: World) -> None:
    """The audit the fuzz ends with can fail: an entrant's stored action or a score
    changed behind the site's back (the bots' moves are not stored: the replay makes them)."""
    game = entry_services.game_practice_start(
        user=world.player, game="jokeren", preset="jokeren7", bot_level="basic"
    )

    def drawn() -> list[GameRound]:
        """The stored rounds in which the entrant drew (on a random deal a bot may go out
        before the entrant's first turn: then the round holds no draw of theirs)."""
        rows = GameRound.objects.filter(game=game).order_by("round_index")
        return [r for r in rows if any(a["type"] == "draw" for a in r.action_list)]

    while not drawn():  # the entrant plays until a round with a draw of theirs is stored
        outcome = play_services.game_play_move(
            game_id=game.pk, user=world.player, seq=game.seq, action=factories.south_action(game)
        )
        game = outcome.game
    replay_audit(game)  # played to its end by the bot
    row = drawn()[0]
    original = row.actions
    actions = row.action_list
    i = next(i for i, a in enumerate(actions) if a["type"] == "draw")
    other = "open" if actions[i]["source"] == "stock" else "stock"
    actions[i] = {**actions[i], "source": other}  # the other pile: not what was played
    row.actions = compact_json(actions)
    row.save()
    with pytest.raises(AssertionError):
        replay_audit(game)
    row.actions = original
    row.save()
    replay_audit(game)
    # The closed tournament's game: the bot played it to the end.
    finished = Game.objects.get(entry__tournament_id=world.closed)
    replay_audit(finished)
    finished.round_scores = [[s + 1 for s in finished.round_scores[0]], *finished.round_scores[1:]]
    finished.save()
    with pytest.raises(AssertionError):
        replay_audit(finished)


def test_a_form_post_without_the_csrf_token_is_refused(world: World) -> None:
    """The fuzz passes the CSRF check with its token; without it the site refuses."""
    client = csrf_client()
    client.force_login(world.organizer)
    data = factories.tournament_form_data()
    assert client.post("/tournaments/new/", data).status_code == 403
    assert not Tournament.objects.filter(name=data["name"]).exists()
    user = get_user_model().objects.get(pk=world.player.pk)
    assert user.is_active
