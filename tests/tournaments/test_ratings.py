"""Ratings (docs/rules.md, "Ratings"): every closed tournament's final standings as one
Plackett–Luce match per game, applied once, in the order the tournaments closed, and
recomputable from scratch to exactly the stored numbers."""

from __future__ import annotations

from collections.abc import Collection, Mapping, Sequence
from datetime import datetime, timedelta
from io import StringIO
from typing import Any

import factories
import pytest
from django.contrib.auth import get_user_model
from django.core.management import call_command
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.utils import timezone

from tournaments.models import (
    Account,
    Entry,
    EntryResult,
    Game,
    GameRound,
    Rating,
    RatingChange,
    Tournament,
    shown_rating,
)
from tournaments.services import audit as audit_services
from tournaments.services import closing as closing_services
from tournaments.services import entries as entry_services
from tournaments.services import ratings as rating_services
from tournaments.services import results as result_services

pytestmark = pytest.mark.django_db

#: When the first field of a test closed; each next one an hour later.
START = datetime(2026, 3, 1, 20, 0, tzinfo=timezone.get_current_timezone())


def _user(name: str) -> Any:
    found = get_user_model().objects.filter(username=name).first()
    return found or factories.make_user(name)


def closed_field(
    scores: Mapping[str, Sequence[int]],
    *,
    closed_at: datetime,
    bot_finished: Collection[str] = (),
    game: str = "jokeren",
    preset: str = "jokeren7",
) -> Tournament:
    """A closed tournament of these entrants, each with their own score in every round
    (South's; the bots score 10 a round), its final standings written. The entrants in
    ``bot_finished`` had their last round played by the bot at the close."""
    rounds = len(next(iter(scores.values())))
    t = factories.make_tournament(game=game, preset=preset, rounds=rounds, south_plays=())
    seats = int(t.variant.get("num_players", 4))
    for name, own in scores.items():
        user = _user(name)
        entry = Entry.objects.create(tournament=t, user=user)
        round_scores = [[s, *([10] * (seats - 1))] for s in own]
        g = Game.objects.create(
            user=user,
            entry=entry,
            game=t.game,
            preset=t.preset,
            variant=t.variant,
            rounds=rounds,
            bot_level=t.bot_level,
            bot_version=t.bot_version,
            round_index=rounds - 1,
            round_scores=round_scores,
            totals=[sum(r[s] for r in round_scores) for s in range(seats)],
            round_results=[{} for _ in round_scores],
            status=Game.Status.FINISHED,
            bot_finished=name in bot_finished,
        )
        if name in bot_finished:
            GameRound.objects.create(
                game=g, round_index=rounds - 1, moves=1, bot_from=0, actions="[]"
            )
    Tournament.objects.filter(pk=t.pk).update(closed_at=closed_at)
    t.refresh_from_db()
    result_services.standings_rebuild(tournament=t)
    return t


def ratings_now() -> dict[tuple[str, str], tuple[float, float, float, int, datetime]]:
    return {
        (r.user.username, r.game): (r.mu, r.sigma, r.ordinal, r.tournaments, r.updated_at)
        for r in Rating.objects.select_related("user")
    }


def changes_now() -> list[tuple[int, str, str, float, float, float, float, int]]:
    return sorted(
        (
            c.tournament_id,
            c.user.username,
            c.game,
            c.mu_before,
            c.sigma_before,
            c.mu_after,
            c.sigma_after,
            c.rank,
        )
        for c in RatingChange.objects.select_related("user")
    )


def apply(*tournaments: Tournament) -> None:
    for t in tournaments:
        rating_services.ratings_apply_tournament(tournament_id=t.pk)


