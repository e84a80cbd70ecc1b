"""Deals that are identical, unpredictable and verifiable (docs/rules.md §5).

- ``commitment = SHA-256(secret)`` in hex, shown while a tournament runs;
- ``round_seed = HMAC-SHA256(key=secret, msg=b"round:" + str(r))``;
- the stream of a label is the concatenation of the blocks
  ``HMAC-SHA256(key=round_seed, msg=label + ":" + str(i))`` for i = 0, 1, 2, ...;
- ``uniform(n)``: the next 8 bytes of the stream as a big-endian unsigned integer x;
  if ``x < 2**64 - (2**64 mod n)`` return ``x mod n``, else draw again;
- shuffle: Fisher-Yates with label ``deal``: for i from len-1 down to 1,
  ``j = uniform(i + 1)``, swap; the first element of the result is the top card.

Deal pools (docs/rules.md §5, "Deal pools"): a tournament may deal each round in k
copies. Copy 0 is the deal above; copy c >= 1 is dealt the same way from the copy
secret ``HMAC-SHA256(key=secret, msg=b"copy:" + str(c))``. The copy an entry plays of
round r is ``uniform(k)`` of the stream of label ``pool:<entry>`` under the round seed of
the tournament's secret (``<entry>`` the entry's number): nobody who lacks the secret can
know it or choose it, and anyone can check it once the secret is revealed.

Nothing here uses Python's ``random``: the same secret gives the same deals in every
Python version and in any language that follows this text.
"""

from __future__ import annotations

import hashlib
import hmac
import importlib
import secrets
import struct
from collections.abc import Callable, Sequence
from typing import Any, TypeVar

T = TypeVar("T")

_TWO_64 = 1 << 64
_hmac_digest = hmac.digest
#: Each byte XOR 0x36 (the inner pad) and XOR 0x5c (the outer pad) of HMAC.
_IPAD = bytes(x ^ 0x36 for x in range(256))
_OPAD = bytes(x ^ 0x5C for x in range(256))


def _quick_sha256() -> Callable[[bytes], Any]:
    """CPython's own SHA-256 (quicker than OpenSSL's for a short message), else
    ``hashlib.sha256``: the same hash."""
    try:
        return importlib.import_module("_sha256").sha256  # type: ignore[no-any-return]
    except (ImportError, AttributeError):  # pragma: no cover - not in every Python
        return hashlib.sha256


_sha256 = _quick_sha256()
_unpack = struct.unpack
_unpack4 = struct.Struct(">4Q").unpack
#: ``2**64 - (2**64 mod n)`` for n < 256: the rejection limit of ``uniform(n)``.
_LIMITS = (0, *(_TWO_64 - (_TWO_64 % n) for n in range(1, 256)))


def new_secret() -> bytes:
    """A fresh 32-byte tournament secret from the operating system's CSPRNG."""
    return secrets.token_bytes(32)


def commitment(secret: bytes) -> str:
    """SHA-256 of the secret, in hex: published before the secret is revealed."""
    return hashlib.sha256(secret).hexdigest()


def round_seed(secret: bytes, round_index: int) -> bytes:
    """``HMAC-SHA256(key=secret, msg=b"round:" + str(r))``."""
    return hmac.digest(secret, b"round:" + str(round_index).encode("ascii"), "sha256")


def copy_secret(secret: bytes, copy: int) -> bytes:
    """The secret copy ``copy`` of a pooled tournament's rounds is dealt from: the
    tournament's own for copy 0, else ``HMAC-SHA256(key=secret, msg=b"copy:" + str(c))``."""
    if copy < 0:
        raise ValueError("copy must be >= 0")
    if copy == 0:
        return secret
    return hmac.digest(secret, b"copy:" + str(copy).encode("ascii"), "sha256")


def pool_copy(secret: bytes, *, entry: int, round_index: int, copies: int) -> int:
    """The copy (0 .. copies - 1) that entry number ``entry`` plays of round
    ``round_index``: ``uniform(copies)`` of the stream ``pool:<entry>`` under the round
    seed. Always 0 without a pool (``copies`` 1)."""
    if copies <= 1:
        return 0
    return Stream(round_seed(secret, round_index), f"pool:{entry}").uniform(copies)


