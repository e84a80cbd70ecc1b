"""Deals that are identical, unpredictable and verifiable (docs/rules.md §5).

The reference deal below is computed by hand-written steps of the rules text, with
``hmac``/``hashlib`` only: it does not use ``engine.dealing``.
"""

from __future__ import annotations

import hashlib
import hmac
import json
import os
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

from engine import dealing
from engine.cards import CARD_CODE
from engine.dealing import Stream, commitment
from engine.jokeren import PRESETS, deal_summary, new_round
from engine.jokeren.variants import Variant

ROOT = Path(__file__).resolve().parents[2]


def reference_deal(
    secret: bytes,
    round_index: int,
    *,
    decks: int,
    players: int,
    hand_size: int,
    open_card: bool = True,
) -> dict[str, object]:
    """docs/rules.md §5 and the dealing text, step by step. docs/rules.md §2: the card after the
    hands opens the open pile; where the variant turns no open card (seed 001: "de
    kaarten die overblijven worden gesloten op een stapel gelegd") it stays on the stock."""
    # the ordered pack: per deck suits c d h s, ranks A..K, then two jokers
    pack = []
    for _ in range(decks):
        for suit in "cdhs":
            for rank in "A23456789TJQK":
                pack.append(rank + suit)
        pack += ["**", "**"]
    # round seed = HMAC-SHA256(secret, "round:" + r)
    seed = hmac.new(secret, f"round:{round_index}".encode(), hashlib.sha256).digest()
    # the stream of label "deal": blocks HMAC-SHA256(seed, "deal:" + i), i = 0, 1, ...
    stream = bytearray()
    block = 0

    def next_eight() -> int:
        nonlocal block
        while len(stream) < 8:
            stream.extend(hmac.new(seed, f"deal:{block}".encode(), hashlib.sha256).digest())
            block += 1
        value = int.from_bytes(stream[:8], "big")
        del stream[:8]
        return value

    def uniform(n: int) -> int:
        limit = 2**64 - (2**64 % n)
        while True:
            x = next_eight()
            if x < limit:
                return x % n

    # Fisher-Yates from the last index down to 1; the first element is the top card
    for i in range(len(pack) - 1, 0, -1):
        j = uniform(i + 1)
        pack[i], pack[j] = pack[j], pack[i]
    dealer = round_index % players
    first = (dealer + 1) % players
    hands: list[list[str]] = [[] for _ in range(players)]
    top = 0
    while any(len(h) < hand_size for h in hands):
        seat = (first + top) % players
        hands[seat].append(pack[top])
        top += 1
    return {
        "commitment": hashlib.sha256(secret).hexdigest(),
        "hands": hands,
        "open": [pack[top]] if open_card else [],
        "stock": pack[top + 1 :] if open_card else pack[top:],
    }


@pytest.mark.parametrize("preset", ["jokeren7", "jokeren13", "klassiek", "veertigen"])
@pytest.mark.parametrize("round_index", [0, 1, 5])
def test_deal_follows_the_published_text(secret: bytes, preset: str, round_index: int) -> None:
    variant = PRESETS[preset]
    expected = reference_deal(
        secret,
        round_index,
        decks=variant.decks,
        players=variant.num_players,
        hand_size=variant.hand_size,
        open_card=variant.open_card,
    )
    assert deal_summary(variant, secret=secret, round_index=round_index) == expected


def test_new_round_state_holds_the_published_deal(secret: bytes) -> None:
    variant = PRESETS["jokeren13"]
    expected = reference_deal(secret, 2, decks=2, players=4, hand_size=13)
    state = new_round(variant, secret=secret, round_index=2)
    for seat in range(4):
        got = sorted(CARD_CODE[c] for c in state.hands[seat])
        assert got == sorted(expected["hands"][seat])  # type: ignore[index]
    assert [CARD_CODE[state.open_pile[-1]]] == expected["open"]
    assert len(state.open_pile) == 1
    assert [CARD_CODE[c] for c in state.stock] == expected["stock"]
    assert state.dealer == 2 and state.current_player == 3


def test_three_player_deal_follows_the_text(secret: bytes) -> None:
    from dataclasses import replace

    variant: Variant = replace(PRESETS["jokeren13"], num_players=3)
    expected = reference_deal(secret, 4, decks=2, players=3, hand_size=13)
    assert deal_summary(variant, secret=secret, round_index=4) == expected
    assert len(expected["stock"]) == 108 - 39 - 1  # type: ignore[arg-type]


