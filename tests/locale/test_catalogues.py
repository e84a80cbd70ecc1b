"""The translation catalogues (Dutch is the site's default language, English the second)."""

from __future__ import annotations

import gettext
import re
from pathlib import Path

import pytest

LOCALE = Path(__file__).resolve().parents[2] / "locale"
#: a sentence that ends and the next one starts without a space: two texts run together
_GLUED = re.compile(r"[a-zà-ÿ]\.[A-Z]")


def _catalogue(language: str) -> dict[str, str]:
    with (LOCALE / language / "LC_MESSAGES" / "django.mo").open("rb") as f:
        messages: dict[str, str] = gettext.GNUTranslations(f)._catalog  # type: ignore[attr-defined]
    return {k: v for k, v in messages.items() if k and isinstance(k, str)}


@pytest.mark.parametrize("language", ["nl", "en"])
def test_no_translation_runs_two_texts_together(language: str) -> None:
    glued = {k: v for k, v in _catalogue(language).items() if _GLUED.search(v)}
    assert not glued


def test_the_jokeren_table_hint_is_said_once_in_dutch() -> None:
    hint = _catalogue("nl")["Click cards to select them; the buttons to play them appear."]
    assert hint == "Klik op kaarten om ze te kiezen; dan verschijnen de knoppen om ze te spelen."


# --- The card player's words (issue 13) ------------------------------------------------


def test_dutch_uses_the_card_players_words_for_jokeren_moves() -> None:
    nl = _catalogue("nl")
    # lay down melds: "setjes neerleggen" (never "Leg uit", which reads as "explain")
    assert nl["Lay down"] == "Neerleggen"
    assert nl["Lay down melds"] == "Setjes neerleggen"
    assert nl["Lay off"] == "Aanleggen"
    assert nl["Swap joker"] == "Joker wisselen"
    assert nl["went out"] == "ging uit"
    for text in nl.values():
        assert "Leg uit" not in text and "Uitleggen" not in text
        assert "ruilen" not in text  # a joker is swapped: "wisselen", as in the rules


def test_dutch_calls_a_deal_a_round_and_the_leaderboard_klassement() -> None:
    """docs/rules.md §1: the site's "round" is one deal ("ronde"); a "spel" is a player's whole
    game of rounds. The leaderboard is "het klassement" throughout."""
    nl = _catalogue("nl")
    assert nl["Per deal: the field on the same cards"].startswith("Per ronde")
    assert nl["Leaderboard"] == "Klassement"
    for text in nl.values():
        # "per spel" as words ("per speler" is a player)
        assert not re.search(r"\bper spel\b", text.lower()) and "op dit spel" not in text
        assert "ranglijst" not in text and "toezegging" not in text


def test_english_log_lines_agree_with_you_as_the_subject() -> None:
    """The Klaverjas table's log says "{name} ..." for every seat, "You" included: no
    third-person-only verb ("You passes")."""
    en = _catalogue("en")
    nl = _catalogue("nl")
    log = [k for k in nl if k.startswith("{name} ")]
    assert "{name} passed." in log and "{name} passes." not in log
    for msgid in log:
        sentence = en.get(msgid, msgid).replace("{name}", "You")
        assert not re.search(r"^You (passes|plays|chooses|draws|lays|discards|takes)\b", sentence)


# --- The table's words (issue 35, item 5) -----------------------------------------------


def test_the_suit_is_klaveren_everywhere() -> None:
    """In the suit names the tables build card names and trump buttons from ("klaveren
    vrouw", "Spelen in ♣ klaveren"), in the engine's Dutch and in the rules text."""
    from engine.cards import SUIT_NAMES_NL, card_id_of, dutch_name, parse_code

    nl = _catalogue("nl")
    assert nl["clubs,diamonds,hearts,spades"].split(",")[0] == "klaveren"
    assert SUIT_NAMES_NL[0] == "klaveren"
    assert dutch_name(card_id_of(*parse_code("Qc"))) == "klaveren vrouw"
    for text in nl.values():
        assert not re.search(r"\bklaver\b", text), text


def test_a_trick_south_won_is_yours_and_a_new_round_has_no_trick_yet() -> None:
    nl = _catalogue("nl")
    assert nl["Trick to you"] == "Slag voor jou"
    assert nl["Trick to you: {points} points."] == "Slag voor jou: {points} punten."
    assert nl["No trick has been played yet in this deal."] == (
        "In deze ronde is nog geen slag gespeeld."
    )


def test_touch_screens_tap_where_a_mouse_clicks() -> None:
    nl = _catalogue("nl")
    for msgid in (
        "Tap cards to select them; the buttons to play them appear.",
        "Tap the meld on the table to lay off onto.",
        "Tap the meld on the table that holds the joker.",
    ):
        assert nl[msgid].startswith("Tik op "), msgid
        assert nl[msgid.replace("Tap", "Click")] == nl[msgid].replace("Tik", "Klik", 1)