def test_a_field_makes_ratings_by_place_with_shared_places() -> None:
    # Jokeren: lower is better; anna 10, bert and cor 20 (a shared place), dirk 40.
    t = closed_field(
        {"anna": [5, 5], "bert": [10, 10], "cor": [15, 5], "dirk": [20, 20]}, closed_at=START
    )
    assert rating_services.ratings_apply_tournament(tournament_id=t.pk) == 4
    ranks = {c.user.username: c.rank for c in RatingChange.objects.select_related("user")}
    assert ranks == {"anna": 1, "bert": 2, "cor": 2, "dirk": 4}
    rating = {r.user.username: r for r in Rating.objects.select_related("user")}
    assert rating["anna"].ordinal > rating["bert"].ordinal > rating["dirk"].ordinal
    assert rating["bert"].mu == pytest.approx(rating["cor"].mu)
    assert all(r.tournaments == 1 and r.game == "jokeren" for r in rating.values())
    assert all(r.updated_at == t.closed_at for r in rating.values())
    for r in rating.values():
        assert r.ordinal == r.mu - 3 * r.sigma
        assert r.shown == shown_rating(r.ordinal)
    # A newcomer starts at the prior: mu 25, sigma 25/3, shown 1000.
    assert {(c.mu_before, c.sigma_before) for c in RatingChange.objects.all()} == {(25.0, 25 / 3)}
    assert shown_rating(25.0 - 3 * (25 / 3)) == 1000


def test_recompute_from_scratch_gives_the_stored_numbers() -> None:
    jokeren = [
        {"anna": [5, 5], "bert": [10, 10], "cor": [15, 5], "dirk": [20, 20]},
        {"anna": [30, 30], "bert": [0, 5], "eva": [10, 10]},
        {"cor": [0, 0], "dirk": [0, 0], "eva": [40, 0], "anna": [5, 5], "bert": [50, 50]},
        {"bert": [5, 5], "dirk": [5, 6]},
    ]
    fields = [
        closed_field(scores, closed_at=START + timedelta(hours=i))
        for i, scores in enumerate(jokeren)
    ]
    # Klaverjassen: higher is better; its ratings are apart from Jokeren's.
    klaverjas = closed_field(
        {"anna": [100, 80], "bert": [50, 10], "eva": [200, 0]},
        closed_at=START + timedelta(minutes=30),
        game="klaverjas",
        preset="rotterdams",
    )
    # A field of one rated entrant counts for nobody.
    alone = closed_field({"frank": [1, 1]}, closed_at=START + timedelta(hours=5))
    apply(*fields, klaverjas, alone)
    stored, stored_changes = ratings_now(), changes_now()
    assert stored[("anna", "jokeren")][3] == 3 and stored[("anna", "klaverjas")][3] == 1
    assert stored[("bert", "jokeren")][:2] != stored[("bert", "klaverjas")][:2]
    assert not Rating.objects.filter(user__username="frank").exists()
    assert len(stored_changes) == 4 + 3 + 5 + 2 + 3

    assert rating_services.ratings_recompute_all() == {"jokeren": 4, "klaverjas": 1}
    assert ratings_now() == stored  # exactly: the same floats
    assert changes_now() == stored_changes

    out = StringIO()
    call_command("recompute_ratings", stdout=out)
    assert "jokeren: 4 tournament(s) counted" in out.getvalue()
    assert ratings_now() == stored
    call_command("recompute_ratings", "--game", "klaverjas", stdout=StringIO())
    assert ratings_now() == stored and changes_now() == stored_changes


def test_the_order_of_the_close_counts_also_when_applied_out_of_order() -> None:
    first = closed_field({"anna": [0], "bert": [10]}, closed_at=START)
    second = closed_field({"anna": [10], "bert": [0], "cor": [5]}, closed_at=START)
    third = closed_field({"bert": [0], "cor": [10]}, closed_at=START + timedelta(hours=1))
    # The same closing time: the lower id counts first.
    assert first.pk < second.pk
    apply(third, second)
    apply(first)  # closed before the others: every tournament is applied again, in order
    out_of_order = ratings_now(), changes_now()
    rating_services.ratings_recompute_all()
    assert (ratings_now(), changes_now()) == out_of_order
    # The second one started from what the first one made of anna.
    anna_first = RatingChange.objects.get(tournament=first, user__username="anna")
    anna_second = RatingChange.objects.get(tournament=second, user__username="anna")
    assert (anna_second.mu_before, anna_second.sigma_before) == (
        anna_first.mu_after,
        anna_first.sigma_after,
    )
    assert Rating.objects.get(user__username="bert").tournaments == 3


