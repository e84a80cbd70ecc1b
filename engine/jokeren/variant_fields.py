"""The Jokeren variant's settings in the organizer's form (``engine.fields``), Dutch and
English: what each setting of ``Variant`` (docs/rules.md §3) is and means."""

from __future__ import annotations

import dataclasses
from typing import Any, Final

from engine.fields import NUM_PLAYERS, FieldSpec, Text
from engine.jokeren.variants import Variant, contract_from_json

#: The game's name in the list of presets.
TITLE: Final[Text] = ("Jokeren", "Jokeren")


def normal_contract(obj: Any) -> dict[str, Any]:
    """A contract's JSON as the engine writes it (``contract_from_json``, then
    ``to_json``); ``ValueError`` or ``TypeError`` for one that is no contract."""
    return contract_from_json(obj).to_json()


VARIANT_FIELDS: Final[dict[str, FieldSpec]] = {
    "decks": FieldSpec(
        label=("Kaartspellen", "Decks"),
        help=(
            "Aantal volledige spellen van 52 kaarten met elk 2 jokers dat samen wordt geschud.",
            "Full packs of 52 cards with 2 jokers each that are shuffled together.",
        ),
    ),
    "hand_size": FieldSpec(
        label=("Kaarten per hand", "Cards per hand"),
        help=(
            "Hoeveel kaarten elke speler aan het begin van een ronde krijgt.",
            "How many cards each player is dealt at the start of a round.",
        ),
    ),
    "num_players": dataclasses.replace(NUM_PLAYERS, choices=Variant.FIELD_CHOICES["num_players"]),
    "lay_off_before_out": FieldSpec(
        label=(
            "Aanleggen en jokers wisselen vóór op tafel komen",
            "Lay off and swap jokers before coming out",
        ),
        help=(
            "Aan: een speler mag kaarten aanleggen bij de setjes op tafel en jokers wisselen "
            "voordat hij zelf setjes heeft neergelegd.",
            "On: a player may add cards to the melds on the table and swap jokers before "
            "laying down melds of their own.",
        ),
    ),
    "lay_off_same_turn": FieldSpec(
        label=(
            "Aanleggen en jokers wisselen in de beurt waarin je op tafel komt",
            "Lay off and swap jokers in the turn you come out",
        ),
        help=(
            "Aan: in de beurt waarin een speler voor het eerst neerlegt, mag hij ook aanleggen "
            "en jokers wisselen. Uit: pas vanaf zijn volgende beurt.",
            "On: in the turn a player first lays down, they may also lay off and swap jokers. "
            "Off: only from their next turn.",
        ),
    ),
    "complete_meld": FieldSpec(
        label=("Een compleet setje gaat", "A complete meld goes"),
        help=(
            "Wat er gebeurt met een setje dat niet meer kan groeien (vier dezelfde, of een rij "
            "van 13 zonder joker).",
            "What happens to a meld that cannot grow any more (four of a kind, or a run of 13 "
            "without a joker).",
        ),
        value_labels={
            "recycle": (
                "onder de open stapel (terug in het spel na het schudden)",
                "under the open pile (back in play after a reshuffle)",
            ),
            "remove": ("uit het spel", "out of the game"),
        },
    ),
    "opening": FieldSpec(
        label=("Eis om op tafel te komen", "Opening requirement"),
        help=(
            "Waaraan de eerste keer neerleggen moet voldoen: niets bijzonders, de opdracht van "
            "de ronde, of een minimum aantal punten.",
            "What a player's first lay-down must hold: nothing special, the round's contract, "
            "or a minimum of points.",
        ),
        value_labels={
            "none": ("geen", "none"),
            "contract": ("de opdracht van de ronde", "the round's contract"),
            "points": ("een minimum aantal punten", "a minimum of points"),
        },
    ),
    "opening_points": FieldSpec(
        label=("Punten nodig om op tafel te komen", "Points needed to come out"),
        help=(
            'Bij de eis "een minimum aantal punten": de setjes van de eerste keer neerleggen '
            "moeten samen minstens zoveel waard zijn.",
            'With the opening "a minimum of points": the melds of the first lay-down must be '
            "worth at least this much together.",
        ),
        applies_when=("opening", ("points",)),
    ),
    "contracts": FieldSpec(
        label=("Opdrachten per ronde", "Contracts per round"),
        help=(
            'Bij de eis "de opdracht van de ronde": wat een speler in elke ronde moet '
            "neerleggen. Na de laatste begint de lijst opnieuw.",
            'With the opening "the round\'s contract": what a player must lay down in each '
            "round. After the last one the list starts again.",
        ),
        applies_when=("opening", ("contract",)),
        # the engine refuses contracts without the contract opening
        idle=[],
        normal_item=normal_contract,
    ),
    "first_cycle_no_meld": FieldSpec(
        label=(
            "Niemand mag neerleggen in de eerste rondgang",
            "Nobody may lay down in the first cycle",
        ),
        help=(
            "Aan: in ieders eerste beurt van een ronde mag niemand neerleggen, aanleggen of een "
            "joker wisselen.",
            "On: in everyone's first turn of a round, nobody may lay down, lay off or swap a "
            "joker.",
        ),
    ),
    "scoring": FieldSpec(
        label=("Telling per ronde", "Round scoring"),
        help=(
            "Wat de spelers die niet zijn uitgegaan krijgen: de punten van hun kaarten in de "
            "hand, of het aantal kaarten. Lager is beter.",
            "What the players who did not go out score: the points of their cards in hand, or "
            "the number of cards. Lower is better.",
        ),
        value_labels={
            "points": ("punten in de hand", "points in hand"),
            "cards": ("aantal kaarten in de hand", "number of cards in hand"),
        },
    ),
    "turn_limit": FieldSpec(
        label=("Maximum aantal beurten per ronde", "Turn limit of a round"),
        help=(
            "Een ronde die na zoveel beurten door niemand is beëindigd, eindigt zonder "
            "winnaar: iedereen krijgt de punten van zijn hand.",
            "A round that nobody has ended after this many turns ends without a winner: "
            "everyone scores their hand.",
        ),
        # what the bots play through quickly in one request: a round nobody can end
        # otherwise (an unreachable opening, say) stops there
        int_range=(1, 2000),
    ),
    "open_card": FieldSpec(
        label=(
            "Bij het delen wordt één kaart opengelegd als begin van de open stapel",
            "A card is turned face up at the deal to start the open pile",
        ),
        help=(
            "Aan: na het delen wordt één kaart opengelegd als begin van de open stapel. Uit: "
            "de open stapel begint met de eerste afgegooide kaart.",
            "On: after the deal one card is turned face up to start the open pile. Off: the "
            "open pile starts with the first discard.",
        ),
    ),
    "part_rounds": FieldSpec(
        label=(
            "Rondes per deel, elk op een eigen scoreblad (0: één deel)",
            "Rounds per part, each on its own score sheet (0: one part)",
        ),
        help=(
            "Verdeel het spel in delen van zoveel rondes, elk op een eigen scorelijst; 0 houdt "
            "het spel in één deel.",
            "Split the game into parts of this many rounds, each on its own score sheet; 0 "
            "keeps the game in one part.",
        ),
    ),
    "subtotal_after": FieldSpec(
        label=(
            "Tussentotaal op het scoreblad na elke zoveel rondes (0: geen)",
            "Subtotal on the score sheet after every so many rounds (0: none)",
        ),
        help=(
            "De scorelijst telt na elk zoveel rondes een tussentotaal; 0: geen tussentotalen.",
            "The score sheet counts a subtotal after every so many rounds; 0: no subtotals.",
        ),
    ),
}
