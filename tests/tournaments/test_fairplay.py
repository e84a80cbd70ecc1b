"""Fair play (docs/rules.md, "Fair play"): a flag puts an entry under review (provisional,
unranked, unrated); the organizer clears it (ranked again) or disqualifies it (out of the
standings and the ratings, the entrant told by mail, the decision kept); two
disqualifications bar the account from rated play until staff lift the bar."""

from __future__ import annotations

from datetime import timedelta
from typing import Any

import factories
import pytest
from django.core import mail
from django.utils import timezone

from tournaments.errors import AlreadyDecided, PlayBarred
from tournaments.models import (
    Entry,
    EntryFlag,
    EntryResult,
    PlayBar,
    Rating,
    RatingChange,
    Sighting,
)
from tournaments.selectors import standings as standing_selectors
from tournaments.services import entries as entry_services
from tournaments.services import fairplay as fairplay_services
from tournaments.services import ratings as rating_services
from tournaments.services import results as result_services

pytestmark = pytest.mark.django_db

REASON = ("verdacht spel", "suspicious play")


def _field(organizer: Any, names: list[str]) -> tuple[Any, dict[str, Entry]]:
    t = factories.make_tournament(created_by=organizer, rounds=1, south_plays=())
    entries = {}
    for name in names:
        user = factories.make_user(name, email=f"{name}@example.org")
        entries[name] = entry_services.entry_join(tournament_id=t.pk, user=user)
    return t, entries


def _final(t: Any) -> dict[str, EntryResult]:
    return {r.name: r for r in EntryResult.objects.filter(tournament=t, upto=t.rounds)}


def test_a_flag_puts_the_entry_under_review_once(organizer: Any) -> None:
    t, entries = _field(organizer, ["anna", "bert"])
    anna = entries["anna"]
    flag = fairplay_services.entry_flag(
        entry=anna, kind="play", reason=REASON, evidence={"telling": 7}, key="v1"
    )
    assert flag is not None and flag.reason_in("en") == "suspicious play"
    assert flag.reason_in("nl") == "verdacht spel" and flag.evidence == {"telling": 7}
    anna.refresh_from_db()
    assert anna.fair_play == Entry.FairPlay.UNDER_REVIEW and anna.under_review
    rows = _final(t)
    assert rows["anna"].under_review and rows["anna"].unranked
    assert not rows["bert"].under_review
    # The same flag again adds nothing.
    again = fairplay_services.entry_flag(entry=anna, kind="play", reason=REASON, key="v1")
    assert again is None and EntryFlag.objects.filter(entry=anna).count() == 1


def test_clearing_ranks_the_entry_again_and_keeps_who_decided(organizer: Any) -> None:
    t, entries = _field(organizer, ["anna", "bert"])
    anna = entries["anna"]
    with pytest.raises(AlreadyDecided):
        fairplay_services.entry_review_clear(entry=anna, by=organizer)
    fairplay_services.entry_flag(entry=anna, kind="linked", reason=REASON, key="entry:1")
    cleared = fairplay_services.entry_review_clear(entry=anna, by=organizer)
    assert cleared.fair_play == Entry.FairPlay.CLEARED and not cleared.under_review
    assert cleared.fair_play_decided_by == organizer
    assert cleared.fair_play_decided_at is not None
    assert not _final(t)["anna"].under_review
    # Cleared twice is a conflict; a new flag is new evidence: under review again.
    with pytest.raises(AlreadyDecided):
        fairplay_services.entry_review_clear(entry=anna, by=organizer)
    fairplay_services.entry_flag(entry=anna, kind="play", reason=REASON, key="v1")
    anna.refresh_from_db()
    assert anna.under_review


def test_disqualifying_takes_the_entry_out_and_mails_the_entrant(
    organizer: Any, django_capture_on_commit_callbacks: Any
) -> None:
    t, entries = _field(organizer, ["anna", "bert"])
    anna = entries["anna"]
    fairplay_services.entry_flag(entry=anna, kind="play", reason=REASON, key="v1")
    with django_capture_on_commit_callbacks(execute=True):
        decided = fairplay_services.entry_review_disqualify(entry=anna, by=organizer)
    assert decided.fair_play == Entry.FairPlay.DISQUALIFIED and decided.disqualified
    assert decided.fair_play_decided_by == organizer
    assert set(_final(t)) == {"bert"}
    assert not anna.deal_results.exists()
    board = standing_selectors.standings_under_review(tournament=t)
    assert [s.username for s in board] == []
    (message,) = mail.outbox
    assert message.to == ["anna@example.org"]
    assert "gediskwalificeerd" in message.subject.lower() or "disqualified" in message.subject
    assert "verdacht spel" in message.body
    # Decided already: a second decision is a conflict.
    with pytest.raises(AlreadyDecided):
        fairplay_services.entry_review_disqualify(entry=anna, by=organizer)
    # A later round's end keeps it out.
    result_services.entry_results_update(game=anna.game)
    assert set(_final(t)) == {"bert"}


