"""Migration 0016_clubs moves every tournament and series from before clubs to the default club
("Jokeren & Klaverjassen", ``standaard``) and makes everyone who organized then an
organizer of it (docs/rules.md, "Clubs: members, organizers, who may enter", rule 1):
nothing is lost, and they still run their tournaments afterwards."""

from __future__ import annotations

from datetime import date, time, timedelta

import factories
import pytest
from django.db import connection
from django.db.migrations.executor import MigrationExecutor
from django.db.migrations.operations import CreateModel
from django.test import Client
from django.urls import reverse
from django.utils import timezone

from engine import dealing
from tournaments.games import module_of
from tournaments.models import Access, Club, Membership, Series, Tournament
from tournaments.permissions import may_manage_tournament


def _clubs_migration(executor: MigrationExecutor) -> tuple[tuple[str, str], tuple[str, str]]:
    """The migration that creates the ``Club`` model, and the one it follows (found by
    what it does: a renumbering keeps the test)."""
    names = [n for app, n in executor.loader.disk_migrations if app == "tournaments"]
    (name,) = [
        n
        for n in names
        if any(
            isinstance(op, CreateModel) and op.name == "Club"
            for op in executor.loader.get_migration("tournaments", n).operations
        )
    ]
    migration = executor.loader.get_migration("tournaments", name)
    (before,) = [d for d in migration.dependencies if d[0] == "tournaments"]
    return ("tournaments", name), before


@pytest.mark.django_db(transaction=True)
def test_the_migration_moves_every_row_to_the_default_club() -> None:
    executor = MigrationExecutor(connection)
    CLUBS, BEFORE = _clubs_migration(executor)
    leaves = executor.loader.graph.leaf_nodes()
    try:
        executor.migrate([BEFORE])
        old = MigrationExecutor(connection).loader.project_state([BEFORE]).apps
        User = old.get_model("auth", "User")
        Group = old.get_model("auth", "Group")
        creator = User.objects.create(username="maker")
        series_maker = User.objects.create(username="reeksmaker")
        grouped = User.objects.create(username="in-de-groep")
        player = User.objects.create(username="speler")
        group, _created = Group.objects.get_or_create(name="organizers")
        grouped.groups.add(group)
        now = timezone.now()
        secret = dealing.new_secret()
        OldSeries = old.get_model("tournaments", "Series")
        series = OldSeries.objects.create(
            name="Donderdag",
            game="jokeren",
            preset="jokeren7",
            variant=module_of("jokeren").PRESETS["jokeren7"].to_json(),
            rounds=2,
            bot_level="basic",
            kind="daily",
            time_of_day=time(20, 0),
            window_minutes=60,
            starts_on=date(2026, 1, 1),
            created_by=series_maker,
        )
        OldTournament = old.get_model("tournaments", "Tournament")
        ids = [
            OldTournament.objects.create(
                name=f"Oud {i}",
                game="jokeren",
                preset="jokeren7",
                variant=module_of("jokeren").PRESETS["jokeren7"].to_json(),
                rounds=2,
                bot_level="basic",
                bot_version=module_of("jokeren").BOT_VERSION,
                opens_at=now - timedelta(hours=1),
                closes_at=now + timedelta(days=1),
                secret=secret,
                commitment=dealing.commitment(secret),
                created_by=creator,
                series=series if i == 0 else None,
            ).pk
            for i in range(3)
        ]

        MigrationExecutor(connection).migrate([CLUBS])
        MigrationExecutor(connection).migrate(leaves)

        club = Club.objects.get(slug="standaard")
        assert club.name == "Jokeren & Klaverjassen" and club.invite_code
        rows = Tournament.objects.filter(pk__in=ids)
        assert rows.count() == 3
        assert {(t.name, t.club_id, t.access) for t in rows} == {
            (f"Oud {i}", club.pk, Access.PUBLIC) for i in range(3)
        }
        assert Series.objects.get(pk=series.pk).club == club
        roles = dict(Membership.objects.filter(club=club).values_list("user__username", "role"))
        assert roles == {
            "maker": Membership.Role.ORGANIZER,
            "reeksmaker": Membership.Role.ORGANIZER,
            "in-de-groep": Membership.Role.ORGANIZER,
        }
        assert "speler" not in roles and User.objects.filter(pk=player.pk).exists()
        # the organizers of before still run the tournaments (now as the club's)
        site_user = type(factories.make_user()).objects.get(username="in-de-groep")
        assert all(may_manage_tournament(user=site_user, tournament=t) for t in rows)
        client = Client()
        client.force_login(site_user)
        # with the second factor an organizer needs (docs/rules.md, "Accounts", rule 6)
        factories.add_second_factor(site_user)
        assert client.get(reverse("tournament_edit", args=[ids[0]])).status_code == 200
    finally:
        MigrationExecutor(connection).migrate(leaves)
