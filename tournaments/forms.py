"""Forms: the organizer's tournament form (variant fields generated from ``to_json()``) and
the practice form."""

from __future__ import annotations

import json
import typing
from dataclasses import dataclass
from datetime import timedelta
from typing import Any, cast

from django import forms
from django.core.exceptions import ValidationError
from django.forms.fields import InvalidJSONInput, JSONString
from django.utils import timezone, translation
from django.utils.translation import gettext_lazy as _

from engine.jokeren.variants import contract_from_json
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
    "contracts": _("Contracts per round"),
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

#: What each variant field means, shown under it (the labels say what it is).
VARIANT_HELP: dict[str, Any] = {
    "decks": _("Full packs of 52 cards with 2 jokers each that are shuffled together."),
    "hand_size": _("How many cards each player is dealt at the start of a round."),
    "num_players": _("You and the bots: 3 or 4 seats at every table."),
    "lay_off_before_out": _(
        "On: a player may add cards to the melds on the table and swap jokers before laying "
        "down melds of their own."
    ),
    "lay_off_same_turn": _(
        "On: in the turn a player first lays down, they may also lay off and swap jokers. "
        "Off: only from their next turn."
    ),
    "complete_meld": _(
        "What happens to a meld that cannot grow any more (four of a kind, or a run of 13 "
        "without a joker)."
    ),
    "opening": _(
        "What a player's first lay-down must hold: nothing special, the round's contract, or "
        "a minimum of points."
    ),
    "opening_points": _(
        'With the opening "a minimum of points": the melds of the first lay-down must be '
        "worth at least this much together."
    ),
    "contracts": _(
        'With the opening "the round\'s contract": what a player must lay down in each '
        "round. After the last one the list starts again."
    ),
    "first_cycle_no_meld": _(
        "On: in everyone's first turn of a round, nobody may lay down, lay off or swap a joker."
    ),
    "scoring": _(
        "What the players who did not go out score: the points of their cards in hand, or "
        "the number of cards. Lower is better."
    ),
    "turn_limit": _(
        "A round that nobody has ended after this many turns ends without a winner: "
        "everyone scores their hand."
    ),
    "open_card": _(
        "On: after the deal one card is turned face up to start the open pile. Off: the open "
        "pile starts with the first discard."
    ),
    "part_rounds": _(
        "Split the game into parts of this many rounds, each on its own score sheet; 0 "
        "keeps the game in one part."
    ),
    "subtotal_after": _(
        "The score sheet counts a subtotal after every so many rounds; 0: no subtotals."
    ),
    "points_limit": _(
        "The game ends after the round in which a team reaches this many points; leave it "
        "empty to play every round."
    ),
    "bidding": _("What happens when every player passes on the proposed trump suit."),
    "must_trump": _("On: a player who cannot follow suit must play a trump if they have one."),
    "must_overtrump": _(
        "On: when a trump lies in the trick, a player who trumps must play a higher trump "
        "if they can."
    ),
    "undertrump": _(
        "May a player play a lower trump than the one in the trick when they cannot follow "
        "suit or overtrump?"
    ),
    "partner_exemption": _(
        "On (Amsterdams): while your partner wins the trick you need not trump or overtrump."
    ),
    "four_jacks": _("Roem (bonus points) for four jacks in one trick."),
    "last_trick": _("Bonus points for the team that wins the last trick."),
    "pit": _("Bonus for a team that wins all eight tricks (pit, or march)."),
    "tie_is_nat": _(
        "On: the playing team that scores exactly as much as the other team goes wet (nat)."
    ),
    "max_redeals": _(
        "With two bidding rounds: after this many new deals of one round, the first player "
        "must choose trump."
    ),
}

#: Variant fields that apply only when another variant field has one of some values: they
#: are hidden in the form otherwise, and the server ignores what they carry (the value in
#: ``IDLE_VALUES``, else the variant's own).
APPLIES_WHEN: dict[str, tuple[str, tuple[str, ...]]] = {
    "opening_points": ("opening", ("points",)),
    "contracts": ("opening", ("contract",)),
    "max_redeals": ("bidding", ("two_rounds",)),
}
#: What a field that does not apply holds (the engine refuses contracts without the
#: contract opening).
IDLE_VALUES: dict[str, Any] = {"contracts": []}

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
    field = _variant_field(key, value, label, choices, optional=optional, numbers=numbers)
    field.help_text = VARIANT_HELP.get(key, "")
    return field


