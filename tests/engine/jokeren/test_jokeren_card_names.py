"""A refused Jokeren move names its card in words (issue 13): ``♣3`` / ``3♣``, not ``3c``."""

from __future__ import annotations

import pytest
from jokeren_helpers import card, make_state

from engine.jokeren import PRESETS, CannotDiscardTakenCard, CardNotInHand, Discard, Draw

J13 = PRESETS["jokeren13"]


def test_a_card_not_in_hand_is_named_in_words() -> None:
    s = make_state(J13, hands=["2c 5d", "3c", "4c", "5c"], phase="play")
    with pytest.raises(CardNotInHand) as info:
        s.apply(Discard(card(s, "3c", seat=1)))
    assert info.value.nl == "♣3 zit niet in je hand."
    assert info.value.en == "3♣ is not in your hand."


def test_the_taken_open_card_is_named_in_words() -> None:
    s = make_state(J13, hands=["2c 5d", "3c", "4c", "5c"], phase="draw", open_pile="Js")
    s = s.apply(Draw("open"))
    with pytest.raises(CannotDiscardTakenCard) as info:
        s.apply(Discard(card(s, "Js")))
    assert "♠B" in info.value.nl and "Js" not in info.value.nl
    assert "J♠" in info.value.en and "Js" not in info.value.en
