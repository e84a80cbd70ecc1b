"""Bot versions on the site: a tournament and each game keep the bots' version they were
created with, and everything that replays a game's bots (the next move, the audit, the
record, par, what-if, the analysis) uses that version, also after a newer version is
released (README, "Bot versions"). ``release_next_bot_version`` releases a new version
whose bots play differently (their simplest action)."""

from __future__ import annotations

from collections.abc import Callable
from datetime import UTC, datetime, time
from typing import Any

import factories
import pytest
from django.db import connection
from django.db.migrations.executor import MigrationExecutor

from engine import record
from engine.match import play_round
from tournaments import analysis
from tournaments import series as series_services
from tournaments.games import module_of
from tournaments.models import Game, ParRound, Tournament
from tournaments.selectors import replay as replay_selectors
from tournaments.services import audit as audit_services
from tournaments.services import entries as entry_services
from tournaments.services import par as par_services
from tournaments.services import play as play_services
from tournaments.services import tournaments as tournament_services
from tournaments.services import what_if as what_if_services

pytestmark = pytest.mark.django_db


def _join(t: Tournament, name: str | None = None) -> tuple[Game, Any]:
    user = factories.make_user(name)
    return entry_services.entry_join(tournament_id=t.pk, user=user).game, user


def test_tournaments_and_games_get_the_current_bot_version(
    organizer: Any, release_next_bot_version: Callable[[], int]
) -> None:
    old = factories.make_tournament(created_by=organizer)
    module = module_of(old.game)
    released = module.BOT_VERSION
    assert old.bot_version == released
    new_version = release_next_bot_version()
    assert new_version > released
    new = factories.make_tournament(created_by=organizer)
    assert new.bot_version == new_version
    assert _join(old)[0].bot_version == released
    assert _join(new)[0].bot_version == new_version
    practice = entry_services.game_practice_start(
        user=factories.make_user(), game="klaverjas", preset="rotterdams"
    )
    assert practice.bot_version == new_version
    series = series_services.series_create(
        created_by=organizer,
        club=factories.default_club(),
        name="Clubavond",
        game="jokeren",
        preset="jokeren7",
        rounds=1,
        bot_level="basic",
        kind="daily",
        time_of_day=time(20, 0),
        window_minutes=120,
        starts_on=datetime(2026, 3, 1, tzinfo=UTC).date(),
    )
    edition = series_services.series_edition_create(
        series=series, opens_at=datetime(2026, 3, 2, 19, tzinfo=UTC)
    )
    assert edition is not None and edition.bot_version == new_version


def test_changed_game_settings_before_anyone_entered_get_the_current_version(
    organizer: Any, release_next_bot_version: Callable[[], int]
) -> None:
    t = factories.make_tournament(created_by=organizer, bot_level="basic")
    released = t.bot_version
    new_version = release_next_bot_version()
    tournament_services.tournament_update(tournament=t, name="Nieuwe naam")
    t.refresh_from_db()
    assert t.bot_version == released != new_version
    tournament_services.tournament_update(tournament=t, bot_level="strong")
    t.refresh_from_db()
    assert t.bot_version == new_version


def test_a_game_plays_and_audits_with_its_own_version_after_a_new_one(
    organizer: Any, release_next_bot_version: Callable[[], int]
) -> None:
    t = factories.make_tournament(created_by=organizer, rounds=2)
    game, user = _join(t)
    first = play_services.game_play_move(
        game_id=game.pk, user=user, seq=game.seq, action=factories.south_action(game)
    ).game
    released = first.bot_version
    new_version = release_next_bot_version()
    game, _events = factories.play_to_end(first, user)
    assert game.bot_version == released != new_version
    # the next moves' bots were the released version's: the audit (which replays with
    # the game's version) finds the stored scores, and so does the record
    assert audit_services.game_audit(game_id=game.pk).ok
    rec = replay_selectors.game_record(game=game)
    assert rec.bot_version == released
    assert record.verify(record.read_record(rec.to_json())).ok
    # replayed with the new version's bots, the same stored game does not add up
    Game.objects.filter(pk=game.pk).update(bot_version=new_version)
    assert not audit_services.game_audit(game_id=game.pk).ok


def test_a_practice_game_of_a_new_version_is_played_and_replayed_with_it(
    next_bot_version: int,
) -> None:
    user = factories.make_user()
    game = entry_services.game_practice_start(user=user, game="jokeren", preset="jokeren7")
    module = module_of("jokeren")
    variant = module.PRESETS["jokeren7"]
    game, _events = factories.play_to_end(game, user)
    rec = replay_selectors.game_record(game=game)
    assert rec.bot_version == next_bot_version
    assert record.verify(record.read_record(rec.to_json())).ok
    # the bots' moves are the new version's (their simplest action)
    for r, actions in enumerate(rec.actions):
        state = module.new_round(variant, secret=game.secret_bytes, round_index=r)
        for a in actions:
            if a.by_bot:
                assert a.action == module.simplest_action(state).to_json()
            state = state.apply(module.action_from_json(a.action))