def _variant_field(
    key: str,
    value: Any,
    label: Any,
    choices: tuple[Any, ...] | None,
    *,
    optional: bool,
    numbers: tuple[int, ...] | None,
) -> forms.Field:
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

    name = forms.CharField(
        label=_("Name"),
        max_length=120,
        help_text=_("The name players see in the list of tournaments."),
    )
    preset = forms.ChoiceField(
        label=_("Game and variant"),
        help_text=_(
            "The game and its rules. Choosing another variant loads its settings below, "
            "which you can then adjust."
        ),
    )
    rounds = forms.IntegerField(
        label=_("Rounds"),
        min_value=1,
        max_value=MAX_ROUNDS,
        initial=8,
        help_text=_("How many rounds (deals) every entrant plays; everyone gets the same cards."),
    )
    max_entrants = forms.IntegerField(
        label=_("Maximum entrants"),
        min_value=1,
        max_value=MAX_ENTRANTS,
        initial=10,
        help_text=_("Once this many players have entered, nobody else can join."),
    )
    bot_level = forms.ChoiceField(
        label=_("Bot level"),
        help_text=_("How well the computer players at every table play."),
    )
    opens_at = forms.DateTimeField(
        label=_("Opens at"), widget=DateTimeLocalInput(), validators=[validate_moment]
    )
    closes_at = forms.DateTimeField(
        label=_("Closes at"), widget=DateTimeLocalInput(), validators=[validate_moment]
    )
    hide_results = forms.BooleanField(
        label=_("Hide the results until the close (only who finished is shown)"),
        required=False,
        help_text=_(
            "On: nobody sees scores or ranks before the tournament closes, not even of "
            "the rounds they have played."
        ),
    )
    admits_bots = forms.BooleanField(
        label=_("Admits bot accounts"),
        required=False,
        initial=True,
        help_text=_(
            "On: accounts that a program plays through the API may enter; they are marked BOT "
            "on the leaderboard."
        ),
    )

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
        # Times are entered in the site's time zone: say which.
        zone = timezone.get_current_timezone_name()
        self.fields["opens_at"].help_text = _(
            "Date and time (%(zone)s) from which players can enter and play."
        ) % {"zone": zone}
        self.fields["closes_at"].help_text = _(
            "Date and time (%(zone)s) at which play stops and the results become final."
        ) % {"zone": zone}
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

    def variant_rows(self) -> list[VariantRow]:
        """The variant fields with the condition under which each applies (the page hides
        a field while its condition does not hold)."""
        rows = []
        for bound in self.variant_fields():
            when = APPLIES_WHEN.get(bound.name.removeprefix(VARIANT_PREFIX))
            if when is not None and VARIANT_PREFIX + when[0] in self.fields:
                rows.append(VariantRow(bound, VARIANT_PREFIX + when[0], ",".join(when[1])))
            else:
                rows.append(VariantRow(bound, "", ""))
        return rows

    def _controlling_value(self, key: str) -> Any:
        """The value a condition of ``APPLIES_WHEN`` reads: the cleaned field's, else (a
        field with an error, or none) the value sent, else the variant's own."""
        name = VARIANT_PREFIX + key
        if name in self.cleaned_data:
            return self.cleaned_data[name]
        if name in self.fields and self.is_bound:
            return self[name].value()
        return self.variant_base.get(key)

    def applies(self, key: str) -> bool:
        """Whether the variant field ``key`` applies with the values chosen."""
        when = APPLIES_WHEN.get(key)
        return when is None or self._controlling_value(when[0]) in when[1]

    def contract_editor(self) -> dict[str, Any] | None:
        """What the page's contracts editor needs (static/js/tournament-form.js): the
        contracts to choose from (every preset's of this game, and the ones in the field)
        with their labels in the page's language, and the choice of each contract in the
        field, in order. ``None`` without a contracts field."""
        name = VARIANT_PREFIX + "contracts"
        if name not in self.fields:
            return None
        current = self[name].value()
        if isinstance(current, str):  # unbound: the initial value as the field shows it
            try:
                current = json_input.loads(current)
            except json_input.UnreadableJSON:
                current = None
        game, _preset = split_preset(self.chosen_preset)
        choices = contract_choices(game, current if isinstance(current, list) else [])
        keys = [json.dumps(c, sort_keys=True) for c in choices]
        rows = []
        for contract in current if isinstance(current, list) else []:
            key = json.dumps(normal_contract(contract), sort_keys=True)
            if key in keys:
                rows.append(keys.index(key))
        english = translation.get_language() == "en"
        return {
            "choices": [
                {"label": contract_label(c, english=english), "contract": c} for c in choices
            ],
            "rows": rows,
        }

    def main_fields(self) -> list[forms.BoundField]:
        return [self[name] for name in self.fields if not name.startswith(VARIANT_PREFIX)]

    def clean(self) -> dict[str, Any]:
        # Form.clean returns cleaned_data (its stub says "or None" for subclasses).
        data = cast(dict[str, Any], super().clean())
        opens, closes = data.get("opens_at"), data.get("closes_at")
        if opens and closes and closes <= opens:
            self.add_error("closes_at", _("The closing time must be after the opening time."))
        self.ignore_what_does_not_apply(data)
        return data

    def ignore_what_does_not_apply(self, data: dict[str, Any]) -> None:
        """A variant field that does not apply (``APPLIES_WHEN``) is ignored: its errors
        dropped, its value the idle one (``IDLE_VALUES``, else the variant's own)."""
        for key in APPLIES_WHEN:
            name = VARIANT_PREFIX + key
            if name not in self.fields or self.applies(key):
                continue
            self.errors.pop(name, None)
            data[name] = IDLE_VALUES.get(key, self.variant_base.get(key))

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


