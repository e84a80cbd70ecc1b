"""Template filters: a variant's title in the page's language, bot level names, compact JSON."""

from __future__ import annotations

import json
from typing import Any

from django import template
from django.utils import translation
from django.utils.translation import gettext_lazy as _

from tournaments.selectors.replay import has_score_sheet

register = template.Library()

#: Names of the engines' bot levels (a level without an entry shows its own name).
BOT_LEVEL_LABELS: dict[str, Any] = {
    "basic": _("basic"),
    "strong": _("strong"),
    "expert": _("expert"),
}


def variant_title_of(variant: Any, preset: str) -> str:
    """``title_nl``/``title_en`` of a variant's JSON in the active language, else the preset."""
    if isinstance(variant, dict):
        lang = "en" if (translation.get_language() or "nl").startswith("en") else "nl"
        title = variant.get(f"title_{lang}") or variant.get("title_nl")
        if title:
            return str(title)
    return preset.replace("-", " ").capitalize()


@register.filter
def variant_title(variant: Any, preset: str) -> str:
    return variant_title_of(variant, preset)


@register.filter
def bot_level(level: str) -> str:
    return str(BOT_LEVEL_LABELS.get(level, level))


@register.filter
def compact_json(value: Any) -> str:
    return json.dumps(value, ensure_ascii=False, separators=(", ", ": "))


@register.filter
def has_sheet(game: Any) -> bool:
    """Whether a game (a ``Game``) has a score sheet: a card-count Jokeren variant."""
    return has_score_sheet(game=game.game, variant=game.variant)
