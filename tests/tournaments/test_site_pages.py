"""The site's pages: home, sign-up, tournament page, leaderboard, organizer form, rules,
replay and verification, practice, and the language (Dutch first, English second)."""

from __future__ import annotations

import hashlib
import re
from datetime import timedelta
from typing import Any

import factories
import pytest
from django.contrib.auth import get_user_model
from django.test import Client
from django.urls import reverse
from django.utils import timezone

from engine.jokeren import PRESETS
from engine.registry import GAMES, game_module
from tournaments.games import available_games
from tournaments.models import Game, Tournament
from tournaments.selectors import standings as standing_selectors
from tournaments.services import closing as closing_services
from tournaments.services import entries as entry_services
from tournaments.services import play as play_services

pytestmark = pytest.mark.django_db


def _text(response: Any) -> str:
    return re.sub(r"\s+", " ", response.content.decode())


# --- Home, accounts, language ----------------------------------------------------------


def test_home_lists_open_running_and_finished(client: Client, organizer: Any) -> None:
    now = timezone.now()
    factories.make_tournament(created_by=organizer, name="Open toernooi")
    full = factories.make_tournament(created_by=organizer, name="Vol toernooi", max_entrants=1)
    entry_services.entry_join(tournament_id=full.pk, user=factories.make_user())
    factories.make_tournament(
        created_by=organizer,
        name="Later toernooi",
        opens_at=now + timedelta(days=1),
        closes_at=now + timedelta(days=2),
    )
    done = factories.make_tournament(created_by=organizer, name="Klaar toernooi")
    closing_services.tournament_close(tournament_id=done.pk)
    page = _text(client.get(reverse("home")))
    open_part, rest = page.split("Lopende toernooien", 1)
    running_part, finished_part = rest.split("Afgelopen toernooien", 1)
    assert "Open toernooi" in open_part and "Later toernooi" in open_part
    assert "Vol toernooi" in running_part
    assert "Klaar toernooi" in finished_part


def test_dutch_is_the_default_and_english_the_second(client: Client) -> None:
    page = _text(client.get(reverse("home")))
    assert '<html lang="nl">' in page and "Toernooien" in page and "Inloggen" in page
    response = client.post(
        reverse("set_language"), {"language": "en", "next": reverse("home")}, follow=True
    )
    page = _text(response)
    assert '<html lang="en">' in page and "Finished tournaments" in page and "Log in" in page
    # Accept-Language chooses English for a visitor without a choice too.
    fresh = Client(HTTP_ACCEPT_LANGUAGE="en")
    assert "Running tournaments" in _text(fresh.get(reverse("home")))


def test_sign_up_logs_in_and_log_out(client: Client) -> None:
    response = client.post(
        reverse("signup"),
        {
            "username": "nieuweling",
            "email": "nieuweling@example.org",
            "password1": "Harten-Vrouw-77",
            "password2": "Harten-Vrouw-77",
        },
    )
    assert response.status_code == 302
    assert get_user_model().objects.filter(username="nieuweling").exists()
    assert "nieuweling" in _text(client.get(reverse("home")))
    client.post(reverse("logout"))
    assert "nieuweling" not in _text(client.get(reverse("home")))
    assert client.login(username="nieuweling", password="Harten-Vrouw-77")


# --- Tournament page and joining ----------------------------------------------------------


def test_join_from_the_tournament_page(client: Client, tournament: Tournament, user: Any) -> None:
    detail = reverse("tournament_detail", args=[tournament.pk])
    assert "Log in om mee te doen" in _text(client.get(detail))
    assert client.post(reverse("tournament_join", args=[tournament.pk])).status_code == 302
    assert not tournament.entries.exists()  # anonymous: sent to the log-in page
    client.force_login(user)
    assert "Doe mee aan dit toernooi" in _text(client.get(detail))
    response = client.post(reverse("tournament_join", args=[tournament.pk]))
    game = Game.objects.get(user=user)
    assert response.status_code == 302 and response["Location"] == reverse("play", args=[game.pk])
    page = _text(client.get(detail))
    assert "Doe mee aan dit toernooi" not in page and "Verder spelen" in page
    # Joining again shows the reason, in Dutch.
    again = client.post(reverse("tournament_join", args=[tournament.pk]), follow=True)
    assert "Je doet al mee aan dit toernooi." in _text(again)


