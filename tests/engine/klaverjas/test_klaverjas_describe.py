"""Move texts in Dutch and English with the cards in words (issue 13): the suit's symbol
and the rank in the language (``♥B`` / ``J♥``), worded to fit every seat ("Jij"/"You")."""

import pytest

from engine.cards import klaverjas_id
from engine.klaverjas import MustFollowSuit
from engine.klaverjas.actions import Bid, ChooseTrump, PlayCard, describe

from .conftest import PlayState, k


def test_playing_a_card_names_it_in_dutch_and_english() -> None:
    assert describe(PlayCard(klaverjas_id("Jh"))) == ("speelt ♥B", "played J♥")
    assert describe(PlayCard(klaverjas_id("Ts"))) == ("speelt ♠10", "played 10♠")
    assert describe(PlayCard(klaverjas_id("Ac"))) == ("speelt ♣A", "played A♣")


def test_bids_and_trump_choice_use_the_game_words() -> None:
    # English past tense: "You passed" and "North passed" both agree (not "You passes")
    assert describe(Bid(False)) == ("past", "passed")
    assert describe(Bid(True)) == ("gaat", "chose to play")
    assert describe(Bid(True, 1)) == ("gaat in ruiten", "chose to play in diamonds")
    assert describe(ChooseTrump(3)) == ("kiest schoppen als troef", "chose spades as trump")


def test_a_refused_card_is_named_in_words(play_state: PlayState) -> None:
    state = play_state("7c Kc Jh As", trick="Ac")
    with pytest.raises(MustFollowSuit) as info:
        state.apply(PlayCard(k("As")))
    assert info.value.nl == "Je moet klaveren bekennen; ♠A mag niet."
    assert info.value.en == "You must follow suit (clubs); A♠ is not allowed."
