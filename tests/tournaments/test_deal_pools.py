"""Deal pools (docs/rules.md §5, "Deal pools"; issue 36 item 1): each round dealt in k
copies, an entry's copy drawn from the secret and the entry, entrants measured against
their copy's par, everything (results, per-deal rows, par, verification, the record and
the audit) following the copy."""

from __future__ import annotations

import hashlib
import itertools
from typing import Any

import factories
import pytest

from engine import dealing, record
from tournaments.errors import InvalidSettings, TournamentLocked
from tournaments.games import module_of
from tournaments.models import DealResult, Entry, EntryResult, Game, ParRound, pool_copies_for
from tournaments.selectors import replay as replay_selectors
from tournaments.services import closing as closing_services
from tournaments.services import entries as entry_services
from tournaments.services import par as par_services
from tournaments.services import tournaments as tournament_services

SECRET = hashlib.sha256(b"deal-pools").digest()


def test_copy_zero_is_the_tournament_deal_and_copies_differ() -> None:
    assert dealing.copy_secret(SECRET, 0) == SECRET
    secrets = {dealing.copy_secret(SECRET, c) for c in range(20)}
    assert len(secrets) == 20
    with pytest.raises(ValueError):
        dealing.copy_secret(SECRET, -1)
    # without a pool every entry plays copy 0
    assert {dealing.pool_copy(SECRET, entry=e, round_index=0, copies=1) for e in range(50)} == {0}


def test_the_copy_follows_from_the_secret_and_the_entry_only() -> None:
    first = [dealing.pool_copy(SECRET, entry=e, round_index=3, copies=7) for e in range(200)]
    again = [dealing.pool_copy(SECRET, entry=e, round_index=3, copies=7) for e in range(200)]
    other = hashlib.sha256(b"another secret").digest()
    elsewhere = [dealing.pool_copy(other, entry=e, round_index=3, copies=7) for e in range(200)]
    assert first == again
    assert set(first) == set(range(7))
    # another secret (unknown until the close) gives other copies to the same entries
    assert sum(a == b for a, b in zip(first, elsewhere, strict=True)) < 60


@pytest.mark.parametrize("copies", [2, 4, 20])
def test_a_harvester_with_two_accounts_shares_a_copy_in_one_case_in_k(copies: int) -> None:
    """Every pair of 60 entries over 8 rounds: the second account plays the copy the first
    saw in about 1/k of the cases (within five standard errors of a fair draw)."""
    entries = range(1000, 1060)
    same = trials = 0
    for r in range(8):
        drawn = [dealing.pool_copy(SECRET, entry=e, round_index=r, copies=copies) for e in entries]
        for a, b in itertools.combinations(drawn, 2):
            trials += 1
            same += a == b
    share = same / trials
    margin = 5 * (1 / copies * (1 - 1 / copies) / (trials / 30)) ** 0.5
    assert abs(share - 1 / copies) < margin, (share, 1 / copies)


def test_copies_by_field_size() -> None:
    assert [pool_copies_for(n) for n in (1, 49, 50, 99, 100, 200, 999, 1000, 10_000)] == [
        1,
        1,
        1,
        1,
        2,
        4,
        19,
        20,
        20,
    ]


def test_the_organizer_chooses_copies_or_field_size_until_someone_enters(
    organizer: Any, user: Any
) -> None:
    t = factories.make_tournament(created_by=organizer, max_entrants=200, south_plays=())
    assert t.pool_copies == 1 and not t.pooled
    tournament_services.tournament_update(tournament=t, pool_by_size=True)
    assert t.pool_copies == 4
    tournament_services.tournament_update(tournament=t, max_entrants=500)
    assert t.pool_copies == 10
    # par of every copy of every round (the task queued on commit, run here)
    assert par_services.tournament_par_compute(tournament_id=t.pk) == t.rounds * 9
    assert ParRound.objects.filter(tournament=t).count() == t.rounds * 10
    with pytest.raises(InvalidSettings):
        tournament_services.tournament_update(tournament=t, pool_by_size=False, pool_copies=21)
    entry_services.entry_join(tournament_id=t.pk, user=user)
    # the field size no longer changes the copies, and the pool no longer changes
    tournament_services.tournament_update(tournament=t, max_entrants=1000)
    assert t.pool_copies == 10
    with pytest.raises(TournamentLocked):
        tournament_services.tournament_update(tournament=t, pool_by_size=False, pool_copies=3)