def test_full_tournament_cannot_be_joined(client: Client, organizer: Any, user: Any) -> None:
    t = factories.make_tournament(created_by=organizer, max_entrants=1)
    entry_services.entry_join(tournament_id=t.pk, user=factories.make_user())
    client.force_login(user)
    assert "Doe mee" not in _text(client.get(reverse("tournament_detail", args=[t.pk])))
    response = client.post(reverse("tournament_join", args=[t.pk]), follow=True)
    assert "Dit toernooi is vol." in _text(response)


def test_leaderboard_and_own_result_after_the_last_round(
    client: Client, tournament: Tournament, user: Any
) -> None:
    game = entry_services.entry_join(tournament_id=tournament.pk, user=user).game
    other = entry_services.entry_join(tournament_id=tournament.pk, user=factories.make_user()).game
    game, _ = factories.play_to_end(game, user)
    client.force_login(user)
    response = client.get(reverse("tournament_detail", args=[tournament.pk]))
    rows = response.context["standings"]
    by_game = {r.game_id: r for r in rows}
    other.refresh_from_db()
    # The other entrant has finished no round (the deal gives South a turn in round 0).
    assert other.round_scores == []
    assert [r.game_id for r in rows] == [game.pk, other.pk]
    assert rows[0].rank == 1 and rows[1].rank is None
    rank = by_game[game.pk].rank
    total, average, result = standing_selectors.game_result(game)
    page = _text(response)
    assert "Jouw resultaat" in page and "Plaats tot nu toe" in page
    assert response.context["my_result"] == {
        "total": total,
        "opponents_average": average,
        "result": result,
        "rank": rank,
    }
    # Finished: the per-deal table of the field is shown (round by round).
    assert "Per ronde: het hele veld met dezelfde kaarten" in page
    assert len(response.context["deals"]) == tournament.rounds
    # Still running: no replays and no secret yet.
    assert "terugkijken" not in page and bytes(tournament.secret).hex() not in page


def test_per_deal_table_is_hidden_until_you_finish_a_round(
    client: Client, tournament: Tournament, user: Any
) -> None:
    entry_services.entry_join(tournament_id=tournament.pk, user=user)
    client.force_login(user)
    response = client.get(reverse("tournament_detail", args=[tournament.pk]))
    assert response.context["deals"] == []
    assert "Per spel" not in _text(response)


# --- Closing, replay and verification ----------------------------------------------------


def test_after_closing_secret_replays_and_verification_are_public(
    client: Client, tournament: Tournament, user: Any
) -> None:
    game = entry_services.entry_join(tournament_id=tournament.pk, user=user).game
    replay = reverse("game_replay", args=[game.pk])
    verify = reverse("tournament_verify", args=[tournament.pk])
    assert client.get(replay).status_code == 404
    assert bytes(tournament.secret).hex() not in _text(client.get(verify))
    closing_services.tournament_close(tournament_id=tournament.pk)
    page = _text(client.get(reverse("tournament_detail", args=[tournament.pk])))
    secret = bytes(tournament.secret).hex()
    assert secret in page and tournament.commitment in page and "eindstand" in page
    assert "uitgespeeld door de bot" in page
    response = client.get(replay + "?round=1")
    assert response.status_code == 200
    frames = response.context["frames"]
    assert len(frames) == game.played_rounds.get(round_index=1).moves + 1
    assert 'id="replay-frames"' in response.content.decode()
    assert client.get(replay + "?round=7").status_code == 404
    check = client.get(verify)
    assert check.status_code == 200
    assert check.context["verification"].matches
    assert hashlib.sha256(bytes.fromhex(secret)).hexdigest() == tournament.commitment
    assert "klopt met de vastlegging" in _text(check)


# --- Organizer -----------------------------------------------------------------------------


def test_only_organizers_may_organize(client: Client, user: Any, tournament: Tournament) -> None:
    client.force_login(user)
    for name in ("tournament_edit", "tournament_entries"):
        assert client.get(reverse(name, args=[tournament.pk])).status_code == 403
    assert client.get(reverse("tournament_create")).status_code == 403
    assert client.post(reverse("tournament_close", args=[tournament.pk])).status_code == 403
    tournament.refresh_from_db()
    assert tournament.closed_at is None
    staff = factories.make_user("staf", is_staff=True)
    client.force_login(staff)
    assert client.get(reverse("tournament_create")).status_code == 200


