"""Plain factory functions for the site's tests (no factory library needed)."""

from __future__ import annotations

import hashlib
import itertools
import json
import random
import time
from collections.abc import Callable, Collection
from datetime import date, datetime, timedelta
from typing import Any

from allauth.account.models import EmailAddress
from allauth.mfa.totp.internal.auth import format_hotp_value, hotp_value
from django.contrib.auth import get_user_model
from django.utils import timezone

from accounts import services as account_services
from engine import dealing
from tournaments import series as series_services
from tournaments.games import PLAYER_SEAT, module_of
from tournaments.models import Access, Club, Membership, Series, Tournament
from tournaments.services import closing as closing_services
from tournaments.services import clubs as club_services
from tournaments.services import entries as entry_services
from tournaments.services import par as par_services
from tournaments.services import play as play_services
from tournaments.services import results as result_services
from tournaments.services import tournaments as tournament_services

PASSWORD = "kaarten-schudden-42"
_counter = itertools.count(1)
#: How many fresh secrets ``make_tournament`` draws at most for a deal that fits. A Jokeren 7
#: deal lets a bot go out before South's first turn about once in 60, so this never runs out.
SECRET_DRAWS = 200


def make_user(
    username: str | None = None,
    *,
    organizer: bool = False,
    club: Club | None = None,
    email: str | None = None,
    verified: bool = True,
    second_factor: bool | None = None,
    **extra: Any,
) -> Any:
    """A user; ``organizer``: an organizer of ``club`` (default: the default club, which
    ``make_tournament`` uses unless told; docs/rules.md, "Clubs: members, organizers, who
    may enter"). Its mail address ``email`` (default ``<name>@example.org``; ``""`` for
    none) is verified unless ``verified`` is false (docs/rules.md, "Accounts"). An
    organizer and staff get a second factor (``add_second_factor``) unless
    ``second_factor`` is false."""
    User = get_user_model()
    name = username or f"user{next(_counter)}"
    address = f"{name}@example.org" if email is None else email
    user = User.objects.create_user(username=name, password=PASSWORD, email=address, **extra)
    if address:
        EmailAddress.objects.create(
            user=user, email=address.lower(), primary=True, verified=verified
        )
    if organizer:
        club_services.membership_add(
            club=club or club_services.club_default(),
            user=user,
            role=Membership.Role.ORGANIZER,
        )
    if second_factor if second_factor is not None else (organizer or user.is_staff):
        add_second_factor(user)
    return user


#: The TOTP secret of every second factor the factories set up (base32): a test computes
#: its codes with ``totp_code``.
TOTP_SECRET = "JBSWY3DPEHPK3PXPJBSWY3DPEHPK3PXP"


def add_second_factor(user: Any) -> list[str]:
    """A TOTP authenticator with ``TOTP_SECRET`` and recovery codes for ``user`` (what
    club owners, organizers and staff need before they act on a tournament); the
    recovery codes."""
    return account_services.second_factor_add(user=user, secret=TOTP_SECRET)


def totp_code(secret: str = TOTP_SECRET, *, at: float | None = None) -> str:
    """The TOTP code of ``secret`` now (or at the Unix time ``at``)."""
    counter = int(time.time() if at is None else at) // 30
    return format_hotp_value(hotp_value(secret, counter))


def default_club() -> Club:
    """The default club ("standaard"), where tournaments and organizers go unless told."""
    return club_services.club_default()


def make_club(name: str | None = None, *, owner: Any = None) -> Club:
    """A new club (``owner`` its owner, if given)."""
    n = next(_counter)
    if owner is not None:
        add_second_factor(owner)
    return club_services.club_create(name=name or f"Club {n}", slug=f"club-{n}", owner=owner)


def add_member(club: Club, user: Any, role: str = Membership.Role.MEMBER) -> Membership:
    """``user`` in ``club`` with ``role`` (an owner or organizer with a second factor)."""
    if role in (Membership.Role.OWNER, Membership.Role.ORGANIZER):
        add_second_factor(user)
    return club_services.membership_add(club=club, user=user, role=role)


def make_series(*, created_by: Any, club: Club, **fields: Any) -> Series:
    """A daily series of one-round Jokeren 7 editions (basic bots, open 120 minutes at
    this time of day, from 1 January 2026) through the service; ``fields`` set others."""
    values: dict[str, Any] = {
        "name": "Reeks",
        "game": "jokeren",
        "preset": "jokeren7",
        "rounds": 1,
        "bot_level": "basic",
        "kind": "daily",
        "time_of_day": datetime.now().time().replace(microsecond=0),
        "window_minutes": 120,
        "starts_on": date(2026, 1, 1),
        **fields,
    }
    return series_services.series_create(created_by=created_by, club=club, **values)


