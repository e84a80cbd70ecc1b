"""Forms: the organizer's tournament form (variant fields generated from ``to_json()``) and
the practice form."""

from __future__ import annotations

import typing
from datetime import timedelta
from typing import Any, cast

from django import forms
from django.core.exceptions import ValidationError
from django.forms.fields import InvalidJSONInput, JSONString
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

from tournaments import json_input
from tournaments.models import MAX_ENTRANTS, MAX_ROUNDS, Tournament
from tournaments.services import InvalidSettings, available_games, check_moment
from tournaments.templatetags.tournament_tags import bot_level, variant_title_of

VARIANT_PREFIX = "v_"
#: Variant fields that the form does not show: the name and titles are the preset's, and
#: the number of rounds is the tournament's own field.
HIDDEN_VARIANT_KEYS = ("name", "title_nl", "title_en", "rounds")

#: Labels of the variant fields the engines use (unknown fields get their key as label).
VARIANT_LABELS: dict[str, Any] = {
    "decks": _("Decks"),
    "hand_size": _("Cards per hand"),
    "num_players": _("Players at a table"),
    "lay_off_before_out": _("Lay off and swap jokers before coming out"),
    "lay_off_same_turn": _("Lay off and swap jokers in the turn you come out"),
    "complete_meld": _("A complete meld goes"),
    "opening": _("Opening requirement"),
    "opening_points": _("Points needed to come out"),
    "contracts": _("Contracts per round (JSON)"),
    "first_cycle_no_meld": _("Nobody may lay down in the first cycle"),
    "scoring": _("Round scoring"),
    "turn_limit": _("Turn limit of a round"),
    "open_card": _("A card is turned face up at the deal to start the open pile"),
    "part_rounds": _("Rounds per part, each on its own score sheet (0: one part)"),
    "subtotal_after": _("Subtotal on the score sheet after every so many rounds (0: none)"),
    "points_limit": _("Points limit (the game ends when a team reaches it; empty: none)"),
    "bidding": _("Bidding"),
    "must_trump": _("Must trump when you cannot follow suit"),
    "must_overtrump": _("Must overtrump a trump in the trick"),
    "undertrump": _("Undertrumping"),
    "partner_exemption": _("No need to trump or overtrump while your partner wins the trick"),
    "four_jacks": _("Roem for four jacks"),
    "last_trick": _("Points for the last trick"),
    "pit": _("Bonus for winning every trick (pit)"),
    "tie_is_nat": _("A tie is nat"),
    "max_redeals": _("New deals before the first player must choose trump"),
}

#: The games' names in the preset list.
GAME_TITLES: dict[str, Any] = {"jokeren": _("Jokeren"), "klaverjas": _("Klaverjassen")}

#: Settings that allow only a few whole numbers (a choice instead of a number field); a
#: variant class may name more in its ``FIELD_CHOICES`` (Jokeren: 3 or 4 players).
INT_CHOICES: dict[str, tuple[int, ...]] = {"four_jacks": (100, 200)}

#: The range of a whole-number setting in the form; the engine checks what the rules need
#: (a hand that fits the pack, ...). Unlisted settings: ``INT_RANGE``. The turn limit is
#: kept to what the bots play through quickly in one request: a round nobody can end
#: otherwise (an unreachable opening, say) stops there.
INT_RANGES: dict[str, tuple[int, int]] = {"turn_limit": (1, 2000)}
INT_RANGE = (-100_000, 100_000)

#: The longest JSON text a setting takes (the longest preset's contracts are under 2,000).
MAX_JSON_CHARS = 10_000


def int_choices(variant_type: type | None, key: str) -> tuple[int, ...] | None:
    """The few whole numbers a variant field allows (``None``: any)."""
    own: dict[str, tuple[int, ...]] = getattr(variant_type, "FIELD_CHOICES", {})
    return own.get(key, INT_CHOICES.get(key))


