"""The organizer's numbers and dates are bounded in the form, the service and the database
(issue 8, items 7 and 8): a date like ``0001-01-01T00:00`` used to be stored and made the
home page, the tournament, join and standings answer 500 for everyone (PostgreSQL: a
time Python cannot read back); ``max_entrants >= 2**31`` was a 500; a deeply nested
contracts field was a 500 (``RecursionError``)."""

from __future__ import annotations

import json
from datetime import UTC, datetime, timedelta
from typing import Any

import factories
import pytest
from django.db import IntegrityError, connection, transaction
from django.db.migrations.executor import MigrationExecutor
from django.test import Client
from django.urls import reverse
from django.utils import timezone

from tournaments.errors import InvalidSettings
from tournaments.games import module_of
from tournaments.models import DATES_FROM, DATES_UNTIL, MAX_ENTRANTS, Tournament
from tournaments.services import tournaments as tournament_services

pytestmark = pytest.mark.django_db


def _create(client: Client, **fields: Any) -> Any:
    return client.post(reverse("tournament_create"), factories.tournament_form_data(**fields))


def _field_errors(response: Any) -> dict[str, Any]:
    assert response.status_code == 200, "the form must come back with its errors"
    return dict(response.context["form"].errors)


def _site_answers(client: Client, tournament: Tournament | None = None) -> None:
    """The pages that used to answer 500 after a bad date was stored."""
    assert client.get(reverse("home")).status_code == 200
    if tournament is not None:
        pk = tournament.pk
        assert client.get(reverse("tournament_detail", args=[pk])).status_code == 200
        standings = client.get(reverse("api_tournament_standings", args=[pk]))
        assert standings.status_code == 200
        assert client.post(reverse("tournament_join", args=[pk])).status_code == 302


# --- Dates -------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("field", "value"),
    [
        ("opens_at", "0001-01-01T00:00"),
        ("opens_at", "1999-12-31T12:00"),
        ("closes_at", "2100-01-02T00:00"),
        ("closes_at", "9999-12-31T23:59"),
    ],
)
def test_the_form_refuses_a_date_out_of_range(
    client: Client, organizer: Any, field: str, value: str
) -> None:
    client.force_login(organizer)
    response = _create(client, **{field: value})
    errors = _field_errors(response)
    assert field in errors
    assert "2000" in str(errors[field]) and "2100" in str(errors[field])
    assert not Tournament.objects.exists()
    _site_answers(client)


def test_the_form_takes_dates_inside_the_range(client: Client, organizer: Any) -> None:
    client.force_login(organizer)
    response = _create(client, opens_at="2000-01-02T00:00", closes_at="2099-12-31T00:00")
    assert response.status_code == 302, response.context["form"].errors
    t = Tournament.objects.get()
    assert t.opens_at.year == 2000 and t.closes_at.year == 2099
    _site_answers(client, t)


def test_the_edit_form_refuses_a_date_out_of_range(
    client: Client, organizer: Any, tournament: Tournament
) -> None:
    client.force_login(organizer)
    before = tournament.opens_at
    data = factories.tournament_form_data(opens_at="0001-01-01T00:00")
    response = client.post(reverse("tournament_edit", args=[tournament.pk]), data)
    assert "opens_at" in _field_errors(response)
    tournament.refresh_from_db()
    assert tournament.opens_at == before
    _site_answers(client, tournament)


@pytest.mark.parametrize(
    "moment",
    [
        datetime(1, 1, 1, tzinfo=UTC),
        DATES_FROM - timedelta(microseconds=1),
        DATES_UNTIL + timedelta(microseconds=1),
        datetime(9999, 12, 31, tzinfo=UTC),
    ],
)
def test_the_service_refuses_a_date_out_of_range(
    organizer: Any, tournament: Tournament, moment: datetime
) -> None:
    later = moment + timedelta(days=1) if moment.year < 9999 else moment
    earlier = moment - timedelta(days=1) if moment.year > 1 else moment
    with pytest.raises(InvalidSettings) as create:
        tournament_services.tournament_create(
            created_by=organizer,
            club=factories.default_club(),
            name="Buiten bereik",
            game="jokeren",
            preset="jokeren7",
            opens_at=moment if moment < DATES_FROM else earlier,
            closes_at=later if moment < DATES_FROM else moment,
        )
    assert create.value.code == "invalid_settings" and "2000" in create.value.en
    with pytest.raises(InvalidSettings):
        if moment < DATES_FROM:
            tournament_services.tournament_update(tournament=tournament, opens_at=moment)
        else:
            tournament_services.tournament_update(tournament=tournament, closes_at=moment)
    assert Tournament.objects.count() == 1
    tournament.refresh_from_db()
    assert DATES_FROM <= tournament.opens_at < tournament.closes_at <= DATES_UNTIL


