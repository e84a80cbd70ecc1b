"""Speed work on the Jokeren engine and bots changes no choice: the actions and scores of
a few hundred seeded rounds per preset (basic bots in every seat, strong bots, and the two
levels mixed) are those of the code before it (recorded from main at ``1a95408``, before
the work of benchmarks/README.md at 566f5bf, "Jokeren 7 basic at 1,000 rounds/s"). A wider net than
``test_bot_fingerprints.py`` (6 rounds per preset and level), for the caches, shared
objects and quick paths a speed-up touches; on the compiled and the pure engine alike. A
changed digest here is a changed game: make it a new bot version instead."""

from __future__ import annotations

import hashlib
import json

import pytest

from engine.jokeren import PRESETS
from engine.match import play_round
from engine.registry import game_module

SECRET = hashlib.sha256(b"same game").digest()
#: rounds per level (``mixed``: basic in the odd seats, strong in the even ones)
ROUNDS = {"basic": 200, "strong": 20, "mixed": 20}
#: the SHA-256 (first 16 hex digits) of each preset's and level's rounds, bot version 1
DIGESTS = {
    "jokeren7": {
        "basic": "b564bd594ad87ee8",
        "strong": "733c6c9c01dcca57",
        "mixed": "d03cde984a34b22d",
    },
    "jokeren13": {
        "basic": "1293e16404a0ad45",
        "strong": "1d976c2b185646d3",
        "mixed": "7f124635ffce7491",
    },
    "klassiek": {
        "basic": "882f17f5e1a8ac4e",
        "strong": "badd47dd45e5141c",
        "mixed": "2b1df1be42341613",
    },
    "veertigen": {
        "basic": "cdb3b637fd1a9850",
        "strong": "7792f5b8b23130ef",
        "mixed": "0faa7282ad5c5196",
    },
    "vijf-rondes": {
        "basic": "9c86657123412f47",
        "strong": "ee38183d34b97ddb",
        "mixed": "6b0b328b2b78abab",
    },
    "wedstrijd": {
        "basic": "882f17f5e1a8ac4e",
        "strong": "badd47dd45e5141c",
        "mixed": "2b1df1be42341613",
    },
}


def digest(preset: str, level: str, rounds: int) -> str:
    """The SHA-256 of the actions and scores of rounds ``0 .. rounds - 1`` of ``SECRET``."""
    game = game_module("jokeren")
    variant = PRESETS[preset]
    n = variant.num_players
    if level == "mixed":
        levels = ["basic" if seat % 2 else "strong" for seat in range(n)]
    else:
        levels = [level] * n
    h = hashlib.sha256()
    for r in range(rounds):
        state, actions = play_round(
            game, variant, secret=SECRET, round_index=r, levels=levels, version=1
        )
        h.update(json.dumps([[a.to_json() for a in actions], state.scores()]).encode())
    return h.hexdigest()[:16]


@pytest.mark.parametrize("preset", list(PRESETS))
@pytest.mark.parametrize("level", list(ROUNDS))
def test_the_bots_play_the_same_rounds(preset: str, level: str) -> None:
    assert digest(preset, level, ROUNDS[level]) == DIGESTS[preset][level]
