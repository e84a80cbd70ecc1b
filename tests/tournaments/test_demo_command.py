"""``manage.py demo``: demo users and an open tournament of every preset, idempotent."""

from __future__ import annotations

from io import StringIO

import pytest
from django.contrib.auth import get_user_model
from django.core.management import call_command

from tournaments.games import available_games
from tournaments.management.commands.demo import DEMO_TOTP_SECRET
from tournaments.models import Access, Membership, Rating, RatingChange, Tournament
from tournaments.permissions import (
    has_verified_address,
    is_club_member,
    is_organizer,
    needs_second_factor,
)

pytestmark = pytest.mark.django_db


def test_demo_creates_users_and_an_open_tournament_per_preset() -> None:
    out = StringIO()
    call_command("demo", stdout=out)
    text = out.getvalue()
    assert "demo-organizer" in text and "demo-player" in text
    User = get_user_model()
    organizer = User.objects.get(username="demo-organizer")
    player = User.objects.get(username="demo-player")
    assert is_organizer(organizer) and not is_organizer(player)
    assert player.check_password("jokeren-demo")
    # verified demo addresses; the organizer's second factor is printed with the log-ins
    # (docs/rules.md, "Accounts")
    assert has_verified_address(organizer) and has_verified_address(player)
    assert not needs_second_factor(organizer)
    assert "TOTP" in text and DEMO_TOTP_SECRET in text
    expected = {
        (game, preset) for game, module in available_games().items() for preset in module.PRESETS
    }
    in_default = Tournament.objects.filter(club__slug="standaard", closed_at__isnull=True)
    found = {(t.game, t.preset) for t in in_default}
    assert found == expected and in_default.count() == len(expected)
    assert all(t.window_open() for t in in_default)
    assert all(t.access == Access.PUBLIC for t in in_default)
    # A second club, owned by the organizer, with the player a member and a members-only
    # tournament that only they see.
    (private,) = Tournament.objects.exclude(club__slug="standaard")
    assert private.access == Access.MEMBERS and private.window_open()
    assert Membership.objects.get(club=private.club, user=organizer).role == "owner"
    assert is_club_member(user=player, club=private.club)
    # The Jokeren presets are all there (and Klaverjas's when its engine imports).
    assert {p for g, p in found if g == "jokeren"} >= {"jokeren7", "jokeren13", "klassiek"}
    # Readable names (issue 35, item 5): the variant's title, not its key.
    names = set(in_default.values_list("name", flat=True))
    assert {"Demo Jokeren 7", "Demo Jokeren Veertigen", "Demo Klaverjassen Rotterdams"} <= names
    assert not any("jokeren7" in name or "·" in name for name in names)

    # A few rated players: the closed demo tournament counted for its four entrants.
    (played,) = Tournament.objects.filter(closed_at__isnull=False)
    assert "Rated demo tournament" in text
    rated = set(Rating.objects.filter(game="jokeren").values_list("user__username", flat=True))
    assert rated == {"demo-player", "demo-anna", "demo-bert", "demo-cor"}
    assert RatingChange.objects.filter(tournament=played).count() == 4
    stored = list(Rating.objects.order_by("user_id").values_list("mu", "sigma"))
    assert len(set(stored)) > 1  # not all tied

    call_command("demo", stdout=StringIO())
    assert Tournament.objects.count() == len(expected) + 2
    assert User.objects.filter(username__startswith="demo-").count() == 5
    assert list(Rating.objects.order_by("user_id").values_list("mu", "sigma")) == stored
