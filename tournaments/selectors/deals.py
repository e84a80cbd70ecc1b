"""Each deal's results across the field: rows, ranks and the distribution per round."""

from __future__ import annotations

from collections.abc import Collection, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from django.core.cache import cache
from django.db.models import Avg, Count, Min

from engine.protocol import GameModule
from tournaments.games import module_of, result_sign
from tournaments.models import (
    DealResult,
    Tournament,
)
from tournaments.selectors.standings import Visibility, page_bounds, result_key


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


_DEAL_ORDER = ("by_bot", "sort_result", "name_key", "entry_id")


def _deal_ranked(
    t: Tournament, rows: Sequence[DealResult], offset: int | None = 0
) -> list[DealRow]:
    """Competition ranks of consecutive rows of a deal's table from place ``offset`` (as
    ``_board_ranked``; ``None``: places not known, each rank counted); the bot's rows are
    unranked."""
    out: list[DealRow] = []
    previous: float | None = None
    rank = 0
    for i, row in enumerate(rows):
        if row.by_bot:
            out.append(
                DealRow(
                    row.name, row.game_id, row.score, row.opponents_average, row.result, None, True
                )
            )
            continue
        if previous is None and offset == 0 and i == 0:
            rank = 1
        elif previous is None or offset is None:
            rank = (
                1
                + DealResult.objects.filter(
                    tournament=t,
                    round_index=row.round_index,
                    by_bot=False,
                    sort_result__lt=row.sort_result,
                ).count()
            )
        elif row.sort_result != previous:
            rank = (offset or 0) + i + 1
        previous = row.sort_result
        out.append(
            DealRow(row.name, row.game_id, row.score, row.opponents_average, row.result, rank)
        )
    return out


