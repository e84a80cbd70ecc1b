"""The card tables' words (issue 35, item 5): the strings each table page gives its script,
in Dutch and English."""

from __future__ import annotations

import json
import re
from typing import Any

import pytest
from django.test import Client
from django.urls import reverse

from tournaments.services import entries as entry_services

pytestmark = pytest.mark.django_db


def _strings(user: Any, game: str, preset: str, language: str) -> dict[str, str]:
    played = entry_services.game_practice_start(user=user, game=game, preset=preset)
    client = Client()
    client.force_login(user)
    client.cookies["django_language"] = language
    page = client.get(reverse("play", args=[played.pk])).content.decode()
    found = re.search(
        r'<script type="application/json" id="table-strings">(.*?)</script>', page, re.S
    )
    assert found is not None
    strings: dict[str, str] = json.loads(found.group(1))
    return strings


def test_the_english_score_sheet_says_nat_and_pit_as_the_english_rules_do(user: Any) -> None:
    en = _strings(user, "klaverjas", "rotterdams", "en")
    assert en["round_of"] == "Round {round} of {rounds}"  # the English page
    assert en["nat"] == "nat" and en["pit"] == "pit"
    assert "nat" in en["nat_text"] and "(pit)" in en["pit_text"]
    assert not any(re.search(r"\b(wet|march)\b", text) for text in en.values())
    nl = _strings(user, "klaverjas", "rotterdams", "nl")
    assert nl["round_of"] == "Ronde {round} van {rounds}"
    assert nl["nat"] == "nat" and nl["pit"] == "pit"


def test_the_klaverjas_table_names_clubs_klaveren_and_a_trick_of_yours(user: Any) -> None:
    nl = _strings(user, "klaverjas", "rotterdams", "nl")
    assert nl["suit_names"].split(",")[0] == "klaveren"
    assert nl["trick_to_you"] == "Slag voor jou"
    assert nl["log_trick_you"] == "Slag voor jou: {points} punten."
    assert nl["no_last_trick"] == "In deze ronde is nog geen slag gespeeld."


def test_the_jokeren_table_has_tap_words_for_touch_screens(user: Any) -> None:
    nl = _strings(user, "jokeren", "jokeren7", "nl")
    for key in ("select_hint", "pick_meld_lay_off", "pick_meld_swap"):
        assert nl[key].startswith("Klik op ")
        assert nl[f"{key}_tap"].startswith("Tik op ")


def test_the_replay_says_slag_voor_jou_to_the_player() -> None:
    import factories

    _t, played = factories.closed_game("klaverjas", "rotterdams", username="terugkijker")
    client = Client()
    client.force_login(played.user)
    page = client.get(reverse("game_replay", args=[played.pk])).content.decode()
    assert '"trick_to_you": "Slag voor jou"' in page
    # roem in a trick the player won: "slag 3: 20 voor jou" (static/js/replay.js)
    assert '"roem_in_trick_you": "slag {n}: {roem} voor jou"' in page
    assert '"you": "Jij"' in page
