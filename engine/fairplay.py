"""Play that knows too much (issue 33 item 2; docs/rules.md, "Fair play").

Every entrant of a tournament gets the same deals against deterministic bots, so a player
who has seen a deal's end (with another account) can know the hidden hands and the stock
when playing it again. Once the deal is revealed the server knows everything too, and can
score each of the entrant's decisions against two references:

- the **view-best** choices: what a strong player would choose from the entrant's own
  view: the strong bot's choice and the choices it rates nearly as good (the game
  module's ``near_best_actions``; never a hidden card);
- the **deal-best** choices: what is best knowing the deal: each candidate (every legal
  move, one per move of the rules: ``same_move``) played out exactly with the
  deterministic bots (the strong bot in the entrant's seat, the game's bots in the
  others), the candidates of the best round result for the entrant's seat.

A decision is an **opportunity** when no deal-best choice is view-best (knowing the deal
pays only there), and **telling** when it is an opportunity and the entrant made a
deal-best choice. An honest player makes a telling choice now and then (a slip that
happens to be right, a style unlike the strong bot's); how often, per decision context
(the kind of move the strong bot makes and the share of off-view choices that are
deal-best), is measured on simulated honest play (``benchmarks/cheat.py --calibrate``)
and kept in ``NULL_RATES``. The evidence of many decisions (``Evidence``) is the number of
telling decisions against those honest rates: its figure is ``-log10`` of the chance
that an honest player has at least that many (the Poisson-binomial tail). An entry, or
an account's recent entries together, is flagged at ``THRESHOLD``.

The deal-best choices cost a rollout per candidate (Jokeren 7 about 6 ms each, Klassiek
13 ms), so the site checks entries after the close, not during it. Pure: no Django, no
I/O, no clock.
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, Final

from engine.match import bot_move
from engine.protocol import GameModule

#: the entrant's seat in every game of the site
PLAYER: Final = 0
#: the level that makes the entrant's view-best choices and plays the entrant's seat in the
#: rollouts (the site's "sterke bot")
REFERENCE_LEVEL: Final = "strong"
#: an entry (or an account's recent entries) is flagged when the chance that an honest
#: player shows at least as many telling decisions is at most 10**-THRESHOLD
THRESHOLD: Final = 3.0
#: past this figure the Chernoff bound stands for the exact tail (``Evidence.figure``)
EXACT: Final = 8.0
#: two round results this close are equal
_EQUAL: Final = 1e-9

#: the edges of the share of off-view choices that are deal-best (a decision's context)
SHARE_EDGES: Final = (0.1, 0.25, 0.5)

#: The honest rate of a telling choice per context ``(game, kind, share bucket)``: of the
#: opportunities in that context, how many an honest player turned into a telling
#: decision, the highest over the honest field's kinds of player (``benchmarks/cheat.py
#: --calibrate``, on deals apart from the benchmark's own). A context not measured gets
#: ``FALLBACK_RATE``.
NULL_RATES: Final[Mapping[tuple[str, str, int], float]] = {
    ("jokeren", "Discard", 0): 0.0203,
    ("jokeren", "Discard", 1): 0.0879,
    ("jokeren", "Discard", 2): 0.1484,
    ("jokeren", "Discard", 3): 0.18,
    ("jokeren", "Draw", 3): 0.1562,
    ("jokeren", "LayMelds", 0): 0.007,
    ("jokeren", "LayMelds", 1): 0.0283,
    ("jokeren", "LayMelds", 2): 0.0926,
    ("jokeren", "LayMelds", 3): 0.75,
    ("jokeren", "LayOff", 0): 0.1,
    ("jokeren", "LayOff", 1): 0.0227,
    ("jokeren", "LayOff", 2): 0.1522,
    ("jokeren", "LayOff", 3): 0.125,
    ("jokeren", "SwapJoker", 0): 0.25,
    ("jokeren", "SwapJoker", 1): 0.0417,
    ("jokeren", "SwapJoker", 2): 0.0625,
    ("jokeren", "SwapJoker", 3): 0.25,
    ("klaverjas", "Bid", 3): 0.1771,
    ("klaverjas", "ChooseTrump", 2): 0.0625,
    ("klaverjas", "PlayCard", 1): 0.1359,
    ("klaverjas", "PlayCard", 2): 0.2851,
    ("klaverjas", "PlayCard", 3): 0.3652,
}
FALLBACK_RATE: Final = 0.5
#: no honest rate is taken below this
FLOOR_RATE: Final = 0.01


def share_bucket(share: float) -> int:
    """The bucket (0..3) of the share of off-view choices that are deal-best."""
    for i, edge in enumerate(SHARE_EDGES):
        if share <= edge:
            return i
    return len(SHARE_EDGES)


def null_rate(game: str, kind: str, share: float) -> float:
    """The honest chance of a telling choice at an opportunity of this context: the
    measured rate (``NULL_RATES``; ``FALLBACK_RATE`` where none was measured), never
    below ``FLOOR_RATE``."""
    rate = NULL_RATES.get((game, kind, share_bucket(share)), FALLBACK_RATE)
    return min(1.0, max(rate, FLOOR_RATE))


@dataclass(frozen=True)
class DecisionCheck:
    """One decision of the entrant, checked."""

    round_index: int
    #: the action's index in the round (every seat's actions counted)
    index: int
    #: the kind of move the strong bot makes here (its action's type: ``Discard``, ...)
    kind: str
    played: Any
    #: the strong bot's choice, then its near-equal ones
    view_best: tuple[Any, ...]
    #: the deal-best choices, and the round result (the entrant's seat, better higher)
    #: after each candidate; empty where the decision was forced
    deal_best: tuple[Any, ...] = ()
    values: tuple[tuple[Any, float], ...] = ()
    #: no deal-best choice is view-best
    opportunity: bool = False
    #: an opportunity where the entrant made a deal-best choice
    telling: bool = False
    #: the share of off-view choices that are deal-best
    share: float = 0.0
    #: the honest chance of a telling choice here (0 when no opportunity)
    null: float = 0.0
    #: the round result after the strong bot's choice and after the deal-best ones
    reference_value: float | None = None
    best_value: float | None = None


@dataclass(frozen=True)
class Evidence:
    """The telling decisions of some play against the honest rates: ``nulls`` holds the
    honest chance of a telling choice at each opportunity, ``telling`` how many were."""

    decisions: int = 0
    nulls: tuple[float, ...] = ()
    telling: int = 0
    #: the honest expectation of telling decisions (the sum of ``nulls``)
    expected: float = field(init=False)

    def __post_init__(self) -> None:
        object.__setattr__(self, "expected", math.fsum(self.nulls))

    @property
    def opportunities(self) -> int:
        return len(self.nulls)

    def __add__(self, other: Evidence) -> Evidence:
        return Evidence(
            self.decisions + other.decisions, self.nulls + other.nulls, self.telling + other.telling
        )

    @property
    def tail(self) -> float:
        """The chance that an honest player has at least ``telling`` telling decisions at
        these opportunities (``poisson_binomial_tail``)."""
        return poisson_binomial_tail(self.nulls, self.telling)

    @property
    def figure(self) -> float:
        """``-log10`` of ``tail``: 3 means one honest player in a thousand does as well.
        Where the Chernoff bound of the tail (``chernoff_tail``) is below ``10**-EXACT``
        the figure is the bound's, a lower bound of the exact one (far past the
        threshold, and quick where the exact tail would cost many operations)."""
        bound = chernoff_tail(self.expected, self.telling)
        if bound < 10**-EXACT:
            return -math.log10(max(bound, 1e-300))
        return -math.log10(max(self.tail, 1e-300))

    @property
    def flagged(self) -> bool:
        return self.figure >= THRESHOLD

    def to_json(self) -> dict[str, Any]:
        return {
            "decisions": self.decisions,
            "nulls": [round(p, 6) for p in self.nulls],
            "telling": self.telling,
        }

    @classmethod
    def from_json(cls, obj: Mapping[str, Any]) -> Evidence:
        return cls(
            int(obj.get("decisions", 0)),
            tuple(float(p) for p in obj.get("nulls", ())),
            int(obj.get("telling", 0)),
        )


def evidence_of(checks: Iterable[DecisionCheck]) -> Evidence:
    """The evidence of some checked decisions."""
    decisions = 0
    nulls: list[float] = []
    telling = 0
    for c in checks:
        decisions += 1
        if c.opportunity:
            nulls.append(c.null)
            telling += c.telling
    return Evidence(decisions, tuple(nulls), telling)


def combined(parts: Iterable[Evidence]) -> Evidence:
    """Several entries' evidence as one (an account's recent tournaments)."""
    total = Evidence()
    for e in parts:
        total = total + e
    return total


def chernoff_tail(expected: float, k: int) -> float:
    """A bound of the chance of at least ``k`` successes among independent trials whose
    expected number of successes is ``expected``: ``exp(k - m - k ln(k / m))`` for
    ``k > m``, else 1."""
    if k <= expected:
        return 1.0
    if expected <= 0:
        return 0.0
    return math.exp(min(0.0, k - expected - k * math.log(k / expected)))


def poisson_binomial_tail(probabilities: Sequence[float], k: int) -> float:
    """P(at least ``k`` successes) among independent trials of these probabilities."""
    if k <= 0:
        return 1.0
    if k > len(probabilities):
        return 0.0
    # dist[j]: P(exactly j successes so far), j < k; the mass at k or more kept apart
    dist = [1.0] + [0.0] * (k - 1)
    at_least = 0.0
    for p in probabilities:
        q = 1.0 - p
        at_least += dist[k - 1] * p
        for j in range(k - 1, 0, -1):
            dist[j] = dist[j] * q + dist[j - 1] * p
        dist[0] *= q
    return min(1.0, at_least)


# --- one decision -----------------------------------------------------------------------


def candidates(state: Any) -> list[Any]:
    """Every legal move of the seat to move, one action per move of the rules."""
    out: list[Any] = []
    for a in state.legal_actions():
        if not any(state.same_move(a, b) for b in out):
            out.append(a)
    return out


def rollout_value(module: GameModule, state: Any, *, levels: Sequence[str], version: int) -> float:
    """The entrant's round result once ``state`` is played to the end by the bots
    (``levels[seat]``), higher better whichever way the game ranks."""
    while not state.is_terminal:
        state = bot_move(module, state, level=levels[state.current_player], version=version).state
    result = float(module.results([int(s) for s in state.scores()])[PLAYER])
    return -result if module.LOWER_IS_BETTER else result


def rollout_levels(module: GameModule, *, bot_level: str, num_players: int) -> list[str]:
    """The levels of the rollouts: the reference level in the entrant's seat, the game's
    bots in the others."""
    return [REFERENCE_LEVEL] + [bot_level] * (num_players - 1)


def deal_values(
    module: GameModule, state: Any, moves: Sequence[Any], *, levels: Sequence[str], version: int
) -> list[float]:
    """Each move's round result for the entrant (``rollout_value`` after it)."""
    return [rollout_value(module, state.apply(a), levels=levels, version=version) for a in moves]