def test_the_organizers_form_offers_the_pool(client: Any, organizer: Any) -> None:
    client.force_login(organizer)
    data = factories.tournament_form_data(pool="size", max_entrants=150)
    response = client.post("/tournaments/new/", data)
    assert response.status_code == 302, response.content.decode()[:2000]
    t = organizer.tournaments_created.get()
    assert (t.pool_copies, t.pool_by_size) == (3, True)
    page = client.get(f"/tournaments/{t.pk}/edit/").content.decode()
    assert 'value="size" selected' in page


def _pooled_field(organizer: Any, *, players: int, copies: int, rounds: int = 2) -> Any:
    t = factories.make_tournament(
        created_by=organizer, rounds=rounds, pool_copies=copies, south_plays=()
    )
    games = []
    # at least ``players``, and more until every copy of round 0 has one (the secret and
    # so the copies are random)
    for i in itertools.count():
        drawn = {t.copy_of(entry_id=g.entry_id, round_index=0) for g in games}
        if i >= players and len(drawn) == copies:
            return t, games
        player = factories.make_user(f"pool{i}")
        game = entry_services.entry_join(tournament_id=t.pk, user=player).game
        games.append(factories.play_to_end(game, player)[0])
    raise AssertionError("unreachable")


def test_each_entry_is_dealt_its_copy_and_measured_against_its_par(organizer: Any) -> None:
    t, games = _pooled_field(organizer, players=6, copies=3)
    module = module_of(t.game)
    variant = module.variant_from_json(t.variant)
    par = {(p.round_index, p.copy): p.result for p in ParRound.objects.filter(tournament=t)}
    assert set(par) == {(r, c) for r in range(2) for c in range(3)}
    seen_copies = set()
    for g in games:
        total = 0.0
        for r in range(t.rounds):
            c = t.copy_of(entry_id=g.entry_id, round_index=r)
            seen_copies.add(c)
            # the game was dealt that copy: its replay starts from the copy's deal
            dealt = module.new_round(variant, secret=t.copy_secret(c), round_index=r)
            frames = replay_selectors.game_replay(game=g, round_index=r)
            assert frames[0].state.to_json() == dealt.to_json()
            row = DealResult.objects.get(entry_id=g.entry_id, round_index=r)
            raw = float(module.results(g.round_scores[r])[0])
            assert row.copy == c
            assert row.result == pytest.approx(raw - par[(r, c)])
            total += row.result
        board = EntryResult.objects.get(entry_id=g.entry_id, upto=t.rounds)
        assert board.result == pytest.approx(total)
    assert len(seen_copies) > 1


def test_without_a_pool_results_are_as_before(organizer: Any) -> None:
    t, games = _pooled_field(organizer, players=1, copies=1, rounds=1)
    g = games[0]
    row = DealResult.objects.get(entry_id=g.entry_id, round_index=0)
    assert row.copy == 0
    assert row.result == pytest.approx(float(module_of(t.game).results(g.round_scores[0])[0]))


