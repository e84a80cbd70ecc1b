"""The ratings as the pages and the API show them (docs/rules.md, "Ratings"): the rating
list of a game, a player's ratings and what each tournament did to them, and the ratings
beside a leaderboard's rows. Reads only; ``services.ratings`` writes them.

The rating list takes the players it lists as an argument (``user_ids``: any iterable or
query of user ids, ``None`` for everyone), so a list of one group of players (a club's
members) is the same call with that group's ids.

What a viewer sees of where a rating came from (docs/rules.md, "Ratings", rule 7): the
callers pass ``tournaments``, the tournaments the viewer may see
(``permissions.rating_tournaments``). A rating's count of tournaments and the moment it
last moved then count only those; a player none of whose tournaments of a game the viewer
may see is not on that game's list for them, and not rated in it on their page.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from django.db.models import Count, Exists, F, Max, OuterRef, QuerySet

from engine.registry import GAMES
from tournaments.models import (
    Account,
    Entry,
    EntryResult,
    Rating,
    RatingChange,
    Tournament,
    shown_rating,
)
from tournaments.selectors.standings import page_bounds

#: Rows of a page of the rating list (the API's too).
PAGE_SIZE = 50
#: The latest rating changes a player's page lists.
RECENT_CHANGES = 20


@dataclass(frozen=True)
class RatingRow:
    """A player's rating in one game: ``rating`` is the shown number, ``mu`` and
    ``sigma`` the model's belief; ``rank`` the place on the rating list it was read from
    (equal shown-rating order shares a place; ``None`` outside a list)."""

    rank: int | None
    user_id: int
    username: str
    game: str
    rating: int
    mu: float
    sigma: float
    tournaments: int
    updated_at: datetime


def _row(r: Rating, rank: int | None = None, seen: tuple[int, datetime] | None = None) -> RatingRow:
    """``seen``: the count and the last close of the tournaments the viewer may see that
    made it (``None``: every one's)."""
    return RatingRow(
        rank=rank,
        user_id=r.user_id,
        username=r.user.get_username(),
        game=r.game,
        rating=r.shown,
        mu=r.mu,
        sigma=r.sigma,
        tournaments=r.tournaments if seen is None else seen[0],
        updated_at=r.updated_at if seen is None else seen[1],
    )


def _seen(
    *, game: str | None, user_ids: Iterable[int], tournaments: QuerySet[Tournament]
) -> dict[tuple[int, str], tuple[int, datetime]]:
    """By (user id, game): how many of ``tournaments`` changed the rating, and when the
    last of them closed. One query."""
    changes = RatingChange.objects.filter(
        user_id__in=list(user_ids), tournament__in=tournaments.values("pk")
    )
    if game is not None:
        changes = changes.filter(game=game)
    return {
        (row["user_id"], row["game"]): (row["n"], row["last"])
        for row in changes.values("user_id", "game").annotate(
            n=Count("pk"), last=Max("tournament__closed_at")
        )
    }


def _shown_players(
    ratings: QuerySet[Rating], tournaments: QuerySet[Tournament] | None
) -> QuerySet[Rating]:
    """``ratings`` of the players one of whose rated tournaments of the rating's game is in
    ``tournaments`` (``None``: every one)."""
    if tournaments is None:
        return ratings
    seen = RatingChange.objects.filter(
        user_id=OuterRef("user_id"),
        game=OuterRef("game"),
        tournament__in=tournaments.values("pk"),
    )
    return ratings.filter(Exists(seen))


@dataclass(frozen=True)
class RatingPage:
    """One page (from 1) of a game's rating list; ``count`` the players on the whole list."""

    game: str
    rows: list[RatingRow]
    count: int
    page: int
    page_size: int

    @property
    def pages(self) -> int:
        return max(1, -(-self.count // self.page_size))


def rating_list(
    *,
    game: str,
    page: int | None = None,
    page_size: int = PAGE_SIZE,
    user_ids: Iterable[int] | QuerySet[Any] | None = None,
    tournaments: QuerySet[Tournament] | None = None,
) -> RatingPage:
    """A page of the rating list of ``game``, best first (by ``mu - 3 sigma``, then by
    the oldest account): every rated player, or only those of ``user_ids``. Places are competition
    ranks over the shown order ("1, 2, 2, 4": equal ``mu - 3 sigma``). ``tournaments``:
    the ones the viewer may see (the module's text; ``None``: every one). Raises
    ``KeyError`` for an unknown game. One indexed query for the page and one count per
    page (and one for the counts the viewer may see)."""
    if game not in GAMES:
        raise KeyError(f"unknown game: {game!r}")
    ratings = Rating.objects.filter(game=game)
    if user_ids is not None:
        ratings = ratings.filter(
            user_id__in=user_ids if isinstance(user_ids, QuerySet) else list(user_ids)
        )
    ratings = _shown_players(ratings, tournaments)
    count = ratings.count()
    page, offset = page_bounds(page, page_size, count)
    found = list(
        ratings.select_related("user").order_by("-ordinal", "user_id")[offset : offset + page_size]
    )
    seen = (
        None
        if tournaments is None
        else _seen(game=game, user_ids=[r.user_id for r in found], tournaments=tournaments)
    )
    rows: list[RatingRow] = []
    previous: float | None = None
    rank = 0
    for i, r in enumerate(found):
        if previous is None or r.ordinal != previous:
            rank = (
                offset + i + 1
                if previous is not None or offset == 0
                else 1 + ratings.filter(ordinal__gt=r.ordinal).count()
            )
        previous = r.ordinal
        rows.append(_row(r, rank, None if seen is None else seen[(r.user_id, game)]))
    return RatingPage(game=game, rows=rows, count=count, page=page, page_size=page_size)


@dataclass(frozen=True)
class ChangeRow:
    """What one closed tournament did to a player's rating: the shown rating before and
    after, and the place among the rated entrants."""

    tournament_id: int
    tournament_name: str
    closed_at: datetime | None
    game: str
    rank: int
    before: int
    after: int

    @property
    def change(self) -> int:
        return self.after - self.before


def _change_row(c: RatingChange) -> ChangeRow:
    return ChangeRow(
        tournament_id=c.tournament_id,
        tournament_name=c.tournament.name,
        closed_at=c.tournament.closed_at,
        game=c.game,
        rank=c.rank,
        before=c.shown_before,
        after=c.shown_after,
    )


@dataclass(frozen=True)
class PlayerRatings:
    """A player's ratings: one per game (``None``: not rated in it yet), and the latest
    changes, newest first."""

    by_game: dict[str, RatingRow | None]
    changes: list[ChangeRow]


def player_ratings(
    *,
    user_id: int,
    recent: int = RECENT_CHANGES,
    tournaments: QuerySet[Tournament] | None = None,
) -> PlayerRatings:
    """A player's rating in every game (the place on the list the viewer sees included)
    and what the latest ``recent`` tournaments did to them; of those only the ones in
    ``tournaments`` (the ones the viewer may see: ``permissions.rating_tournaments``;
    ``None`` every one), which also make the counts and the moment of the last change
    (the module's text)."""
    ratings = {r.game: r for r in Rating.objects.filter(user_id=user_id).select_related("user")}
    seen = (
        None
        if tournaments is None
        else _seen(game=None, user_ids=[user_id], tournaments=tournaments)
    )
    by_game: dict[str, RatingRow | None] = {}
    for game in GAMES:
        r = ratings.get(game)
        if r is None or (seen is not None and (user_id, game) not in seen):
            by_game[game] = None
            continue
        better = _shown_players(
            Rating.objects.filter(game=game, ordinal__gt=r.ordinal), tournaments
        ).count()
        by_game[game] = _row(r, better + 1, None if seen is None else seen[(user_id, game)])
    changes = RatingChange.objects.filter(user_id=user_id)
    if tournaments is not None:
        changes = changes.filter(tournament__in=tournaments.values("pk"))
    changes = changes.select_related("tournament").order_by(
        "-tournament__closed_at", "-tournament_id"
    )[:recent]
    return PlayerRatings(by_game=by_game, changes=[_change_row(c) for c in changes])


@dataclass(frozen=True)
class BoardRating:
    """A leaderboard row's player's rating in the tournament's game now (``None``: not
    rated), and what this tournament changed of it (``None``: it did not count for them,
    or not yet)."""

    rating: int | None
    change: int | None


def board_ratings(*, tournament: Tournament, user_ids: Iterable[int]) -> dict[int, BoardRating]:
    """The ratings beside some leaderboard rows, by user id: two queries, whatever the
    rows."""
    ids = list(user_ids)
    now = {
        user_id: shown_rating(ordinal)
        for user_id, ordinal in Rating.objects.filter(
            game=tournament.game, user_id__in=ids
        ).values_list("user_id", "ordinal")
    }
    changes = {
        c.user_id: c.shown_after - c.shown_before
        for c in RatingChange.objects.filter(tournament=tournament, user_id__in=ids)
    }
    return {
        user_id: BoardRating(rating=now.get(user_id), change=changes.get(user_id))
        for user_id in ids
    }


def rated_field(tournament: Tournament) -> QuerySet[EntryResult]:
    """The final leaderboard rows of closed ``tournament`` whose entrants its standings
    rate (docs/rules.md, "Ratings", rule 3): ranked, not under review, not disqualified,
    every round played by the entrant (none finished by the bot), no bot account."""
    bots = Account.objects.filter(is_bot=True).values("user_id")
    return (
        EntryResult.objects.filter(
            tournament=tournament,
            upto=tournament.rounds,
            unranked=False,
            under_review=False,
            bot_finished=False,
            finished=True,
        )
        .exclude(user_id__in=bots)
        # a disqualified entry never counts (docs/rules.md, "Fair play"); it has no row
        # on the boards either
        .exclude(entry__fair_play=Entry.FairPlay.DISQUALIFIED)
    )


@dataclass(frozen=True)
class Uncounted:
    """A closed tournament whose every round the player played themselves but that did not
    change their rating, and why (``reason``): ``few`` (fewer than two rated entrants:
    ``rated`` of them), ``review`` (their entry was under review at the close),
    ``disqualified``, or ``pending`` (not applied yet: it is, right after the close)."""

    tournament_id: int
    tournament_name: str
    reason: str
    rated: int


def uncounted_tournaments(
    *, user_id: int, game: str, tournaments: QuerySet[Tournament] | None = None
) -> list[Uncounted]:
    """Why the closed tournaments of ``game`` that ``user_id`` played every round of
    themselves did not change their rating, newest first (of those in ``tournaments``,
    the ones the viewer may see; ``None``: every one). Tournaments that did are left out."""
    rows = EntryResult.objects.filter(
        user_id=user_id,
        tournament__game=game,
        tournament__closed_at__isnull=False,
        upto=F("tournament__rounds"),
        finished=True,
        bot_finished=False,
    ).exclude(tournament__rating_changes__user_id=user_id)
    if tournaments is not None:
        rows = rows.filter(tournament__in=tournaments.values("pk"))
    out = []
    for row in rows.select_related("tournament", "entry").order_by(
        "-tournament__closed_at", "-tournament_id"
    ):
        t = row.tournament
        rated = rated_field(t).count()
        if row.entry.fair_play == Entry.FairPlay.DISQUALIFIED:
            reason = "disqualified"
        elif row.under_review:
            reason = "review"
        elif rated < 2:
            reason = "few"
        else:
            reason = "pending"
        out.append(
            Uncounted(tournament_id=t.pk, tournament_name=t.name, reason=reason, rated=rated)
        )
    return out