@dataclass(frozen=True)
class Distribution:
    """The results of one deal's own rows (the bot's left out) as counts: ``counts`` holds
    (sort key, how many rows) with the best first (the key is ``_result_key`` of the
    result times ``sign``, as ``DealResult.sort_result``)."""

    counts: tuple[tuple[float, int], ...]
    sign: int = 1

    @classmethod
    def of(cls, results: Sequence[float], *, sign: int) -> Distribution:
        counted: dict[float, int] = {}
        for result in results:
            key = sign * result_key(result)
            counted[key] = counted.get(key, 0) + 1
        return cls(tuple(sorted(counted.items())), sign)

    @property
    def size(self) -> int:
        return sum(n for _key, n in self.counts)

    def percentage(self, result: float) -> float | None:
        """The share (0-100) of the other rows that ``result`` (one of them) beats, a tie
        counting half (Funbridge's and BBO's percentage); ``None`` without another row."""
        key = self.sign * result_key(result)
        others = self.size - 1
        if others < 1:
            return None
        worse = sum(n for k, n in self.counts if k > key)
        equal = sum(n for k, n in self.counts if k == key)
        return round(100 * (worse + 0.5 * (equal - 1)) / others, 9)

    def median(self) -> float | None:
        """The median result (``None`` without rows)."""
        size = self.size
        if not size:
            return None
        wanted = sorted({(size - 1) // 2, size // 2})
        values: list[float] = []
        seen = 0
        for key, n in sorted(self.counts, key=lambda kn: self.sign * kn[0]):
            while wanted and wanted[0] < seen + n:
                values.append(self.sign * key)
                wanted.pop(0)
            seen += n
        return round(sum(values) / len(values), 9)


def deal_distributions(*, tournament: Tournament, rounds: int) -> dict[int, Distribution]:
    """Per round below ``rounds``: the distribution of the field's own results on that deal
    (one grouped query: as many rows as distinct results, whatever the field's size)."""
    sign = result_sign(module_of(tournament.game))
    grouped = (
        DealResult.objects.filter(tournament=tournament, round_index__lt=rounds, by_bot=False)
        .order_by()
        .values("round_index", "sort_result")
        .annotate(n=Count("id"))
        .values_list("round_index", "sort_result", "n")
    )
    counted: dict[int, dict[float, int]] = {}
    for r, key, n in grouped:
        per = counted.setdefault(r, {})
        per[result_key(key)] = per.get(result_key(key), 0) + n
    return {r: Distribution(tuple(sorted(c.items())), sign) for r, c in counted.items()}


def deal_rows_of(
    *,
    tournament: Tournament,
    visibility: Visibility,
    game_ids: Collection[int],
    spreads: Mapping[int, Distribution],
) -> list[Deal]:
    """``deal_results`` of only the rows of ``game_ids`` (one query), each ranked from its
    deal's distribution (``spreads``: ``deal_distributions``), the field's figures as
    there."""
    t = tournament
    module = module_of(t.game)
    visible = min(t.rounds, visibility.rounds)
    fields, counts = _deal_fields(t, module, visible)
    rows: dict[int, list[DealResult]] = {}
    for row in DealResult.objects.filter(
        tournament=t, round_index__lt=visible, game_id__in=list(game_ids)
    ).order_by("round_index", *_DEAL_ORDER):
        rows.setdefault(row.round_index, []).append(row)
    out = []
    for r in range(visible):
        spread = spreads.get(r, Distribution(()))
        ranked = [
            DealRow(
                row.name,
                row.game_id,
                row.score,
                row.opponents_average,
                row.result,
                None if row.by_bot else 1 + sum(n for k, n in spread.counts if k < row.sort_result),
                row.by_bot,
            )
            for row in rows.get(r, [])
        ]
        size, average, best = fields.get(r, (0, None, None))
        out.append(Deal(r, ranked, size, average, best, count=counts.get(r, 0)))
    return out


def _deal_fields(
    t: Tournament, module: GameModule, rounds: int
) -> tuple[dict[int, tuple[int, float, float]], dict[int, int]]:
    """Per round below ``rounds``: the field's size, average result and best result over
    the rows the entrants played themselves, and the rows in all (one grouped query;
    kept in the cache once the tournament has closed and they no longer change)."""
    key = deal_fields_key(t, rounds)
    if key is not None:
        cached = cache.get(key)
        if cached is not None:
            fields_json, counts_json = cached
            return (
                {int(r): (n, a, b) for r, (n, a, b) in fields_json.items()},
                {int(r): n for r, n in counts_json.items()},
            )
    figures = (
        DealResult.objects.filter(tournament=t, round_index__lt=rounds)
        .order_by()
        .values("round_index", "by_bot")
        .annotate(n=Count("id"), average=Avg("result"), best=Min("sort_result"))
        .values_list("round_index", "by_bot", "n", "average", "best")
    )
    sign = result_sign(module)
    fields: dict[int, tuple[int, float, float]] = {}
    counts: dict[int, int] = {}
    for r, by_bot, n, average, best in figures:
        counts[r] = counts.get(r, 0) + n
        if not by_bot:
            fields[r] = (n, round(average, 9), sign * best)
    if key is not None:
        cache.set(key, (fields, counts), 24 * 3600)
    return fields, counts


def deal_fields_key(t: Tournament, rounds: int) -> str | None:
    """The cache key of a closed tournament's per-deal figures; ``None`` while it is open.
    It names the tournament's last change (``updated_at``, which ``standings_rebuild``
    moves on), so figures written again are read under a new key: no delete is needed,
    and none can be lost with the cache out of reach (jokeren/cache.py fails open)."""
    if t.closed_at is None:
        return None
    return f"deal-fields:{t.pk}:{t.commitment[:16]}:{t.updated_at.timestamp():.6f}:{rounds}"


def deal_results(
    *,
    tournament: Tournament,
    visibility: Visibility,
    page_size: int = 0,
    user: Any = None,
    pages: Mapping[int, int] | None = None,
) -> list[Deal]:
    """Per round that ``visibility`` shows, how the field did on that same deal: each
    entrant who finished the round, with their score, the opponents' average and the
    round's result, ranked; the rows the bot played in the entrant's seat are marked,
    unranked and left out of the field's figures. With ``page_size``, one page of each
    deal's rows (``pages[round]``, else the first: the best of the field), and ``user``'s
    own row beside it when it is not on that page."""
    t = tournament
    module = module_of(t.game)
    visible = min(t.rounds, visibility.rounds)
    fields, counts = _deal_fields(t, module, visible)
    own: dict[int, DealResult] = {}
    if page_size and user is not None and user.is_authenticated:
        own = {
            row.round_index: row
            for row in DealResult.objects.filter(
                entry__tournament=t, entry__user=user, round_index__lt=visible
            )
        }
    out: list[Deal] = []
    for r in range(visible):
        table = DealResult.objects.filter(tournament=t, round_index=r).order_by(*_DEAL_ORDER)
        size, average, best = fields.get(r, (0, None, None))
        if page_size:
            count = counts.get(r, 0)
            page, offset = page_bounds((pages or {}).get(r), page_size, count)
            rows = list(table[offset : offset + page_size])
            ranked = _deal_ranked(t, rows, offset)
            n_pages = max(1, -(-count // page_size))
            mine = own.get(r)
            if mine is not None and all(row.pk != mine.pk for row in rows):
                me = _deal_ranked(t, [mine], None)[0]
            else:
                me = None
        else:
            rows = list(table)
            ranked = _deal_ranked(t, rows)
            count, page, n_pages, me = len(rows), 1, 1, None
        out.append(
            Deal(
                round_index=r,
                rows=ranked,
                field_size=size,
                field_average=average,
                field_best=best,
                count=count,
                page=page,
                pages=n_pages,
                me=me,
            )
        )
    return out