def test_the_form_offers_every_preset_and_its_variant_fields(
    client: Client, organizer: Any
) -> None:
    client.force_login(organizer)
    response = client.get(reverse("tournament_create"))
    choices = [
        v
        for _group, options in response.context["form"].fields["preset"].choices
        for v, _label in options
    ]
    for game in GAMES:
        for preset in game_module(game).PRESETS:
            assert f"{game}:{preset}" in choices
    for game, module in available_games().items():
        for preset, variant in module.PRESETS.items():
            form = client.get(reverse("tournament_create"), {"preset": f"{game}:{preset}"})
            fields = form.context["form"].fields
            for key, value in variant.to_json().items():
                if key not in ("name", "title_nl", "title_en", "rounds"):
                    assert fields[f"v_{key}"].initial == value
    # Switching the variant in the form loads that variant's settings.
    switched = client.post(
        reverse("tournament_create"),
        {"preset": "jokeren:veertigen", "name": "Test", "load_preset": "1"},
    )
    assert switched.context["form"]["v_opening"].value() == "points"


def _form_data(preset: str = "jokeren:jokeren13", **extra: Any) -> dict[str, Any]:
    now = timezone.localtime()
    data: dict[str, Any] = {
        "name": "Zondagavond",
        "preset": preset,
        "rounds": 8,
        "max_entrants": 10,
        "bot_level": "strong",
        "opens_at": now.strftime("%Y-%m-%dT%H:%M"),
        "closes_at": (now + timedelta(days=3)).strftime("%Y-%m-%dT%H:%M"),
    }
    game, name = preset.split(":")
    for key, value in game_module(game).PRESETS[name].to_json().items():
        if key in ("name", "title_nl", "title_en", "rounds"):
            continue
        if isinstance(value, bool):
            if value:
                data[f"v_{key}"] = "on"
        elif isinstance(value, (list, dict)) or value is None:
            import json

            data[f"v_{key}"] = json.dumps(value)
        else:
            data[f"v_{key}"] = value
    data.update(extra)
    return data


def test_organizer_creates_a_tournament_with_an_adjusted_variant(
    client: Client, organizer: Any
) -> None:
    client.force_login(organizer)
    response = client.post(
        reverse("tournament_create"),
        _form_data(v_hand_size=11, v_lay_off_same_turn="on", v_turn_limit=300),
    )
    assert response.status_code == 302, response.context["form"].errors
    t = Tournament.objects.get(name="Zondagavond")
    assert (t.game, t.preset, t.rounds, t.max_entrants, t.bot_level) == (
        "jokeren",
        "jokeren13",
        8,
        10,
        "strong",
    )
    assert t.variant["hand_size"] == 11 and t.variant["lay_off_same_turn"] is True
    assert t.variant["turn_limit"] == 300 and t.variant["decks"] == 2
    assert t.created_by == organizer and len(bytes(t.secret)) == 32


def test_organizer_form_refuses_invalid_settings(client: Client, organizer: Any) -> None:
    client.force_login(organizer)
    now = timezone.localtime()
    bad_window = _form_data(closes_at=(now - timedelta(days=1)).strftime("%Y-%m-%dT%H:%M"))
    assert client.post(reverse("tournament_create"), bad_window).status_code == 200
    bad_choice = _form_data(v_complete_meld="burn")
    response = client.post(reverse("tournament_create"), bad_choice)
    assert response.status_code == 200 and "v_complete_meld" in response.context["form"].errors
    # Values the form accepts but the engine refuses come back as the form's error.
    bad_variant = _form_data(v_decks=5)
    response = client.post(reverse("tournament_create"), bad_variant)
    assert response.status_code == 200 and response.context["form"].non_field_errors()
    assert not Tournament.objects.exists()


def test_organizer_edits_and_sees_entrants(
    client: Client, organizer: Any, tournament: Tournament, user: Any
) -> None:
    client.force_login(organizer)
    data = _form_data("jokeren:jokeren7", name="Hernoemd", rounds=3)
    assert client.post(reverse("tournament_edit", args=[tournament.pk]), data).status_code == 302
    tournament.refresh_from_db()
    assert tournament.name == "Hernoemd" and tournament.rounds == 3
    game = entry_services.entry_join(tournament_id=tournament.pk, user=user).game
    play_services.game_play_move(
        game_id=game.pk, user=user, seq=game.seq, action=factories.south_action(game)
    )
    page = client.get(reverse("tournament_entries", args=[tournament.pk]))
    assert user.username in _text(page) and "speelt ronde" in _text(page)
    # Once someone entered, the game settings are locked; the name may still change.
    data = _form_data("jokeren:jokeren7", name="Weer anders", rounds=5)
    response = client.post(reverse("tournament_edit", args=[tournament.pk]), data)
    assert response.status_code == 302
    tournament.refresh_from_db()
    assert tournament.name == "Weer anders" and tournament.rounds == 3


