"""Each deal's results across the field: rows, ranks and the distribution per round (in
a deal pool per copy of a round: docs/rules.md §5, "Deal pools"; a deal is keyed by
``(round, copy)``, copy 0 outside a pool)."""

from __future__ import annotations

import bisect
import functools
from collections.abc import Collection, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from django.db.models import Count, Subquery, Sum

from tournaments.games import module_of, result_sign
from tournaments.models import (
    DealResult,
    Game,
    Tournament,
)
from tournaments.selectors.standings import (
    Visibility,
    page_bounds,
    page_rows,
    result_key,
    stamped,
)


@dataclass(frozen=True)
class DealRow:
    username: str
    game_id: int
    score: int
    opponents_average: float
    result: float
    rank: int | None
    #: The bot played the entrant's seat in this round: marked, unranked, and left out of
    #: the field's figures.
    by_bot: bool = False


@dataclass(frozen=True)
class Deal:
    """One round: how the field did on that same deal. ``field_size``,
    ``field_average`` and ``field_best`` are over the rows the entrants played themselves
    (``None`` without any). ``rows``: every row, or one page of them (``count`` rows in
    all, ``page`` of ``pages``)."""

    round_index: int
    rows: list[DealRow]
    field_size: int
    field_average: float | None
    field_best: float | None
    count: int = 0
    page: int = 1
    pages: int = 1
    #: The viewer's own row when it is not on the page shown.
    me: DealRow | None = None
    #: The copy of the round (0 outside a deal pool) and how many the round has.
    copy: int = 0
    copies: int = 1

    @property
    def key(self) -> tuple[int, int]:
        return (self.round_index, self.copy)

    @property
    def copy_numbers(self) -> range:
        """The round's copies as a page numbers them (from 1)."""
        return range(1, self.copies + 1)


_DEAL_ORDER = ("by_bot", "sort_result", "name_key", "entry_id")


