"""How a game's variant settings are shown to an organizer, in Dutch and English.

The engine imports no Django: every text is a pair ``(nl, en)`` and the site shows the one
of the page's language. A game module's ``VARIANT_FIELDS`` maps each key of its
``variant.to_json()`` that the organizer's form shows to a ``FieldSpec``; a key without one
shows its key as its label. The kind of field (a choice, a whole number, a switch, JSON)
follows from the variant's type and value; the spec adds what the type does not say.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any

#: A text in Dutch and English: ``(nl, en)``.
Text = tuple[str, str]


@dataclass(frozen=True)
class FieldSpec:
    """One variant setting in the organizer's form.

    - ``label`` and ``help``: what the setting is, and what it means (shown under it);
    - ``applies_when``: ``(other key, values)``: the setting applies only while the other
      setting has one of these values; the form hides it otherwise and the site ignores
      what it carries (it takes ``idle``);
    - ``idle``: what a setting that does not apply holds (``None``: the variant's own
      value);
    - ``value_labels``: the words of each value of a ``Literal`` setting (else the value);
    - ``choices``: the few whole numbers the setting allows (a choice in the form);
    - ``int_range``: the lowest and highest whole number the form takes (``None``: the
      site's default range; the engine checks what the rules need);
    - ``normal_item``: for a list setting whose items the form offers to choose from
      (Jokeren's contracts), one item's JSON as the engine writes it (every field, in
      order); it raises ``ValueError`` or ``TypeError`` for a value that is no item.
    """

    label: Text
    help: Text = ("", "")
    applies_when: tuple[str, tuple[str, ...]] | None = None
    idle: Any = None
    value_labels: Mapping[str, Text] = field(default_factory=dict)
    choices: tuple[int, ...] | None = None
    int_range: tuple[int, int] | None = None
    normal_item: Callable[[Any], dict[str, Any]] | None = None


#: The number of seats, as every game's form shows it.
NUM_PLAYERS = FieldSpec(
    label=("Spelers aan tafel", "Players at a table"),
    help=(
        "Jij en de bots: 3 of 4 spelers aan elke tafel.",
        "You and the bots: 3 or 4 seats at every table.",
    ),
)
