"""Every player's rating per game from the final standings of the closed tournaments
(docs/rules.md, "Ratings").

The model is Plackett–Luce (Weng and Lin's Bayesian approximation, our own update in
``tournaments/rating_model.py``: openskill's numbers where there is no tie, a tie rated as
a tie, in O(n log n)): a player's skill is a belief, a mean ``mu`` and an uncertainty
``sigma``; one tournament is one match whose outcome is the order of its final standings
(equal results share a place), and every rated entrant's belief moves once by how their
place compares with what the field's beliefs expected. It is made for many players in one
ranking with ties, and needs no split into duels: a field of 100,000 is one update of
under a second (benchmarks/README.md), not 5 billion duels of their own.

Which entries count (``_rated_field``): the entries the final leaderboard ranks (not
under review, with rounds of their own) that the entrant played to the end themselves: an
entry the bot finished at the close counts for nobody and its entrant's rating does not
change; a bot account is never rated. A tournament with fewer than two such entries
changes nothing.

The tournaments of a game count in the order they closed (``closed_at``, then id):
``ratings_apply_tournament`` applies one (once: its ``RatingChange`` rows say it was), and
when a tournament that closed later was applied already it replays the game's tournaments
from the start (``ratings_recompute_all`` does that for every game). Replaying gives
exactly the stored numbers: both go through ``_rate`` with the same inputs in the same
order. Each game's updates are serialized by a lock of their own (PostgreSQL: an advisory
lock; SQLite serializes every write transaction already).
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from datetime import datetime

from django.db import connection, transaction
from django.db.models import Q

from engine.registry import GAMES
from tournaments import rating_model
from tournaments.models import Rating, RatingChange, Tournament
from tournaments.selectors import ratings as rating_selectors
from tournaments.selectors.standings import rank_values

#: The advisory lock of a game's ratings (PostgreSQL): this base plus the game's index.
LOCK_BASE = 0x5241_5400

#: Rows written per ``bulk_create``.
CHUNK = 1000


@dataclass
class Belief:
    """A player's rating in one game as the update works on it."""

    mu: float
    sigma: float
    tournaments: int
    #: When the last tournament that changed it closed.
    updated_at: datetime


@dataclass(frozen=True)
class Placing:
    """A rated entrant of a tournament and their place among the rated entrants."""

    user_id: int
    rank: int


def _lock(game: str) -> None:
    """Serialize the updates of ``game``'s ratings until the transaction ends."""
    if connection.vendor == "postgresql":
        with connection.cursor() as cursor:
            cursor.execute("SELECT pg_advisory_xact_lock(%s)", [LOCK_BASE + GAMES.index(game)])


def _rated_field(t: Tournament) -> list[Placing]:
    """The entrants of closed tournament ``t`` whose rating it changes, with their places
    (competition ranks, "1, 2, 2, 4", over the final leaderboard's order among them)."""
    rows = list(
        rating_selectors.rated_field(t)
        .order_by("tier", "sort_result", "user_id")
        .values_list("user_id", "tier", "sort_result")
    )
    # Ranked rows (``unranked`` false) always have a sort result.
    ranks = rank_values(
        [float(r[2] or 0.0) for r in rows], lower_is_better=True, tiers=[(r[1],) for r in rows]
    )
    return [Placing(user_id=row[0], rank=rank or 0) for row, rank in zip(rows, ranks, strict=True)]


def _rate(
    t: Tournament, field: Sequence[Placing], beliefs: dict[int, Belief]
) -> list[RatingChange]:
    """One tournament as one Plackett–Luce match: update ``beliefs`` (by user id; a
    newcomer starts at the model's prior) and return the tournament's ``RatingChange``
    rows (not saved)."""
    closed_at = t.closed_at
    assert closed_at is not None
    prior = Belief(
        mu=rating_model.MU, sigma=rating_model.SIGMA, tournaments=0, updated_at=closed_at
    )
    before = [beliefs.get(p.user_id, prior) for p in field]
    rated = rating_model.rate(
        [rating_model.Prior(mu=b.mu, sigma=b.sigma) for b in before], [p.rank for p in field]
    )
    changes = []
    for p, b, after in zip(field, before, rated, strict=True):
        if not (math.isfinite(after.mu) and math.isfinite(after.sigma)):
            raise ArithmeticError(f"rating of user {p.user_id} not finite after {t.pk}")
        beliefs[p.user_id] = Belief(
            mu=after.mu,
            sigma=after.sigma,
            tournaments=b.tournaments + 1,
            updated_at=closed_at,
        )
        changes.append(
            RatingChange(
                tournament_id=t.pk,
                user_id=p.user_id,
                game=t.game,
                mu_before=b.mu,
                sigma_before=b.sigma,
                mu_after=after.mu,
                sigma_after=after.sigma,
                rank=p.rank,
            )
        )
    return changes


