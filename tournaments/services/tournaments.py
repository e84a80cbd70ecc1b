"""Create a tournament and change its settings."""

from __future__ import annotations

import secrets
from collections.abc import Mapping, Sequence
from datetime import datetime
from typing import Any

from django.contrib.auth.models import User
from django.db import transaction
from django.utils.translation import gettext_lazy as _

from engine import dealing
from tournaments.errors import InvalidSettings, TournamentClosed, TournamentLocked
from tournaments.games import module_of
from tournaments.models import Access, Club, Tournament, pool_copies_for
from tournaments.services import live, par
from tournaments.services.checks import (
    check_bot_level,
    check_max_entrants,
    check_pool_copies,
    check_rounds,
    check_window,
    game_settings_check,
    variant_checked,
)


def tournament_invite_code() -> str:
    """A fresh random invite code of a tournament (16 URL-safe characters, 96 bits)."""
    return secrets.token_urlsafe(12)


def check_access(access: str) -> None:
    """``access`` is one of ``Access`` (public, members, invite)."""
    if access not in Access.values:
        raise InvalidSettings.of(_("Unknown access: %(access)s."), access=access)


def check_round_hands(*, show_round_hands: bool, access: str) -> None:
    """Every hand shown at a round's end while the tournament runs: only a members-only
    tournament may (docs/rules.md, "The card table", rule 2)."""
    if show_round_hands and access != Access.MEMBERS:
        raise InvalidSettings.of(
            _("Only a members-only tournament can show every hand at a round's end.")
        )


def tournament_create(
    *,
    created_by: User,
    club: Club,
    access: str = Access.PUBLIC,
    name: str,
    game: str,
    preset: str,
    variant: Mapping[str, Any] | None = None,
    rounds: int = 8,
    max_entrants: int = 10,
    bot_level: str | None = None,
    opens_at: datetime,
    closes_at: datetime,
    hide_results: bool = False,
    show_round_hands: bool = False,
    admits_bots: bool = True,
    series: Any = None,
    pool_copies: int = 1,
    pool_by_size: bool = False,
    live_start: datetime | None = None,
    live_slot_minutes: Sequence[int] = (),
    live_pause_minutes: int = 0,
) -> Tournament:
    """A new tournament with a fresh 32-byte secret and its commitment (docs/rules.md §5); its
    par is computed after the commit (``services.par.tournament_par_compute``). ``series``:
    the series it is an edition of (``tournaments.series``). ``club``: the club it belongs
    to; ``access``: who may enter (an invite tournament gets its invite code).
    ``pool_copies``: each round is dealt in this many copies (a deal pool, docs/rules.md
    §5), or with ``pool_by_size`` one copy per 50 of ``max_entrants`` (at most 20).
    ``live_start``: a live club evening (docs/rules.md §7) whose first round starts then,
    each round in a slot of ``live_slot_minutes`` (per round; the last for the rest) and
    ``live_pause_minutes`` between two; it closes when the last slot ends (``closes_at``
    is not read then)."""
    check_access(access)
    slots: list[list[str]] = []
    if live_start is not None:
        slots = live.live_schedule(
            start=live_start,
            rounds=rounds,
            slot_minutes=live_slot_minutes,
            pause_minutes=live_pause_minutes,
        )
        opens_at, closes_at = live.live_window(opens_at=opens_at, slots=slots)
    check_round_hands(show_round_hands=show_round_hands, access=access)
    if pool_by_size and isinstance(max_entrants, int):
        pool_copies = pool_copies_for(max_entrants)
    check_pool_copies(pool_copies)
    checked = game_settings_check(
        game=game,
        preset=preset,
        variant=variant,
        rounds=rounds,
        max_entrants=max_entrants,
        bot_level=bot_level,
        # an edition keeps its series' level, also one no longer offered for new play
        stored_level=series.bot_level if series is not None else None,
    )
    check_window(opens_at, closes_at)
    secret = dealing.new_secret()
    with transaction.atomic():
        t = Tournament.objects.create(
            name=name,
            game=game,
            preset=preset,
            variant=checked.variant,
            rounds=rounds,
            max_entrants=max_entrants,
            bot_level=checked.bot_level,
            bot_version=checked.module.BOT_VERSION,
            opens_at=opens_at,
            closes_at=closes_at,
            secret=secret,
            commitment=dealing.commitment(secret),
            created_by=created_by,
            club=club,
            access=access,
            invite_code=tournament_invite_code() if access == Access.INVITE else "",
            hide_results=hide_results,
            show_round_hands=show_round_hands,
            admits_bots=admits_bots,
            series=series,
            pool_copies=pool_copies,
            pool_by_size=pool_by_size,
            live=bool(slots),
            live_slots=slots,
        )
        par.par_queue(tournament=t)
        live.live_status_forget(tournament_id=t.pk)
    return t