def check_decision(
    module: GameModule,
    state: Any,
    played: Any,
    *,
    levels: Sequence[str],
    version: int,
    round_index: int = 0,
    index: int = 0,
    view_best: Sequence[Any] | None = None,
) -> DecisionCheck:
    """The entrant's decision ``played`` in ``state`` (the entrant's turn), checked:
    its view-best choices (``view_best``, or the game's ``near_best_actions``), and
    unless the move was forced, every candidate's rollout. ``played`` ``None``: the
    position alone (``telling`` stays false)."""
    view = tuple(
        view_best if view_best is not None else module.near_best_actions(state, version=version)
    )
    kind = type(view[0]).__name__
    moves = candidates(state)
    base = DecisionCheck(round_index, index, kind, played, view)
    if len(moves) < 2:
        return base
    values = deal_values(module, state, moves, levels=levels, version=version)
    top = max(values)
    best = tuple(a for a, v in zip(moves, values, strict=True) if v >= top - _EQUAL)

    def in_view(a: Any) -> bool:
        return any(state.same_move(a, b) for b in view)

    pairs = tuple(zip(moves, values, strict=True))
    reference = next((v for a, v in pairs if state.same_move(a, view[0])), None)
    if any(in_view(a) for a in best):
        return DecisionCheck(
            round_index, index, kind, played, view, best, pairs,
            reference_value=reference, best_value=top,
        )  # fmt: skip
    off_view = sum(1 for a in moves if not in_view(a))
    share = len(best) / off_view
    telling = played is not None and any(state.same_move(played, a) for a in best)
    null = null_rate(module.GAME, kind, share)
    return DecisionCheck(
        round_index, index, kind, played, view, best, pairs, True, telling, share, null,
        reference, top,
    )  # fmt: skip