def test_a_disqualified_entry_never_counts_for_a_rating(organizer: Any) -> None:
    t, entries = _field(organizer, ["anna", "bert", "cor"])
    for name, score in (("anna", 0), ("bert", 10), ("cor", 20)):
        game = entries[name].game
        factories.set_rounds(game, [[score] + [30] * (len(game.totals) - 1)])
        type(game).objects.filter(pk=game.pk).update(status="finished")
    fairplay_services.entry_flag(entry=entries["anna"], kind="play", reason=REASON)
    fairplay_services.entry_review_disqualify(entry=entries["anna"], by=organizer)
    t.closed_at = timezone.now()
    t.save(update_fields=["closed_at"])
    result_services.standings_rebuild(tournament=t)
    assert "anna" not in _final(t)
    rating_services.ratings_apply_tournament(tournament_id=t.pk)
    assert set(Rating.objects.values_list("user__username", flat=True)) == {"bert", "cor"}
    assert RatingChange.objects.get(tournament=t, user__username="bert").rank == 1


def test_two_disqualifications_bar_the_account_until_staff_lift_it(organizer: Any) -> None:
    staff = factories.make_user("staf", is_staff=True)
    cheat = factories.make_user("valsspeler")
    for _ in range(2):
        t = factories.make_tournament(created_by=organizer, rounds=1, south_plays=())
        entry = entry_services.entry_join(tournament_id=t.pk, user=cheat)
        assert not fairplay_services.play_barred(user=cheat)
        fairplay_services.entry_flag(entry=entry, kind="play", reason=REASON)
        fairplay_services.entry_review_disqualify(entry=entry, by=organizer)
    bar = PlayBar.objects.get(user=cheat)
    assert bar.lifted_at is None and len(bar.entries) == 2
    assert fairplay_services.play_barred(user=cheat)
    later = factories.make_tournament(created_by=organizer, rounds=1, south_plays=())
    with pytest.raises(PlayBarred) as refused:
        entry_services.entry_join(tournament_id=later.pk, user=cheat)
    assert refused.value.status == 403
    lifted = fairplay_services.play_bar_lift(account=cheat, by=staff)
    assert lifted.lifted_by == staff and lifted.lifted_at is not None
    with pytest.raises(AlreadyDecided):
        fairplay_services.play_bar_lift(account=cheat, by=staff)
    entry_services.entry_join(tournament_id=later.pk, user=cheat)
    # One more disqualification after the lift is not two: no new bar.
    entry = Entry.objects.get(tournament=later, user=cheat)
    fairplay_services.entry_flag(entry=entry, kind="play", reason=REASON)
    fairplay_services.entry_review_disqualify(entry=entry, by=organizer)
    assert not fairplay_services.play_barred(user=cheat)


def test_old_sightings_are_purged(user: Any) -> None:
    now = timezone.now()
    for days in (1, fairplay_services.SIGHTINGS_KEPT_DAYS + 1):
        Sighting.objects.create(
            user=user, kind="login", device="d" * 32, created_at=now - timedelta(days=days)
        )
    assert fairplay_services.sightings_purge() == 1
    (left,) = Sighting.objects.all()
    assert left.created_at > now - timedelta(days=2)


def test_a_disqualification_after_the_close_takes_the_rating_back(
    organizer: Any, django_capture_on_commit_callbacks: Any
) -> None:
    t, entries = _field(organizer, ["anna", "bert", "cor"])
    for name, score in (("anna", 0), ("bert", 10), ("cor", 20)):
        game = entries[name].game
        factories.set_rounds(game, [[score] + [30] * (len(game.totals) - 1)])
        type(game).objects.filter(pk=game.pk).update(status="finished")
    t.closed_at = timezone.now()
    t.save(update_fields=["closed_at"])
    result_services.standings_rebuild(tournament=t)
    rating_services.ratings_apply_tournament(tournament_id=t.pk)
    assert RatingChange.objects.get(tournament=t, user__username="anna").rank == 1
    with django_capture_on_commit_callbacks(execute=True):
        fairplay_services.entry_flag(entry=entries["anna"], kind="play", reason=REASON)
    # under review: the game's ratings computed again without it
    assert not RatingChange.objects.filter(user__username="anna").exists()
    with django_capture_on_commit_callbacks(execute=True):
        fairplay_services.entry_review_disqualify(entry=entries["anna"], by=organizer)
    assert set(Rating.objects.values_list("user__username", flat=True)) == {"bert", "cor"}
    assert RatingChange.objects.get(tournament=t, user__username="bert").rank == 1
    # cleared on objection: rated again
    with django_capture_on_commit_callbacks(execute=True):
        fairplay_services.entry_review_clear(entry=entries["anna"], by=organizer)
    assert RatingChange.objects.get(tournament=t, user__username="anna").rank == 1


def test_deleting_an_account_deletes_its_sightings(user: Any, other_user: Any) -> None:
    for who in (user, other_user):
        Sighting.objects.create(user=who, kind="login", device="d" * 32)
    user.delete()
    assert list(Sighting.objects.values_list("user_id", flat=True)) == [other_user.pk]