def test_commitment_is_sha256_of_the_secret(secret: bytes) -> None:
    assert commitment(secret) == hashlib.sha256(secret).hexdigest()
    summary = deal_summary(PRESETS["jokeren7"], secret=secret, round_index=0)
    assert summary["commitment"] == hashlib.sha256(secret).hexdigest()


def test_different_rounds_and_secrets_give_different_deals(secret: bytes) -> None:
    v = PRESETS["jokeren13"]
    a = deal_summary(v, secret=secret, round_index=0)
    b = deal_summary(v, secret=secret, round_index=1)
    c = deal_summary(v, secret=bytes(32), round_index=0)
    assert a["stock"] != b["stock"] and a["stock"] != c["stock"]


_SCRIPT = """
import json, random
from engine.jokeren import PRESETS, deal_summary, new_round
out = {}
for name, v in PRESETS.items():
    out[name] = deal_summary(v, secret=b"hash-seed-check", round_index=3)
    rng = random.Random(7)
    s = new_round(v, secret=b"hash-seed-check", round_index=3)
    for _ in range(60):
        if s.is_terminal:
            break
        s = s.apply(s.legal_actions()[rng.randrange(len(s.legal_actions()))])
    out[name + ":hash"] = s.state_hash()
print(json.dumps(out, sort_keys=True))
"""


def _run_with_hash_seed(value: str) -> str:
    env = {**os.environ, "PYTHONHASHSEED": value, "PYTHONPATH": str(ROOT)}
    done = subprocess.run(
        [sys.executable, "-c", _SCRIPT],
        capture_output=True,
        text=True,
        env=env,
        cwd=ROOT,
        check=True,
        timeout=120,
    )
    return done.stdout


def test_deal_and_play_do_not_depend_on_pythonhashseed() -> None:
    first = _run_with_hash_seed("0")
    second = _run_with_hash_seed("4242")
    assert first == second
    assert (
        json.loads(first)["jokeren7"]["commitment"]
        == hashlib.sha256(b"hash-seed-check").hexdigest()
    )


def _text_draws(seed: bytes, label: str, start: int = 0) -> Iterator[int]:
    """The 8-byte big-endian numbers of a stream, read as docs/rules.md §5 says."""
    block = start
    while True:
        data = hmac.new(seed, f"{label}:{block}".encode(), hashlib.sha256).digest()
        for i in range(0, 32, 8):
            yield int.from_bytes(data[i : i + 8], "big")
        block += 1


def test_stream_uniform_and_choice_follow_the_text() -> None:
    # bots start their stream at a later block; a draw at or above the limit is rejected
    # (n = 3 * 2**62 rejects a quarter of the draws, n = 2**64 - 1 almost none)
    draws = _text_draws(b"seed", "bot:2", start=7)
    stream = Stream(b"seed", "bot:2", start=7)
    for n in [1, 2, 3, 54, 108, 3 * 2**62, 2**63 + 1, 2**64 - 1, 5, 300] * 5:
        limit = 2**64 - 2**64 % n
        x = next(draws)
        while x >= limit:
            x = next(draws)
        assert stream.uniform(n) == x % n
    items = ["a", "b", "c", "d", "e"]
    x = next(draws)
    assert stream.choice(items) == items[x % 5]


def test_shuffle_reads_the_draws_of_the_text_also_after_a_rejected_one(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # with a pack of cards a draw is rejected less than once in 2**57: the test lowers
    # every limit to 2**63 so that half of the draws are rejected
    monkeypatch.setattr(dealing, "_LIMITS", (2**63,) * 256)
    draws = _text_draws(b"seed", "reshuffle:0")
    expected = list(range(60))
    for i in range(59, 0, -1):
        x = next(draws)
        while x >= 2**63:
            x = next(draws)
        j = x % (i + 1)
        expected[i], expected[j] = expected[j], expected[i]
    stream = Stream(b"seed", "reshuffle:0")
    assert stream.shuffle(range(60)) == expected
    # the stream goes on with the next draw
    x = next(draws)
    while x >= 2**63:
        x = next(draws)
    assert stream.uniform(7) == x % 7
