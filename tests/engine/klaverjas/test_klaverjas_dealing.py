"""Dealing from the tournament secret (docs/rules.md §5 and §6), recomputed from the text."""

from __future__ import annotations

import hashlib
import hmac

import pytest

from engine.cards import klaverjas_code
from engine.klaverjas import ROTTERDAMS, deal_summary, new_round

SECRET = bytes(range(32))


def _uniform_stream(seed: bytes, label: str):  # type: ignore[no-untyped-def]
    """docs/rules.md §5: 8-byte big-endian draws from HMAC(round_seed, label:i) blocks,
    rejection sampling."""
    buf = b""
    block = 0

    def draw(n: int) -> int:
        nonlocal buf, block
        limit = 2**64 - (2**64 % n)
        while True:
            while len(buf) < 8:
                buf += hmac.new(seed, f"{label}:{block}".encode(), hashlib.sha256).digest()
                block += 1
            x, buf = int.from_bytes(buf[:8], "big"), buf[8:]
            if x < limit:
                return x % n

    return draw


def _round_seed(r: int) -> bytes:
    return hmac.new(SECRET, f"round:{r}".encode(), hashlib.sha256).digest()


def _expected_hands(r: int, label: str = "deal") -> list[list[int]]:
    draw = _uniform_stream(_round_seed(r), label)
    pack = list(range(32))  # c d h s, each 7 8 9 T J Q K A
    for i in range(31, 0, -1):
        j = draw(i + 1)
        pack[i], pack[j] = pack[j], pack[i]
    first = (r % 4 + 1) % 4
    hands: list[list[int]] = [[], [], [], []]
    for n, card in enumerate(pack):
        hands[(first + n) % 4].append(card)
    return [sorted(h) for h in hands]


@pytest.mark.parametrize("round_index", [0, 1, 2, 3, 7])
def test_deal_follows_rules_text(round_index: int) -> None:
    state = new_round(ROTTERDAMS, secret=SECRET, round_index=round_index)
    assert state.dealer == round_index % 4
    assert state.first_player == (round_index + 1) % 4
    assert state.current_player == state.first_player
    assert [list(h) for h in state.hands] == _expected_hands(round_index)
    assert state.proposed_trump == _uniform_stream(_round_seed(round_index), "trump")(4)


def test_every_seat_gets_eight_cards_of_the_32() -> None:
    state = new_round(ROTTERDAMS, secret=SECRET, round_index=5)
    assert [len(h) for h in state.hands] == [8, 8, 8, 8]
    assert sorted(c for h in state.hands for c in h) == list(range(32))


def test_same_secret_same_deal_other_secret_other_deal() -> None:
    a = new_round(ROTTERDAMS, secret=SECRET, round_index=0)
    b = new_round(ROTTERDAMS, secret=SECRET, round_index=0)
    c = new_round(ROTTERDAMS, secret=bytes(32), round_index=0)
    assert a == b and a.state_hash() == b.state_hash()
    assert a.hands != c.hands


def test_deal_summary() -> None:
    summary = deal_summary(ROTTERDAMS, secret=SECRET, round_index=2)
    assert summary["commitment"] == hashlib.sha256(SECRET).hexdigest()
    assert summary["hands"] == [[klaverjas_code(c) for c in h] for h in _expected_hands(2)]
    assert summary["trump"] == "cdhs"[_uniform_stream(_round_seed(2), "trump")(4)]
    assert set(summary) == {"commitment", "hands", "trump"}


def test_redeal_uses_numbered_labels() -> None:
    from engine.klaverjas.state import deal

    hands, proposed = deal(_round_seed(4), 0, 1)
    assert [list(h) for h in hands] == _expected_hands(4, "deal:1")
    assert proposed == _uniform_stream(_round_seed(4), "trump:1")(4)
