"""Joining a tournament and starting a practice game: the game starts at once."""

from __future__ import annotations

from django.contrib.auth.models import User
from django.db import transaction
from django.utils.translation import gettext_lazy as _

from common.device import Device
from engine import dealing
from tournaments.errors import AlreadyEntered, InvalidSettings, TournamentFull, TournamentNotOpen
from tournaments.games import module_of
from tournaments.models import (
    Entry,
    Game,
    Sighting,
    Tournament,
)
from tournaments.permissions import check_admits, check_may_enter
from tournaments.services import fairplay as fairplay_services
from tournaments.services.checks import check_bot_level
from tournaments.services.results import entry_results_update
from tournaments.services.runner import game_start


def entry_join(
    *, tournament_id: int, user: User, code: str = "", device: Device | None = None
) -> Entry:
    """Enter ``user`` into an open tournament that is not full; their game starts at once
    (round 0 dealt, the bots before South have played). A bot account only where the
    tournament admits bot accounts; a members-only tournament only a member of its club,
    an invite one a member or whoever brings its invite ``code``; never an account barred
    from rated play; a live evening only until its first round opens. The entry is seen
    from ``device`` (fair play: linked accounts entering together are flagged)."""
    with transaction.atomic():
        t = Tournament.objects.select_for_update().get(pk=tournament_id)
        if not t.window_open():
            raise TournamentNotOpen.of(_("This tournament is not open for entries."))
        if not t.entries_open():
            # a live evening: entries close when its first round opens (docs/rules.md §5)
            raise TournamentNotOpen.of(_("This live evening has started: entries are closed."))
        check_admits(tournament=t, user=user)
        check_may_enter(tournament=t, user=user, code=code)
        fairplay_services.check_not_barred(user=user)
        if Entry.objects.filter(tournament=t, user=user).exists():
            raise AlreadyEntered.of(_("You have already entered this tournament."))
        if t.entries.count() >= t.max_entrants:
            raise TournamentFull.of(_("This tournament is full."))
        entry = Entry.objects.create(tournament=t, user=user)
        game, _events = game_start(
            user=user,
            entry=entry,
            game=t.game,
            preset=t.preset,
            variant=t.variant,
            rounds=t.rounds,
            bot_level=t.bot_level,
            bot_version=t.bot_version,
            secret=None,
        )
        entry_results_update(game=game)
        fairplay_services.sighting_record(
            user=user, device=device, kind=Sighting.Kind.ENTRY, entry=entry
        )
    return entry


def game_practice_start(
    *, user: User, game: str, preset: str, bot_level: str | None = None
) -> Game:
    """A practice game outside any tournament, on fresh deals (its own new secret)."""
    module = module_of(game)
    level = bot_level if bot_level is not None else module.DEFAULT_BOT_LEVEL
    check_bot_level(module, level)
    if preset not in module.PRESETS:
        raise InvalidSettings.of(_("Unknown variant: %(preset)s."), preset=preset)
    variant = module.PRESETS[preset]
    secret = dealing.new_secret()
    with transaction.atomic():
        g, _events = game_start(
            user=user,
            entry=None,
            game=game,
            preset=preset,
            variant=variant.to_json(),
            rounds=variant.rounds,
            bot_level=level,
            bot_version=module.BOT_VERSION,
            secret=secret,
        )
    return g
