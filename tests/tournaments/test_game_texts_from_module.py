"""The site shows a game as its module says (engine.protocol, issue 24): the organizer's
form labels and explains each setting with the module's ``VARIANT_FIELDS`` in the page's
language (Dutch first, English second), the preset list names each game by its
``TITLE``, and the replay page uses the game's table stylesheet (``TABLE_CSS``)."""

from __future__ import annotations

from typing import Any

import factories
import pytest
from django.test import Client
from django.urls import reverse
from django.utils import translation

from engine.fields import FieldSpec
from engine.registry import GAMES, game_module
from tournaments.forms import HIDDEN_VARIANT_KEYS, VARIANT_PREFIX, TournamentForm

pytestmark = pytest.mark.django_db

PRESETS = [(game, preset) for game in GAMES for preset in game_module(game).PRESETS]


def _texts(form: TournamentForm) -> dict[str, tuple[str, str, dict[str, str]]]:
    """Each variant setting's label, help and value words as the form shows them now."""
    out = {}
    for name, field in form.fields.items():
        if name.startswith(VARIANT_PREFIX):
            values = {str(v): str(w) for v, w in getattr(field, "choices", [])}
            out[name.removeprefix(VARIANT_PREFIX)] = (
                str(field.label),
                str(field.help_text),
                values,
            )
    return out


@pytest.mark.parametrize(("game", "preset"), PRESETS)
@pytest.mark.parametrize(("language", "index"), [("nl", 0), ("en", 1)])
def test_every_setting_is_labelled_and_explained_by_its_game_module(
    game: str, preset: str, language: str, index: int
) -> None:
    module = game_module(game)
    with translation.override(language):
        texts = _texts(TournamentForm(preset=f"{game}:{preset}"))
    shown = set(module.PRESETS[preset].to_json()) - set(HIDDEN_VARIANT_KEYS)
    assert set(texts) == shown
    for key, (label, help_text, values) in texts.items():
        spec = module.VARIANT_FIELDS[key]
        assert label == spec.label[index]
        assert help_text == spec.help[index]
        for value, words in spec.value_labels.items():
            assert values[value] == words[index]


def test_the_dutch_and_english_words_of_the_settings_are_the_card_players() -> None:
    """docs/rules.md §6 in the card players' words: "ondertroeven", "roem" for four jacks,
    "zonder passen", the partner is "je maat"; §3's Jokeren "setjes" and the pack of 52
    cards with 2 jokers."""
    with translation.override("nl"):
        kj = _texts(TournamentForm(preset="klaverjas:amsterdams"))
        jk = _texts(TournamentForm(preset="jokeren:jokeren7"))
    assert kj["undertrump"][0] == "Ondertroeven"
    assert kj["four_jacks"][0] == "Roem voor vier boeren"
    assert kj["bidding"][2]["no_passing"].startswith("zonder passen")
    assert "maat" in kj["partner_exemption"][0] and "Amsterdams" in kj["partner_exemption"][1]
    assert jk["complete_meld"][0] == "Een compleet setje gaat"
    assert "52 kaarten" in jk["decks"][1] and "2 jokers" in jk["decks"][1]
    with translation.override("en"):
        kj = _texts(TournamentForm(preset="klaverjas:amsterdams"))
        jk = _texts(TournamentForm(preset="jokeren:jokeren7"))
    assert kj["undertrump"][0] == "Undertrumping"
    assert kj["four_jacks"][0] == "Roem for four jacks"
    assert jk["complete_meld"][0] == "A complete meld goes"
    assert "52 cards" in jk["decks"][1]


def test_a_label_is_read_in_the_language_of_the_page_that_shows_it() -> None:
    with translation.override("nl"):
        form = TournamentForm(preset="klaverjas:rotterdams")
    with translation.override("en"):
        assert str(form.fields["v_tie_is_nat"].label) == "A tie is nat"
    with translation.override("nl"):
        assert str(form.fields["v_tie_is_nat"].label) == "Gelijkspel is nat"


def test_the_form_takes_a_settings_words_from_the_module(monkeypatch: Any) -> None:
    fields = game_module("klaverjas").VARIANT_FIELDS
    monkeypatch.setitem(
        fields,
        "pit",
        FieldSpec(label=("Alle slagen", "Every trick"), help=("Een mars.", "A march.")),
    )
    with translation.override("nl"):
        texts = _texts(TournamentForm(preset="klaverjas:rotterdams"))
    assert texts["pit"][:2] == ("Alle slagen", "Een mars.")


@pytest.mark.parametrize("language", ["nl", "en"])
def test_the_preset_list_names_each_game_by_its_title(language: str) -> None:
    """The games' own names, in either language: "Jokeren", "Klaverjassen"."""
    with translation.override(language):
        groups = [str(label) for label, _options in TournamentForm().fields["preset"].choices]
    assert groups == ["Jokeren", "Klaverjassen"]


@pytest.mark.parametrize(("game", "preset"), [("jokeren", "jokeren7"), ("klaverjas", "rotterdams")])
def test_the_replay_page_uses_the_games_table_stylesheet(
    client: Client, game: str, preset: str
) -> None:
    _, played = factories.closed_game(game, preset, 1)
    html = client.get(reverse("game_replay", args=[played.pk]) + "?round=0").content.decode()
    own = game_module(game).TABLE_CSS
    assert own in html
    for other in GAMES:
        if own != game_module(other).TABLE_CSS:
            assert game_module(other).TABLE_CSS not in html
