"""Every registered game module has every member of ``engine.protocol.GameModule`` (mypy
checks it statically through ``engine.registry.MODULES``; this checks it at run time) and
the members the site shows a game with keep their promises: a card's code is the
observation's, a hand in the table's order is the same hand, the table's stylesheet
exists, the variant's form fields describe the variant's own settings."""

from __future__ import annotations

import dataclasses
import importlib
import inspect
import typing
from pathlib import Path
from typing import Any

import pytest

from engine.fields import FieldSpec
from engine.jokeren.melds import ids_of_codes
from engine.protocol import GameModule
from engine.registry import GAMES, MODULES, game_module

SECRET = bytes(range(32))
STATIC = Path(__file__).resolve().parents[2] / "static"


def _members() -> dict[str, Any]:
    """The protocol's members: its constants (properties) and its functions."""
    return {
        name: value
        for name, value in vars(GameModule).items()
        if not name.startswith("_") and (isinstance(value, property) or callable(value))
    }


def _literal_values(variant: Any, key: str) -> tuple[Any, ...] | None:
    hint = typing.get_type_hints(type(variant)).get(key)
    if hint is not None and typing.get_origin(hint) is typing.Literal:
        return typing.get_args(hint)
    return None


def test_the_registry_holds_each_game_package_under_its_name() -> None:
    assert tuple(MODULES) == GAMES
    for game in GAMES:
        assert MODULES[game] is importlib.import_module(f"engine.{game}")
        assert game == game_module(game).GAME


@pytest.mark.parametrize("game", GAMES)
def test_every_protocol_member_is_there_and_takes_the_protocols_arguments(game: str) -> None:
    module = game_module(game)
    members = _members()
    # the members the site asks of a game (issue 24), among them
    assert {"describe", "card_code", "hand_in_table_order", "TABLE_CSS", "TITLE"} <= set(members)
    assert "meld_readings_json" in members
    assert "VARIANT_FIELDS" in members
    for name, member in members.items():
        assert hasattr(module, name), f"{game} has no {name}"
        if isinstance(member, property):
            continue
        assert callable(getattr(module, name)), name
        wanted = list(inspect.signature(member).parameters.values())[1:]  # after ``self``
        have = inspect.signature(getattr(module, name)).parameters
        positional = [p for p in have.values() if p.kind is not inspect.Parameter.KEYWORD_ONLY]
        assert len(positional) == sum(p.kind is not p.KEYWORD_ONLY for p in wanted), name
        for param in wanted:
            if param.kind is inspect.Parameter.KEYWORD_ONLY:
                assert param.name in have, f"{game}.{name} lacks the keyword {param.name}"
                assert have[param.name].kind is inspect.Parameter.KEYWORD_ONLY


@pytest.mark.parametrize("game", GAMES)
def test_moves_in_words_and_cards_as_the_observation_writes_them(game: str) -> None:
    module = game_module(game)
    state = module.new_round(next(iter(module.PRESETS.values())), secret=SECRET, round_index=0)
    for _ in range(12):
        if state.is_terminal:
            break
        seat = state.current_player
        observation = state.observation(seat)
        assert [module.card_code(c) for c in observation["hand"]] == observation["hand_codes"]
        ordered = module.hand_in_table_order(observation["hand_codes"])
        assert sorted(ordered) == sorted(observation["hand_codes"])
        for action in state.legal_actions():
            nl, en = module.describe(action)
            assert nl and en and nl != en
        state = state.apply(state.legal_actions()[0])


@pytest.mark.parametrize("game", GAMES)
def test_the_title_and_the_tables_stylesheet(game: str) -> None:
    module = game_module(game)
    nl, en = module.TITLE
    assert nl and en
    assert (STATIC / module.TABLE_CSS).is_file()


@pytest.mark.parametrize("game", GAMES)
def test_the_variant_fields_describe_the_variants_own_settings(game: str) -> None:
    module = game_module(game)
    for variant in module.PRESETS.values():
        settings = variant.to_json()
        for key, spec in module.VARIANT_FIELDS.items():
            assert isinstance(spec, FieldSpec)
            assert key in settings, f"{game}: {key} is no setting"
            assert all(spec.label) and all(spec.help), key
            literal = _literal_values(variant, key)
            if spec.value_labels:
                # every value in words, and only the values the setting takes
                assert literal is not None and set(spec.value_labels) == set(literal), key
                assert all(all(pair) for pair in spec.value_labels.values())
            if spec.choices is not None:
                assert settings[key] in spec.choices, key
            if spec.int_range is not None:
                low, high = spec.int_range
                assert low <= settings[key] <= high, key
            if spec.normal_item is not None:
                # the presets' items are written as the engine writes them
                assert [spec.normal_item(item) for item in settings[key]] == settings[key]


@pytest.mark.parametrize("game", GAMES)
def test_a_setting_that_does_not_apply_holds_a_value_the_engine_takes(game: str) -> None:
    """``applies_when`` names another setting and some of its values; with any other value
    the setting holds its ``idle`` value (else the variant's own), and the engine takes
    the variant."""
    module = game_module(game)
    specs = module.VARIANT_FIELDS

    def idle(settings: dict[str, Any]) -> dict[str, Any]:
        """The settings with every setting that does not apply holding its idle value."""
        out = dict(settings)
        for key, spec in specs.items():
            if spec.applies_when and out[spec.applies_when[0]] not in spec.applies_when[1]:
                out[key] = spec.idle if spec.idle is not None else out[key]
        return out

    def applying_now(settings: dict[str, Any]) -> set[str]:
        return {
            k
            for k, s in specs.items()
            if s.applies_when and settings[s.applies_when[0]] in s.applies_when[1]
        }

    for key, spec in specs.items():
        if spec.applies_when is None:
            continue
        other, values = spec.applies_when
        checked = 0
        for variant in module.PRESETS.values():
            literal = _literal_values(variant, other)
            assert literal is not None and set(values) < set(literal), key
            for applying in values:
                start = idle({**variant.to_json(), other: applying})
                try:
                    module.variant_from_json(start)
                except ValueError:
                    continue  # this setting needs the organizer's input first
                for value in set(literal) - set(values):
                    settings = idle({**start, other: value})
                    if applying_now(settings) - applying_now(start):
                        continue  # another setting now applies: it needs the organizer
                    assert module.variant_from_json(settings).to_json()[other] == value
                    checked += 1
        assert checked, key


def test_a_field_spec_is_frozen() -> None:
    spec = next(iter(game_module(GAMES[0]).VARIANT_FIELDS.values()))
    with pytest.raises(dataclasses.FrozenInstanceError):
        spec.label = ("x", "y")  # type: ignore[misc]


def test_only_a_game_with_melds_reads_cards_as_a_meld() -> None:
    # Jokeren (docs/rules.md §2): 5♥ 6♥ 7♥ is a run; three cards of one suit far apart
    # are no meld. Klaverjas has no melds at all.
    jokeren = game_module("jokeren")
    run = ids_of_codes(["5h", "6h", "7h"])
    assert [r["kind"] for r in jokeren.meld_readings_json(run) or []] == ["run"]
    assert jokeren.meld_readings_json(ids_of_codes(["2h", "6h", "Jh"])) == []
    assert game_module("klaverjas").meld_readings_json([0, 1, 2]) is None
