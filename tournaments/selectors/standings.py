"""The leaderboard as each viewer may see it (docs/rules.md §4: during the window an
entrant sees the results of the rounds they have finished, nobody else any score).
"""

from __future__ import annotations

import bisect
import secrets
import threading
from collections import OrderedDict
from collections.abc import Callable, Collection, Iterable, Iterator, Sequence
from dataclasses import dataclass
from typing import Any, TypeVar

from django.core.cache import cache
from django.db.models import (
    BooleanField,
    Count,
    Exists,
    OuterRef,
    Q,
    QuerySet,
    Subquery,
    Value,
)

from engine.protocol import GameModule
from tournaments.games import module_of
from tournaments.models import (
    Account,
    Entry,
    EntryResult,
    Game,
    PlayCheck,
    Tournament,
)


@dataclass(frozen=True)
class Visibility:
    """What one viewer may see of a tournament's results (docs/rules.md §4, duplicate
    play): the results of rounds ``0 .. rounds - 1`` only; with ``rounds == 0`` who entered
    and how far they are, no scores. ``final``: the tournament has closed, all is public."""

    rounds: int
    final: bool = False

    @property
    def scores(self) -> bool:
        return self.rounds > 0


@dataclass(frozen=True)
class Standing:
    """One row of a leaderboard as one viewer may see it. ``total``,
    ``opponents_average`` and ``result`` are over the ``rounds_counted`` rounds the
    viewer may see that the entrant played themselves (``None`` when there are none);
    ``rounds_played`` is the entrant's progress; ``bot_rounds`` the rounds the bot
    played in the entrant's seat (they never count)."""

    rank: int | None
    entry_id: int
    user_id: int
    username: str
    game_id: int
    total: int | None
    opponents_average: float | None
    result: float | None
    rounds_played: int
    rounds_counted: int
    bot_rounds: tuple[int, ...]
    finished: bool
    bot_finished: bool
    #: The replay audit contradicts the stored scores: listed apart, not ranked.
    under_review: bool = False
    #: With a game in parts (seed 001's match, "2 ronden van 10"): the result over each
    #: part's rounds counted as above (``None`` where there are none); else empty.
    parts: tuple[float | None, ...] = ()
    #: The deeper check of the entry's play after the close is still pending
    #: (``PlayCheck``, docs/rules.md "Fair play"): its place may change.
    provisional: bool = False


def result_key(value: float) -> float:
    # Results are averages of integers: equal results may differ in the last float bit.
    return round(value, 9)


def opponents_of(total: int, result: float) -> float:
    """What the player's total is measured against: ``total - result``. With the game
    module's ``results`` that is the opponents' average (Jokeren) or the other team's
    points (Klaverjassen), without knowing which game it is."""
    return round(total - result, 9)


def figures_of(module: GameModule, totals: Sequence[int]) -> tuple[int, float, float]:
    """(own total, what it is measured against, duplicate result) of seat 0."""
    result = float(module.results([int(t) for t in totals])[0])
    return int(totals[0]), opponents_of(int(totals[0]), result), result


def game_result(game: Game) -> tuple[int, float, float]:
    """(own total, opponents' average, duplicate result) of seat 0, from the game module's
    ``results(totals)``; in a deal pool the result is the one against the copies' par, as
    the entry's final board row holds it (docs/rules.md §5, "Deal pools")."""
    total, against, result = figures_of(module_of(game.game), game.totals)
    t = game.tournament
    if t is not None and t.pooled and game.entry_id is not None:
        kept = (
            EntryResult.objects.filter(entry_id=game.entry_id, upto=t.rounds)
            .values_list("result", flat=True)
            .first()
        )
        if kept is not None:
            result = kept
    return total, against, result


def rank_values(
    values: Sequence[float | None],
    *,
    lower_is_better: bool,
    tiers: Sequence[tuple[int, ...]] | None = None,
) -> list[int | None]:
    """Competition ranking ("1, 2, 2, 4"): equal values share a rank; ``None`` is unranked.
    With ``tiers`` (a sortable key per value), every value of a lower tier ranks before
    every value of a higher tier, and only equal values of the same tier share a rank."""
    sign = 1 if lower_is_better else -1
    tier_of: Sequence[tuple[int, ...]] = tiers if tiers is not None else [()] * len(values)
    ranked = sorted(
        ((tier_of[i], sign * result_key(v)), i) for i, v in enumerate(values) if v is not None
    )
    out: list[int | None] = [None] * len(values)
    previous: tuple[tuple[int, ...], float] | None = None
    rank = 0
    for position, (key, index) in enumerate(ranked, start=1):
        if key != previous:
            rank = position
            previous = key
        out[index] = rank
    return out


