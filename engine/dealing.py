"""Deals that are identical, unpredictable and verifiable (RULES.md §5).

- ``commitment = SHA-256(secret)`` in hex, shown while a tournament runs;
- ``round_seed = HMAC-SHA256(key=secret, msg=b"round:" + str(r))``;
- the stream of a label is the concatenation of the blocks
  ``HMAC-SHA256(key=round_seed, msg=label + ":" + str(i))`` for i = 0, 1, 2, ...;
- ``uniform(n)``: the next 8 bytes of the stream as a big-endian unsigned integer x;
  if ``x < 2**64 - (2**64 mod n)`` return ``x mod n``, else draw again;
- shuffle: Fisher-Yates with label ``deal``: for i from len-1 down to 1,
  ``j = uniform(i + 1)``, swap; the first element of the result is the top card.

Nothing here uses Python's ``random``: the same secret gives the same deals in every
Python version and in any language that follows this text.
"""

from __future__ import annotations

import hashlib
import hmac
import secrets
from collections.abc import Sequence
from typing import TypeVar

T = TypeVar("T")

_TWO_64 = 1 << 64


def new_secret() -> bytes:
    """A fresh 32-byte tournament secret from the operating system's CSPRNG."""
    return secrets.token_bytes(32)


def commitment(secret: bytes) -> str:
    """SHA-256 of the secret, in hex: published before the secret is revealed."""
    return hashlib.sha256(secret).hexdigest()


def round_seed(secret: bytes, round_index: int) -> bytes:
    """``HMAC-SHA256(key=secret, msg=b"round:" + str(r))``."""
    return hmac.new(secret, b"round:" + str(round_index).encode("ascii"), hashlib.sha256).digest()


class Stream:
    """The byte stream of one label under a round seed, and uniform integers from it.

    ``start`` is the index of the first block used; bots start their ``bot:<seat>`` stream
    at the number of actions made so far in the round, so a decision depends only on
    what is public and on the seed.
    """

    __slots__ = ("_block", "_buf", "_key", "_label", "_pos")

    def __init__(self, seed: bytes, label: str, start: int = 0) -> None:
        self._key = seed
        self._label = label.encode("utf-8") + b":"
        self._block = start
        self._buf = b""
        self._pos = 0

    def _next_block(self) -> None:
        self._buf = hmac.new(
            self._key, self._label + str(self._block).encode("ascii"), hashlib.sha256
        ).digest()
        self._block += 1
        self._pos = 0

    def _next_bytes(self, n: int) -> bytes:
        pos = self._pos
        if pos + n <= len(self._buf):  # the common case: 8-byte draws from 32-byte blocks
            self._pos = pos + n
            return self._buf[pos : pos + n]
        out = self._buf[pos:]
        while len(out) < n:
            self._next_block()
            take = min(n - len(out), len(self._buf))
            out += self._buf[:take]
            self._pos = take
        return out

    def uniform(self, n: int) -> int:
        """A uniform integer in ``0 .. n-1`` by rejection sampling of 8-byte draws."""
        if n <= 0:
            raise ValueError("uniform(n) needs n >= 1")
        limit = _TWO_64 - (_TWO_64 % n)
        while True:
            x = int.from_bytes(self._next_bytes(8), "big")
            if x < limit:
                return x % n

    def shuffle(self, items: Sequence[T]) -> list[T]:
        """Fisher-Yates: for i from len-1 down to 1, j = uniform(i+1), swap i and j."""
        out = list(items)
        for i in range(len(out) - 1, 0, -1):
            j = self.uniform(i + 1)
            out[i], out[j] = out[j], out[i]
        return out

    def choice(self, items: Sequence[T]) -> T:
        """One element, uniformly (used by bots to break ties)."""
        return items[self.uniform(len(items))]


def shuffled_pack(seed: bytes, pack: Sequence[T], label: str = "deal") -> list[T]:
    """The pack shuffled with the stream of ``label``; the first element is the top card."""
    return Stream(seed, label).shuffle(pack)


def deal_hands(
    pack: Sequence[T], *, num_players: int, hand_size: int, first_player: int
) -> tuple[list[list[T]], list[T]]:
    """Deal one card at a time, clockwise, starting with ``first_player``, until every hand
    holds ``hand_size`` cards. Returns the hands per seat and the rest of the pack, top first.
    """
    hands: list[list[T]] = [[] for _ in range(num_players)]
    needed = num_players * hand_size
    if needed > len(pack):
        raise ValueError("not enough cards for this deal")
    for k in range(needed):
        hands[(first_player + k) % num_players].append(pack[k])
    return hands, list(pack[needed:])
