"""The Klaverjas variant's settings in the organizer's form (``engine.fields``), Dutch and
English: what each setting of ``Variant`` (docs/rules.md §6) is and means."""

from __future__ import annotations

from typing import Final

from engine.fields import NUM_PLAYERS, FieldSpec, Text

#: The game's name in the list of presets.
TITLE: Final[Text] = ("Klaverjassen", "Klaverjassen")

VARIANT_FIELDS: Final[dict[str, FieldSpec]] = {
    "num_players": NUM_PLAYERS,
    "points_limit": FieldSpec(
        label=(
            "Puntenlimiet (het spel eindigt wanneer een team die haalt; leeg: geen)",
            "Points limit (the game ends when a team reaches it; empty: none)",
        ),
        help=(
            "Het spel eindigt na de ronde waarin een team zoveel punten haalt; laat het leeg "
            "om alle rondes te spelen.",
            "The game ends after the round in which a team reaches this many points; leave it "
            "empty to play every round.",
        ),
    ),
    "bidding": FieldSpec(
        label=("Bieden", "Bidding"),
        help=(
            "Wat er gebeurt als iedereen past op de voorgestelde troefkleur.",
            "What happens when every player passes on the proposed trump suit.",
        ),
        value_labels={
            "one_round_first_chooses": (
                "één biedronde; past iedereen, dan kiest de eerste speler troef",
                "one round; if everyone passes, the first player chooses trump",
            ),
            "two_rounds": (
                "twee biedrondes (de tweede met een andere troefkleur); past iedereen weer, "
                "dan wordt opnieuw gedeeld",
                "two rounds (the second with another trump suit); if everyone passes again, a "
                "new deal",
            ),
            "no_passing": (
                "zonder passen: de eerste speler kiest troef en speelt",
                "without passing: the first player chooses trump and plays",
            ),
        },
    ),
    "must_trump": FieldSpec(
        label=(
            "Verplicht troeven als je niet kunt bekennen",
            "Must trump when you cannot follow suit",
        ),
        help=(
            "Aan: wie niet kan bekennen, moet troeven als hij troef heeft.",
            "On: a player who cannot follow suit must play a trump if they have one.",
        ),
    ),
    "must_overtrump": FieldSpec(
        label=(
            "Verplicht overtroeven als er troef in de slag ligt",
            "Must overtrump a trump in the trick",
        ),
        help=(
            "Aan: ligt er troef in de slag, dan moet wie troeft een hogere troef spelen als hij "
            "die heeft.",
            "On: when a trump lies in the trick, a player who trumps must play a higher trump "
            "if they can.",
        ),
    ),
    "undertrump": FieldSpec(
        label=("Ondertroeven", "Undertrumping"),
        help=(
            "Mag een speler een lagere troef spelen dan die in de slag ligt als hij niet kan "
            "bekennen of overtroeven?",
            "May a player play a lower trump than the one in the trick when they cannot follow "
            "suit or overtrump?",
        ),
        value_labels={
            "must_undertrump": (
                "verplicht ondertroeven (de spelregel letterlijk)",
                "must undertrump (the rule text read literally)",
            ),
            "no_undertrump_while_other_suit": (
                "niet ondertroeven zolang je een andere kleur hebt (Klaverjas Unie)",
                "no undertrumping while you hold another suit (Klaverjas Unie)",
            ),
        },
    ),
    "partner_exemption": FieldSpec(
        label=(
            "Niet troeven of overtroeven zolang je maat de slag wint",
            "No need to trump or overtrump while your partner wins the trick",
        ),
        help=(
            "Aan (Amsterdams): zolang je maat de slag heeft, hoef je niet te troeven of over "
            "te troeven.",
            "On (Amsterdams): while your partner wins the trick you need not trump or overtrump.",
        ),
    ),
    "four_jacks": FieldSpec(
        label=("Roem voor vier boeren", "Roem for four jacks"),
        help=(
            "Roem (extra punten) voor vier boeren in één slag.",
            "Roem (bonus points) for four jacks in one trick.",
        ),
        choices=(100, 200),
    ),
    "last_trick": FieldSpec(
        label=("Punten voor de laatste slag", "Points for the last trick"),
        help=(
            "Extra punten voor het team dat de laatste slag haalt.",
            "Bonus points for the team that wins the last trick.",
        ),
    ),
    "pit": FieldSpec(
        label=("Bonus voor alle slagen (pit)", "Bonus for winning every trick (pit)"),
        help=(
            "Bonus voor een team dat alle acht slagen haalt (pit of mars).",
            "Bonus for a team that wins all eight tricks (pit, or march).",
        ),
    ),
    "tie_is_nat": FieldSpec(
        label=("Gelijkspel is nat", "A tie is nat"),
        help=(
            "Aan: het spelende team dat precies evenveel haalt als het andere team, gaat nat.",
            "On: the playing team that scores exactly as much as the other team goes nat.",
        ),
    ),
    "max_redeals": FieldSpec(
        label=(
            "Aantal keer opnieuw delen voordat de eerste speler troef moet kiezen",
            "New deals before the first player must choose trump",
        ),
        help=(
            "Bij twee biedrondes: na zoveel keer opnieuw delen in één ronde moet de eerste "
            "speler troef kiezen.",
            "With two bidding rounds: after this many new deals of one round, the first player "
            "must choose trump.",
        ),
        applies_when=("bidding", ("two_rounds",)),
    ),
}