def make_tournament(
    *,
    created_by: Any = None,
    name: str = "Toernooi",
    game: str = "jokeren",
    preset: str = "jokeren7",
    rounds: int = 2,
    max_entrants: int = 10,
    bot_level: str = "basic",
    opens_at: datetime | None = None,
    closes_at: datetime | None = None,
    variant: dict[str, Any] | None = None,
    south_plays: Collection[int] = (0,),
    secret: bytes | None = None,
    club: Club | None = None,
    access: str = Access.PUBLIC,
    pool_copies: int = 1,
) -> Tournament:
    """An open tournament from ``tournament_services.tournament_create`` (a fresh random secret).

    Joining plays the bots in the seats before South, and a Jokeren bot may go out in its
    very first turn: then round 0 is over before South ever moves (with every round like
    that, the game is). The site's tests join and play South's moves, so the deal of each
    round in ``south_plays`` (round 0 unless told) must give South a turn
    (``south_gets_a_turn``); while it does not, a fresh random secret replaces the
    tournament's (with its commitment): the deals stay random among those that fit.
    ``south_plays=()`` keeps the service's secret whatever its deals; ``secret`` puts in a
    secret the test chose (not checked). ``club``: the default club unless told."""
    now = timezone.now()
    t = tournament_services.tournament_create(
        created_by=created_by or make_user(organizer=True, club=club),
        club=club or club_services.club_default(),
        access=access,
        name=name,
        game=game,
        preset=preset,
        variant=variant,
        rounds=rounds,
        max_entrants=max_entrants,
        bot_level=bot_level,
        opens_at=opens_at or now - timedelta(hours=1),
        closes_at=closes_at or now + timedelta(days=1),
        pool_copies=pool_copies,
    )
    # The par task is queued on commit, which a test's transaction never reaches.
    par_services.tournament_par_compute(tournament_id=t.pk)
    if secret is not None:
        set_secret(t, secret)
        return t
    return deals_where_south_plays(t, south_plays)


def deals_where_south_plays(t: Tournament, south_plays: Collection[int]) -> Tournament:
    """``t`` (nobody entered yet) with a fresh random secret until the deal of each round
    in ``south_plays`` gives South a turn (``south_gets_a_turn``)."""
    if any(not 0 <= r < t.rounds for r in south_plays):
        raise ValueError(f"south_plays {sorted(south_plays)}: the game has {t.rounds} rounds")
    for _ in range(SECRET_DRAWS):
        if all(south_gets_a_turn(t, r) for r in south_plays):
            return t
        set_secret(t, dealing.new_secret())
    raise AssertionError(f"no deal in {SECRET_DRAWS} gave South a turn in rounds {south_plays}")


def set_secret(t: Tournament, secret: bytes) -> None:
    """Give ``t`` (nobody entered yet) this secret and its commitment."""
    assert not t.entries.exists(), "the secret of a tournament with entrants never changes"
    Tournament.objects.filter(pk=t.pk).update(secret=secret, commitment=dealing.commitment(secret))
    t.refresh_from_db()
    # Par follows the deals (as the site's task does when a tournament is created).
    par_services.tournament_par_compute(tournament_id=t.pk)


def south_gets_a_turn(t: Tournament, round_index: int, secret: bytes | None = None) -> bool:
    """Whether South (seat 0) gets a turn in round ``round_index`` of ``t`` dealt from
    ``secret`` (default: ``t``'s): the round is dealt, the bots in the seats before South
    play at ``t``'s level (deterministic: the same choices on the same deal, as the site
    plays them) and none of them ends the round first."""
    module = module_of(t.game)
    state = module.new_round(
        module.variant_from_json(t.variant),
        secret=t.secret_bytes if secret is None else secret,
        round_index=round_index,
    )
    while not state.is_terminal and state.current_player != PLAYER_SEAT:
        state = state.apply(module.bot_action(state, level=t.bot_level, version=t.bot_version))
    return not state.is_terminal