@dataclass(frozen=True)
class VariantRow:
    """A variant field in the form, and the field and values (comma-separated) under
    which it applies ("" for always)."""

    field: forms.BoundField
    when_field: str
    when_values: str


def normal_contract(contract: Any) -> Any:
    """A Jokeren contract's JSON as the engine writes it (``contract_from_json`` then
    ``to_json``: every field, in order), or the value itself if it is no contract."""
    try:
        return contract_from_json(contract).to_json()
    except (ValueError, TypeError):
        return contract


def contract_choices(game: str, current: list[Any]) -> list[dict[str, Any]]:
    """The contracts an organizer may choose from for ``game``: those of its presets, in
    order, then those of ``current`` that are none of them; each once."""
    module = available_games().get(game)
    out: list[dict[str, Any]] = []
    seen: set[str] = set()
    presets = [v.to_json().get("contracts", []) for v in getattr(module, "PRESETS", {}).values()]
    for contract in [c for contracts in presets for c in contracts] + list(current):
        normal = normal_contract(contract)
        key = json.dumps(normal, sort_keys=True)
        if isinstance(normal, dict) and key not in seen:
            seen.add(key)
            out.append(normal)
    return out


def contract_label(contract: dict[str, Any], *, english: bool) -> str:
    """A contract's description in the page's language (its JSON if it has none)."""
    text = contract.get("description_en" if english else "description_nl") or contract.get(
        "description_nl"
    )
    return str(text) if text else json.dumps(contract)


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
        label=_("Schedule"),
        choices=[("daily", _("daily")), ("weekly", _("weekly"))],
        help_text=_("A new edition every day, or on the weekdays chosen below."),
    )
    weekdays = forms.TypedMultipleChoiceField(
        label=_("Weekdays (weekly)"),
        choices=WEEKDAY_CHOICES,
        coerce=int,
        required=False,
        widget=forms.CheckboxSelectMultiple,
        help_text=_("With a weekly schedule: the days on which an edition starts."),
    )
    time_of_day = forms.TimeField(
        label=_("Starts at (Amsterdam time)"),
        widget=forms.TimeInput(attrs={"type": "time"}),
        help_text=_("The time each edition opens (Europe/Amsterdam, summer time included)."),
    )
    window_minutes = forms.IntegerField(
        label=_("Open for (minutes)"),
        min_value=1,
        max_value=7 * 24 * 60,
        initial=120,
        help_text=_("How long each edition stays open for play, from its start."),
    )
    starts_on = forms.DateField(
        label=_("First day"),
        widget=forms.DateInput(attrs={"type": "date"}),
        help_text=_("The day of the first edition."),
    )
    ends_on = forms.DateField(
        label=_("Last day"),
        required=False,
        widget=forms.DateInput(attrs={"type": "date"}),
        help_text=_("No edition after this day; leave it empty for a series without end."),
    )
    best_k = forms.IntegerField(
        label=_("Editions counted in the season (best k)"),
        min_value=1,
        help_text=_(
            "A player's season result is the sum of their best results in this many editions."
        ),
    )

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
        self.ignore_what_does_not_apply(data)
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
