"""Forms: the organizer's tournament and series forms (variant fields generated from
``to_json()`` by ``tournaments.variant_form``, as the game module's ``VARIANT_FIELDS`` say)
and the practice form."""

from __future__ import annotations

import json
from collections.abc import Mapping
from datetime import time, timedelta
from typing import Any, cast

from django import forms
from django.core.exceptions import ValidationError
from django.utils import timezone, translation
from django.utils.translation import gettext
from django.utils.translation import gettext_lazy as _

from common.forms import RefusesControlCharacters
from engine.fields import FieldSpec
from tournaments import json_input, permissions
from tournaments.errors import InvalidSettings
from tournaments.games import module_of
from tournaments.models import (
    LANGUAGE_CHOICES,
    MAX_BEST_K,
    MAX_ENTRANTS,
    MAX_ROUNDS,
    POOL_MAX_COPIES,
    Access,
    Account,
    Club,
    Tournament,
)
from tournaments.services.checks import check_bot_level, check_moment
from tournaments.variant_form import (
    HIDDEN_VARIANT_KEYS,
    VARIANT_PREFIX,
    VariantRow,
    bot_level_choices,
    contract_label,
    default_bot_level,
    item_choices,
    literal_choices,
    normal_item,
    optional_int,
    preset_choices,
    preset_variant,
    split_preset,
    variant_field,
    variant_specs,
    variant_type,
)

__all__ = [
    "HIDDEN_VARIANT_KEYS",
    "VARIANT_PREFIX",
    "PracticeForm",
    "SeriesForm",
    "TournamentForm",
]


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


class IsoDateInput(forms.DateInput):
    """A date field the browser's date picker accepts: always ``yyyy-mm-dd``, never the
    language's own form (``05-12-2026`` in Dutch, which the picker rejects and shows empty,
    blocking the first submit)."""

    input_type = "date"

    def __init__(self, **kwargs: Any) -> None:
        super().__init__(format="%Y-%m-%d", **kwargs)


class DateTimeLocalInput(forms.DateTimeInput):
    input_type = "datetime-local"

    def __init__(self, **kwargs: Any) -> None:
        super().__init__(format="%Y-%m-%dT%H:%M", **kwargs)


#: The deal pool's choice "by field size" (``Tournament.pool_by_size``).
POOL_BY_SIZE = "size"


def pool_choices() -> list[tuple[str, str]]:
    """The deal pool's choices, in the request's language."""
    return [
        ("1", gettext("no pool: everyone gets the same deals")),
        (POOL_BY_SIZE, gettext("by field size: one copy per 50 entrants (at most 20)")),
        *[
            (str(k), gettext("%(k)s copies of each round") % {"k": k})
            for k in range(2, POOL_MAX_COPIES + 1)
        ],
    ]


def pool_kwargs(choice: str) -> dict[str, Any]:
    """The deal pool's choice as ``tournament_create``'s keyword arguments."""
    if choice == POOL_BY_SIZE:
        return {"pool_copies": 1, "pool_by_size": True}
    return {"pool_copies": int(choice), "pool_by_size": False}