@pytest.mark.parametrize(
    "changes",
    [
        {"opens_at": datetime(1, 1, 1, tzinfo=UTC)},
        {"opens_at": DATES_FROM - timedelta(seconds=1)},
        {"closes_at": DATES_UNTIL + timedelta(seconds=1)},
        {"max_entrants": MAX_ENTRANTS + 1},
        {"max_entrants": 0},
    ],
)
def test_the_database_refuses_what_the_service_refuses(
    tournament: Tournament, changes: dict[str, Any]
) -> None:
    with pytest.raises(IntegrityError), transaction.atomic():
        Tournament.objects.filter(pk=tournament.pk).update(**changes)


# --- Numbers ------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "value", ["0", "-1", str(MAX_ENTRANTS + 1), str(2**31), str(2**63), "9" * 5000, "1e3"]
)
def test_the_form_bounds_max_entrants(client: Client, organizer: Any, value: str) -> None:
    client.force_login(organizer)
    assert "max_entrants" in _field_errors(_create(client, max_entrants=value))
    assert not Tournament.objects.exists()


def test_the_form_takes_the_largest_maximum(client: Client, organizer: Any) -> None:
    client.force_login(organizer)
    assert _create(client, max_entrants=str(MAX_ENTRANTS)).status_code == 302
    t = Tournament.objects.get()
    assert t.max_entrants == MAX_ENTRANTS
    _site_answers(client, t)


@pytest.mark.parametrize("value", [MAX_ENTRANTS + 1, 2**31, 10**30, 0])
def test_the_service_bounds_max_entrants(
    organizer: Any, tournament: Tournament, value: int
) -> None:
    now = timezone.now()
    with pytest.raises(InvalidSettings):
        tournament_services.tournament_create(
            created_by=organizer,
            club=factories.default_club(),
            name="Te groot",
            game="jokeren",
            preset="jokeren7",
            max_entrants=value,
            opens_at=now,
            closes_at=now + timedelta(days=1),
        )
    with pytest.raises(InvalidSettings):
        tournament_services.tournament_update(tournament=tournament, max_entrants=value)
    tournament.refresh_from_db()
    assert tournament.max_entrants == 10


@pytest.mark.parametrize(
    ("field", "value"),
    [
        ("rounds", str(2**31)),
        ("rounds", "-" + "9" * 40),
        ("v_turn_limit", str(2**63)),
        ("v_turn_limit", "2001"),
        ("v_opening_points", "9" * 30),
        ("v_hand_size", "1e2"),
    ],
)
def test_the_forms_other_numbers_are_bounded(
    client: Client, organizer: Any, field: str, value: str
) -> None:
    client.force_login(organizer)
    # The opening points apply (and are read) only with the points opening (Veertigen).
    preset = "jokeren:veertigen" if field == "v_opening_points" else "jokeren:jokeren7"
    assert field in _field_errors(_create(client, preset=preset, **{field: value}))
    assert not Tournament.objects.exists()


# --- The contracts field (item 7) -----------------------------------------------------------


@pytest.mark.parametrize(
    "text",
    [
        "[" * 5000,
        "[" * 5000 + "]" * 5000,
        '[{"runs": [3], "points": 1e400}]',
        '[{"runs": [3], "points": Infinity}]',
        "NaN",
        '[{"runs": [3], "description_nl": "\\u0000"}]',
        '[{"runs": [3], "description_en": "\\udc00"}]',
        json.dumps([{"runs": [3], "description_nl": "x" * 20_000}]),
    ],
    ids=["open", "closed", "1e400", "Infinity", "NaN", "nul", "surrogate", "long"],
)
def test_unreadable_contracts_are_the_fields_error(
    client: Client, organizer: Any, text: str
) -> None:
    client.force_login(organizer)
    response = _create(client, preset="jokeren:klassiek", v_contracts=text)
    assert "v_contracts" in _field_errors(response)
    assert "v_contracts" in response.content.decode()
    assert not Tournament.objects.exists()