#: Rows of a page of the leaderboard and of a per-deal table.
PAGE_SIZE = 50


# --- What the boards read of the whole field, cached under the results' stamp ----------

T = TypeVar("T")


def results_stamp_key(t: Tournament) -> str:
    """The cache key of a tournament's results stamp: a random token that
    ``services.results`` replaces whenever it writes a result row of the tournament (a
    join, a round's end, the audit, the rebuild) and an entry's delete. What is cached of
    the whole field (``stamped``) is kept under the stamp it was read with: after a write
    it is read under a new one, so no delete is needed."""
    return f"results-stamp:{t.pk}:{t.commitment[:16]}"


def new_results_stamp() -> str:
    return secrets.token_hex(8)


#: How long a figure of an open tournament is kept. A write replaces the stamp at once,
#: so this only bounds how long a figure could outlive a write whose new stamp a cache
#: out of reach at that moment missed (jokeren/cache.py fails open).
OPEN_SECONDS = 60

#: Figures of a closed tournament: they change only with a rebuild (a new ``updated_at``).
CLOSED_SECONDS = 24 * 3600

#: What this process keeps of the cached figures, already unpacked (the most recent used).
_MEMO: OrderedDict[str, Any] = OrderedDict()
_MEMO_LOCK = threading.Lock()
MEMO_SIZE = 64


def stamped_key(t: Tournament, name: str) -> str | None:
    """The cache key of ``name``'s figure of ``t`` as it is now (``stamped``); ``None``
    with the cache out of reach."""
    return _stamped_key(t, name)


def _stamped_key(t: Tournament, name: str) -> str | None:
    if t.closed_at is not None:
        return f"{name}:{t.pk}:{t.commitment[:16]}:{t.updated_at.timestamp():.6f}"
    stamp_key = results_stamp_key(t)
    stamp = cache.get(stamp_key)
    if stamp is None:
        cache.add(stamp_key, new_results_stamp(), None)
        stamp = cache.get(stamp_key)
        if stamp is None:
            return None
    return f"{name}:{t.pk}:{t.commitment[:16]}:{stamp}"


def stamped(t: Tournament, name: str, compute: Callable[[], T]) -> T:
    """``compute()``, a figure of the whole field of ``t`` (a count, a distribution),
    kept in the cache and in this process until the tournament's results change: while
    it is open under the results stamp (``results_stamp_key``), after the close under its
    ``updated_at`` (which a rebuild moves on). With the cache out of reach it is computed
    each time."""
    key = _stamped_key(t, name)
    if key is None:
        return compute()
    with _MEMO_LOCK:
        if key in _MEMO:
            _MEMO.move_to_end(key)
            return _MEMO[key]  # type: ignore[no-any-return]
    value = cache.get(key)
    if value is None:
        value = compute()
        cache.set(key, value, OPEN_SECONDS if t.closed_at is None else CLOSED_SECONDS)
    with _MEMO_LOCK:
        _MEMO[key] = value
        while len(_MEMO) > MEMO_SIZE:
            _MEMO.popitem(last=False)
    return value  # type: ignore[no-any-return]


@dataclass(frozen=True)
class RankCounts:
    """The ranked rows of a board by key (``tier``, ``sort_result``), ascending (best
    first), with how many rows came before each: a row's competition rank is one more
    than the ranked rows with a smaller key, found by bisection."""

    keys: tuple[tuple[int, float], ...]
    before: tuple[int, ...]

    def better(self, tier: int, sort_result: float) -> int:
        return self.before[bisect.bisect_left(self.keys, (tier, sort_result))]