def test_applying_a_tournament_twice_is_applying_it_once() -> None:
    t = closed_field({"anna": [0, 5], "bert": [10, 10], "cor": [3, 3]}, closed_at=START)
    assert rating_services.ratings_apply_tournament(tournament_id=t.pk) == 3
    once = ratings_now(), changes_now()
    assert rating_services.ratings_apply_tournament(tournament_id=t.pk) == 0
    assert (ratings_now(), changes_now()) == once
    assert {r.tournaments for r in Rating.objects.all()} == {1}


def test_an_open_tournament_changes_no_rating(tournament: Tournament, user: Any) -> None:
    entry_services.entry_join(tournament_id=tournament.pk, user=user)
    assert rating_services.ratings_apply_tournament(tournament_id=tournament.pk) == 0
    assert not Rating.objects.exists()


def test_a_bot_finished_entry_changes_no_rating() -> None:
    # cor has a rating from before; in the second tournament the bot finished cor's game.
    before = closed_field({"cor": [0], "dirk": [10]}, closed_at=START)
    field = {"anna": [5, 5], "bert": [10, 10], "cor": [0, 0], "dirk": [20, 20]}
    t = closed_field(field, closed_at=START + timedelta(hours=1), bot_finished={"cor"})
    apply(before)
    cor_before = Rating.objects.get(user__username="cor")
    apply(t)
    with_the_entry = ratings_now()
    assert not RatingChange.objects.filter(tournament=t, user__username="cor").exists()
    cor_after = Rating.objects.get(user__username="cor")
    assert (cor_after.mu, cor_after.sigma, cor_after.tournaments) == (
        cor_before.mu,
        cor_before.sigma,
        1,
    )
    # The others' ratings are those of the same tournament without cor's entry at all.
    Entry.objects.filter(tournament=t, user__username="cor").delete()
    result_services.standings_rebuild(tournament=t)
    assert EntryResult.objects.filter(tournament=t, upto=t.rounds).count() == 3
    rating_services.ratings_recompute_all()
    assert ratings_now() == with_the_entry
    # dirk played: the place counts among the rated entrants only (3rd, not 4th).
    assert RatingChange.objects.get(tournament=t, user__username="dirk").rank == 3


def test_bot_accounts_and_entries_under_review_are_not_rated() -> None:
    t = closed_field({"anna": [5], "robot": [0], "bert": [10], "cor": [1]}, closed_at=START)
    Account.objects.create(user=_user("robot"), is_bot=True)
    Entry.objects.filter(tournament=t, user__username="cor").update(
        audit_status=Entry.AuditStatus.MISMATCH
    )
    result_services.standings_rebuild(tournament=t)
    apply(t)
    assert set(Rating.objects.values_list("user__username", flat=True)) == {"anna", "bert"}
    assert RatingChange.objects.get(tournament=t, user__username="anna").rank == 1


def test_a_field_with_one_rated_entrant_changes_nothing() -> None:
    t = closed_field({"anna": [5], "bert": [0]}, closed_at=START, bot_finished={"bert"})
    assert rating_services.ratings_apply_tournament(tournament_id=t.pk) == 0
    assert not Rating.objects.exists() and not RatingChange.objects.exists()


def test_a_player_who_wins_every_deal_goes_up() -> None:
    # anna first lost a tournament, so she has a rating of her own; then she wins every
    # deal of the next one (the lowest score of the field in each round).
    lost = closed_field({"anna": [30, 30], "bert": [0, 0], "cor": [5, 5]}, closed_at=START)
    won = closed_field(
        {"anna": [0, 0, 0], "bert": [5, 10, 3], "cor": [20, 1, 2], "dirk": [7, 7, 7]},
        closed_at=START + timedelta(hours=1),
    )
    apply(lost)
    anna = Rating.objects.get(user__username="anna")
    assert anna.shown < 1000  # last place: below a newcomer
    apply(won)
    after = Rating.objects.get(user__username="anna")
    assert after.mu > anna.mu and after.sigma < anna.sigma
    assert after.shown > anna.shown
    change = RatingChange.objects.get(tournament=won, user__username="anna")
    assert change.rank == 1 and change.shown_after > change.shown_before
    # A newcomer who wins every deal goes up from 1000 too.
    fresh = closed_field({"eva": [0], "bert": [5]}, closed_at=START + timedelta(hours=2))
    apply(fresh)
    assert Rating.objects.get(user__username="eva").shown > 1000