def secret_where(label: str, fits: Callable[[bytes], bool], tries: int = 20_000) -> bytes:
    """The first of the secrets ``SHA-256(label:0)``, ``SHA-256(label:1)``, ... that
    ``fits``: a fixed deal with a property a test needs, found by the engine, not copied."""
    for i in range(tries):
        secret = hashlib.sha256(f"{label}:{i}".encode()).digest()
        if fits(secret):
            return secret
    raise AssertionError(f"no secret of {tries} fits ({label})")


def fixed_secrets(monkeypatch: Any, label: str) -> None:
    """New games dealt from the secrets ``SHA-256(label:0)``, ``SHA-256(label:1)``, ... in
    turn, not at random (``dealing.new_secret`` patched): every run plays the same deals."""
    secrets = (hashlib.sha256(f"{label}:{i}".encode()).digest() for i in itertools.count())
    monkeypatch.setattr(dealing, "new_secret", lambda: next(secrets))


def set_rounds(game: Any, round_scores: list[list[int]]) -> None:
    """Give ``game`` these finished rounds (seat scores per round) and the totals they add
    up to, as if played: a field with the results a test needs. Refresh the standings
    after it (``result_services.standings_refresh``)."""
    totals = [sum(r[s] for r in round_scores) for s in range(len(game.totals))]
    type(game).objects.filter(pk=game.pk).update(round_scores=round_scores, totals=totals)
    game.refresh_from_db()


def south_action(game: Any) -> dict[str, Any]:
    """A legal action for South in ``game``'s current state: the basic bot's choice."""
    module = module_of(game.game)
    state = module.state_from_json(game.state)
    assert state.current_player == PLAYER_SEAT
    return dict(module.bot_action(state, level="basic").to_json())


def play_to_end(game: Any, user: Any) -> tuple[Any, list[dict[str, Any]]]:
    """Play ``game`` to its end through the service, South choosing like the basic bot.
    Returns the finished game and every event of every move."""
    events: list[dict[str, Any]] = []
    game.refresh_from_db()
    while game.status == "playing":
        outcome = play_services.game_play_move(
            game_id=game.pk, user=user, seq=game.seq, action=south_action(game)
        )
        events.extend(outcome.events)
        game = outcome.game
    return game, events


def closed_game(
    game: str = "jokeren", preset: str = "jokeren7", rounds: int = 1, *, username: str | None = None
) -> tuple[Tournament, Any]:
    """A tournament with one entrant who played every round (South as the basic bot),
    closed: its game can be replayed by anyone."""
    tournament = make_tournament(name="Terugkijken", game=game, preset=preset, rounds=rounds)
    user = make_user(username)
    played = entry_services.entry_join(tournament_id=tournament.pk, user=user).game
    played, _events = play_to_end(played, user)
    closing_services.tournament_close(tournament_id=tournament.pk)
    played.refresh_from_db()
    return tournament, played


def tournament_form_data(
    preset: str = "jokeren:jokeren7", *, days: int = 7, **fields: Any
) -> dict[str, str]:
    """A valid POST of the organizer's tournament form for ``preset``: every field at the
    form's own initial value (the preset's variant settings), open from now for ``days``
    days; ``fields`` replace values (``None`` leaves a field out)."""
    from tournaments.forms import TournamentForm

    form = TournamentForm(preset=preset)
    now = timezone.localtime()
    data: dict[str, Any] = {
        "name": "Fuzzavond",
        "preset": preset,
        "rounds": 2,
        "max_entrants": 10,
        "bot_level": "basic",
        "opens_at": (now - timedelta(minutes=5)).strftime("%Y-%m-%dT%H:%M"),
        "closes_at": (now + timedelta(days=days)).strftime("%Y-%m-%dT%H:%M"),
    }
    for bound in form.variant_fields():
        value = form.initial.get(bound.name, bound.field.initial)
        if isinstance(value, bool):
            data[bound.name] = "on" if value else None
        elif isinstance(value, (list, dict)):
            data[bound.name] = json.dumps(value)
        else:
            data[bound.name] = value
    data.update(fields)
    return {key: str(value) for key, value in data.items() if value is not None}