class TournamentForm(RefusesControlCharacters, forms.Form):
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
    pool = forms.ChoiceField(
        label=_("Deal pool"),
        choices=pool_choices,
        initial="1",
        required=False,
        help_text=_(
            "Each round dealt in several copies; each entrant gets one of them at random when "
            "starting the round, and is compared only with those who played the same copy "
            "(against its par). A second account then rarely sees the same cards."
        ),
    )
    opens_at = forms.DateTimeField(
        label=_("Opens at"), widget=DateTimeLocalInput(), validators=[validate_moment]
    )
    closes_at = forms.DateTimeField(
        label=_("Closes at"),
        widget=DateTimeLocalInput(),
        validators=[validate_moment],
        required=False,
    )
    hide_results = forms.BooleanField(
        label=_("Hide the results until the close (only who finished is shown)"),
        required=False,
        help_text=_(
            "On: nobody sees scores or ranks before the tournament closes, not even of "
            "the rounds they have played."
        ),
    )
    show_round_hands = forms.BooleanField(
        label=_("Show every hand at a round's end (club members only)"),
        required=False,
        help_text=_(
            "Off: while the tournament runs, a round's end shows the points and how many "
            "cards each player has left; the hands come with the close, so that nobody can "
            "tell a second account a deal before it is played. A members-only tournament "
            "may show them anyway."
        ),
    )
    live = forms.BooleanField(
        label=_("Live club evening: every round at a set time, for everyone at once"),
        required=False,
        help_text=_(
            "On: entries close when the first round starts; each round opens for everyone "
            "at its time and ends when its slot ends. Whoever has not finished a round then "
            "gets it played to the end by the bot, and it does not count for them. The "
            "tournament closes when the last slot ends (the closing time above is not used)."
        ),
    )
    live_start = forms.DateTimeField(
        label=_("First round starts at"),
        widget=DateTimeLocalInput(),
        validators=[validate_moment],
        required=False,
        help_text=_(
            "A live club evening only: when the first round opens for everyone; entries "
            "are open from the opening time until then."
        ),
    )
    live_slot_minutes = forms.CharField(
        label=_("Minutes per round"),
        initial="20",
        required=False,
        max_length=200,
        help_text=_(
            "The length of each round's slot in minutes: one number for every round, or one "
            "per round separated by commas (the last one for the rounds after it)."
        ),
    )
    live_pause_minutes = forms.IntegerField(
        label=_("Pause between rounds (minutes)"),
        min_value=0,
        max_value=120,
        initial=5,
        required=False,
        help_text=_("A live club evening only: the break between one round's end and the next."),
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
    access = forms.ChoiceField(
        label=_("Who may enter"),
        choices=Access.choices,
        initial=Access.PUBLIC,
        required=False,
        help_text=_(
            "Public: anyone. Club members only: nobody else sees it. With an invite code: the "
            "members and whoever gets the invite link (shown to the organizers)."
        ),
    )

    def __init__(
        self,
        *args: Any,
        tournament: Tournament | None = None,
        preset: str | None = None,
        user: Any = None,
        **kwargs: Any,
    ) -> None:
        self.tournament = tournament
        #: The organizer's one club, when they organize exactly one (a new one only).
        self.only_club: Club | None = None
        initial = dict(kwargs.pop("initial", None) or {})
        if tournament is not None:
            initial.setdefault("access", tournament.access)
            initial.setdefault("name", tournament.name)
            initial.setdefault("preset", f"{tournament.game}:{tournament.preset}")
            initial.setdefault("rounds", tournament.rounds)
            initial.setdefault("max_entrants", tournament.max_entrants)
            initial.setdefault("bot_level", tournament.bot_level)
            initial.setdefault(
                "pool", POOL_BY_SIZE if tournament.pool_by_size else str(tournament.pool_copies)
            )
            initial.setdefault("opens_at", timezone.localtime(tournament.opens_at))
            initial.setdefault("closes_at", timezone.localtime(tournament.closes_at))
            initial.setdefault("hide_results", tournament.hide_results)
            initial.setdefault("show_round_hands", tournament.show_round_hands)
            initial.setdefault("admits_bots", tournament.admits_bots)
            initial.setdefault("live", tournament.live)
            if tournament.live and tournament.live_slots:
                slots = [tournament.live_slot(r) for r in range(len(tournament.live_slots))]
                initial.setdefault("live_start", timezone.localtime(slots[0][0]))
                initial.setdefault(
                    "live_slot_minutes",
                    ", ".join(str(round((c - o).total_seconds() / 60)) for o, c in slots),
                )
                initial.setdefault(
                    "live_pause_minutes",
                    round((slots[1][0] - slots[0][1]).total_seconds() / 60)
                    if len(slots) > 1
                    else 0,
                )
        kwargs["initial"] = initial
        super().__init__(*args, **kwargs)
        if tournament is None and user is not None:
            # A new one belongs to a club the organizer runs (one: chosen already).
            clubs = permissions.organizer_clubs(user).order_by("name", "id")
            club = forms.ModelChoiceField(
                label=_("Club"),
                queryset=clubs,
                empty_label=None,
                # One club: it is the one (a POST without the field means it).
                required=clubs.count() != 1,
                help_text=_("The club it belongs to: its organizers run it."),
            )
            self.fields = {"club": club, **self.fields}
            first = clubs.first()
            if first is not None:
                self.initial.setdefault("club", first.pk)
            self.only_club = first if not club.required else None
        # Times are entered in the site's time zone: say which.
        zone = timezone.get_current_timezone_name()
        self.fields["opens_at"].help_text = _(
            "Date and time (%(zone)s) from which players can enter and play."
        ) % {"zone": zone}
        self.fields["closes_at"].help_text = _(
            "Date and time (%(zone)s) at which play stops and the results become final."
        ) % {"zone": zone}
        for name in ("opens_at", "closes_at", "live_start"):
            if name in self.fields:
                self.fields[name].label = with_time_zone(self.fields[name].label)
        cast(forms.ChoiceField, self.fields["preset"]).choices = preset_choices()
        cast(forms.ChoiceField, self.fields["bot_level"]).choices = bot_level_choices(
            keep=tournament.bot_level if tournament is not None else None
        )
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
        #: how the chosen game shows each setting (its module's ``VARIANT_FIELDS``)
        self.specs: Mapping[str, FieldSpec] = variant_specs(chosen)
        for key, value in base.items():
            if key in HIDDEN_VARIANT_KEYS:
                continue
            choices = literal_choices(vtype, key) if vtype is not None else None
            optional = optional_int(vtype, key) if vtype is not None else False
            self.fields[VARIANT_PREFIX + key] = variant_field(
                key, value, choices, spec=self.specs.get(key), optional=optional
            )
        self.variant_base = base
        if tournament is not None and tournament.series_id is not None:
            # An edition has its series' access (docs/rules.md, "Clubs: members, ...").
            self.fields["access"].disabled = True
        if tournament is not None and tournament.entries.exists():
            # Every entrant must play the same game: only name, maximum and window change.
            for name, field in self.fields.items():
                if name in ("preset", "rounds", "bot_level") or name.startswith(VARIANT_PREFIX):
                    field.disabled = True

    def variant_fields(self) -> list[forms.BoundField]:
        return [self[name] for name in self.fields if name.startswith(VARIANT_PREFIX)]

    def _applies_when(self, key: str) -> tuple[str, tuple[str, ...]] | None:
        """The condition under which the variant field ``key`` applies (its spec's
        ``applies_when``; ``None``: always)."""
        spec = self.specs.get(key)
        return spec.applies_when if spec is not None else None

    def variant_rows(self) -> list[VariantRow]:
        """The variant fields with the condition under which each applies (the page hides
        a field while its condition does not hold)."""
        rows = []
        for bound in self.variant_fields():
            when = self._applies_when(bound.name.removeprefix(VARIANT_PREFIX))
            if when is not None and VARIANT_PREFIX + when[0] in self.fields:
                rows.append(VariantRow(bound, VARIANT_PREFIX + when[0], ",".join(when[1])))
            else:
                rows.append(VariantRow(bound, "", ""))
        return rows

    def _controlling_value(self, key: str) -> Any:
        """The value a condition of ``applies_when`` reads: the cleaned field's, else (a
        field with an error, or none) the value sent, else the variant's own."""
        name = VARIANT_PREFIX + key
        if name in self.cleaned_data:
            return self.cleaned_data[name]
        if name in self.fields and self.is_bound:
            return self[name].value()
        return self.variant_base.get(key)

    def applies(self, key: str) -> bool:
        """Whether the variant field ``key`` applies with the values chosen."""
        when = self._applies_when(key)
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
        choices = item_choices(game, "contracts", current if isinstance(current, list) else [])
        keys = [json.dumps(c, sort_keys=True) for c in choices]
        rows = []
        spec = self.specs.get("contracts")
        for contract in current if isinstance(current, list) else []:
            key = json.dumps(normal_item(spec, contract), sort_keys=True)
            if key in keys:
                rows.append(keys.index(key))
        english = translation.get_language() == "en"
        return {
            "choices": [
                {"label": contract_label(c, english=english), "contract": c} for c in choices
            ],
            "rows": rows,
        }

    #: The general fields that apply only with a value of the "live" box (a live club
    #: evening: its schedule; any other tournament: its closing time), and that value.
    LIVE_ONLY: Mapping[str, str] = {
        "live_start": "on",
        "live_slot_minutes": "on",
        "live_pause_minutes": "on",
        "closes_at": "",
    }

    def main_rows(self) -> list[VariantRow]:
        """The general fields with the condition under which each applies (the page hides
        the live evening's schedule until its box is ticked, and the closing time then)."""
        return [
            VariantRow(bound, "live", self.LIVE_ONLY[bound.name])
            if bound.name in self.LIVE_ONLY and "live" in self.fields
            else VariantRow(bound, "", "")
            for bound in self.main_fields()
        ]

    def main_fields(self) -> list[forms.BoundField]:
        return [self[name] for name in self.fields if not name.startswith(VARIANT_PREFIX)]

    def clean(self) -> dict[str, Any]:
        data = super().clean()
        opens, closes = data.get("opens_at"), data.get("closes_at")
        if "live" in self.fields:
            self._live_schedule_clean(data)
        if data.get("live"):
            # the last slot's end is the closing time (tournament_create)
            self.errors.pop("closes_at", None)
        elif not closes and "closes_at" not in self.errors:
            self.add_error("closes_at", forms.Field.default_error_messages["required"])
        elif opens and closes and closes <= opens:
            self.add_error("closes_at", _("The closing time must be after the opening time."))
        if data.get("show_round_hands") and (data.get("access") or Access.PUBLIC) != Access.MEMBERS:
            self.add_error(
                "show_round_hands",
                _("Only a members-only tournament can show every hand at a round's end."),
            )
        self.ignore_what_does_not_apply(data)
        level_offered(self, data, stored_for=self.tournament)
        return data

    def _live_schedule_clean(self, data: dict[str, Any]) -> None:
        """A live evening's schedule: its first round's start (at or after the opening
        time) and each round's minutes (``data["live_minutes"]``, a list)."""
        data["live_minutes"] = []
        if not data.get("live"):
            return
        start, opens = data.get("live_start"), data.get("opens_at")
        if start is None:
            self.add_error("live_start", _("A live evening needs the start of its first round."))
        elif opens is not None and start < opens:
            self.add_error("live_start", _("The first round cannot start before the opening."))
        try:
            minutes = [int(part) for part in str(data.get("live_slot_minutes") or "").split(",")]
        except ValueError:
            minutes = []
        if not minutes or any(not 1 <= m <= 180 for m in minutes):
            self.add_error(
                "live_slot_minutes", _("Give whole numbers of minutes from 1 to 180, e.g. 20.")
            )
        data["live_minutes"] = minutes

    def ignore_what_does_not_apply(self, data: dict[str, Any]) -> None:
        """A variant field that does not apply (its spec's ``applies_when``) is ignored:
        its errors dropped, its value the idle one (the spec's ``idle``, else the
        variant's own)."""
        for key, spec in self.specs.items():
            name = VARIANT_PREFIX + key
            if spec.applies_when is None or name not in self.fields or self.applies(key):
                continue
            self.errors.pop(name, None)
            data[name] = spec.idle if spec.idle is not None else self.variant_base.get(key)

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
            "closes_at": data.get("closes_at") or data["opens_at"],
            "live_start": data.get("live_start") if data.get("live") else None,
            "live_slot_minutes": data.get("live_minutes") or [],
            "live_pause_minutes": data.get("live_pause_minutes") or 0,
            "hide_results": bool(data.get("hide_results")),
            "show_round_hands": bool(data.get("show_round_hands")),
            "admits_bots": bool(data.get("admits_bots")),
            "access": data.get("access") or Access.PUBLIC,
            **pool_kwargs(data.get("pool") or "1"),
        }

    def chosen_club(self) -> Club | None:
        """The club chosen for a new tournament or series (``None`` on an edit)."""
        club = self.cleaned_data.get("club")
        return club if isinstance(club, Club) else self.only_club


