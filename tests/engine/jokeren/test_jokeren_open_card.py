"""The open card at the deal (issue 12, item 1). Seed 000 turns one card face up to start
the open pile; seed 001 (the classic game): "De kaarten die overblijven worden gesloten op
een stapel gelegd. [...] Degene na de gever mag de eerste kaart van het stapeltje pakken,
daarna een kaart op de weggooistapel leggen." docs/rules.md §2: a variant field."""

from __future__ import annotations

from dataclasses import replace

import pytest

from engine.jokeren import PRESETS, Discard, Draw, bot_action, new_round, variant_from_json
from engine.jokeren.actions import OpenPileEmpty

SECRET = bytes(range(32))


@pytest.mark.parametrize(
    ("preset", "turned"),
    [
        ("jokeren7", True),
        ("jokeren13", True),
        ("klassiek", False),
        ("veertigen", False),
        ("vijf-rondes", False),
    ],
)
def test_which_presets_turn_an_open_card(preset: str, turned: bool) -> None:
    variant = PRESETS[preset]
    assert variant.open_card is turned
    state = new_round(variant, secret=SECRET, round_index=0)
    hands = variant.num_players * variant.hand_size
    assert len(state.open_pile) == (1 if turned else 0)
    # the rest of the pack is the closed stock
    assert len(state.stock) == variant.pack_size - hands - (1 if turned else 0)


@pytest.mark.parametrize("round_index", [0, 3])
def test_without_an_open_card_the_card_after_the_hands_is_the_top_of_the_stock(
    round_index: int,
) -> None:
    classic = PRESETS["klassiek"]
    turned = replace(classic, open_card=True)
    with_card = new_round(turned, secret=SECRET, round_index=round_index)
    without = new_round(classic, secret=SECRET, round_index=round_index)
    assert without.hands == with_card.hands
    assert without.stock == (with_card.open_pile[0], *with_card.stock)


def test_the_first_player_can_only_draw_from_the_stock() -> None:
    state = new_round(PRESETS["klassiek"], secret=SECRET, round_index=0)
    assert state.legal_actions() == [Draw("stock")]
    with pytest.raises(OpenPileEmpty):
        state.apply(Draw("open"))
    for level in ("basic", "strong"):
        assert bot_action(state, level=level) == Draw("stock")


def test_the_open_pile_starts_with_the_first_discard() -> None:
    state = new_round(PRESETS["klassiek"], secret=SECRET, round_index=0)
    first = state.current_player
    top = state.stock[0]
    state = state.apply(Draw("stock"))
    assert top in state.hands[first]
    state = state.apply(Discard(top))
    assert state.open_pile == (top,)
    # the next player may take it
    assert Draw("open") in state.legal_actions()


def test_a_stored_variant_without_the_field_keeps_its_open_card() -> None:
    data = PRESETS["jokeren13"].to_json()
    del data["open_card"]
    assert variant_from_json(data).open_card is True
    data["open_card"] = "no"
    with pytest.raises(ValueError, match="open_card"):
        variant_from_json(data)