def test_a_closed_pool_verifies_copy_by_copy(organizer: Any) -> None:
    t, games = _pooled_field(organizer, players=4, copies=2)
    closing_services.tournament_close(tournament_id=t.pk)
    t.refresh_from_db()
    assert set(Entry.objects.filter(tournament=t).values_list("audit_status", flat=True)) == {
        Entry.AuditStatus.OK
    }
    verification = replay_selectors.tournament_verify(tournament=t)
    assert verification.matches and verification.copies == 2
    module = module_of(t.game)
    variant = module.variant_from_json(t.variant)
    assert [(d["round"], d["copy"]) for d in verification.deals] == [
        (r, c) for r in range(2) for c in range(2)
    ]
    for deal in verification.deals:
        secret = dealing.copy_secret(t.secret_bytes, deal["copy"])
        expected = module.deal_summary(variant, secret=secret, round_index=deal["round"])
        assert {k: v for k, v in deal.items() if k not in ("round", "copy")} == expected
    # each game's record names its pool and verifies offline (the copies from the secret)
    g = Game.objects.select_related("entry__tournament", "user").get(pk=games[0].pk)
    doc = replay_selectors.game_record(game=g).to_json()
    assert doc["pool"] == {"entry": g.entry_id, "copies": 2}
    assert record.verify(record.read_record(doc)).ok
    # the same record claiming another entry, whose copies differ, does not verify
    own = [t.copy_of(entry_id=g.entry_id, round_index=r) for r in range(2)]
    other = next(
        e
        for e in itertools.count(g.entry_id + 1)
        if [t.copy_of(entry_id=e, round_index=r) for r in range(2)] != own
    )
    doc["pool"] = {"entry": other, "copies": 2}
    assert not record.verify(record.read_record(doc)).ok
    page = _verify_page(t)
    assert "Ronde 1, kopie 2" in page and "--copy 0" in page


def _verify_page(t: Any) -> str:
    from django.test import Client

    return Client().get(f"/tournaments/{t.pk}/verify/").content.decode()


def test_the_per_deal_tables_and_the_split_follow_the_copy(organizer: Any) -> None:
    from django.test import Client

    from tournaments import analysis

    t, games = _pooled_field(organizer, players=6, copies=2, rounds=1)
    closing_services.tournament_close(tournament_id=t.pk)
    copy_of = {g.pk: t.copy_of(entry_id=g.entry_id, round_index=0) for g in games}
    assert set(copy_of.values()) == {0, 1}
    viewer = games[0]
    client = Client()
    client.force_login(viewer.user)
    for shown in (None, 0, 1):
        query = "" if shown is None else f"?copy0={shown + 1}"
        page = client.get(f"/tournaments/{t.pk}/{query}")
        (view,) = page.context["field_deals"]
        copy = copy_of[viewer.pk] if shown is None else shown
        assert view.deal.copy == copy and view.deal.copies == 2
        assert {f.row.game_id for f in view.rows} == {g for g, c in copy_of.items() if c == copy}
        assert view.par is not None and view.par.copy == copy
        # the rows hold the result against the copy's par already
        assert all(f.vs_par == f.row.result for f in view.rows)
        assert f"Ronde 1, kopie {copy + 1}" in page.content.decode()
    same = next(g for g in games[1:] if copy_of[g.pk] == copy_of[viewer.pk])
    other = next(g for g in games if copy_of[g.pk] != copy_of[viewer.pk])
    assert analysis.games_split(game=viewer, other=same, round_index=0).round_index == 0
    with pytest.raises(InvalidSettings):
        analysis.games_split(game=viewer, other=other, round_index=0)
    # against par: the bots on the viewer's copy
    split = analysis.games_split(game=viewer, other=None, round_index=0)
    par = ParRound.objects.get(tournament=t, round_index=0, copy=copy_of[viewer.pk])
    assert split.right.scores == par.scores
    # "play this deal again" from a copy's table deals that copy
    response = client.post(
        f"/tournaments/{t.pk}/rounds/0/play-again/", {"copy": str(copy_of[other.pk])}
    )
    assert response.status_code == 302
    practice = Game.objects.get(pk=int(response["Location"].rstrip("/").split("/")[-1]))
    assert practice.deal_secret(0) == t.copy_secret(copy_of[other.pk])


def test_beat_catches_up_the_par_of_every_copy(organizer: Any) -> None:
    t = factories.make_tournament(created_by=organizer, pool_copies=3, south_plays=())
    assert t.pk not in par_services.tournaments_par_missing()
    ParRound.objects.filter(tournament=t, round_index=1, copy=2).delete()
    assert t.pk in par_services.tournaments_par_missing()
    assert par_services.tournament_par_compute(tournament_id=t.pk) == 1
    assert t.pk not in par_services.tournaments_par_missing()