def test_organizer_closes_early(
    client: Client, organizer: Any, tournament: Tournament, user: Any
) -> None:
    game = entry_services.entry_join(tournament_id=tournament.pk, user=user).game
    client.force_login(organizer)
    response = client.post(reverse("tournament_close", args=[tournament.pk]))
    assert response.status_code == 302
    tournament.refresh_from_db()
    game.refresh_from_db()
    # Tasks run inline here; the test transaction keeps on_commit callbacks back, so the
    # window is shut at once and the close itself follows after the commit.
    assert tournament.closes_at <= timezone.now()
    assert not tournament.window_open()
    closing_services.tournament_close(tournament_id=tournament.pk)
    game.refresh_from_db()
    assert game.bot_finished and game.status == "finished"


# --- Rules ---------------------------------------------------------------------------------


def test_rules_page_in_dutch_marks_platform_decisions(client: Client, organizer: Any) -> None:
    t = factories.make_tournament(created_by=organizer, preset="klassiek", rounds=6)
    page = _text(client.get(reverse("tournament_rules", args=[t.pk])))
    assert "Spelregels Jokeren" in page and "platformregel" in page
    assert "2 kaartspellen" in page and "13 kaarten" in page
    assert "opdracht" in page.lower()
    for contract in t.variant["contracts"]:
        assert contract["description_nl"] in page
    english = _text(client.get(reverse("tournament_rules", args=[t.pk]), HTTP_ACCEPT_LANGUAGE="en"))
    assert "Rules of Jokeren" in english and "platform rule" in english
    assert t.variant["contracts"][0]["description_en"] in english


@pytest.mark.parametrize("preset", list(PRESETS))
def test_rules_follow_the_variant(client: Client, preset: str) -> None:
    page = _text(client.get(reverse("preset_rules", args=["jokeren", preset])))
    variant = PRESETS[preset]
    assert f"Iedere speler krijgt {variant.hand_size} kaarten." in page
    if variant.opening == "points":
        assert f"minstens {variant.opening_points} punten" in page
    if variant.complete_meld == "recycle":
        assert "onder de open stapel" in page
    else:
        assert "Het gaat uit het spel." in page
    if variant.scoring == "cards":
        assert "het aantal kaarten" in page
    # seed 001: without an open card the first player draws from the stock
    if variant.open_card:
        assert "één kaart wordt opengelegd" in page
    else:
        assert "er wordt geen kaart opengelegd" in page
        assert "De eerste speler pakt van de dichte stapel" in page


def test_rules_of_every_game_render(client: Client) -> None:
    for game, module in available_games().items():
        for preset in module.PRESETS:
            assert client.get(reverse("preset_rules", args=[game, preset])).status_code == 200
    assert client.get(reverse("preset_rules", args=["jokeren", "nope"])).status_code == 404


# --- Practice ----------------------------------------------------------------------------


def test_practice_game_outside_any_tournament(client: Client, user: Any) -> None:
    client.force_login(user)
    response = client.post(
        reverse("practice"), {"preset": "jokeren:jokeren7", "bot_level": "basic"}
    )
    game = Game.objects.get(user=user)
    assert response["Location"] == reverse("play", args=[game.pk])
    assert game.entry is None and game.bot_level == "basic"
    data = client.get(reverse("api_game", args=[game.pk])).json()
    assert data["tournament"] is None and data["your_turn"]
    assert client.get(reverse("game_replay", args=[game.pk])).status_code == 404
    factories.play_to_end(game, user)
    assert client.get(reverse("game_replay", args=[game.pk])).status_code == 200
    assert client.get(reverse("api_game", args=[game.pk])).json()["result"]["rank"] is None


def test_admin_lists_and_closes_tournaments(
    client: Client, tournament: Tournament, django_capture_on_commit_callbacks: Any
) -> None:
    admin_user = get_user_model().objects.create_superuser("beheer", "b@example.org", "pw-123")
    client.force_login(admin_user)
    for url in ("tournament", "game", "gameround"):
        assert client.get(reverse(f"admin:tournaments_{url}_changelist")).status_code == 200
    with django_capture_on_commit_callbacks(execute=True):
        client.post(
            reverse("admin:tournaments_tournament_changelist"),
            {"action": "close_now", "_selected_action": [tournament.pk]},
        )
    tournament.refresh_from_db()
    assert tournament.closed_at is not None
