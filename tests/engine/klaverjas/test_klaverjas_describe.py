"""Move texts in Dutch and English, with the Dutch card names of RULES.md §1."""

from engine.cards import klaverjas_id
from engine.klaverjas.actions import Bid, ChooseTrump, PlayCard, describe


def test_playing_a_card_names_it_in_dutch_and_english() -> None:
    assert describe(PlayCard(klaverjas_id("Jh"))) == (
        "speelt harten boer",
        "plays the jack of hearts",
    )
    assert describe(PlayCard(klaverjas_id("Ts"))) == (
        "speelt schoppen 10",
        "plays the 10 of spades",
    )
    assert describe(PlayCard(klaverjas_id("Ac"))) == ("speelt klaver aas", "plays the ace of clubs")


def test_bids_and_trump_choice_use_the_game_words() -> None:
    assert describe(Bid(False)) == ("past", "passes")
    assert describe(Bid(True)) == ("gaat", "plays")
    assert describe(Bid(True, 1))[0] == "gaat in ruiten"
    assert describe(ChooseTrump(3))[0] == "kiest schoppen als troef"