#: Labels of the values of the engines' ``Literal`` settings (else the value itself).
VALUE_LABELS: dict[tuple[str, str], Any] = {
    ("opening", "none"): _("none"),
    ("opening", "contract"): _("the round's contract"),
    ("opening", "points"): _("a minimum of points"),
    ("complete_meld", "recycle"): _("under the open pile (back in play after a reshuffle)"),
    ("complete_meld", "remove"): _("out of the game"),
    ("scoring", "points"): _("points in hand"),
    ("scoring", "cards"): _("number of cards in hand"),
    ("bidding", "one_round_first_chooses"): _(
        "one round; if everyone passes, the first player chooses trump"
    ),
    ("bidding", "two_rounds"): _(
        "two rounds (the second with another trump suit); if everyone passes again, a new deal"
    ),
    ("bidding", "no_passing"): _("without passing: the first player chooses trump and plays"),
    ("undertrump", "must_undertrump"): _("must undertrump (the rule text read literally)"),
    ("undertrump", "no_undertrump_while_other_suit"): _(
        "no undertrumping while you hold another suit (Klaverjas Unie)"
    ),
}


def preset_choices() -> list[tuple[str, list[tuple[str, str]]]]:
    """Every preset of every available game, grouped by game: values ``game:preset``."""
    return [
        (
            str(GAME_TITLES.get(name, name.capitalize())),
            [(f"{name}:{p}", variant_title_of(v.to_json(), p)) for p, v in module.PRESETS.items()],
        )
        for name, module in available_games().items()
    ]