@dataclass(frozen=True)
class Distribution:
    """The results of one deal's own rows (the bot's left out) as counts: ``counts`` holds
    (sort key, how many rows) with the best first (the key is ``_result_key`` of the
    result times ``sign``, as ``DealResult.sort_result``). A row's rank and percentage
    are a bisection of the keys (``better``), never a loop over the field."""

    counts: tuple[tuple[float, int], ...]
    sign: int = 1

    @classmethod
    def of(cls, results: Sequence[float], *, sign: int) -> Distribution:
        counted: dict[float, int] = {}
        for result in results:
            key = sign * result_key(result)
            counted[key] = counted.get(key, 0) + 1
        return cls(tuple(sorted(counted.items())), sign)

    @functools.cached_property
    def _keys(self) -> list[float]:
        return [k for k, _n in self.counts]

    @functools.cached_property
    def _before(self) -> list[int]:
        """Per key, the rows with a better (smaller) key; one more entry: every row."""
        out = [0]
        for _k, n in self.counts:
            out.append(out[-1] + n)
        return out

    @property
    def size(self) -> int:
        return self._before[-1]

    def better(self, key: float) -> int:
        """How many rows have a better (smaller) sort key than ``key``: a row's
        competition rank is one more."""
        return self._before[bisect.bisect_left(self._keys, key)]

    def percentage(self, result: float) -> float | None:
        """The share (0-100) of the other rows that ``result`` (one of them) beats, a tie
        counting half (Funbridge's and BBO's percentage); ``None`` without another row."""
        key = self.sign * result_key(result)
        others = self.size - 1
        if others < 1:
            return None
        at = bisect.bisect_left(self._keys, key)
        below = self._before[at]
        equal = self.counts[at][1] if at < len(self.counts) and self.counts[at][0] == key else 0
        worse = self.size - below - equal
        return round(100 * (worse + 0.5 * (equal - 1)) / others, 9)

    def median(self) -> float | None:
        """The median result (``None`` without rows)."""
        size = self.size
        if not size:
            return None
        # The keys ascend best first; the results ascend with them (sign 1) or the other
        # way (sign -1): the middle places are the same either way.
        places = sorted({(size - 1) // 2, size // 2})
        values = [
            self.sign * self.counts[bisect.bisect_right(self._before, p) - 1][0] for p in places
        ]
        return round(sum(values) / len(values), 9)


@dataclass(frozen=True)
class DealFigures:
    """Per round: the field's size, average and best result over the rows the entrants
    played themselves (``fields``), the rows in all (``counts``) and the distribution of
    the own rows' results (``spreads``): what every per-deal table and percentage needs
    of the whole field, from one grouped query."""

    fields: dict[tuple[int, int], tuple[int, float, float]]
    counts: dict[tuple[int, int], int]
    spreads: dict[tuple[int, int], Distribution]

    def upto(self, rounds: int) -> DealFigures:
        """The figures of the rounds below ``rounds`` only."""
        return DealFigures(
            {k: v for k, v in self.fields.items() if k[0] < rounds},
            {k: v for k, v in self.counts.items() if k[0] < rounds},
            {k: v for k, v in self.spreads.items() if k[0] < rounds},
        )


def _figures_of(t: Tournament) -> DealFigures:
    """Every round's figures (``DealFigures``) from one grouped query over the
    tournament's per-deal rows: as many rows as distinct results, whatever the field's
    size."""
    grouped = (
        DealResult.objects.filter(tournament=t, round_index__lt=t.rounds)
        .order_by()
        .values("round_index", "copy", "by_bot", "sort_result")
        .annotate(n=Count("id"), total=Sum("result"))
        .values_list("round_index", "copy", "by_bot", "sort_result", "n", "total")
    )
    sign = result_sign(module_of(t.game))
    counts: dict[tuple[int, int], int] = {}
    own: dict[tuple[int, int], dict[float, int]] = {}
    sums: dict[tuple[int, int], float] = {}
    for round_index, copy, by_bot, k, n, total in grouped:
        r = (round_index, copy)
        counts[r] = counts.get(r, 0) + n
        if by_bot:
            continue
        per = own.setdefault(r, {})
        per[result_key(k)] = per.get(result_key(k), 0) + n
        sums[r] = sums.get(r, 0.0) + total
    spreads = {r: Distribution(tuple(sorted(c.items())), sign) for r, c in own.items()}
    fields = {
        r: (spread.size, round(sums[r] / spread.size, 9), sign * spread.counts[0][0])
        for r, spread in spreads.items()
    }
    return DealFigures(fields, counts, spreads)


def deal_figures(*, tournament: Tournament, rounds: int) -> DealFigures:
    """The per-deal figures of the rounds below ``rounds`` (``DealFigures``), open or
    closed kept in the cache until the tournament's results change (``stamped``): a page
    view reads them there, the query runs once per change."""
    t = tournament
    return stamped(t, "deal-figures", lambda: _figures_of(t)).upto(rounds)


def deal_distributions(
    *, tournament: Tournament, rounds: int
) -> dict[tuple[int, int], Distribution]:
    """Per deal (round, copy) of the rounds below ``rounds``: the distribution of the
    field's own results on that deal (``deal_figures``: one grouped query, cached)."""
    return deal_figures(tournament=tournament, rounds=rounds).spreads


def deal_rows_of(
    *,
    tournament: Tournament,
    visibility: Visibility,
    game_ids: Collection[int],
    spreads: Mapping[int, Distribution] | None = None,
) -> list[Deal]:
    """``deal_results`` of only the rows of ``game_ids`` (one query), each ranked from its
    deal's distribution (``deal_figures``), the field's figures as there."""
    t = tournament
    visible = min(t.rounds, visibility.rounds)
    figures = deal_figures(tournament=t, rounds=visible)
    rows: dict[tuple[int, int], list[DealResult]] = {}
    # by the entries' (entry, round) index: no index leads with the game
    entries = Game.objects.filter(pk__in=list(game_ids)).values("entry_id")
    for row in DealResult.objects.filter(
        tournament=t, round_index__lt=visible, entry_id__in=Subquery(entries)
    ).order_by("round_index", "copy", *_DEAL_ORDER):
        rows.setdefault((row.round_index, row.copy), []).append(row)
    out = []
    for r in range(visible):
        # the copies these games played of the round (in a deal pool), else copy 0
        for key in sorted(k for k in rows if k[0] == r) or [(r, 0)]:
            spread = figures.spreads.get(key, Distribution(()))
            ranked = [_deal_row(row, spread) for row in rows.get(key, [])]
            size, average, best = figures.fields.get(key, (0, None, None))
            out.append(
                Deal(
                    r,
                    ranked,
                    size,
                    average,
                    best,
                    count=figures.counts.get(key, 0),
                    copy=key[1],
                    copies=t.pool_copies,
                )
            )
    return out


def _deal_row(row: DealResult, spread: Distribution) -> DealRow:
    """A per-deal row ranked from its deal's distribution (the bot's rows unranked)."""
    rank = None if row.by_bot else 1 + spread.better(row.sort_result)
    return DealRow(
        row.name, row.game_id, row.score, row.opponents_average, row.result, rank, row.by_bot
    )


def deal_results(
    *,
    tournament: Tournament,
    visibility: Visibility,
    page_size: int = 0,
    user: Any = None,
    pages: Mapping[int, int] | None = None,
    copies: Mapping[int, int] | None = None,
) -> list[Deal]:
    """Per round that ``visibility`` shows, how the field did on that same deal: each
    entrant who finished the round, with their score, the opponents' average and the
    round's result, ranked; the rows the bot played in the entrant's seat are marked,
    unranked and left out of the field's figures. With ``page_size``, one page of each
    deal's rows (``pages[round]``, else the first: the best of the field), and ``user``'s
    own row beside it when it is not on that page. The ranks come from each deal's
    distribution (``deal_figures``, cached): one query per deal's page and one for the
    viewer's own rows, whatever the field's size. In a deal pool each round's table is
    that of one copy (docs/rules.md §5): ``copies[round]``, else the one ``user`` played,
    else copy 0."""
    t = tournament
    visible = min(t.rounds, visibility.rounds)
    figures = deal_figures(tournament=t, rounds=visible)
    own: dict[int, DealResult] = {}
    if (page_size or t.pooled) and user is not None and user.is_authenticated:
        own = {
            row.round_index: row
            for row in DealResult.objects.filter(
                entry__tournament=t, entry__user=user, round_index__lt=visible
            )
        }
    out: list[Deal] = []
    for r in range(visible):
        copy = (copies or {}).get(r)
        if copy is None or not 0 <= copy < t.pool_copies:
            copy = own[r].copy if r in own else 0
        key = (r, copy)
        spread = figures.spreads.get(key, Distribution(()))
        table = DealResult.objects.filter(tournament=t, round_index=r, copy=copy).order_by(
            *_DEAL_ORDER
        )
        size, average, best = figures.fields.get(key, (0, None, None))
        if page_size:
            count = figures.counts.get(key, 0)
            page, offset = page_bounds((pages or {}).get(r), page_size, count)
            rows = page_rows(table, _DEAL_ORDER, offset, page_size)
            n_pages = max(1, -(-count // page_size))
            mine = own.get(r)
            if mine is not None and mine.copy == copy and all(row.pk != mine.pk for row in rows):
                me = _deal_row(mine, spread)
            else:
                me = None
        else:
            rows = list(table)
            count, page, n_pages, me = len(rows), 1, 1, None
        out.append(
            Deal(
                round_index=r,
                rows=[_deal_row(row, spread) for row in rows],
                field_size=size,
                field_average=average,
                field_best=best,
                count=count,
                page=page,
                pages=n_pages,
                me=me,
                copy=copy,
                copies=t.pool_copies,
            )
        )
    return out
