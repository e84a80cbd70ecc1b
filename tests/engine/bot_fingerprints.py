"""Fingerprints of the bots' choices, one per released (game, bot version, preset, level).

Why: a stored game keeps only the entrant's own actions; the bots' moves are recomputed
by replay (``engine.match.bot_move``) with the bots of the game's version
(``Game.bot_version``). If a released version's choices changed, every old game would
replay differently: its audit would fail, its replay and record would show other moves.
So the choices of every released version are pinned here, and a changed bot is a NEW
version (the game module's ``BOT_VERSION`` / ``BOT_VERSIONS``; README, "Bot versions").

A fingerprint is the SHA-256 of the actions (and final scores) of fixed seeded rounds
played with ``engine.match.play_round``: rounds ``0 .. ROUNDS[level] - 1`` of the secret
``SHA-256(SECRET_LABEL)``, with the level in every seat (``expert``: in seat
``round_index % players`` only, the ``strong`` bot in the other seats, to keep it fast).

The fingerprints live in ``bot_fingerprints.json`` next to this file. Record a NEW
version's (after adding it to the game module's ``BOT_VERSIONS``), from the repository's
root::

    .venv/bin/python -m tests.engine.bot_fingerprints --record jokeren 2

It adds only what is not recorded yet (a new version; a preset or level new to the
current version): a released fingerprint is never rewritten.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import sys
from pathlib import Path
from typing import Any

from engine.match import play_round
from engine.registry import GAMES, game_module

DATA = Path(__file__).with_name("bot_fingerprints.json")
SECRET_LABEL = b"jokeren bot fingerprints"
#: Rounds played per (preset, level): the cheap levels more, the searching expert less.
ROUNDS = {"basic": 6, "strong": 6, "expert": 1}
#: The level that fills the other seats at a level that plays in one seat only.
PARTNER_LEVEL = {"expert": "strong"}


def levels_of(level: str, *, round_index: int, players: int) -> list[str]:
    """Each seat's level in a round of ``level``'s fingerprint."""
    partner = PARTNER_LEVEL.get(level)
    if partner is None:
        return [level] * players
    return [level if seat == round_index % players else partner for seat in range(players)]


def fingerprint(game: str, version: int, preset: str, level: str) -> str:
    """The SHA-256 of the actions and scores of the fingerprint's rounds."""
    module = game_module(game)
    variant = module.PRESETS[preset]
    secret = hashlib.sha256(SECRET_LABEL).digest()
    played: list[Any] = []
    for r in range(ROUNDS.get(level, 2)):
        levels = levels_of(level, round_index=r, players=variant.num_players)
        state, actions = play_round(
            module, variant, secret=secret, round_index=r, levels=levels, version=version
        )
        played.append([[a.to_json() for a in actions], [int(s) for s in state.scores()]])
    body = json.dumps(played, sort_keys=True, separators=(",", ":"))
    return hashlib.sha256(body.encode()).hexdigest()


def fingerprints_of(game: str, version: int) -> dict[str, dict[str, str]]:
    """Every preset's and level's fingerprint of ``game``'s bots of ``version``."""
    module = game_module(game)
    return {
        preset: {level: fingerprint(game, version, preset, level) for level in module.BOT_LEVELS}
        for preset in module.PRESETS
    }


def load() -> dict[str, dict[str, dict[str, dict[str, str]]]]:
    """game -> version (as a string) -> preset -> level -> fingerprint."""
    data: dict[str, dict[str, dict[str, dict[str, str]]]] = json.loads(DATA.read_text())
    return data


def record(game: str, version: int) -> int:
    """Add the fingerprints of ``game``'s bots of ``version`` that are not recorded yet (a
    new version; a preset or level new to the current one) and return how many; never
    overwrite a recorded one."""
    if game not in GAMES:
        raise SystemExit(f"unknown game {game!r}: one of {', '.join(GAMES)}")
    module = game_module(game)
    if version not in module.BOT_VERSIONS:
        raise SystemExit(f"{game} has no bot version {version}: add it to BOT_VERSIONS first")
    data = load() if DATA.exists() else {}
    presets = data.setdefault(game, {}).setdefault(str(version), {})
    added = 0
    for preset in module.PRESETS:
        levels = presets.setdefault(preset, {})
        for level in module.BOT_LEVELS:
            if level not in levels:
                levels[level] = fingerprint(game, version, preset, level)
                added += 1
    DATA.write_text(json.dumps(data, indent=2, sort_keys=True) + "\n")
    return added


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--record", nargs=2, metavar=("GAME", "VERSION"), required=True)
    args = parser.parse_args(argv)
    game, version = args.record[0], int(args.record[1])
    added = record(game, version)
    print(f"{game} bot version {version}: {added} fingerprint(s) added to {DATA.name}")
    print("(a recorded fingerprint is never rewritten: a changed bot is a new version)")


if __name__ == "__main__":
    main(sys.argv[1:])