def bot_level_choices() -> list[tuple[str, str]]:
    seen: dict[str, str] = {}
    for module in available_games().values():
        for level in module.BOT_LEVELS:
            seen.setdefault(level, bot_level(level))
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
    optional: bool = False,
    numbers: tuple[int, ...] | None = None,
) -> forms.Field:
    """A form field for one variant setting: a choice for a ``Literal`` field or a setting
    with a few allowed ``numbers``, an optional whole number for ``int | None``, else by
    the type of its JSON value."""
    label = VARIANT_LABELS.get(key, key.replace("_", " "))
    allowed = numbers if numbers is not None else INT_CHOICES.get(key)
    if allowed:
        return forms.TypedChoiceField(
            label=label, initial=value, coerce=int, choices=[(n, n) for n in allowed]
        )
    low, high = INT_RANGES.get(key, INT_RANGE)
    if optional:
        return forms.IntegerField(
            label=label, initial=value, required=False, min_value=max(1, low), max_value=high
        )
    if choices and all(isinstance(c, str) for c in choices):
        return forms.ChoiceField(
            label=label,
            initial=value,
            choices=[(c, VALUE_LABELS.get((key, c), c)) for c in choices],
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


def validate_moment(value: Any) -> None:
    """An opening or closing time in the range the service and the database take."""
    try:
        check_moment(value)
    except InvalidSettings as exc:
        raise ValidationError(exc.message(), code="out_of_range") from exc


def with_time_zone(label: Any) -> str:
    """The label of a time a person enters, with the site's time zone, its name and
    abbreviation now: "Opent op (tijdzone Europe/Amsterdam, CET)"."""
    return _("%(label)s (time zone %(zone)s, %(abbr)s)") % {
        "label": label,
        "zone": timezone.get_current_timezone_name(),
        "abbr": timezone.localtime().tzname(),
    }


class DateTimeLocalInput(forms.DateTimeInput):
    input_type = "datetime-local"

    def __init__(self, **kwargs: Any) -> None:
        super().__init__(format="%Y-%m-%dT%H:%M", **kwargs)


class TournamentForm(forms.Form):
    """Create or edit a tournament. The variant's settings are fields ``v_<key>``, generated
    from the chosen preset's ``to_json()`` (or the tournament's stored variant)."""

    name = forms.CharField(label=_("Name"), max_length=120)
    preset = forms.ChoiceField(label=_("Game and variant"))
    rounds = forms.IntegerField(label=_("Rounds"), min_value=1, max_value=MAX_ROUNDS, initial=8)
    max_entrants = forms.IntegerField(
        label=_("Maximum entrants"), min_value=1, max_value=MAX_ENTRANTS, initial=10
    )
    bot_level = forms.ChoiceField(label=_("Bot level"))
    opens_at = forms.DateTimeField(
        label=_("Opens at"), widget=DateTimeLocalInput(), validators=[validate_moment]
    )
    closes_at = forms.DateTimeField(
        label=_("Closes at"), widget=DateTimeLocalInput(), validators=[validate_moment]
    )
    hide_results = forms.BooleanField(
        label=_("Hide the results until the close (only who finished is shown)"), required=False
    )
    admits_bots = forms.BooleanField(label=_("Admits bot accounts"), required=False, initial=True)

    def __init__(
        self,
        *args: Any,
        tournament: Tournament | None = None,
        preset: str | None = None,
        **kwargs: Any,
    ) -> None:
        self.tournament = tournament
        initial = dict(kwargs.pop("initial", None) or {})
        if tournament is not None:
            initial.setdefault("name", tournament.name)
            initial.setdefault("preset", f"{tournament.game}:{tournament.preset}")
            initial.setdefault("rounds", tournament.rounds)
            initial.setdefault("max_entrants", tournament.max_entrants)
            initial.setdefault("bot_level", tournament.bot_level)
            initial.setdefault("opens_at", timezone.localtime(tournament.opens_at))
            initial.setdefault("closes_at", timezone.localtime(tournament.closes_at))
            initial.setdefault("hide_results", tournament.hide_results)
            initial.setdefault("admits_bots", tournament.admits_bots)
        kwargs["initial"] = initial
        super().__init__(*args, **kwargs)
        for name in ("opens_at", "closes_at"):
            self.fields[name].label = with_time_zone(self.fields[name].label)
        cast(forms.ChoiceField, self.fields["preset"]).choices = preset_choices()
        cast(forms.ChoiceField, self.fields["bot_level"]).choices = bot_level_choices()
        if "bot_level" not in self.initial:
            self.initial["bot_level"] = default_bot_level()
        if "opens_at" not in self.initial:
            now = timezone.localtime().replace(second=0, microsecond=0)
            self.initial["opens_at"] = now
            self.initial["closes_at"] = now + timedelta(days=7)

        chosen = preset or self.data.get("preset") or self.initial.get("preset")
        if not chosen:
            chosen = next(iter(v for _g, opts in preset_choices() for v, _l in opts), "")
            self.initial["preset"] = chosen
        self.chosen_preset = chosen
        if tournament is not None and chosen == f"{tournament.game}:{tournament.preset}":
            base = dict(tournament.variant)
        else:
            try:
                base = preset_variant(chosen)
            except KeyError:
                base = {}
        if "rounds" not in self.initial and "rounds" in base and tournament is None:
            self.initial["rounds"] = base["rounds"]
        vtype = variant_type(chosen)
        for key, value in base.items():
            if key in HIDDEN_VARIANT_KEYS:
                continue
            choices = literal_choices(vtype, key) if vtype is not None else None
            optional = optional_int(vtype, key) if vtype is not None else False
            self.fields[VARIANT_PREFIX + key] = variant_field(
                key, value, choices, optional=optional, numbers=int_choices(vtype, key)
            )
        self.variant_base = base
        if tournament is not None and tournament.entries.exists():
            # Every entrant must play the same game: only name, maximum and window change.
            for name, field in self.fields.items():
                if name in ("preset", "rounds", "bot_level") or name.startswith(VARIANT_PREFIX):
                    field.disabled = True

    def variant_fields(self) -> list[forms.BoundField]:
        return [self[name] for name in self.fields if name.startswith(VARIANT_PREFIX)]

    def main_fields(self) -> list[forms.BoundField]:
        return [self[name] for name in self.fields if not name.startswith(VARIANT_PREFIX)]

    def clean(self) -> dict[str, Any]:
        # Form.clean returns cleaned_data (its stub says "or None" for subclasses).
        data = cast(dict[str, Any], super().clean())
        opens, closes = data.get("opens_at"), data.get("closes_at")
        if opens and closes and closes <= opens:
            self.add_error("closes_at", _("The closing time must be after the opening time."))
        return data

    def service_kwargs(self) -> dict[str, Any]:
        """The cleaned data as keyword arguments of ``tournament_create``/``_update``."""
        data = self.cleaned_data
        game, preset = split_preset(data["preset"])
        variant = dict(self.variant_base)
        for key in list(variant):
            field = VARIANT_PREFIX + key
            if field in data:
                variant[key] = data[field]
        return {
            "name": data["name"],
            "game": game,
            "preset": preset,
            "variant": variant,
            "rounds": data["rounds"],
            "max_entrants": data["max_entrants"],
            "bot_level": data["bot_level"],
            "opens_at": data["opens_at"],
            "closes_at": data["closes_at"],
            "hide_results": bool(data.get("hide_results")),
            "admits_bots": bool(data.get("admits_bots")),
        }


class PracticeForm(forms.Form):
    preset = forms.ChoiceField(label=_("Game and variant"))
    bot_level = forms.ChoiceField(label=_("Bot level"))

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        cast(forms.ChoiceField, self.fields["preset"]).choices = preset_choices()
        cast(forms.ChoiceField, self.fields["bot_level"]).choices = bot_level_choices()
        self.fields["bot_level"].initial = default_bot_level()


WEEKDAY_CHOICES = [
    (0, _("Monday")),
    (1, _("Tuesday")),
    (2, _("Wednesday")),
    (3, _("Thursday")),
    (4, _("Friday")),
    (5, _("Saturday")),
    (6, _("Sunday")),
]


class SeriesForm(TournamentForm):
    """A recurring tournament: the tournament's settings (no window: the schedule makes
    each edition's) plus the schedule in Amsterdam time and the season's k."""

    kind = forms.ChoiceField(
        label=_("Schedule"), choices=[("daily", _("daily")), ("weekly", _("weekly"))]
    )
    weekdays = forms.TypedMultipleChoiceField(
        label=_("Weekdays (weekly)"),
        choices=WEEKDAY_CHOICES,
        coerce=int,
        required=False,
        widget=forms.CheckboxSelectMultiple,
    )
    time_of_day = forms.TimeField(
        label=_("Starts at (Amsterdam time)"), widget=forms.TimeInput(attrs={"type": "time"})
    )
    window_minutes = forms.IntegerField(
        label=_("Open for (minutes)"), min_value=1, max_value=7 * 24 * 60, initial=120
    )
    starts_on = forms.DateField(
        label=_("First day"), widget=forms.DateInput(attrs={"type": "date"})
    )
    ends_on = forms.DateField(
        label=_("Last day"), required=False, widget=forms.DateInput(attrs={"type": "date"})
    )
    best_k = forms.IntegerField(label=_("Editions counted in the season (best k)"), min_value=1)

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        del self.fields["opens_at"]
        del self.fields["closes_at"]
        # A series's editions show their results as they come (no hidden-results option).
        del self.fields["hide_results"]
        self.fields["name"].label = _("Name of the series")
        self.initial.setdefault("starts_on", timezone.localdate())
        self.initial.setdefault("best_k", 10)

    def clean(self) -> dict[str, Any]:
        data = cast(dict[str, Any], forms.Form.clean(self))
        if data.get("kind") == "weekly" and not data.get("weekdays"):
            self.add_error("weekdays", _("A weekly series needs at least one weekday."))
        return data

    def service_kwargs(self) -> dict[str, Any]:
        data = self.cleaned_data
        # No window of its own: the schedule gives each edition's.
        data.setdefault("opens_at", None)
        data.setdefault("closes_at", None)
        kwargs = {
            k: v
            for k, v in super().service_kwargs().items()
            if k not in ("opens_at", "closes_at", "hide_results")
        }
        kwargs.update(
            kind=data["kind"],
            weekdays=data.get("weekdays") or [],
            time_of_day=data["time_of_day"],
            window_minutes=data["window_minutes"],
            starts_on=data["starts_on"],
            ends_on=data.get("ends_on"),
            best_k=data["best_k"],
        )
        return kwargs
