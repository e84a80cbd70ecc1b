"""A double-dummy solver of Klaverjas tricks (every hand open), for the expert bot.

Hands are bit masks of card ids (bit ``suit * 8 + rank``). ``DoubleDummy.value`` is the
best difference (team 0 minus team 1) of what is still to be won — card points, roem,
the last trick's bonus and the pit bonus of a team that takes every trick (docs/rules.md §6)
— both teams playing perfectly. The search is alpha-beta with:

- the bounds found for a position at the start of a trick memoised (a transposition
  table keyed by the four hands, the leader and which team may still make pit);
- move ordering: cheapest winning card first, points on a partner's trick, the
  cheapest card on a lost trick;
- equivalent cards: of cards of one suit next to each other in strength among the cards
  still in play and worth the same points, only one is tried (they win and lose the
  same tricks);
- the last trick scored directly (every card is forced).

Its work is counted in nodes (``nodes``); it raises ``OutOfNodes`` past ``limit``.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Final

from engine.klaverjas.roem import roem_points
from engine.klaverjas.rules import PLAIN_STRENGTH, TRUMP_STRENGTH, card_points
from engine.klaverjas.variants import Variant

SUIT_MASK: Final = tuple(0xFF << (8 * s) for s in range(4))
INF: Final = 100_000
#: the pit state: no trick played yet (either team may still make pit)
PIT_EITHER: Final = 2
#: the pit state: both teams have taken a trick
PIT_NONE: Final = -1


#: caches shared by the searches of one process (they hold facts, never choices): the
#: roem of a set of four cards per trump and jack bonus, the ordered moves per trump (the
#: card ids as bytes). Their keys and values are ints and bytes, which the garbage
#: collector does not track, so it never walks these dicts (with tuple keys and lists it
#: walked every entry: a full collection of a process whose caches had filled took
#: hundreds of ms, paid by whichever decision triggered it)
_ROEM: dict[tuple[int, int], dict[int, int]] = {}
_MOVES: dict[int, dict[int, bytes]] = {}
#: the ordered moves of a trump suit are forgotten once they pass this many entries
CACHE_SIZE: Final = 300_000


class OutOfNodes(Exception):
    """The search passed its node limit."""


def pit_state(winners: Sequence[int]) -> int:
    """Which team may still take every trick, from the winners (seats) of the tricks so
    far: ``PIT_EITHER`` before the first trick, the team that took them all, or
    ``PIT_NONE``."""
    teams = {w % 2 for w in winners}
    if not teams:
        return PIT_EITHER
    return teams.pop() if len(teams) == 1 else PIT_NONE


class DoubleDummy:
    """The solver of one trump suit and variant (see the module text)."""

    def __init__(self, trump: int, variant: Variant, limit: int) -> None:
        self.trump = trump
        self.v = variant
        self.last_bonus = variant.last_trick
        self.pit_bonus = variant.pit
        self.must_overtrump = variant.must_overtrump
        self.must_trump = variant.must_trump
        self.exemption = variant.partner_exemption
        self.undertrump = variant.undertrump == "must_undertrump"
        self.nodes = 0
        self.limit = limit
        self.memo: dict[tuple[int, int, int, int, int, int], tuple[int, int]] = {}
        self.roem = _ROEM.setdefault((trump, variant.four_jacks), {})
        self.move_cache = _MOVES.setdefault(trump, {})
        if len(self.move_cache) > CACHE_SIZE:
            self.move_cache.clear()
        self.tmask = SUIT_MASK[trump]
        self.power = [
            [
                (
                    16 + TRUMP_STRENGTH[c % 8]
                    if c // 8 == trump
                    else (8 + PLAIN_STRENGTH[c % 8] if c // 8 == led else -1)
                )
                for c in range(32)
            ]
            for led in range(4)
        ]
        self.points = [card_points(c, trump) for c in range(32)]
        self.order = [
            sorted(
                range(8 * s, 8 * s + 8),
                key=lambda c: -(TRUMP_STRENGTH if c // 8 == trump else PLAIN_STRENGTH)[c % 8],
            )
            for s in range(4)
        ]
        #: leads are tried strongest first: trumps, then the other suits' top cards
        self.lead_rank = [
            16 + TRUMP_STRENGTH[c % 8] if c // 8 == trump else PLAIN_STRENGTH[c % 8]
            for c in range(32)
        ]
        #: trumps stronger than a trump power (16 + strength; 15 = no trump yet)
        self.higher_than_power = {
            p: sum(1 << (trump * 8 + r) for r in range(8) if 16 + TRUMP_STRENGTH[r] > p)
            for p in range(-1, 24)
        }

    # --- rules on bit masks ----------------------------------------------------------

    def legal(self, hand: int, trick: Sequence[int]) -> int:
        """``rules.legal_cards`` on bit masks."""
        if not trick:
            return hand
        led = trick[0] // 8
        follow = hand & SUIT_MASK[led]
        power = self.power[led]
        best = 0
        best_power = power[trick[0]]
        for i in range(1, len(trick)):
            p = power[trick[i]]
            if p > best_power:
                best, best_power = i, p
        top = best_power if best_power >= 16 else 15
        if follow:
            if led == self.trump and self.must_overtrump:
                high = follow & self.higher_than_power[top]
                if high:
                    return high
            return follow
        trumps = hand & self.tmask
        if not trumps:
            return hand
        others = hand & ~self.tmask
        exempt = self.exemption and len(trick) >= 2 and best == len(trick) - 2
        high = trumps & self.higher_than_power[top]
        if high:
            allowed = high if (self.must_overtrump and not exempt) else trumps
            may_discard = bool(others) and (exempt or not self.must_trump)
        else:
            allowed = trumps if (self.undertrump or not others) else 0
            if not others:
                may_discard = False
            elif exempt or not self.must_trump:
                may_discard = True
            else:
                may_discard = not self.undertrump
        if may_discard:
            allowed |= others
        return allowed

    # --- the search ------------------------------------------------------------------

    def value(
        self,
        hands: list[int],
        leader: int,
        trick: tuple[int, ...],
        pit: int,
        alpha: int = -INF,
        beta: int = INF,
    ) -> int:
        """The value (team 0 minus team 1) of the rest of the round from the current
        trick (led by ``leader``, its cards ``trick``) on; ``pit`` as ``pit_state``."""
        if not trick:
            return self._fresh(hands, leader, pit, alpha, beta)
        if len(trick) == 4:
            gain, winner, after = self._finish(hands, leader, trick, pit)
            if hands[0] | hands[1] | hands[2] | hands[3]:
                return gain + self._fresh(hands, winner, after, alpha - gain, beta - gain)
            return gain
        return self._play(hands, leader, trick, pit, alpha, beta)

    def _finish(
        self, hands: list[int], leader: int, trick: tuple[int, ...], pit: int
    ) -> tuple[int, int, int]:
        """A full trick: (its value for team 0, the winner, the pit state after it)."""
        power = self.power[trick[0] // 8]
        a, b, c, d = trick
        win, best = 0, power[a]
        if power[b] > best:
            win, best = 1, power[b]
        if power[c] > best:
            win, best = 2, power[c]
        if power[d] > best:
            win = 3
        points = self.points
        gain = points[a] + points[b] + points[c] + points[d]
        key = (1 << a) | (1 << b) | (1 << c) | (1 << d)
        roem = self.roem.get(key)
        if roem is None:
            roem = roem_points(trick, self.trump, self.v.four_jacks)
            self.roem[key] = roem
        gain += roem
        winner = (leader + win) & 3
        team = winner & 1
        pit = PIT_NONE if pit != team and pit != PIT_EITHER else team
        if not (hands[0] | hands[1] | hands[2] | hands[3]):
            gain += self.last_bonus
            if pit == team:
                gain += self.pit_bonus
        return (-gain if team else gain), winner, pit

    def _play(
        self,
        hands: list[int],
        leader: int,
        trick: tuple[int, ...],
        pit: int,
        alpha: int,
        beta: int,
    ) -> int:
        self.nodes += 1
        if self.nodes > self.limit:
            raise OutOfNodes
        n = len(trick)
        seat = (leader + n) & 3
        hand = hands[seat]
        moves = self._moves(hands, seat, trick)
        maximise = not seat & 1
        best = -INF if maximise else INF
        last = n == 3
        for c in moves:
            hands[seat] = hand & ~(1 << c)
            t = (*trick, c)
            if last:
                gain, winner, after = self._finish(hands, leader, t, pit)
                if hands[0] | hands[1] | hands[2] | hands[3]:
                    x = gain + self._fresh(hands, winner, after, alpha - gain, beta - gain)
                else:
                    x = gain
            else:
                x = self._play(hands, leader, t, pit, alpha, beta)
            if maximise:
                if x > best:
                    best = x
                    if x > alpha:
                        alpha = x
            elif x < best:
                best = x
                if x < beta:
                    beta = x
            if alpha >= beta:
                break
        hands[seat] = hand
        return best

    def _fresh(self, hands: list[int], leader: int, pit: int, alpha: int, beta: int) -> int:
        """The value of a position at the start of a trick, within ``alpha`` .. ``beta``
        (a value outside is a bound); the bounds found are memoised."""
        h0, h1, h2, h3 = hands
        if not (h0 & (h0 - 1) or h1 & (h1 - 1) or h2 & (h2 - 1) or h3 & (h3 - 1)):
            # the last trick: every card is forced
            self.nodes += 1
            cards = [hands[(leader + i) & 3].bit_length() - 1 for i in range(4)]
            hands[0] = hands[1] = hands[2] = hands[3] = 0
            gain = self._finish(hands, leader, (cards[0], cards[1], cards[2], cards[3]), pit)[0]
            hands[0], hands[1], hands[2], hands[3] = h0, h1, h2, h3
            return gain
        key = (h0, h1, h2, h3, leader, pit)
        bounds = self.memo.get(key)
        if bounds is not None:
            low, high = bounds
            if low >= beta:
                return low
            if high <= alpha or low == high:
                return high
            a = alpha if alpha > low else low
            b = beta if beta < high else high
        else:
            low, high = -INF, INF
            a, b = alpha, beta
        x = self._play(hands, leader, (), pit, a, b)
        if x <= a:
            high = x
        elif x >= b:
            low = x
        else:
            low = high = x
        self.memo[key] = (low, high)
        return x

    def moves(self, hands: list[int], seat: int, trick: tuple[int, ...]) -> list[int]:
        """The legal cards of ``seat`` the search tries, in its order."""
        return list(self._moves(hands, seat, trick))

    def _moves(self, hands: list[int], seat: int, trick: tuple[int, ...]) -> bytes | list[int]:
        """The legal cards worth trying, the likeliest best first (see the module text);
        cached per legal cards, cards in play and the trick's state (one int: legal
        cards in bits 0-31, cards in play 32-63, the trick's state from bit 64)."""
        legal = self.legal(hands[seat], trick)
        if legal & (legal - 1) == 0:
            return [legal.bit_length() - 1]
        live = hands[0] | hands[1] | hands[2] | hands[3]
        if not trick:
            key = legal | live << 32
        else:
            power = self.power[trick[0] // 8]
            n = len(trick)
            best = 0
            best_power = power[trick[0]]
            for i in range(1, n):
                live |= 1 << trick[i]
                p = power[trick[i]]
                if p > best_power:
                    best, best_power = i, p
            live |= 1 << trick[0]
            # led suit (2 bits), the best power + 1 (0-24, 5 bits), whose card is on top
            # (1 bit), and a 1 above them that tells a trick's key from a lead's
            state = 1 << 8 | (trick[0] // 8) << 6 | (best_power + 1) << 1 | (n - best) & 1
            key = legal | live << 32 | state << 64
        moves = self.move_cache.get(key)
        if moves is None:
            moves = self._order(legal, live, trick)
            self.move_cache[key] = moves
        return moves

    def _order(self, legal: int, live: int, trick: tuple[int, ...]) -> bytes:
        points = self.points
        out: list[int] = []
        for s in range(4):
            mine = legal & SUIT_MASK[s]
            if not mine:
                continue
            prev = -1
            for c in self.order[s]:
                bit = 1 << c
                if mine & bit:
                    if prev < 0 or points[prev] != points[c]:
                        out.append(c)
                    prev = c
                elif live & bit:
                    prev = -1
        if len(out) < 2:
            return bytes(out)
        if not trick:
            lead_rank = self.lead_rank
            out.sort(key=lambda c: -lead_rank[c])
            return bytes(out)
        power = self.power[trick[0] // 8]
        n = len(trick)
        best = 0
        best_power = power[trick[0]]
        for i in range(1, n):
            p = power[trick[i]]
            if p > best_power:
                best, best_power = i, p
        if (n - best) % 2 == 0:
            # the partner's card is on top: give it points; overtaking it last
            out.sort(key=lambda c: (power[c] > best_power, -points[c], power[c]))
        else:
            # the cheapest card that wins, else the cheapest card
            out.sort(
                key=lambda c: (
                    power[c] <= best_power,
                    points[c] if power[c] <= best_power else power[c],
                )
            )
        return bytes(out)

    def representatives(
        self, hands: list[int], seat: int, trick: tuple[int, ...]
    ) -> dict[int, int]:
        """Each legal card of ``seat`` -> the card the search tries for it (the strongest
        of its run of equivalent cards, see the module text)."""
        legal = self.legal(hands[seat], trick)
        live = hands[0] | hands[1] | hands[2] | hands[3]
        for c in trick:
            live |= 1 << c
        points = self.points
        out: dict[int, int] = {}
        for s in range(4):
            mine = legal & SUIT_MASK[s]
            head = -1
            for c in self.order[s]:
                bit = 1 << c
                if mine & bit:
                    if head < 0 or points[head] != points[c]:
                        head = c
                    out[c] = head
                elif live & bit:
                    head = -1
        return out

    # --- rollouts ---------------------------------------------------------------------

    def rollout(self, hands: list[int], leader: int, trick: tuple[int, ...], pit: int) -> int:
        """The value (team 0 minus team 1) of the rest of the round when every seat plays
        the greedy card of ``greedy`` (hands open); counts a node per card."""
        hands = list(hands)
        cards = list(trick)
        total = 0
        while True:
            while len(cards) < 4:
                seat = (leader + len(cards)) & 3
                c = self.greedy(hands, seat, cards)
                hands[seat] &= ~(1 << c)
                cards.append(c)
                self.nodes += 1
            gain, leader, pit = self._finish(
                hands, leader, (cards[0], cards[1], cards[2], cards[3]), pit
            )
            total += gain
            if not (hands[0] | hands[1] | hands[2] | hands[3]):
                return total
            cards = []

    def greedy(self, hands: list[int], seat: int, trick: list[int]) -> int:
        """A quick card for ``seat`` with every hand open: leading, a card no opponent
        beats (a trump only while the opponents hold trumps), else the cheapest card
        of a side suit; following, points on a partner's trick no opponent beats, the
        cheapest card that wins and holds, else the cheapest card."""
        legal = self.legal(hands[seat], trick)
        if legal & (legal - 1) == 0:
            return legal.bit_length() - 1
        points = self.points
        mine = _cards(legal)
        n = len(trick)
        opponents = [(seat + i) & 3 for i in (1, 3) if i < 4 - n]
        tmask = self.tmask
        if not n:
            their_trumps = 0
            for o in (seat + 1) & 3, (seat + 3) & 3:
                their_trumps |= hands[o] & tmask
            for c in sorted(mine, key=lambda c: -self.lead_rank[c]):
                if c // 8 == self.trump and not their_trumps:
                    continue
                if self._holds(
                    hands, [(seat + 1) & 3, (seat + 3) & 3], c // 8, self.power[c // 8][c]
                ):
                    return c
            side = [c for c in mine if c // 8 != self.trump] or mine
            return min(side, key=lambda c: (points[c], self.lead_rank[c]))
        led = trick[0] // 8
        power = self.power[led]
        best = 0
        best_power = power[trick[0]]
        for i in range(1, n):
            p = power[trick[i]]
            if p > best_power:
                best, best_power = i, p
        if (n - best) % 2 == 0 and self._holds(hands, opponents, led, best_power):
            under = [c for c in mine if power[c] <= best_power] or mine
            return max(under, key=lambda c: (points[c], -power[c]))
        winners = [
            c
            for c in mine
            if power[c] > best_power and self._holds(hands, opponents, led, power[c])
        ]
        if winners:
            return min(winners, key=lambda c: (power[c], points[c]))
        return min(mine, key=lambda c: (points[c], power[c]))

    def _holds(self, hands: list[int], opponents: list[int], led: int, top: int) -> bool:
        """Whether none of ``opponents`` can beat a card of power ``top`` in a trick led
        with ``led`` (one who holds the led suit must follow it)."""
        power = self.power[led]
        for o in opponents:
            h = hands[o]
            follow = h & SUIT_MASK[led]
            for x in _cards(follow or h & self.tmask):
                if power[x] > top:
                    return False
        return True


def _cards(mask: int) -> list[int]:
    out = []
    while mask:
        low = mask & -mask
        out.append(low.bit_length() - 1)
        mask ^= low
    return out