# --- a round ------------------------------------------------------------------------------


@dataclass(frozen=True)
class Step:
    """One action of a stored round: the seat, the action, whether a bot made it."""

    seat: int
    action: Any
    by_bot: bool = False


def round_checks(
    module: GameModule,
    variant: Any,
    *,
    secret: bytes,
    round_index: int,
    steps: Sequence[Step],
    bot_level: str,
    version: int,
) -> list[DecisionCheck]:
    """Every decision of the entrant (``PLAYER``'s actions not made by a bot) in one
    round, replayed from its deal and checked (``check_decision``)."""
    state = module.new_round(variant, secret=secret, round_index=round_index)
    levels = rollout_levels(module, bot_level=bot_level, num_players=variant.num_players)
    out = []
    for index, step in enumerate(steps):
        if step.seat == PLAYER and not step.by_bot:
            out.append(
                check_decision(
                    module,
                    state,
                    step.action,
                    levels=levels,
                    version=version,
                    round_index=round_index,
                    index=index,
                )
            )
        state = state.apply(step.action)
    return out


# --- in words -------------------------------------------------------------------------------


def _points(module: GameModule, value: float, *, dutch: bool) -> str:
    """A rollout value as the game's round result (Jokeren: lower is better)."""
    v = -value if module.LOWER_IS_BETTER else value
    text = f"{v:+.1f}".replace("+0.0", "0.0").replace("-0.0", "0.0")
    return text.replace(".", ",") if dutch else text