@pytest.mark.parametrize(
    "text",
    ['[{"runs": [3, "x"]}]', '[{"runs": "abc"}]', '{"a": 1}', '"text"', "[[[]]]"],
)
def test_contracts_the_engine_refuses_are_the_forms_error(
    client: Client, organizer: Any, text: str
) -> None:
    client.force_login(organizer)
    response = _create(client, preset="jokeren:klassiek", v_contracts=text)
    assert response.status_code == 200
    assert response.context["form"].errors
    assert not Tournament.objects.exists()


# --- Rows from before the bounds --------------------------------------------------------------


def _bounds_migration(executor: MigrationExecutor) -> tuple[tuple[str, str], tuple[str, str]]:
    """The migration that adds the bounds, and the one it follows."""
    names = [n for app, n in executor.loader.disk_migrations if app == "tournaments"]
    (name,) = [n for n in names if n.endswith("_bounds")]
    migration = executor.loader.get_migration("tournaments", name)
    (before,) = [d for d in migration.dependencies if d[0] == "tournaments"]
    return ("tournaments", name), before


@pytest.mark.django_db(transaction=True)
def test_the_migration_clamps_rows_out_of_range(client: Client) -> None:
    executor = MigrationExecutor(connection)
    bounds, before = _bounds_migration(executor)
    leaves = executor.loader.graph.leaf_nodes()
    try:
        executor.migrate([before])
        old = MigrationExecutor(connection).loader.project_state([before]).apps
        user = old.get_model("auth", "User").objects.create(username="oud")
        OldTournament = old.get_model("tournaments", "Tournament")

        def old_row(name: str, opens: datetime, closes: datetime, max_entrants: int) -> int:
            row = OldTournament.objects.create(
                name=name,
                game="jokeren",
                preset="jokeren7",
                variant=module_of("jokeren").PRESETS["jokeren7"].to_json(),
                rounds=2,
                max_entrants=max_entrants,
                bot_level="basic",
                opens_at=opens,
                closes_at=closes,
                secret=bytes(32),
                commitment="0" * 64,
                created_by=user,
            )
            return int(row.pk)

        y1 = datetime(1, 1, 1, tzinfo=UTC)
        ancient = old_row("Jaar 1", y1, y1 + timedelta(days=400), 2**31 - 1)
        future = old_row(
            "Ver weg", datetime(3000, 1, 1, tzinfo=UTC), datetime(3001, 1, 1, tzinfo=UTC), 5
        )
        both = old_row("Beide", y1, datetime(2200, 1, 1, tzinfo=UTC), 10)
        now = timezone.now()
        fine = old_row("Gewoon", now - timedelta(hours=1), now + timedelta(days=1), 10)
        if connection.vendor == "postgresql":
            # What the form stored: year 1 in Europe/Amsterdam, a time before the year 1
            # in UTC that PostgreSQL holds and Python cannot read back.
            with connection.cursor() as cursor:
                cursor.execute(
                    "UPDATE tournaments_tournament SET opens_at = %s::timestamptz WHERE id = %s",
                    ["0001-01-01 00:00:00+00:17:30", ancient],
                )

        MigrationExecutor(connection).migrate([bounds])
        # The migrations after it (they add columns the site's models read) run too.
        MigrationExecutor(connection).migrate(leaves)

        rows = {t.pk: t for t in Tournament.objects.all()}
        assert rows[ancient].opens_at == DATES_FROM
        assert rows[ancient].closes_at == DATES_FROM + timedelta(minutes=1)
        assert rows[ancient].max_entrants == MAX_ENTRANTS
        assert rows[future].opens_at == DATES_UNTIL - timedelta(minutes=1)
        assert rows[future].closes_at == DATES_UNTIL
        assert (rows[both].opens_at, rows[both].closes_at) == (DATES_FROM, DATES_UNTIL)
        assert rows[fine].opens_at == now - timedelta(hours=1)
        assert rows[fine].closes_at == now + timedelta(days=1)
        client.force_login(factories.make_user())
        for pk in (ancient, future, both, fine):
            _site_answers(client, rows[pk])
    finally:
        MigrationExecutor(connection).migrate(leaves)