def _rank_counts(t: Tournament, upto: int) -> RankCounts:
    def compute() -> RankCounts:
        grouped = (
            EntryResult.objects.filter(tournament=t, upto=upto, unranked=False)
            .order_by("tier", "sort_result")
            .values("tier", "sort_result")
            .annotate(n=Count("id"))
            .values_list("tier", "sort_result", "n")
        )
        keys: list[tuple[int, float]] = []
        before = [0]
        for tier, sort_result, n in grouped:
            assert sort_result is not None  # a ranked row has its result
            keys.append((int(tier), float(sort_result)))
            before.append(before[-1] + int(n))
        return RankCounts(tuple(keys), tuple(before))

    return stamped(t, f"board-ranks-{upto}", compute)


def ranked_entries(*, tournament: Tournament) -> int:
    """How many entries the final leaderboard of ``tournament`` ranks (the "of n" of a
    place: docs/rules.md, "Mail", the results mail)."""
    return _rank_counts(tournament, tournament.rounds).before[-1]


MAX_PAGE_SIZE = 200


def _own_row(t: Tournament, user: Any, upto: int | None = None) -> EntryResult | None:
    if user is None or not user.is_authenticated:
        return None
    return EntryResult.objects.filter(
        entry__tournament=t, entry__user=user, upto=t.rounds if upto is None else upto
    ).first()


def _visibility_of(t: Tournament, own: EntryResult | None) -> Visibility:
    if t.closed_at is not None:
        return Visibility(rounds=t.rounds, final=True)
    if t.hide_results:
        return Visibility(rounds=0)
    if t.live:
        # A live evening: a round's board, field and par for everyone once its slot has
        # closed for all (docs/rules.md §7, "Live club evening (clubavond)").
        return Visibility(rounds=t.live_slots_closed)
    if own is None:
        return Visibility(rounds=0)
    # A finished game can gain nothing more: its player sees every round.
    return Visibility(rounds=t.rounds if own.finished else own.rounds_played)


def _own_view(t: Tournament, user: Any) -> tuple[Visibility, EntryResult | None]:
    """What ``user`` may see of ``t`` (``results_visibility``) and their own row at that
    view (``None``: no entry)."""
    own_final = _own_row(t, user)
    visibility = _visibility_of(t, own_final)
    if own_final is None:
        return visibility, None
    own = EntryResult.objects.filter(entry_id=own_final.entry_id, upto=visibility.rounds).first()
    return visibility, own


@dataclass(frozen=True)
class MyEntry:
    """One of a player's tournament entries as they may see it now: their progress, and
    their result and rank over the rounds ``results_visibility`` shows them (``standing``
    ``None``, or its ``result`` and ``rank`` ``None``, while none may be seen)."""

    tournament: Tournament
    game: Game
    visibility: Visibility
    standing: Standing | None


def my_entries(*, user: Any) -> list[MyEntry]:
    """The player's tournament entries, the latest first, each with its progress and the
    result and rank the player may see (``results_visibility``: never a score or rank of
    a round before it may be seen, nothing while the organizer hides the results)."""
    entries = (
        Entry.objects.filter(user=user).select_related("tournament", "game").order_by("-joined_at")
    )
    out: list[MyEntry] = []
    for entry in entries:
        t = entry.tournament
        visibility, own = _own_view(t, user)
        standing = _board_ranked(t, visibility.rounds, [own])[0] if own is not None else None
        out.append(MyEntry(t, entry.game, visibility, standing))
    return out


def entered_games(*, user: Any, tournament_ids: Iterable[int]) -> dict[int, Game]:
    """The games ``user`` plays in these tournaments, by tournament id (only those they
    entered; nobody's for a visitor)."""
    if user is None or not user.is_authenticated:
        return {}
    entries = Entry.objects.filter(user=user, tournament_id__in=list(tournament_ids))
    return {e.tournament_id: e.game for e in entries.select_related("game")}


def results_visibility(*, tournament: Tournament, user: Any) -> Visibility:
    """What ``user`` (``None`` or anonymous: a visitor) may see of ``tournament``'s
    results, the one rule every surface follows (docs/rules.md §4): after the close,
    everything; during the window, an entrant who has finished k rounds the results of
    rounds 0 .. k-1 only (every round once their game is over); anyone else who entered
    and how far they are, no scores. A live evening: everyone the rounds whose slot has
    closed."""
    return _visibility_of(tournament, _own_row(tournament, user))


