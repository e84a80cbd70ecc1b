"""Which bot levels a game offers for new play (engine/strength.py; docs/rules.md, "Bot
levels"): basic and strong always; a level above them only while its current bot version
beats strong in every preset of the game, on at least 2,000 deals each, with the whole
95% interval on the better side of zero."""

from __future__ import annotations

import dataclasses

import pytest

import engine.jokeren as jokeren
import engine.klaverjas as klaverjas
from engine.strength import MIN_DEALS, Strength, offered_levels

LEVELS = ("basic", "strong", "expert")
PRESETS = ("a", "b")


def measured(preset: str, mean: float, low: float, high: float, **changes: object) -> Strength:
    s = Strength("expert", "strong", preset, 2, mean, low, high, MIN_DEALS, "2026-12-01")
    return dataclasses.replace(s, **changes)  # type: ignore[arg-type]


def offered(*strengths: Strength, lower_is_better: bool = False) -> tuple[str, ...]:
    return offered_levels(
        LEVELS,
        strengths=strengths,
        presets=PRESETS,
        version=2,
        lower_is_better=lower_is_better,
    )


def test_expert_beating_strong_clearly_in_every_preset_is_offered() -> None:
    assert offered(measured("a", 17.7, 15.2, 20.3), measured("b", 20.8, 18.2, 23.3)) == LEVELS


def test_a_level_with_no_measurement_is_not_offered_but_basic_and_strong_always_are() -> None:
    assert offered() == ("basic", "strong")


@pytest.mark.parametrize(
    "b",
    [
        measured("b", 1.0, -0.2, 2.2),  # the interval reaches zero
        measured("b", -3.0, -4.0, -2.0),  # clearly worse
        measured("b", 9.0, 8.0, 10.0, deals=MIN_DEALS - 1),  # too few deals
        measured("b", 9.0, 8.0, 10.0, version=1),  # another version's bots
        measured("b", 9.0, 8.0, 10.0, against="basic"),  # beating basic is not enough
    ],
)
def test_one_preset_short_of_the_rule_keeps_expert_out(b: Strength) -> None:
    assert offered(measured("a", 17.7, 15.2, 20.3), b) == ("basic", "strong")


def test_where_lower_is_better_the_interval_must_lie_below_zero() -> None:
    better = (measured("a", -2.5, -3.0, -2.0), measured("b", -2.1, -2.6, -1.6))
    assert offered(*better, lower_is_better=True) == LEVELS
    assert offered(*better, lower_is_better=False) == ("basic", "strong")
    even = (measured("a", -0.06, -0.23, 0.11), measured("b", 0.12, -0.27, 0.50))
    assert offered(*even, lower_is_better=True) == ("basic", "strong")


def test_jokeren_offers_no_expert_its_measurements_show_it_even_with_strong() -> None:
    assert jokeren.OFFERED_BOT_LEVELS == ("basic", "strong")
    assert "expert" in jokeren.BOT_LEVELS  # stored games still play it
    expert = [s for s in jokeren.STRENGTHS if s.level == "expert"]
    assert expert and not any(s.clearly_better(lower_is_better=True) for s in expert)


def test_klaverjas_offers_expert_measured_above_strong_in_both_presets() -> None:
    assert klaverjas.OFFERED_BOT_LEVELS == ("basic", "strong", "expert")
    for preset in klaverjas.PRESETS:
        [s] = [
            s
            for s in klaverjas.STRENGTHS
            if s.level == "expert" and s.preset == preset and s.version == klaverjas.BOT_VERSION
        ]
        assert s.deals >= MIN_DEALS and s.low > 0


@pytest.mark.parametrize("module", [jokeren, klaverjas])
def test_strong_is_measured_against_basic_in_every_preset(module: object) -> None:
    strengths = module.STRENGTHS  # type: ignore[attr-defined]
    lower = module.LOWER_IS_BETTER  # type: ignore[attr-defined]
    for preset in module.PRESETS:  # type: ignore[attr-defined]
        found = [s for s in strengths if s.level == "strong" and s.preset == preset]
        assert found, preset
        assert all(s.deals >= MIN_DEALS and s.clearly_better(lower_is_better=lower) for s in found)