class Stream:
    """The byte stream of one label under a round seed, and uniform integers from it.

    ``start`` is the index of the first block used; bots start their ``bot:<seat>`` stream
    at the number of actions made so far in the round, so a decision depends only on
    what is public and on the seed.

    Every draw takes 8 bytes and a block holds 32, so the stream is read as the four
    big-endian 64-bit numbers of each block in turn (the same bytes, in the same order,
    as reading it 8 bytes at a time).
    """

    __slots__ = ("_block", "_key", "_label", "_pos", "_vals")

    def __init__(self, seed: bytes, label: str, start: int = 0) -> None:
        self._key = seed
        self._label = label.encode("utf-8") + b":"
        self._block = start
        self._vals: tuple[int, ...] = ()
        self._pos = 0

    def _next_block(self) -> None:
        self._vals = _unpack4(
            _hmac_digest(self._key, self._label + str(self._block).encode("ascii"), "sha256")
        )
        self._block += 1
        self._pos = 0

    def _blocks(self, count: int) -> list[int]:
        """The numbers left in the current block and those of the next ``count`` blocks
        (the stream moves past all of them)."""
        block = self._block
        data = _hmac_blocks(self._key, self._label, block, count)
        self._block = block + count
        vals = [*self._vals[self._pos :], *_unpack(f">{4 * count}Q", data)]
        self._vals = ()
        self._pos = 0
        return vals

    def uniform(self, n: int) -> int:
        """A uniform integer in ``0 .. n-1`` by rejection sampling of 8-byte draws."""
        if n <= 0:
            raise ValueError("uniform(n) needs n >= 1")
        limit = _LIMITS[n] if n < 256 else _TWO_64 - (_TWO_64 % n)
        while True:
            pos = self._pos
            if pos >= len(self._vals):
                self._next_block()
                pos = 0
            self._pos = pos + 1
            x = self._vals[pos]
            if x < limit:
                return x % n

    def shuffle(self, items: Sequence[T]) -> list[T]:
        """Fisher-Yates: for i from len-1 down to 1, j = uniform(i+1), swap i and j."""
        out = list(items)
        size = len(out)
        if size < 2:
            return out
        # the blocks of every draw the shuffle needs (a rejection, less likely than one
        # in 2**57 per draw for a pack of cards, reads one block more)
        have = len(self._vals) - self._pos
        vals = self._blocks(max(0, (size - 1 - have + 3) // 4))
        limits = _LIMITS
        k = 0
        for i in range(size - 1, 0, -1):
            n = i + 1
            limit = limits[n] if n < 256 else _TWO_64 - (_TWO_64 % n)
            while True:
                if k == len(vals):
                    vals += self._blocks(1)
                x = vals[k]
                k += 1
                if x < limit:
                    break
            j = x % n
            out[i], out[j] = out[j], out[i]
        # the numbers of the last block not used stay in the stream
        self._vals = tuple(vals[k:])
        self._pos = 0
        return out

    def choice(self, items: Sequence[T]) -> T:
        """One element, uniformly (used by bots to break ties)."""
        return items[self.uniform(len(items))]


def _hmac_blocks(key: bytes, label: bytes, first: int, count: int) -> bytes:
    """``HMAC-SHA256(key, label + str(i))`` for ``i = first .. first + count - 1``, one
    after the other. HMAC as RFC 2104 defines it: ``H((K ^ opad) + H((K ^ ipad) + m))``
    with the key padded to 64 bytes (hashed first when longer); the hashes of the padded
    keys are computed once for all blocks."""
    if count < 3:
        return b"".join(
            [
                _hmac_digest(key, label + str(i).encode("ascii"), "sha256")
                for i in range(first, first + count)
            ]
        )
    if len(key) > 64:
        key = hashlib.sha256(key).digest()
    key = key.ljust(64, b"\0")
    inner = _sha256(key.translate(_IPAD))
    outer = _sha256(key.translate(_OPAD))
    out = []
    for i in range(first, first + count):
        h = inner.copy()
        h.update(label + str(i).encode("ascii"))
        o = outer.copy()
        o.update(h.digest())
        out.append(o.digest())
    return b"".join(out)


def shuffled_pack(seed: bytes, pack: Sequence[T], label: str = "deal") -> list[T]:
    """The pack shuffled with the stream of ``label``; the first element is the top card."""
    return Stream(seed, label).shuffle(pack)


def deal_hands(
    pack: Sequence[T], *, num_players: int, hand_size: int, first_player: int
) -> tuple[list[list[T]], list[T]]:
    """Deal one card at a time, clockwise, starting with ``first_player``, until every hand
    holds ``hand_size`` cards. Returns the hands per seat and the rest of the pack, top first.
    """
    needed = num_players * hand_size
    if needed > len(pack):
        raise ValueError("not enough cards for this deal")
    # card k goes to seat (first_player + k) % num_players
    hands = [
        list(pack[(seat - first_player) % num_players : needed : num_players])
        for seat in range(num_players)
    ]
    return hands, list(pack[needed:])