def test_par_is_kept_per_bot_version(
    organizer: Any, release_next_bot_version: Callable[[], int]
) -> None:
    t = factories.make_tournament(created_by=organizer, rounds=2, south_plays=())
    module = module_of(t.game)
    variant = module.variant_from_json(t.variant)
    levels = [t.bot_level] * variant.num_players
    v1 = [
        play_round(module, variant, secret=t.secret_bytes, round_index=r, levels=levels)[0]
        for r in range(2)
    ]
    released = t.bot_version
    new_version = release_next_bot_version()
    # the tournament's par is still the released version's: computing again changes nothing
    assert par_services.tournament_par_compute(tournament_id=t.pk) == 0
    par = par_services.tournament_par(tournament=t)
    assert [par[r].scores for r in range(2)] == [s.scores() for s in v1]
    versions = set(ParRound.objects.filter(tournament=t).values_list("bot_version", flat=True))
    assert versions == {released}
    # a row of another version is stale: never read, replaced when par is computed
    ParRound.objects.filter(tournament=t, round_index=0).update(bot_version=new_version)
    assert sorted(par_services.tournament_par(tournament=t)) == [1]
    assert par_services.tournament_par_compute(tournament_id=t.pk) == 1
    assert par_services.tournament_par(tournament=t)[0].scores == v1[0].scores()


def test_what_if_and_analysis_use_the_source_games_version(
    organizer: Any, release_next_bot_version: Callable[[], int]
) -> None:
    t = factories.make_tournament(created_by=organizer, rounds=1)
    game, user = _join(t)
    game, _events = factories.play_to_end(game, user)
    before = analysis.game_analysis(game=game, round_index=0)
    released = game.bot_version
    release_next_bot_version()
    assert analysis.game_analysis(game=game, round_index=0) == before
    what_if = what_if_services.game_what_if_start(
        user=user, source_id=game.pk, round_index=0, start=0
    )
    assert what_if.bot_version == released
    module = module_of(game.game)
    while what_if.status == Game.Status.PLAYING:
        # South plays like the released version's basic bot, as in the source game
        south = module.bot_action(what_if.current_state(), level="basic", version=released)
        what_if = play_services.game_play_move(
            game_id=what_if.pk, user=user, seq=what_if.seq, action=south.to_json()
        ).game
    # and the bots are the source's version: the same round, the same scores
    assert what_if.round_scores == game.round_scores[:1]


@pytest.mark.django_db(transaction=True)
def test_the_migration_gives_every_existing_row_version_1() -> None:
    executor = MigrationExecutor(connection)
    names = [n for app, n in executor.loader.disk_migrations if app == "tournaments"]
    (name,) = [n for n in names if n.endswith("_bot_version")]
    migration = executor.loader.get_migration("tournaments", name)
    (before,) = [d for d in migration.dependencies if d[0] == "tournaments"]
    leaves = executor.loader.graph.leaf_nodes()
    try:
        executor.migrate([before])
        old = MigrationExecutor(connection).loader.project_state([before]).apps
        user = old.get_model("auth", "User").objects.create(username="oud")
        now = datetime(2026, 1, 1, tzinfo=UTC)
        variant = module_of("jokeren").PRESETS["jokeren7"].to_json()
        t = old.get_model("tournaments", "Tournament").objects.create(
            name="oud",
            game="jokeren",
            preset="jokeren7",
            variant=variant,
            rounds=1,
            bot_level="basic",
            opens_at=now,
            closes_at=now.replace(year=2027),
            secret=b"\0" * 32,
            commitment="0" * 64,
            created_by=user,
        )
        old.get_model("tournaments", "Game").objects.create(
            user=user,
            game="jokeren",
            preset="jokeren7",
            variant=variant,
            rounds=1,
            bot_level="basic",
            secret=b"\1" * 32,
            totals=[0, 0, 0, 0],
        )
        old.get_model("tournaments", "ParRound").objects.create(
            tournament_id=t.pk, round_index=0, key="k", scores=[0, 0, 0, 0], result=0.0
        )
        MigrationExecutor(connection).migrate(leaves)
        assert list(Tournament.objects.values_list("bot_version", flat=True)) == [1]
        assert list(Game.objects.values_list("bot_version", flat=True)) == [1]
        assert list(ParRound.objects.values_list("bot_version", flat=True)) == [1]
    finally:
        MigrationExecutor(connection).migrate(leaves)
