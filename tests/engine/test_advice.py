"""The analysis's card terms: what a player would have done, Dutch and English."""

from __future__ import annotations

from engine import jokeren, klaverjas
from engine.cards import card_id_of, klaverjas_id, parse_code
from engine.jokeren.actions import Discard, Draw, LayMelds, LayOff, SwapJoker
from engine.klaverjas.actions import Bid, ChooseTrump, PlayCard


def _card(code: str) -> int:
    return card_id_of(*parse_code(code))


def test_jokeren_advice_names_the_cards_with_their_suit_symbols() -> None:
    assert jokeren.describe_advice(LayOff(card=_card("8h"), meld_index=2)) == (
        "♥8 aangelegd",
        "laid off 8♥",
    )
    assert jokeren.describe_advice(Discard(card=_card("Ts"))) == (
        "♠10 weggegooid",
        "discarded 10♠",
    )
    assert jokeren.describe_advice(Draw(source="open"))[0] == "de open kaart gepakt"
    assert jokeren.describe_advice(SwapJoker(card=_card("Qc"), meld_index=0))[0] == (
        "♣V tegen een joker gewisseld"
    )
    meld = LayMelds(melds=(((_card("7d"), _card("8d"), _card("9d")), None),))
    assert jokeren.describe_advice(meld) == ("♦7 ♦8 ♦9 neergelegd", "laid down 7♦ 8♦ 9♦")


def test_klaverjas_advice_names_the_card_in_words() -> None:
    assert klaverjas.describe_advice(PlayCard(card=klaverjas_id("Jh"))) == (
        "♥B gespeeld",
        "played J♥",
    )
    assert klaverjas.describe_advice(Bid(play=False))[0] == "gepast"
    assert klaverjas.describe_advice(ChooseTrump(suit=0))[1].startswith("chosen ")
