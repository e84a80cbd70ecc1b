"""Bot levels offered for new play (docs/rules.md, "Bot levels"; engine/strength.py): the
organizer's form, the series form, the practice form and the services refuse a level the
game does not offer (Jokeren's expert), in Dutch and English; what is stored with it
keeps it: a tournament's page shows it, its game plays and replays with its bots, its
edit form keeps it, a series' editions get it. The rules page states the figures."""

from __future__ import annotations

from datetime import date, time, timedelta
from typing import Any

import factories
import pytest
from django.test import Client
from django.urls import reverse
from django.utils import timezone, translation

from tournaments.errors import InvalidSettings
from tournaments.models import Game, Series, Tournament
from tournaments.selectors import replay as replay_selectors
from tournaments.series import series_edition_create
from tournaments.services import entries as entry_services
from tournaments.services import tournaments as tournament_services

pytestmark = pytest.mark.django_db

REFUSED_NL = "Het botniveau expert wordt voor dit spel niet aangeboden"


def stored_expert_tournament(organizer: Any) -> Tournament:
    """A Jokeren tournament created with the expert when it was still offered (as the
    rows of that time are: the level stored, no check since)."""
    t = factories.make_tournament(created_by=organizer, rounds=1, south_plays=(0,))
    Tournament.objects.filter(pk=t.pk).update(bot_level="expert")
    t.refresh_from_db()
    return t


def test_the_organizer_form_refuses_jokeren_s_expert_with_the_field_s_error(
    client: Client, organizer: Any
) -> None:
    client.force_login(organizer)
    data = factories.tournament_form_data("jokeren:jokeren7", bot_level="expert")
    response = client.post(reverse("tournament_create"), data)
    assert response.status_code == 200
    assert response.context["form"].has_error("bot_level")
    assert REFUSED_NL in response.content.decode()
    assert not Tournament.objects.exists()
    # Klaverjassen offers it: the same form is taken
    data = factories.tournament_form_data("klaverjas:rotterdams", bot_level="expert")
    assert client.post(reverse("tournament_create"), data).status_code == 302
    assert Tournament.objects.get().bot_level == "expert"


def test_the_services_refuse_it_in_dutch_and_english(organizer: Any) -> None:
    now = timezone.now()
    with pytest.raises(InvalidSettings) as refused:
        tournament_services.tournament_create(
            created_by=organizer,
            club=factories.default_club(),
            name="Expert",
            game="jokeren",
            preset="jokeren13",
            bot_level="expert",
            opens_at=now,
            closes_at=now + timedelta(days=1),
        )
    error = refused.value.to_json()
    assert error["nl"].startswith(REFUSED_NL)
    assert "not offered for this game" in error["en"]
    with pytest.raises(InvalidSettings):
        entry_services.game_practice_start(
            user=organizer, game="jokeren", preset="jokeren7", bot_level="expert"
        )
    assert not Tournament.objects.exists() and not Game.objects.exists()


def test_the_practice_and_series_forms_refuse_it(client: Client, organizer: Any) -> None:
    client.force_login(organizer)
    with translation.override("en"):
        response = client.post(
            reverse("practice"),
            {"preset": "jokeren:jokeren13", "bot_level": "expert"},
            headers={"Accept-Language": "en"},
        )
    assert response.context["form"].has_error("bot_level")
    assert not Game.objects.exists()
    data = factories.tournament_form_data("jokeren:jokeren7", bot_level="expert")
    data.update(kind="daily", time_of_day="20:00", window_minutes="120", best_k="4")
    data["starts_on"] = str(timezone.localdate())
    response = client.post(reverse("series_create"), data)
    assert response.context["form"].has_error("bot_level")
    assert not Series.objects.exists()
    # practice with Klaverjassen' expert is fine
    response = client.post(
        reverse("practice"), {"preset": "klaverjas:amsterdams", "bot_level": "expert"}
    )
    assert response.status_code == 302
    assert Game.objects.get().bot_level == "expert"


def test_a_stored_expert_tournament_keeps_its_level_plays_replays_and_shows_it(
    client: Client, organizer: Any, user: Any
) -> None:
    t = stored_expert_tournament(organizer)
    game = entry_services.entry_join(tournament_id=t.pk, user=user).game
    assert game.bot_level == "expert"
    game, _log = factories.play_to_end(game, user)
    assert game.is_finished
    page = client.get(reverse("tournament_detail", args=[t.pk])).content.decode()
    assert "expert" in page
    # the edit form keeps it (a change of its name only)
    assert tournament_services.tournament_update(tournament=t, name="Nieuw").bot_level == "expert"
    client.force_login(organizer)
    form = client.get(reverse("tournament_edit", args=[t.pk])).context["form"]
    assert ("expert", "expert") in [(k, k) for k, _label in form.fields["bot_level"].choices]
    # the replay of its finished game uses the stored level and version
    Tournament.objects.filter(pk=t.pk).update(closed_at=timezone.now())
    finished = Game.objects.get(pk=game.pk)
    assert replay_selectors.game_replay(game=finished, round_index=0)
    assert replay_selectors.game_record(game=finished).bot_level == "expert"


def test_a_changed_game_does_not_carry_a_level_its_new_game_does_not_offer(
    organizer: Any,
) -> None:
    t = factories.make_tournament(created_by=organizer, game="klaverjas", preset="rotterdams")
    Tournament.objects.filter(pk=t.pk).update(bot_level="expert")
    t.refresh_from_db()
    with pytest.raises(InvalidSettings):
        tournament_services.tournament_update(tournament=t, game="jokeren", preset="jokeren7")


def test_a_stored_expert_series_gives_its_editions_its_level(organizer: Any) -> None:
    s = Series.objects.create(
        created_by=organizer,
        club=factories.default_club(),
        name="Expertavond",
        game="jokeren",
        preset="jokeren7",
        variant=factories.make_tournament(created_by=organizer).variant,
        rounds=1,
        max_entrants=10,
        bot_level="expert",
        kind="daily",
        time_of_day=time(20, 0),
        window_minutes=120,
        starts_on=date(2026, 3, 1),
        best_k=2,
    )
    edition = series_edition_create(series=s, opens_at=timezone.now())
    assert edition is not None and edition.bot_level == "expert"


@pytest.mark.parametrize(
    ("game", "preset", "expected"),
    [
        ("jokeren", "jokeren7", "strafpunten per speler en ronde minder dan basis"),
        ("klaverjas", "rotterdams", "punten per ronde meer dan sterk"),
    ],
)
def test_the_rules_page_states_each_level_s_figures_in_words(
    client: Client, game: str, preset: str, expected: str
) -> None:
    page = client.get(reverse("preset_rules", args=[game, preset])).content.decode()
    assert "Botniveaus" in page
    assert expected in page
    if game == "jokeren":
        assert "niet aantoonbaar sterker dan sterk" in page
        assert "niet aangeboden voor nieuwe toernooien" in page or "niet aangeboden" in page
