"""The variant's settings in the organizer's form: one form field per key of the chosen
preset's ``to_json()``, shown as the game module's ``VARIANT_FIELDS`` say
(``engine.fields.FieldSpec``: label and help in Dutch and English, when it applies, the
words of its values, the numbers it allows), and the presets and bot levels to choose
from. The site never names a game here: everything comes from ``available_games()``."""

from __future__ import annotations

import json
import typing
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from django import forms
from django.core.exceptions import ValidationError
from django.forms.fields import InvalidJSONInput, JSONString
from django.utils import translation
from django.utils.functional import lazy
from django.utils.translation import gettext_lazy as _

from engine.cards import language_of
from engine.fields import FieldSpec, Text
from tournaments import json_input
from tournaments.games import available_games
from tournaments.templatetags.tournament_tags import bot_level, variant_title_of

VARIANT_PREFIX = "v_"
#: Variant fields that the form does not show: the name and titles are the preset's, and
#: the number of rounds is the tournament's own field.
HIDDEN_VARIANT_KEYS = ("name", "title_nl", "title_en", "rounds")

#: The range of a whole-number setting in the form whose spec names none; the engine
#: checks what the rules need (a hand that fits the pack, ...).
INT_RANGE = (-100_000, 100_000)

#: The longest JSON text a setting takes (the longest preset's contracts are under 2,000).
MAX_JSON_CHARS = 10_000


def text_of(text: Text) -> str:
    """A game module's ``(nl, en)`` text in the active language (English for ``en``,
    else Dutch, the site's default)."""
    nl, en = text
    return en if language_of(translation.get_language()) == "en" else nl


#: ``text_of`` when the text is shown, not when it is made (as ``gettext_lazy``): a form's
#: fields are made once, their labels read in the language of the page that renders them.
lazy_text_of = lazy(text_of, str)


def preset_choices() -> list[tuple[str, list[tuple[str, str]]]]:
    """Every preset of every available game, grouped by game (its ``TITLE``): values
    ``game:preset``."""
    return [
        (
            text_of(module.TITLE),
            [(f"{name}:{p}", variant_title_of(v.to_json(), p)) for p, v in module.PRESETS.items()],
        )
        for name, module in available_games().items()
    ]


def bot_level_choices(*, keep: str | None = None) -> list[tuple[str, str]]:
    """The levels some game offers for new play (``OFFERED_BOT_LEVELS``), weakest first,
    and ``keep`` (a stored tournament's level) if no game offers it any more."""
    seen: dict[str, str] = {}
    for module in available_games().values():
        for level in module.OFFERED_BOT_LEVELS:
            seen.setdefault(level, bot_level(level))
    if keep is not None:
        seen.setdefault(keep, bot_level(keep))
    return list(seen.items())


def default_bot_level() -> str:
    """The level a form proposes: the games' default (``strong``), not the strongest."""
    for module in available_games().values():
        return module.DEFAULT_BOT_LEVEL
    return ""


def literal_choices(variant_type: type, key: str) -> tuple[Any, ...] | None:
    """The allowed values of a variant field typed ``Literal[...]`` (else ``None``)."""
    try:
        hints = typing.get_type_hints(variant_type)
    except Exception:
        return None
    hint = hints.get(key)
    if hint is not None and typing.get_origin(hint) is typing.Literal:
        return typing.get_args(hint)
    return None


def split_preset(value: str) -> tuple[str, str]:
    game, _sep, preset = value.partition(":")
    return game, preset


def preset_variant(value: str) -> dict[str, Any]:
    game, preset = split_preset(value)
    return dict(available_games()[game].PRESETS[preset].to_json())


def variant_type(value: str) -> type | None:
    game, preset = split_preset(value)
    module = available_games().get(game)
    if module is None or preset not in module.PRESETS:
        return None
    return type(module.PRESETS[preset])


def variant_specs(value: str) -> Mapping[str, FieldSpec]:
    """The ``VARIANT_FIELDS`` of the game of a ``game:preset`` value (none for a game the
    site does not have)."""
    game, _preset = split_preset(value)
    module = available_games().get(game)
    return module.VARIANT_FIELDS if module is not None else {}


def optional_int(variant_type: type, key: str) -> bool:
    """Whether a variant field is typed ``int | None`` (an optional whole number)."""
    try:
        hint = typing.get_type_hints(variant_type).get(key)
    except Exception:
        return False
    return hint is not None and set(typing.get_args(hint)) == {int, type(None)}


