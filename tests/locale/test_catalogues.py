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