def test_the_close_updates_the_ratings(
    organizer: Any, django_capture_on_commit_callbacks: Any
) -> None:
    t = factories.make_tournament(created_by=organizer, rounds=1)
    players = [factories.make_user(f"speler{i}") for i in range(2)]
    for player in players:
        game = entry_services.entry_join(tournament_id=t.pk, user=player).game
        factories.play_to_end(game, player)
    # A third entrant never plays: the bot finishes the game at the close.
    idle = factories.make_user("afwezig")
    entry_services.entry_join(tournament_id=t.pk, user=idle)
    with django_capture_on_commit_callbacks(execute=True) as callbacks:
        closing_services.tournament_close(tournament_id=t.pk)
    assert len(callbacks) >= 1
    t.refresh_from_db()
    assert t.closed_at is not None
    changed = set(RatingChange.objects.filter(tournament=t).values_list("user_id", flat=True))
    assert changed == {p.pk for p in players}
    assert not Rating.objects.filter(user=idle).exists()
    assert all(r.tournaments == 1 for r in Rating.objects.all())
    # The close's task applied it: applying it again changes nothing.
    assert rating_services.ratings_apply_tournament(tournament_id=t.pk) == 0


def test_a_review_resolved_after_the_close_applies_the_game_again(
    django_capture_on_commit_callbacks: Any,
) -> None:
    t = closed_field({"anna": [5], "bert": [10], "cor": [0]}, closed_at=START)
    Entry.objects.filter(tournament=t, user__username="cor").update(
        audit_status=Entry.AuditStatus.MISMATCH
    )
    result_services.standings_rebuild(tournament=t)
    apply(t)
    assert not Rating.objects.filter(user__username="cor").exists()
    entry = Entry.objects.get(tournament=t, user__username="cor")
    with django_capture_on_commit_callbacks(execute=True):
        audit_services.entry_audit_resolve(entry_id=entry.pk, user=_user("anna"))
    cor = RatingChange.objects.get(tournament=t, user__username="cor")
    assert cor.rank == 1
    assert RatingChange.objects.get(tournament=t, user__username="anna").rank == 2


def test_a_big_field_is_applied_in_a_few_queries(organizer: Any) -> None:
    t = factories.make_closed_field(organizer, 300)
    with CaptureQueriesContext(connection) as queries:
        changed = rating_services.ratings_apply_tournament(tournament_id=t.pk)
    assert changed == 299  # the last entrant's game was finished by the bot
    # a handful of reads and the writes in batches (SQLite: ~120 rows a statement), never
    # a query per entrant
    assert len(queries.captured_queries) <= 25
    assert Rating.objects.count() == 299
    ranks = sorted(RatingChange.objects.values_list("rank", flat=True))
    assert ranks[0] == 1 and len(set(ranks)) < len(ranks)  # shared places


def test_an_entry_of_an_account_without_a_verified_address_counts_for_no_rating() -> None:
    """docs/rules.md, "Accounts": rated play needs a verified mail address."""
    factories.make_user("cor", verified=False)
    t = closed_field({"anna": [5], "bert": [10], "cor": [0]}, closed_at=START)
    assert rating_services.ratings_apply_tournament(tournament_id=t.pk) == 2
    ranks = {c.user.username: c.rank for c in RatingChange.objects.select_related("user")}
    assert ranks == {"anna": 1, "bert": 2}
    assert not Rating.objects.filter(user__username="cor").exists()