def tournament_parts(*, tournament: Tournament) -> list[range]:
    """The rounds of each part of a tournament's game when it has more than one (seed
    001's match: "2 ronden van 10"), else ``[]``."""
    module = module_of(tournament.game)
    parts = module.game_parts(module.variant_from_json(tournament.variant))
    return list(parts) if len(parts) > 1 else []


def _pending_checks(t: Tournament, rows: Sequence[EntryResult]) -> set[int]:
    """The entries among ``rows`` whose deeper play check is pending (only after the
    close: one indexed query)."""
    if t.closed_at is None or not rows:
        return set()
    return set(
        PlayCheck.objects.filter(
            entry_id__in=[r.entry_id for r in rows], status=PlayCheck.Status.PENDING
        ).values_list("entry_id", flat=True)
    )


def _standing(row: EntryResult, rank: int | None, provisional: bool = False) -> Standing:
    return Standing(
        rank=rank,
        entry_id=row.entry_id,
        user_id=row.user_id,
        username=row.name,
        game_id=row.game_id,
        total=row.total,
        opponents_average=row.opponents_average,
        result=row.result,
        rounds_played=row.rounds_played,
        rounds_counted=row.rounds_counted,
        bot_rounds=tuple(row.bot_rounds),
        finished=row.finished,
        bot_finished=row.bot_finished,
        under_review=row.under_review,
        parts=tuple(row.parts),
        provisional=provisional,
    )


_BOARD_ORDER = ("unranked", "tier", "sort_result", "-rounds_played", "name_key", "entry_id")


def _board_ranked(
    t: Tournament, upto: int, rows: Sequence[EntryResult], offset: int | None = None
) -> list[Standing]:
    """Competition ranks ("1, 2, 2, 4") of consecutive rows of the board in its order from
    place ``offset``: the first ranked row's from a count of the better rows (an index
    range), each next one's from its place (the ranked rows come first). ``offset``
    ``None``: the rows' places are not known (one row picked out), each is counted. A row
    whose deeper play check is pending is marked provisional."""
    out: list[Standing] = []
    previous: tuple[int, float | None] | None = None
    rank = 0
    pending = _pending_checks(t, rows)
    for i, row in enumerate(rows):
        if row.unranked:
            out.append(_standing(row, None, row.entry_id in pending))
            continue
        key = (row.tier, row.sort_result)
        if previous is None:
            # The ranked rows come first: at place 0 nothing is better.
            rank = 1 if offset == 0 and i == 0 else 1 + _board_better(t, upto, row)
        elif offset is None:
            rank = 1 + _board_better(t, upto, row) if key != previous else rank
        elif key != previous:
            rank = offset + i + 1
        previous = key
        out.append(_standing(row, rank, row.entry_id in pending))
    return out


def _board_better(t: Tournament, upto: int, row: EntryResult) -> int:
    """The ranked rows of a board with a better key than ``row``'s (``RankCounts``: one
    grouped query over the board's index, cached until its results change)."""
    assert row.sort_result is not None
    return _rank_counts(t, upto).better(row.tier, row.sort_result)


def _board_position(t: Tournament, upto: int, row: EntryResult) -> int:
    """The 0-based place of a row on its board: the rows before it in the board's order
    (``_BOARD_ORDER``), counted over the board's index."""
    same_key = Q(tier=row.tier, sort_result=row.sort_result)
    if row.unranked:
        # Every unranked row has tier 0 and no sort result: after all the ranked ones.
        same_key = Q(unranked=True)
    else:
        same_key &= Q(unranked=False)
    ties = Q(rounds_played__gt=row.rounds_played) | Q(
        rounds_played=row.rounds_played, name_key__lt=row.name_key
    )
    ties |= Q(rounds_played=row.rounds_played, name_key=row.name_key, entry_id__lt=row.entry_id)
    before = same_key & ties
    if row.unranked:
        before |= Q(unranked=False)
    else:
        before |= Q(unranked=False, tier__lt=row.tier)
        before |= Q(unranked=False, tier=row.tier, sort_result__lt=row.sort_result)
    return EntryResult.objects.filter(tournament=t, upto=upto).filter(before).count()