def level_offered(form: forms.BaseForm, data: Mapping[str, Any], *, stored_for: Any = None) -> None:
    """The chosen bot level is one the chosen game offers for new play, or the level
    ``stored_for`` (a tournament or series being edited) has in that game already
    (``check_bot_level``); else the level field's error."""
    level, preset = data.get("bot_level"), data.get("preset")
    if not level or not preset:
        return
    game, _preset = split_preset(preset)
    stored = None
    if stored_for is not None and stored_for.game == game:
        stored = stored_for.bot_level
    try:
        check_bot_level(module_of(game), level, stored=stored)
    except InvalidSettings as exc:
        form.add_error("bot_level", exc.message())


class PracticeForm(RefusesControlCharacters, forms.Form):
    preset = forms.ChoiceField(label=_("Game and variant"))
    bot_level = forms.ChoiceField(label=_("Bot level"))

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        cast(forms.ChoiceField, self.fields["preset"]).choices = preset_choices()
        cast(forms.ChoiceField, self.fields["bot_level"]).choices = bot_level_choices()
        self.fields["bot_level"].initial = default_bot_level()

    def clean(self) -> dict[str, Any]:
        data = super().clean()
        level_offered(self, data)
        return data


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
        widget=forms.TimeInput(format="%H:%M", attrs={"type": "time"}),
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
        widget=IsoDateInput(),
        help_text=_("The day of the first edition."),
    )
    ends_on = forms.DateField(
        label=_("Last day"),
        required=False,
        widget=IsoDateInput(),
        help_text=_("No edition after this day; leave it empty for a series without end."),
    )
    best_k = forms.IntegerField(
        label=_("Editions counted in the season (best k)"),
        min_value=1,
        max_value=MAX_BEST_K,
        help_text=_(
            "A player's season result is the sum of their best results in this many editions."
        ),
    )

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        del self.fields["opens_at"]
        del self.fields["closes_at"]
        # A series's editions show their results as they come (no hidden-results option)
        # and their hands with the close.
        del self.fields["hide_results"]
        del self.fields["show_round_hands"]
        # Nor a deal pool, nor a live evening (an organizer's choice per tournament).
        del self.fields["pool"]
        for name in ("live", "live_start", "live_slot_minutes", "live_pause_minutes"):
            del self.fields[name]
        self.fields["name"].label = _("Name of the series")
        self.initial.setdefault("starts_on", timezone.localdate())
        self.initial.setdefault("time_of_day", time(20, 0))
        self.initial.setdefault("best_k", 10)

    def clean(self) -> dict[str, Any]:
        # not TournamentForm's checks of a window (a series has none)
        data = RefusesControlCharacters.clean(self)
        level_offered(self, data)
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
            if k
            not in (
                "opens_at",
                "closes_at",
                "hide_results",
                "show_round_hands",
                "pool_copies",
                "pool_by_size",
                "live_start",
                "live_slot_minutes",
                "live_pause_minutes",
            )
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