def _rating_rows(game: str, beliefs: dict[int, Belief]) -> list[Rating]:
    return [
        Rating(
            user_id=user_id,
            game=game,
            mu=b.mu,
            sigma=b.sigma,
            ordinal=b.mu - 3 * b.sigma,
            tournaments=b.tournaments,
            updated_at=b.updated_at,
        )
        for user_id, b in beliefs.items()
    ]


def _counted(game: str) -> Iterable[Tournament]:
    """The closed tournaments of ``game`` in the order they count."""
    return (
        Tournament.objects.filter(game=game, closed_at__isnull=False)
        .order_by("closed_at", "pk")
        .only("pk", "game", "rounds", "closed_at")
        .iterator(chunk_size=200)
    )


def _replay(game: str) -> int:
    """Delete ``game``'s ratings and apply every counted tournament again, in order (in
    the caller's transaction, under the game's lock). The number of tournaments that
    changed ratings."""
    RatingChange.objects.filter(game=game).delete()
    Rating.objects.filter(game=game).delete()
    beliefs: dict[int, Belief] = {}
    changes: list[RatingChange] = []
    applied = 0
    for t in _counted(game):
        field = _rated_field(t)
        if len(field) < 2:
            continue
        changes.extend(_rate(t, field, beliefs))
        applied += 1
        if len(changes) >= CHUNK:
            RatingChange.objects.bulk_create(changes, batch_size=CHUNK)
            changes = []
    RatingChange.objects.bulk_create(changes, batch_size=CHUNK)
    Rating.objects.bulk_create(_rating_rows(game, beliefs), batch_size=CHUNK)
    return applied


def _applied_after(t: Tournament) -> bool:
    """Whether a tournament of ``t``'s game that closed after it has been applied."""
    assert t.closed_at is not None
    # The tournaments that closed after it: few, for one that has just closed.
    later = Tournament.objects.filter(game=t.game).filter(
        Q(closed_at__gt=t.closed_at) | Q(closed_at=t.closed_at, pk__gt=t.pk)
    )
    return RatingChange.objects.filter(tournament__in=later.values("pk")).exists()


def ratings_apply_tournament(*, tournament_id: int) -> int:
    """Apply a closed tournament's final standings to its rated entrants' ratings, once
    (a tournament applied already, or not closed, changes nothing). When a tournament of
    the same game that closed later has been applied already (out of order), every
    tournament of the game is applied again in order. The number of ratings this
    tournament changed."""
    with transaction.atomic():
        t = Tournament.objects.only("pk", "game", "rounds", "closed_at").get(pk=tournament_id)
        if t.closed_at is None:
            return 0
        _lock(t.game)
        if RatingChange.objects.filter(tournament=t).exists():
            return 0
        field = _rated_field(t)
        if len(field) < 2:
            return 0
        if _applied_after(t):
            _replay(t.game)
            return RatingChange.objects.filter(tournament=t).count()
        users = [p.user_id for p in field]
        beliefs = {
            r.user_id: Belief(
                mu=r.mu, sigma=r.sigma, tournaments=r.tournaments, updated_at=r.updated_at
            )
            for r in Rating.objects.filter(game=t.game, user_id__in=users)
        }
        changes = _rate(t, field, beliefs)
        RatingChange.objects.bulk_create(changes, batch_size=CHUNK)
        changed = {u: beliefs[u] for u in users}
        Rating.objects.bulk_create(
            _rating_rows(t.game, changed),
            batch_size=CHUNK,
            update_conflicts=True,
            unique_fields=["user", "game"],
            update_fields=["mu", "sigma", "ordinal", "tournaments", "updated_at"],
        )
        return len(changes)


def ratings_recompute_game(*, game: str) -> int:
    """Delete ``game``'s ratings and apply its closed tournaments again, in the order they
    closed: the same numbers as applying them one by one. The number of tournaments that
    changed ratings."""
    if game not in GAMES:
        raise KeyError(f"unknown game: {game!r}")
    with transaction.atomic():
        _lock(game)
        return _replay(game)


def ratings_recompute_all() -> dict[str, int]:
    """``ratings_recompute_game`` for every game; per game the tournaments that counted."""
    return {game: ratings_recompute_game(game=game) for game in GAMES}