def variant_field(
    key: str,
    value: Any,
    choices: tuple[Any, ...] | None = None,
    *,
    spec: FieldSpec | None = None,
    optional: bool = False,
) -> forms.Field:
    """A form field for one variant setting: a choice for a ``Literal`` field or a setting
    with a few allowed numbers (``spec.choices``), an optional whole number for
    ``int | None``, else by the type of its JSON value; labelled and explained by its
    ``spec`` (a setting without one: its key as label, no help)."""
    label = lazy_text_of(spec.label) if spec is not None else key.replace("_", " ")
    field = _variant_field(value, label, choices, spec=spec, optional=optional)
    field.help_text = lazy_text_of(spec.help) if spec is not None else ""
    return field


def _variant_field(
    value: Any,
    label: Any,
    choices: tuple[Any, ...] | None,
    *,
    spec: FieldSpec | None,
    optional: bool,
) -> forms.Field:
    allowed = spec.choices if spec is not None else None
    if allowed:
        return forms.TypedChoiceField(
            label=label, initial=value, coerce=int, choices=[(n, n) for n in allowed]
        )
    low, high = spec.int_range if spec is not None and spec.int_range else INT_RANGE
    if optional:
        return forms.IntegerField(
            label=label, initial=value, required=False, min_value=max(1, low), max_value=high
        )
    if choices and all(isinstance(c, str) for c in choices):
        words = spec.value_labels if spec is not None else {}
        return forms.ChoiceField(
            label=label,
            initial=value,
            choices=[(c, lazy_text_of(words[c]) if c in words else c) for c in choices],
        )
    if isinstance(value, bool):
        return forms.BooleanField(label=label, required=False, initial=value)
    if isinstance(value, int):
        return forms.IntegerField(label=label, initial=value, min_value=low, max_value=high)
    if isinstance(value, float):
        return forms.FloatField(label=label, initial=value)
    if isinstance(value, str):
        return forms.CharField(label=label, initial=value, max_length=200)
    return BoundedJSONField(
        label=label, initial=value, required=False, widget=forms.Textarea(attrs={"rows": 4})
    )


class BoundedJSONField(forms.JSONField):
    """Django's ``JSONField`` read by ``json_input.loads``: text of at most
    ``MAX_JSON_CHARS``, strict JSON (no ``NaN``/``Infinity``), nesting bounded. Anything
    else is the field's error, never an exception (Django's own field lets a
    ``RecursionError`` through on ``[[[[...``)."""

    default_error_messages = {
        "too_long": _("At most %(max)s characters."),
    }

    def to_python(self, value: Any) -> Any:
        if self.disabled or not isinstance(value, str) or value in self.empty_values:
            return super().to_python(value)
        if len(value) > MAX_JSON_CHARS:
            raise ValidationError(
                self.error_messages["too_long"], code="too_long", params={"max": MAX_JSON_CHARS}
            )
        try:
            converted = json_input.loads(value)
        except json_input.UnreadableJSON as exc:
            raise ValidationError(self.error_messages["invalid"], code="invalid") from exc
        return JSONString(converted) if isinstance(converted, str) else converted

    def bound_data(self, data: Any, initial: Any) -> Any:
        if self.disabled or not isinstance(data, str):
            return super().bound_data(data, initial)
        if len(data) > MAX_JSON_CHARS:
            return InvalidJSONInput(data)
        try:
            return json_input.loads(data)
        except json_input.UnreadableJSON:
            return InvalidJSONInput(data)


@dataclass(frozen=True)
class VariantRow:
    """A variant field in the form, and the field and values (comma-separated) under
    which it applies ("" for always)."""

    field: forms.BoundField
    when_field: str
    when_values: str


def normal_item(spec: FieldSpec | None, item: Any) -> Any:
    """An item of a list setting as the engine writes it (the spec's ``normal_item``:
    Jokeren's contract, every field in order), or the value itself if it is no item."""
    if spec is None or spec.normal_item is None:
        return item
    try:
        return spec.normal_item(item)
    except (ValueError, TypeError):
        return item


def item_choices(game: str, key: str, current: list[Any]) -> list[dict[str, Any]]:
    """The items an organizer may choose from for the list setting ``key`` of ``game``
    (Jokeren's contracts): those of its presets, in order, then those of ``current`` that
    are none of them; each once, as the engine writes it."""
    module = available_games().get(game)
    if module is None:
        return []
    spec = module.VARIANT_FIELDS.get(key)
    out: list[dict[str, Any]] = []
    seen: set[str] = set()
    presets = [v.to_json().get(key, []) for v in module.PRESETS.values()]
    for item in [i for items in presets for i in items] + list(current):
        normal = normal_item(spec, item)
        text = json.dumps(normal, sort_keys=True)
        if isinstance(normal, dict) and text not in seen:
            seen.add(text)
            out.append(normal)
    return out


def contract_label(contract: dict[str, Any], *, english: bool) -> str:
    """A contract's description in the page's language (its JSON if it has none)."""
    text = contract.get("description_en" if english else "description_nl") or contract.get(
        "description_nl"
    )
    return str(text) if text else json.dumps(contract)
