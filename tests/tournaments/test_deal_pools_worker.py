"""A pooled tournament end to end in a REAL Celery worker over Redis (issue 36 item 1):
200 entrants over 8 rounds, each round dealt in 4 copies (by field size), par of every
copy computed by the worker, the entrants simulated through the services (some play,
most only join), the close (the bot's finish, the audit, the reveal) run by the worker,
then verified copy by copy. Needs REDIS_URL (and runs on PostgreSQL in CI)."""

from __future__ import annotations

import time
from collections import Counter
from collections.abc import Iterator
from datetime import timedelta
from typing import Any

import factories
import pytest
from celery.contrib.testing.worker import start_worker
from django.contrib.auth import get_user_model
from django.utils import timezone

from engine import dealing, record
from jokeren.celery import app
from tournaments import tasks
from tournaments.games import module_of
from tournaments.models import DealResult, Entry, EntryResult, Game, ParRound, Tournament
from tournaments.selectors import replay as replay_selectors
from tournaments.services import entries as entry_services
from tournaments.services import play as play_services
from tournaments.services import tournaments as tournament_services

ENTRANTS = 200
ROUNDS = 8


@pytest.fixture
def worker() -> Iterator[Any]:
    assert not app.conf.task_always_eager
    assert app.conf.broker_url.startswith("redis://")
    app.control.purge()
    with start_worker(app, perform_ping_check=False, shutdown_timeout=30) as w:
        yield w


def _wait(what: str, done: Any, timeout: float = 240) -> None:
    deadline = time.monotonic() + timeout
    while not done():
        assert time.monotonic() < deadline, f"the worker did not finish: {what}"
        time.sleep(0.2)


@pytest.mark.celery_worker
@pytest.mark.django_db(transaction=True)
def test_a_pooled_tournament_of_200_closes_and_verifies_copy_by_copy(worker: Any) -> None:
    now = timezone.now()
    t = tournament_services.tournament_create(
        created_by=factories.make_user(organizer=True),
        club=factories.default_club(),
        name="Grote pool",
        game="jokeren",
        preset="jokeren7",
        rounds=ROUNDS,
        max_entrants=ENTRANTS,
        bot_level="basic",
        opens_at=now - timedelta(minutes=1),
        closes_at=now + timedelta(days=1),
        pool_by_size=True,
    )
    assert t.pool_copies == 4
    copies = t.pool_copies
    _wait(
        "par of every copy",
        lambda: ParRound.objects.filter(tournament=t).count() == ROUNDS * copies,
    )
    users = get_user_model().objects.bulk_create(
        [get_user_model()(username=f"poolspeler{i:03d}") for i in range(ENTRANTS)]
    )
    games = [entry_services.entry_join(tournament_id=t.pk, user=u).game for u in users]
    # some entrants play: eight their whole game, twenty-four their first round
    for g in games[:8]:
        factories.play_to_end(g, g.user)
    for g in games[8:32]:
        g.refresh_from_db()
        while g.status == Game.Status.PLAYING and not g.round_scores:
            action = factories.south_action(g)
            g = play_services.game_play_move(
                game_id=g.pk, user=g.user, seq=g.seq, action=action
            ).game
    assert tasks.tournament_close.delay(t.pk).get(timeout=240) == t.pk
    _wait("the close", lambda: Tournament.objects.get(pk=t.pk).closed_at is not None)
    t.refresh_from_db()

    # every game finished and passed the audit (replayed from its copies)
    assert Game.objects.filter(entry__tournament=t, status=Game.Status.FINISHED).count() == (
        ENTRANTS
    )
    audits = Counter(Entry.objects.filter(tournament=t).values_list("audit_status", flat=True))
    assert audits == {Entry.AuditStatus.OK: ENTRANTS}

    # the copies: drawn from the secret and the entry, each used, about a quarter each
    copy_of = {
        (e, r): t.copy_of(entry_id=e, round_index=r)
        for e in Entry.objects.filter(tournament=t).values_list("pk", flat=True)
        for r in range(ROUNDS)
    }
    rows = DealResult.objects.filter(tournament=t)
    assert rows.count() == ENTRANTS * ROUNDS
    for entry_id, r, copy in rows.values_list("entry_id", "round_index", "copy"):
        assert copy == copy_of[(entry_id, r)]
    for r in range(ROUNDS):
        per_copy = Counter(copy_of[(e, rr)] for e, rr in copy_of if rr == r)
        assert set(per_copy) == set(range(copies))
        assert min(per_copy.values()) >= ENTRANTS // copies // 2

    # the verification: the commitment and every copy of every round from the secret
    verification = replay_selectors.tournament_verify(tournament=t)
    assert verification.matches and verification.copies == copies
    module = module_of(t.game)
    variant = module.variant_from_json(t.variant)
    assert len(verification.deals) == ROUNDS * copies
    for deal in verification.deals:
        secret = dealing.copy_secret(t.secret_bytes, deal["copy"])
        summary = module.deal_summary(variant, secret=secret, round_index=deal["round"])
        assert {k: v for k, v in deal.items() if k not in ("round", "copy")} == summary
    # a game record verifies offline, its copies from the revealed secret
    played = Game.objects.select_related("entry__tournament", "user").get(pk=games[0].pk)
    assert record.verify(record.read_record(replay_selectors.game_record(game=played).to_json())).ok

    # the results: each round against its copy's par, ranked on the rounds played
    par = {(p.round_index, p.copy): p.result for p in ParRound.objects.filter(tournament=t)}
    own = rows.filter(entry_id=played.entry_id).values_list("round_index", "result", "copy")
    for r, score_result, copy in own:
        raw = float(module.results(played.round_scores[r])[0])
        assert score_result == pytest.approx(raw - par[(r, copy)])
    final = EntryResult.objects.filter(tournament=t, upto=ROUNDS)
    assert final.filter(unranked=False).count() == 32
    assert final.filter(unranked=False, tier=0).count() == 8
