"""Play on from a position: "what if" (an unscored practice game from a finished game's
position, docs/rules.md §7, tournaments 17) and "play this deal again" (a closed
tournament's round from its deal). Both play through the game runner
(``tournaments.services.runner``); the source game and its tournament are never touched.
"""

from __future__ import annotations

from typing import Any

from django.contrib.auth.models import User
from django.db import transaction
from django.utils.translation import gettext_lazy as _

from tournaments.errors import GameNotFinished, InvalidSettings
from tournaments.games import PLAYER_SEAT, module_of
from tournaments.models import DealResult, Game, Tournament, WhatIf
from tournaments.permissions import may_play_deal_again, may_start_what_if
from tournaments.selectors.replay import replay_rounds, round_actions
from tournaments.services.runner import GameRun, run_advance, run_record, run_store, seats_of_bots


def game_what_if_start(*, user: User, source_id: int, round_index: int, start: int) -> Game:
    """An unscored practice game from the position of round ``round_index`` of a finished
    game after its first ``start`` actions: the same variant, deal, bots and streams, so
    the same choices give the same game. It plays that one round; the source game and its
    tournament are never touched. Someone else's game the user may not play on from is
    ``Game.DoesNotExist``; their own game before it is finished ``GameNotFinished``."""
    source = Game.objects.select_related("entry__tournament", "user").get(pk=source_id)
    if not may_start_what_if(user=user, game=source) and source.user_id != user.pk:
        # Someone else's game before its tournament closes, or their practice game: as
        # for any page of someone else's game, it does not exist for this user (404).
        raise Game.DoesNotExist(f"game {source_id} is not {user.pk}'s")
    if not may_start_what_if(user=user, game=source):
        raise GameNotFinished.of(_("You can play on from a game only once it is finished."))
    rounds = replay_rounds(game=source)
    if round_index not in rounds:
        raise InvalidSettings.of(_("This game has no such round."))
    actions = round_actions(game=source, round_index=round_index)
    if not 0 <= start < len(actions):
        raise InvalidSettings.of(_("There is no move left to play from this position."))
    module = module_of(source.game)
    variant = module.variant_from_json(source.variant)
    # the round's copy in a deal pool: the what-if game deals that copy from its secret
    secret = source.deal_secret(round_index)
    state = module.new_round(variant, secret=secret, round_index=round_index)
    with transaction.atomic():
        g = Game(
            user=user,
            entry=None,
            game=source.game,
            preset=source.preset,
            variant=dict(source.variant),
            rounds=1,
            bot_level=source.bot_level,
            bot_version=source.bot_version,
            secret=secret,
            round_index=round_index,
            totals=[0] * variant.num_players,
            round_scores=[],
            round_results=[],
        )
        g.save()
        run = GameRun(game=g, module=module, variant=variant, state=state)
        # The source's actions up to ``start`` become the what-if's: seat 0's are stored as
        # the entrant's (``bot_from`` can only mark the bot taking over South for good,
        # and the entrant plays on from here), the other seats' are the bots'.
        for a in actions[:start]:
            by_bot = a.by_bot and a.seat != PLAYER_SEAT
            run_record(run, module.action_from_json(a.action), seat=a.seat, by_bot=by_bot)
        run_advance(run, bot_seats=seats_of_bots(variant))
        run_store(run)
        WhatIf.objects.create(game=g, source=source, round_index=round_index, start=start)
    return g


def deal_again_source(
    *, tournament: Tournament, user: Any, round_index: int, copy: int | None = None
) -> Game | None:
    """The finished game of ``tournament`` that "play this deal again" starts round
    ``round_index`` from (``game_what_if_start`` at ``start=0``: the source gives the
    variant, the secret and the bots, none of its moves): the viewer's own game when it
    has that round, else the first such game of the tournament; ``None`` without one.
    Only games with the tournament's bot level and version, so the deal is played with
    the tournament's bots. In a deal pool, ``copy``: a game that played that copy of the
    round (docs/rules.md §5, "Deal pools")."""
    games = Game.objects.filter(
        entry__tournament=tournament,
        status=Game.Status.FINISHED,
        bot_level=tournament.bot_level,
        bot_version=tournament.bot_version,
    ).only("pk", "user_id", "round_scores", "entry")
    if tournament.pooled and copy is not None:
        played = DealResult.objects.filter(
            tournament=tournament, round_index=round_index, copy=copy
        ).values("entry_id")
        games = games.filter(entry_id__in=played)
    if user is not None and user.is_authenticated:
        own = games.filter(user=user).first()
        if own is not None and round_index < len(own.round_scores):
            return own
    # after the close every game has been played to its end: the first one will do
    return next((g for g in games.order_by("pk")[:10] if round_index < len(g.round_scores)), None)


def deal_again_start(
    *, user: User, tournament: Tournament, round_index: int, copy: int | None = None
) -> Game:
    """ "Play this deal again": an unscored practice game of round ``round_index`` of a
    closed tournament from the deal's start (its variant, secret-derived deal, bot level
    and version), for any logged-in user; through ``game_what_if_start`` at ``start=0``
    from ``deal_again_source``, so no move of the source is copied. Before the close the
    deals are the entrants' still: refused (``InvalidSettings``), nothing created."""
    if not may_play_deal_again(user=user, tournament=tournament):
        raise InvalidSettings.of(
            _("You can play a round of this tournament again once it has closed.")
        )
    if not 0 <= round_index < tournament.rounds:
        raise InvalidSettings.of(_("This tournament has no such round."))
    source = deal_again_source(tournament=tournament, user=user, round_index=round_index, copy=copy)
    if source is None:
        raise InvalidSettings.of(_("Nobody has played this round."))
    return game_what_if_start(user=user, source_id=source.pk, round_index=round_index, start=0)