def make_closed_field(organizer: Any, size: int) -> Tournament:
    """A closed three-round Jokeren tournament of ``size`` entrants (bulk-inserted, their
    seat scores drawn from a fixed stream so results tie often), every round finished; the
    last entrant's third round played by the bot."""
    from tournaments.models import Entry, Game, GameRound

    t = make_tournament(created_by=organizer, rounds=3, south_plays=())
    rng = random.Random(7)
    users = get_user_model().objects.bulk_create(
        [
            get_user_model()(username=f"veld{i:04d}", email=f"veld{i:04d}@example.org")
            for i in range(size)
        ]
    )
    # verified addresses, as ``make_user`` gives (docs/rules.md, "Accounts")
    EmailAddress.objects.bulk_create(
        [EmailAddress(user=u, email=u.email, primary=True, verified=True) for u in users]
    )
    entries = Entry.objects.bulk_create([Entry(tournament=t, user=u) for u in users])
    games = []
    for u, e in zip(users, entries, strict=True):
        scores = [[rng.randrange(0, 40, 5) for _ in range(4)] for _ in range(3)]
        games.append(
            Game(
                user=u,
                entry=e,
                game=t.game,
                preset=t.preset,
                variant=t.variant,
                rounds=3,
                bot_level=t.bot_level,
                bot_version=t.bot_version,
                round_index=2,
                round_scores=scores,
                totals=[sum(r[s] for r in scores) for s in range(4)],
                round_results=[{} for _ in scores],
                status=Game.Status.FINISHED,
            )
        )
    Game.objects.bulk_create(games)
    last = Game.objects.filter(entry__tournament=t).order_by("-pk").first()
    assert last is not None
    Game.objects.filter(pk=last.pk).update(bot_finished=True)
    GameRound.objects.create(game=last, round_index=2, moves=1, bot_from=0, actions="[]")
    Tournament.objects.filter(pk=t.pk).update(closed_at=timezone.now())
    t.refresh_from_db()
    result_services.standings_rebuild(tournament=t)
    return t


def make_live_evening(
    *,
    created_by: Any = None,
    name: str = "Clubavond",
    rounds: int = 3,
    max_entrants: int = 30,
    starts_in: timedelta = timedelta(minutes=10),
    slot_minutes: Collection[int] = (20,),
    pause_minutes: int = 5,
    game: str = "jokeren",
    preset: str = "jokeren7",
    south_plays: Collection[int] | None = None,
) -> Tournament:
    """A live club evening (docs/rules.md §7) from ``tournament_create``: entries open an
    hour ago, its first round starts ``starts_in`` from now, each round ``slot_minutes``
    long with ``pause_minutes`` between two. Every round's deal gives South a turn (unless
    ``south_plays`` says which must), as ``make_tournament``'s."""
    now = timezone.now()
    t = tournament_services.tournament_create(
        created_by=created_by or make_user(organizer=True),
        club=club_services.club_default(),
        name=name,
        game=game,
        preset=preset,
        rounds=rounds,
        max_entrants=max_entrants,
        bot_level="basic",
        opens_at=now - timedelta(hours=1),
        closes_at=now + timedelta(days=1),
        live_start=now + starts_in,
        live_slot_minutes=list(slot_minutes),
        live_pause_minutes=pause_minutes,
    )
    par_services.tournament_par_compute(tournament_id=t.pk)
    return deals_where_south_plays(t, range(rounds) if south_plays is None else south_plays)


def live_move_clock(t: Tournament, by: timedelta) -> Tournament:
    """The live evening ``t`` as if ``by`` had passed: its window and every slot moved
    that much earlier (the site reads the real clock; the schedule moves instead), and
    its pages' cached state forgotten."""
    from tournaments.services import live as live_services

    t.refresh_from_db()
    slots = [
        [(datetime.fromisoformat(o) - by).isoformat(), (datetime.fromisoformat(c) - by).isoformat()]
        for o, c in t.live_slots
    ]
    Tournament.objects.filter(pk=t.pk).update(
        live_slots=slots, opens_at=t.opens_at - by, closes_at=t.closes_at - by
    )
    live_services.live_status_forget(tournament_id=t.pk)
    t.refresh_from_db()
    return t


def live_clock_at(t: Tournament, round_index: int, *, moment: str = "open") -> Tournament:
    """The live evening ``t`` with the clock in round ``round_index``'s slot: ``open`` a
    second after it opened, ``ended`` a second after its slot's end (the slot's close not
    run yet), ``before`` a minute before it opens (``live_move_clock``)."""
    t.refresh_from_db()
    opens, closes = t.live_slot(round_index)
    target = {
        "open": opens + timedelta(seconds=1),
        "ended": closes + timedelta(seconds=1),
        "before": opens - timedelta(minutes=1),
    }[moment]
    return live_move_clock(t, target - timezone.now())