_GAME_FIELDS = (
    "game",
    "preset",
    "variant",
    "rounds",
    "bot_level",
    "pool_copies",
    "pool_by_size",
    "live",
    "live_slots",
)

#: The settings of a live evening's schedule (``tournament_create``'s), turned into its
#: slots by ``tournament_update``.
_LIVE_SETTINGS = ("live_start", "live_slot_minutes", "live_pause_minutes")


def tournament_update(*, tournament: Tournament, **changes: Any) -> Tournament:
    """Change a tournament's settings. Name, window, maximum and access can change until it
    closes (an invite tournament keeps its code);
    the game, variant, rounds, bot level and deal pool only while nobody has entered
    (every entrant must play the same game; copies "by field size" follow the maximum
    until then). The secret never changes. A live evening's schedule (``live_start``,
    ``live_slot_minutes``, ``live_pause_minutes``; ``live_start`` ``None``: no live
    evening) is a game setting: it sets the slots and the closing time."""
    if any(key in changes for key in _LIVE_SETTINGS):
        start = changes.pop("live_start", None)
        minutes = changes.pop("live_slot_minutes", ())
        pause = changes.pop("live_pause_minutes", 0)
        changes["live"] = start is not None
        changes["live_slots"] = []
        if start is not None:
            changes["live_slots"] = live.live_schedule(
                start=start,
                rounds=changes.get("rounds", tournament.rounds),
                slot_minutes=minutes,
                pause_minutes=pause,
            )
            opens = changes.get("opens_at", tournament.opens_at)
            changes["opens_at"], changes["closes_at"] = live.live_window(
                opens_at=opens, slots=changes["live_slots"]
            )
    allowed = {
        "name",
        "max_entrants",
        "opens_at",
        "closes_at",
        "hide_results",
        "show_round_hands",
        "admits_bots",
        "access",
        *_GAME_FIELDS,
    }
    unknown = set(changes) - allowed
    if unknown:
        raise TypeError(f"cannot change {sorted(unknown)}")
    with transaction.atomic():
        t = Tournament.objects.select_for_update().get(pk=tournament.pk)
        if t.closed_at is not None:
            raise TournamentClosed.of(_("This tournament is closed."))
        entrants = t.entries.count()
        game_changes = {
            k: v for k, v in changes.items() if k in _GAME_FIELDS and v != getattr(t, k)
        }
        stored_game, stored_level, stored_copies = t.game, t.bot_level, t.pool_copies
        if game_changes and entrants:
            raise TournamentLocked.of(
                _("The game settings cannot change once someone has entered.")
            )
        if t.series_id is not None and changes.get("access", t.access) != t.access:
            raise InvalidSettings.of(_("A series' edition has the series' access."))
        for key, value in changes.items():
            setattr(t, key, value)
        check_access(t.access)
        check_round_hands(show_round_hands=t.show_round_hands, access=t.access)
        if t.access == Access.INVITE and not t.invite_code:
            t.invite_code = tournament_invite_code()
        module = module_of(t.game)
        check_rounds(t.rounds)
        # a level no longer offered stays only where it was: the same game's
        check_bot_level(module, t.bot_level, stored=stored_level if t.game == stored_game else None)
        check_window(t.opens_at, t.closes_at)
        check_max_entrants(t.max_entrants, entrants=entrants)
        if t.pool_by_size and not entrants:
            t.pool_copies = pool_copies_for(t.max_entrants)
        check_pool_copies(t.pool_copies)
        t.variant = variant_checked(module, t.preset, t.variant, t.rounds)
        if game_changes:
            # nobody has played yet: the new settings get the game's current bots
            t.bot_version = module.BOT_VERSION
        t.save()
        if game_changes or t.pool_copies != stored_copies:
            par.par_queue(tournament=t)
        live.live_status_forget(tournament_id=t.pk)
    tournament.refresh_from_db()
    return tournament