@dataclass(frozen=True)
class Board:
    """A leaderboard cut for one viewer: what they may see, and the rows of one page
    (``page`` from 1; every row when ``page_size`` is 0). ``count``: the rows of the
    whole board (those matching ``q``); ``me``: the viewer's own row, wherever it is."""

    visibility: Visibility
    rows: list[Standing]
    count: int = 0
    page: int = 1
    page_size: int = 0
    q: str = ""
    me: Standing | None = None

    @property
    def pages(self) -> int:
        if not self.page_size:
            return 1
        return max(1, -(-self.count // self.page_size))


def page_rows(rows: QuerySet[Any], order: Sequence[str], offset: int, limit: int) -> list[Any]:
    """Rows ``offset .. offset + limit - 1`` of ``rows`` in ``order`` (an index's order,
    whose last column is ``entry``): the page's entries are found by a walk of the index
    alone (an index-only scan past ``offset`` entries, no table row read, nothing
    sorted), then only the page's rows are read, by the unique ``(entry, ...)`` index.
    What an ``OFFSET`` on the rows themselves cost grows with the page (every row before
    it read from the table); this stays a few milliseconds on page 200 of 10,000."""
    if offset == 0:
        return list(rows.order_by(*order)[:limit])
    page = rows.order_by(*order).values("entry_id")[offset : offset + limit]
    return list(rows.filter(entry_id__in=Subquery(page)).order_by(*order))


def page_bounds(page: int | None, page_size: int, count: int) -> tuple[int, int]:
    pages = max(1, -(-count // page_size))
    page = min(max(page or 1, 1), pages)
    return page, (page - 1) * page_size


def standings_page(
    *,
    tournament: Tournament,
    user: Any,
    page: int | None = None,
    page_size: int = PAGE_SIZE,
    q: str = "",
) -> Board:
    """One page of the leaderboard as ``user`` may see it (``results_visibility``): ranks
    and results over the rounds they may see; names and progress only when that is none.
    Without a ``page``, the page with the viewer's own row (else the first); ``q`` keeps
    the rows whose name contains it. A few indexed queries, whatever the field's size."""
    t = tournament
    page_size = min(max(page_size, 1), MAX_PAGE_SIZE)
    visibility, own = _own_view(t, user)
    upto = visibility.rounds
    board = EntryResult.objects.filter(tournament=t, upto=upto)
    q = q.strip()
    me = None
    if own is not None:
        me = _board_ranked(t, upto, [own])[0]
        if page is None and not q:
            page = _board_position(t, upto, own) // page_size + 1
    if q:
        count = board.filter(name_key__contains=q.lower()).count()
        page, offset = page_bounds(page, page_size, count)
        # Each found row's rank counted on the whole board (a few rows as a rule).
        found = board.filter(name_key__contains=q.lower()).order_by(*_BOARD_ORDER)
        rows = _board_ranked(t, upto, page_rows(found, _BOARD_ORDER, offset, page_size))
    else:
        count = stamped(t, f"board-count-{upto}", board.count)
        page, offset = page_bounds(page, page_size, count)
        rows = _board_ranked(t, upto, page_rows(board, _BOARD_ORDER, offset, page_size), offset)
    return Board(
        visibility=visibility, rows=rows, count=count, page=page, page_size=page_size, q=q, me=me
    )


def entry_standings(
    *, tournament: Tournament, visibility: Visibility, entry_ids: Collection[int]
) -> dict[int, Standing]:
    """The leaderboard rows of some entries (a page of the organizer's entries list, the
    results mail) at ``visibility`` (``permissions.entries_visibility``,
    ``results_visibility``), by game id: one query for the rows and one count per ranked
    row, whatever the field's size."""
    upto = visibility.rounds
    rows = EntryResult.objects.filter(
        tournament=tournament, upto=upto, entry_id__in=list(entry_ids)
    ).order_by(*_BOARD_ORDER)
    return {s.game_id: s for s in _board_ranked(tournament, upto, list(rows), None)}


def board_all(t: Tournament, visibility: Visibility) -> Board:
    rows = list(
        EntryResult.objects.filter(tournament=t, upto=visibility.rounds).order_by(*_BOARD_ORDER)
    )
    return Board(
        visibility=visibility, rows=_board_ranked(t, visibility.rounds, rows, 0), count=len(rows)
    )


@dataclass(frozen=True)
class ExportRow:
    """One row of the standings download: the rank (``None``: unranked), the name,
    whether the account is a bot's, and the figures as ``Standing`` has them."""

    rank: int | None
    username: str
    is_bot: bool
    result: float | None
    total: int | None
    opponents_average: float | None
    rounds_played: int
    rounds_counted: int
    bot_finished: bool
    under_review: bool
    #: The deeper play check is pending (``Standing.provisional``).
    provisional: bool


_EXPORT_FIELDS = (
    "unranked",
    "tier",
    "sort_result",
    "name",
    "is_bot",
    "result",
    "total",
    "opponents_average",
    "rounds_played",
    "rounds_counted",
    "bot_finished",
    "under_review",
    "provisional",
)


def standings_export(*, tournament: Tournament, user: Any) -> Iterator[ExportRow]:
    """The whole leaderboard as ``user`` may see it (``results_visibility``), row by row
    from one query in the board's order (its index), the bot accounts marked in the same
    query: for a download streamed as it is written, whatever the field's size (no model
    object made, no list of ids sent). Ranks as ``standings_for_viewer`` gives them."""
    upto = results_visibility(tournament=tournament, user=user).rounds
    bots = Account.objects.filter(user_id=OuterRef("user_id"), is_bot=True)
    # a play check is pending only after the close
    pending = (
        Exists(
            PlayCheck.objects.filter(entry_id=OuterRef("entry_id"), status=PlayCheck.Status.PENDING)
        )
        if tournament.closed_at is not None
        else Value(False, output_field=BooleanField())
    )
    rows = (
        EntryResult.objects.filter(tournament=tournament, upto=upto)
        .annotate(is_bot=Exists(bots), provisional=pending)
        .order_by(*_BOARD_ORDER)
        .values_list(*_EXPORT_FIELDS)
    )
    previous: tuple[int, float | None] | None = None
    rank = 0
    # One round trip: tuples, not model objects (a server-side cursor's fetches cost more
    # than the rows' few hundred kilobytes held for the length of the download).
    for place, values in enumerate(rows, start=1):
        unranked, tier, sort_result, *rest = values
        if unranked:
            row_rank = None
        else:
            # The ranked rows come first: a rank is the place of the first of its key.
            if (tier, sort_result) != previous:
                rank, previous = place, (tier, sort_result)
            row_rank = rank
        yield ExportRow(row_rank, *rest)


def standings_for_viewer(*, tournament: Tournament, user: Any) -> Board:
    """The whole leaderboard as ``user`` may see it (``results_visibility``); pages:
    ``standings_page``."""
    visibility = results_visibility(tournament=tournament, user=user)
    return board_all(tournament, visibility)


def standings_under_review(*, tournament: Tournament, limit: int = MAX_PAGE_SIZE) -> list[Standing]:
    """The entries the replay audit flagged (not ranked, listed apart), by name (cached
    until the results change: ``stamped``)."""

    def compute() -> list[Standing]:
        rows = EntryResult.objects.filter(
            tournament=tournament, upto=tournament.rounds, under_review=True
        ).order_by("name_key", "entry_id")[:limit]
        return [_standing(r, None) for r in rows]

    return stamped(tournament, f"under-review-{limit}", compute)


def standings(*, tournament: Tournament) -> list[Standing]:
    """The whole leaderboard, every round of everyone: what everyone sees once the
    tournament has closed. During the window no page shows it (``standings_for_viewer``).
    Equal results share a rank; rounds the bot played in an entrant's seat never count,
    and such an entry ranks after every entry that played all its rounds itself."""
    return board_all(tournament, Visibility(rounds=tournament.rounds)).rows


def player_rank(*, game: Game) -> int | None:
    """The rank so far of a tournament game's player, as that player may see it
    (``None`` for practice)."""
    t = game.tournament
    if t is None:
        return None
    visibility = _visibility_of(t, _own_row(t, game.user))
    own = EntryResult.objects.filter(entry__game=game, upto=visibility.rounds).first()
    if own is None or own.unranked:
        return None
    return _board_ranked(t, visibility.rounds, [own])[0].rank
