"""The organizer's form for Klaverjas settings: Dutch labels, readable choices, the
settings' own kinds of values (docs/rules.md §6: four jacks 100 or 200, an optional points
limit)."""

from typing import Any

import pytest
from django.utils import translation

from tournaments.forms import PracticeForm, TournamentForm


def _data(preset: str, **variant: Any) -> dict[str, Any]:
    form = TournamentForm(preset=preset)
    data: dict[str, Any] = {
        "name": "Klaverjasavond",
        "preset": preset,
        "rounds": 16,
        "max_entrants": 10,
        "bot_level": "strong",
        "opens_at": "2026-12-01T19:00",
        "closes_at": "2026-12-08T19:00",
    }
    for bound in form.variant_fields():
        value = form.initial.get(bound.name, bound.field.initial)
        if isinstance(value, bool):
            if value:
                data[bound.name] = "on"
        elif value is not None:
            data[bound.name] = value
    for key, value in variant.items():
        data.pop(f"v_{key}", None)
        if value is True:
            data[f"v_{key}"] = "on"
        elif value not in (False, None):
            data[f"v_{key}"] = value
    return data


def test_klaverjas_settings_have_dutch_labels_and_choices() -> None:
    with translation.override("nl"):
        form = TournamentForm(preset="klaverjas:rotterdams")
        labels = {b.name: str(b.label) for b in form.variant_fields()}
        bidding = {k: str(v) for k, v in form.fields["v_bidding"].choices}
        groups = [str(label) for label, _options in form.fields["preset"].choices]
    assert labels["v_four_jacks"] == "Roem voor vier boeren"
    assert labels["v_tie_is_nat"] == "Gelijkspel is nat"
    assert not any("_" in label for label in labels.values())
    assert bidding["no_passing"].startswith("zonder passen")
    assert "Klaverjassen" in groups


def test_points_limit_is_an_optional_whole_number() -> None:
    empty = TournamentForm(_data("klaverjas:rotterdams"))
    assert empty.is_valid(), empty.errors
    assert empty.service_kwargs()["variant"]["points_limit"] is None
    limited = TournamentForm(_data("klaverjas:rotterdams", points_limit=1500))
    assert limited.is_valid(), limited.errors
    assert limited.service_kwargs()["variant"]["points_limit"] == 1500


@pytest.mark.parametrize(("value", "ok"), [(100, True), (200, True), (150, False)])
def test_four_jacks_is_100_or_200(value: int, ok: bool) -> None:
    form = TournamentForm(_data("klaverjas:amsterdams", four_jacks=value))
    assert form.is_valid() is ok
    if ok:
        assert form.service_kwargs()["variant"]["four_jacks"] == value


@pytest.mark.parametrize("preset", ["klaverjas:rotterdams", "klaverjas:amsterdams"])
def test_the_tournament_form_offers_expert_and_proposes_strong(preset: str) -> None:
    """Klaverjassen' expert (Jokeren offers none: tests/tournaments/test_bot_levels_offered.py)."""
    with translation.override("nl"):
        form = TournamentForm(preset=preset)
        levels = dict(form.fields["bot_level"].choices)
    assert list(levels) == ["basic", "strong", "expert"]
    assert str(levels["expert"]) == "expert" and str(levels["strong"]) == "sterk"
    assert form.initial["bot_level"] == "strong"
    data = _data(preset)
    data["bot_level"] = "expert"
    chosen = TournamentForm(data)
    assert chosen.is_valid(), chosen.errors
    assert chosen.service_kwargs()["bot_level"] == "expert"


def test_the_practice_form_offers_expert_and_proposes_strong() -> None:
    form = PracticeForm()
    assert "expert" in dict(form.fields["bot_level"].choices)
    assert form.fields["bot_level"].initial == "strong"
    chosen = PracticeForm({"preset": "klaverjas:amsterdams", "bot_level": "expert"})
    assert chosen.is_valid(), chosen.errors
