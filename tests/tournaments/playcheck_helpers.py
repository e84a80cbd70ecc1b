"""Entrants for the tests of the play check (``services.playcheck``): one who knows the
deal and uses it at every decision where it pays, played through the site's services."""

from __future__ import annotations

import hashlib
from typing import Any

import factories

from engine import fairplay
from tournaments.games import module_of
from tournaments.models import Tournament
from tournaments.services import entries as entry_services
from tournaments.services import play as play_services

#: A fixed secret: every run plays the same deals.
SECRET = hashlib.sha256(b"tests/tournaments playcheck").digest()


def cheat_to_end(game: Any, user: Any) -> Any:
    """Play ``game`` to its end through the service, South making a deal-best choice
    wherever no view-best choice is one (the second account's play), else the strong
    bot's choice."""
    game.refresh_from_db()
    module = module_of(game.game)
    variant = module.variant_from_json(game.variant)
    levels = fairplay.rollout_levels(
        module, bot_level=game.bot_level, num_players=variant.num_players
    )
    while game.status == "playing":
        state = game.current_state()
        probe = fairplay.check_decision(
            module, state, None, levels=levels, version=game.bot_version
        )
        move = probe.deal_best[0] if probe.opportunity else probe.view_best[0]
        game = play_services.game_play_move(
            game_id=game.pk, user=user, seq=game.seq, action=move.to_json()
        ).game
    return game


def field(rounds: int = 8) -> tuple[Tournament, dict[str, Any]]:
    """A Jokeren 7 tournament against strong bots with three entrants: a cheater, an honest
    player (South as the basic bot) and one who only joined."""
    t = factories.make_tournament(
        name="Eerlijk spel", rounds=rounds, bot_level="strong", secret=SECRET
    )
    users = {name: factories.make_user(name) for name in ("valsspeler", "eerlijk", "alleen-in")}
    games = {
        name: entry_services.entry_join(tournament_id=t.pk, user=u).game
        for name, u in users.items()
    }
    cheat_to_end(games["valsspeler"], users["valsspeler"])
    factories.play_to_end(games["eerlijk"], users["eerlijk"])
    return t, {name: g.entry for name, g in games.items()}