class MailSettingsForm(forms.Form):
    """The account page's mail settings (``services.mail.account_mail_settings_update``):
    the language of the mail and each kind of mail on or off."""

    language = forms.ChoiceField(label=_("Language of my mail"), choices=LANGUAGE_CHOICES)
    mail_results = forms.BooleanField(
        label=_("Mail me my place and result when a tournament's results are final"),
        required=False,
    )
    mail_series = forms.BooleanField(
        label=_("Mail me when a new edition of a series I played is open"), required=False
    )
    mail_invites = forms.BooleanField(label=_("Mail me club invites"), required=False)
    mail_announcements = forms.BooleanField(
        label=_("Mail me the announcements of my clubs"), required=False
    )
    mail_fairplay = forms.BooleanField(
        label=_("Mail me when an organizer decides on a fair-play review of my entry"),
        required=False,
    )
    mail_reminders = forms.BooleanField(
        label=_("Mail me a reminder before a live club evening I entered"),
        required=False,
    )

    @classmethod
    def of(cls, account: Account) -> MailSettingsForm:
        """The form filled with ``account``'s settings."""
        return cls(
            initial={
                "language": account.language,
                "mail_results": account.mail_results,
                "mail_series": account.mail_series,
                "mail_invites": account.mail_invites,
                "mail_announcements": account.mail_announcements,
                "mail_fairplay": account.mail_fairplay,
                "mail_reminders": account.mail_reminders,
            }
        )
