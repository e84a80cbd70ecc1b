"""The organizer's forms (issue 13, item 6): every field has a help text in Dutch and in
English; the opening and closing times name the time zone; a field that does not apply
(opening points without the points opening, contracts without the contract opening, new
deals without two bidding rounds) is marked for the page to hide and ignored by the
server, while it stays validated when it applies; the contracts editor gets every
preset's contracts with their names and the choice of each round."""

from __future__ import annotations

import json
import re
from typing import Any

import factories
import pytest
from django.conf import settings
from django.test import Client
from django.urls import reverse
from django.utils import translation

from engine.jokeren import PRESETS as JOKEREN
from engine.registry import GAMES, game_module
from tournaments.forms import SeriesForm, TournamentForm
from tournaments.models import Tournament

pytestmark = pytest.mark.django_db

EVERY_PRESET = [f"{game}:{preset}" for game in GAMES for preset in game_module(game).PRESETS]


def _help(form: Any) -> dict[str, str]:
    return {name: str(field.help_text) for name, field in form.fields.items()}


@pytest.mark.parametrize("preset", EVERY_PRESET)
@pytest.mark.parametrize("form_class", [TournamentForm, SeriesForm])
def test_every_field_has_a_help_text_in_dutch_and_english(preset: str, form_class: Any) -> None:
    with translation.override("en"):
        english = _help(form_class(preset=preset))
    with translation.override("nl"):
        dutch = _help(form_class(preset=preset))
    assert all(english.values()), [k for k, v in english.items() if not v]
    # Translated: no Dutch help text is the English one.
    assert not [k for k in dutch if dutch[k] == english[k]]


def test_the_opening_and_closing_times_name_the_time_zone(client: Client, organizer: Any) -> None:
    client.force_login(organizer)
    page = client.get(reverse("tournament_create")).content.decode()
    zone = settings.TIME_ZONE
    for name in ("opens_at", "closes_at"):
        label = re.search(rf'<label for="id_{name}">(.*?)</label>', page)
        assert label and zone in label.group(1)
        assert f'id="id_{name}_helptext"' in page
        assert re.search(rf'<input[^>]*aria-describedby="id_{name}_helptext"', page)


def test_fields_that_apply_only_sometimes_are_marked_for_the_page(
    client: Client, organizer: Any
) -> None:
    client.force_login(organizer)
    page = client.get(reverse("tournament_create"), {"preset": "jokeren:klassiek"})
    html = page.content.decode()
    marks = dict(
        re.findall(
            r'data-field="(v_\w+)" data-applies-field="v_opening" data-applies-values="(\w+)"', html
        )
    )
    assert marks == {"v_opening_points": "points", "v_contracts": "contract"}
    kj = client.get(reverse("tournament_create"), {"preset": "klaverjas:rotterdams"})
    assert re.search(
        r'data-field="v_max_redeals" data-applies-field="v_bidding" '
        r'data-applies-values="two_rounds"',
        kj.content.decode(),
    )
    # No Jokeren setting on the Klaverjas form.
    assert "v_contracts" not in kj.content.decode()


def _post(client: Client, preset: str, **fields: Any) -> Any:
    return client.post(
        reverse("tournament_create"), factories.tournament_form_data(preset, **fields)
    )


def test_contracts_are_ignored_without_the_contract_opening(client: Client, organizer: Any) -> None:
    client.force_login(organizer)
    klassiek = json.dumps(JOKEREN["klassiek"].to_json()["contracts"])
    # The points opening with the contracts the hidden editor still carries.
    response = _post(client, "jokeren:klassiek", v_opening="points", v_contracts=klassiek)
    assert response.status_code == 302, response.context["form"].errors
    t = Tournament.objects.get()
    assert t.variant["opening"] == "points" and t.variant["contracts"] == []


def test_opening_points_are_ignored_without_the_points_opening(
    client: Client, organizer: Any
) -> None:
    client.force_login(organizer)
    response = _post(client, "jokeren:jokeren13", v_opening_points="")
    assert response.status_code == 302, response.context["form"].errors
    assert Tournament.objects.get().variant["opening_points"] == 40


def test_a_field_that_applies_is_still_validated(client: Client, organizer: Any) -> None:
    client.force_login(organizer)
    response = _post(client, "jokeren:veertigen", v_opening_points="")
    assert response.status_code == 200 and "v_opening_points" in response.context["form"].errors
    response = _post(client, "jokeren:klassiek", v_contracts="[")
    assert response.status_code == 200 and "v_contracts" in response.context["form"].errors
    response = _post(client, "jokeren:klassiek", v_contracts="[]")
    assert response.status_code == 200 and response.context["form"].non_field_errors()
    assert not Tournament.objects.exists()


def test_new_deals_are_ignored_with_one_bidding_round(client: Client, organizer: Any) -> None:
    client.force_login(organizer)
    response = _post(client, "klaverjas:rotterdams", v_max_redeals="veel")
    assert response.status_code == 302, response.context["form"].errors
    response = _post(client, "klaverjas:rotterdams", v_bidding="two_rounds", v_max_redeals="veel")
    assert response.status_code == 200 and "v_max_redeals" in response.context["form"].errors


def _editor(page: str) -> Any:
    match = re.search(r'id="contract-editor"[^>]*>(.*?)</script>', page, re.S)
    assert match
    return json.loads(match.group(1))


def test_the_contracts_editor_offers_every_presets_contracts_by_name(
    client: Client, organizer: Any
) -> None:
    client.force_login(organizer)
    page = client.get(reverse("tournament_create"), {"preset": "jokeren:klassiek"})
    editor = _editor(page.content.decode())
    contracts = JOKEREN["klassiek"].to_json()["contracts"]
    five = JOKEREN["vijf-rondes"].to_json()["contracts"]
    labels = [c["label"] for c in editor["choices"]]
    assert labels == [c["description_nl"] for c in contracts + five]
    assert [editor["choices"][i]["contract"] for i in editor["rows"]] == contracts
    english = client.get(
        reverse("tournament_create"), {"preset": "jokeren:vijf-rondes"}, HTTP_ACCEPT_LANGUAGE="en"
    )
    editor = _editor(english.content.decode())
    assert [editor["choices"][i]["label"] for i in editor["rows"]] == [
        c["description_en"] for c in five
    ]


def test_the_editors_choice_per_round_is_what_the_tournament_plays(
    client: Client, organizer: Any
) -> None:
    client.force_login(organizer)
    contracts = JOKEREN["klassiek"].to_json()["contracts"]
    chosen = [contracts[2], contracts[0], contracts[0], contracts[5]]
    response = _post(client, "jokeren:klassiek", rounds=4, v_contracts=json.dumps(chosen))
    assert response.status_code == 302, response.context["form"].errors
    t = Tournament.objects.get()
    assert t.variant["contracts"] == chosen
    # A form sent back with an error keeps each round's choice.
    again = _post(client, "jokeren:klassiek", name="", rounds=4, v_contracts=json.dumps(chosen))
    editor = _editor(again.content.decode())
    assert editor["rows"] == [2, 0, 0, 5]