def describe_telling(module: GameModule, check: DecisionCheck) -> tuple[str, str]:
    """A telling decision in words, Dutch and English, for the organizer's review:
    where it was, what the entrant did, what the strong bot would have done, what the
    cards made best and how often an honest player does that there."""
    played_nl, played_en = module.describe_advice(check.played)
    bot_nl, bot_en = module.describe_advice(check.view_best[0])
    mine, bots = check.best_value, check.reference_value
    pct = f"{100 * check.null:.0f}%"  # a whole number: the same in both languages
    where_nl = f"Ronde {check.round_index + 1}, zet {check.index + 1}"
    where_en = f"Round {check.round_index + 1}, move {check.index + 1}"
    result_nl = result_en = ""
    if mine is not None and bots is not None:
        result_nl = (
            f" (ronde-uitslag {_points(module, mine, dutch=True)} tegen"
            f" {_points(module, bots, dutch=True)} na de keuze van de bot)"
        )
        result_en = (
            f" (round result {_points(module, mine, dutch=False)} against"
            f" {_points(module, bots, dutch=False)} after the bot's choice)"
        )
    return (
        f"{where_nl}: de speler heeft {played_nl}; de sterke bot had {bot_nl}. Alleen wie"
        f" de verborgen kaarten kent, weet dat dit het beste was{result_nl}; een eerlijke"
        f" speler doet dat hier in {pct} van de gevallen.",
        f"{where_en}: the player {played_en}; the strong bot would have {bot_en}. Only"
        f" someone who knows the hidden cards knows this was best{result_en}; an honest"
        f" player does so here in {pct} of cases.",
    )
