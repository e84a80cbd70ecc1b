"""The presets of docs/rules.md §3 and their opening rules (seed 001: potjes, veertigen, the
five-round variation), card-count scoring, and organizer-made variants."""

from __future__ import annotations

from dataclasses import replace

import pytest
from jokeren_helpers import lay, make_state

from engine.cards import CARD_CODE
from engine.jokeren import (
    PRESETS,
    ContractNotMet,
    Discard,
    FirstCycleNoMeld,
    JokerenState,
    LayMelds,
    LayOff,
    variant_from_json,
)
from engine.jokeren.variants import Contract

J7 = PRESETS["jokeren7"]
J13 = PRESETS["jokeren13"]
KLASSIEK = PRESETS["klassiek"]
VEERTIGEN = PRESETS["veertigen"]
VIJF = PRESETS["vijf-rondes"]


OTHERS = ["3c", "4c", "5c"]


# --- the presets' fields ---------------------------------------------------------------------


def test_preset_names() -> None:
    assert set(PRESETS) == {
        "jokeren7",
        "jokeren13",
        "klassiek",
        "veertigen",
        "vijf-rondes",
        "wedstrijd",
    }


def test_jokeren7_preset_fields() -> None:
    assert (J7.decks, J7.hand_size, J7.rounds) == (1, 7, 8)
    assert J7.lay_off_before_out and J7.lay_off_same_turn
    assert J7.complete_meld == "recycle" and J7.opening == "none"
    assert not J7.first_cycle_no_meld and J7.scoring == "points"


def test_jokeren13_preset_fields() -> None:
    assert (J13.decks, J13.hand_size, J13.rounds) == (2, 13, 8)
    assert not J13.lay_off_before_out and not J13.lay_off_same_turn
    assert J13.complete_meld == "remove" and J13.opening == "none"
    assert not J13.first_cycle_no_meld and J13.scoring == "points"


def test_klassiek_preset_fields() -> None:
    assert (KLASSIEK.decks, KLASSIEK.hand_size, KLASSIEK.rounds) == (2, 13, 6)
    assert KLASSIEK.opening == "contract" and len(KLASSIEK.contracts) == 6
    assert KLASSIEK.first_cycle_no_meld and KLASSIEK.scoring == "cards"
    assert KLASSIEK.complete_meld == "remove"
    c = KLASSIEK.contracts
    assert (c[0].runs, c[0].groups) == ((3,), ())
    assert (c[1].runs, c[1].groups) == ((), (4,))
    assert (c[2].runs, c[3].runs) == ((3, 4), (4, 5))
    assert (c[4].runs, c[4].groups) == ((5,), (4,))
    assert c[5].runs == (5,) and c[5].all_out


def test_veertigen_preset_fields() -> None:
    assert VEERTIGEN.opening == "points" and VEERTIGEN.opening_points == 40
    assert VEERTIGEN.first_cycle_no_meld and VEERTIGEN.scoring == "points"
    assert VEERTIGEN.rounds == 8


def test_vijf_rondes_preset_fields() -> None:
    assert VIJF.rounds == 5 and len(VIJF.contracts) == 5
    c = VIJF.contracts
    assert c[0].any_meld and c[1].points == 40
    assert c[2].runs == (4,) and c[3].runs == (5,) and c[4].all_out


def test_round_r_uses_contract_r_mod_len() -> None:
    assert KLASSIEK.contract_for(0) == KLASSIEK.contracts[0]
    assert KLASSIEK.contract_for(7) == KLASSIEK.contracts[1]
    assert J13.contract_for(0) is None


# --- first cycle -------------------------------------------------------------------------------


@pytest.mark.parametrize("preset", ["klassiek", "veertigen", "vijf-rondes"])
def test_first_cycle_nobody_lays_down(preset: str) -> None:
    variant = PRESETS[preset]
    hand = "Kh Qh Jh Th 9h 9c 9d 9s 2c"
    s = make_state(variant, hands=[hand, *OTHERS], turn=3)
    assert s.first_cycle
    with pytest.raises(FirstCycleNoMeld):
        s.apply(lay(s, "Th Jh Qh Kh"))
    assert all(isinstance(a, Discard) for a in s.legal_actions())
    later = make_state(variant, hands=[hand, *OTHERS], turn=4)
    assert not later.first_cycle
    assert any(isinstance(a, LayMelds) for a in later.legal_actions())


def test_first_cycle_with_three_players_is_three_turns() -> None:
    variant = replace(KLASSIEK, num_players=3)
    assert make_state(variant, hands=["2c", "3c", "4c"], turn=2).first_cycle
    assert not make_state(variant, hands=["2c", "3c", "4c"], turn=3).first_cycle


def test_jokeren13_has_no_first_cycle() -> None:
    s = make_state(J13, hands=["5h 6h 7h 2c", *OTHERS], turn=0)
    assert not s.first_cycle
    s.apply(lay(s, "5h 6h 7h"))


# --- klassiek: the six potjes ---------------------------------------------------------------


def test_klassiek_potje_1_needs_a_run_of_3() -> None:
    s = make_state(KLASSIEK, hands=["9c 9d 9s 5h 6h 7h 2c", *OTHERS], round_index=0)
    with pytest.raises(ContractNotMet) as info:
        s.apply(lay(s, "9c 9d 9s"))
    assert "rij van 3" in info.value.nl and "run of 3" in info.value.en
    after = s.apply(lay(s, "5h 6h 7h"))
    assert after.out[0]


def test_klassiek_potje_2_needs_a_group_of_4() -> None:
    s = make_state(KLASSIEK, hands=["9c 9d 9s 9h 5h 6h 7h 2c", *OTHERS], round_index=1)
    with pytest.raises(ContractNotMet):
        s.apply(lay(s, "9c 9d 9s"))
    with pytest.raises(ContractNotMet):
        s.apply(lay(s, "5h 6h 7h"))
    after = s.apply(lay(s, "9c 9d 9s 9h"))
    assert after.out[0]


def test_klassiek_potje_3_needs_a_run_of_3_and_a_run_of_4_in_one_action() -> None:
    s = make_state(KLASSIEK, hands=["5h 6h 7h 2d 3d 4d 5d Kc", *OTHERS], round_index=2)
    with pytest.raises(ContractNotMet):
        s.apply(lay(s, "5h 6h 7h"))
    with pytest.raises(ContractNotMet):  # one run of 7 is not two separate runs
        s.apply(lay(s, "2d 3d 4d 5d"))
    after = s.apply(lay(s, "5h 6h 7h", "2d 3d 4d 5d"))
    assert after.out[0] and len(after.table) == 2
    listed = [a for a in s.legal_actions() if isinstance(a, LayMelds)]
    assert listed and all(len(a.melds) == 2 for a in listed)
    for a in listed:
        s.apply(a)


def test_klassiek_potje_4_needs_a_run_of_4_and_a_run_of_5() -> None:
    s = make_state(KLASSIEK, hands=["5h 6h 7h 8h 2d 3d 4d 5d 6d Kc", *OTHERS], round_index=3)
    with pytest.raises(ContractNotMet):
        s.apply(lay(s, "5h 6h 7h", "2d 3d 4d 5d 6d"))
    assert s.apply(lay(s, "5h 6h 7h 8h", "2d 3d 4d 5d 6d")).out[0]


def test_klassiek_potje_5_needs_a_run_of_5_and_a_group_of_4() -> None:
    s = make_state(KLASSIEK, hands=["9c 9d 9s ** 2d 3d 4d 5d 6d Kc", *OTHERS], round_index=4)
    assert s.apply(lay(s, "9c 9d 9s **", "2d 3d 4d 5d 6d")).out[0]
    with pytest.raises(ContractNotMet):
        s.apply(lay(s, "9c 9d 9s", "2d 3d 4d 5d 6d"))


def test_klassiek_potje_6_needs_a_run_of_5_and_all_cards_out_at_once() -> None:
    hand = "2d 3d 4d 5d 6d 9c 9h 9s Kc"
    s = make_state(KLASSIEK, hands=[hand, *OTHERS], round_index=5)
    with pytest.raises(ContractNotMet):  # two cards left
        s.apply(lay(s, "2d 3d 4d 5d 6d"))
    after = s.apply(lay(s, "2d 3d 4d 5d 6d", "9c 9h 9s"))
    assert [CARD_CODE[c] for c in after.hands[0]] == ["Kc"]
    end = after.apply(Discard(after.hands[0][0]))
    assert end.is_terminal and end.winner == 0
    listed = [a for a in s.legal_actions() if isinstance(a, LayMelds)]
    assert listed
    for a in listed:
        assert len(s.apply(a).hands[0]) == 1


def test_klassiek_after_coming_out_any_meld_may_be_laid() -> None:
    s = make_state(
        KLASSIEK,
        hands=["9c 9d 9s 2c", *OTHERS],
        round_index=3,
        out=(True, False, False, False),
    )
    assert len(s.apply(lay(s, "9c 9d 9s")).table) == 1


def test_klassiek_lays_off_only_from_the_turn_after_coming_out() -> None:
    s = make_state(
        KLASSIEK,
        hands=["5h 6h 7h 8d 2c", *OTHERS],
        table=[("5d 6d 7d", 1)],
        round_index=0,
    )
    after = s.apply(lay(s, "5h 6h 7h"))
    assert not any(isinstance(a, LayOff) for a in after.legal_actions())


def test_klassiek_scores_the_number_of_cards() -> None:
    s = make_state(
        KLASSIEK,
        hands=["4d 5h 6h 7h", "** As Kd 7c", "2c 3c", "Td"],
        out=(True, False, False, False),
    )
    s = s.apply(lay(s, "5h 6h 7h"))
    end = s.apply(Discard(s.hands[0][0]))
    assert end.scores() == [0, 4, 2, 1]


# --- veertigen ---------------------------------------------------------------------------------


def test_veertigen_opening_needs_40_points_in_one_action() -> None:
    s = make_state(VEERTIGEN, hands=["Kh Qh Jh 9c 9d 9s 2c 3c 4c 5d", *OTHERS])
    with pytest.raises(ContractNotMet) as info:
        s.apply(lay(s, "Jh Qh Kh"))  # 30 points
    assert "40" in info.value.nl and "40" in info.value.en
    with pytest.raises(ContractNotMet):
        s.apply(lay(s, "2c 3c 4c", "9c 9d 9s"))  # 9 + 27 = 36
    after = s.apply(lay(s, "Jh Qh Kh", "9c 9d 9s"))  # 30 + 27 = 57
    assert after.out[0]


def test_veertigen_ace_counts_11_and_joker_25() -> None:
    # seed 001: aas 11, joker 25 when laying down
    s = make_state(VEERTIGEN, hands=["Ah Ad ** 2c", *OTHERS])
    assert s.apply(lay(s, "Ah Ad **")).out[0]  # 11 + 11 + 25 = 47
    t = make_state(VEERTIGEN, hands=["Ah 2h 3h 4h 5h 6h 9c", *OTHERS])
    with pytest.raises(ContractNotMet):
        t.apply(lay(t, "Ah 2h 3h 4h 5h 6h"))  # 11 + 2 + 3 + 4 + 5 + 6 = 31


def test_veertigen_lists_minimal_openings() -> None:
    s = make_state(VEERTIGEN, hands=["Kh Qh Jh 9c 9d 9s 2c 3c 4c 5d", *OTHERS])
    listed = [a for a in s.legal_actions() if isinstance(a, LayMelds)]
    assert listed
    for a in listed:
        after = s.apply(a)
        assert sum(m.points for m in after.table) >= 40


def test_veertigen_after_coming_out_small_melds_are_fine() -> None:
    s = make_state(VEERTIGEN, hands=["2c 3c 4c 5d", *OTHERS], out=(True, False, False, False))
    assert s.apply(lay(s, "2c 3c 4c")).table


def test_veertigen_scores_hand_points() -> None:
    s = make_state(VEERTIGEN, hands=["9h Kd", "As", "4c", "5c"], turn=399)
    kd = next(c for c in s.hands[0] if CARD_CODE[c] == "Kd")
    end = s.apply(Discard(kd))
    assert end.end_reason == "turn_limit"
    assert end.scores() == [9, 11, 4, 5]


# --- vijf rondes -------------------------------------------------------------------------------


def test_vijf_rondes_round_1_a_run_of_3_or_a_group() -> None:
    s = make_state(VIJF, hands=["9c 9d 9s 5h 6h 7h 2c", *OTHERS], round_index=0)
    assert s.apply(lay(s, "9c 9d 9s")).out[0]
    assert s.apply(lay(s, "5h 6h 7h")).out[0]


def test_vijf_rondes_round_2_at_least_40_points() -> None:
    s = make_state(VIJF, hands=["Kh Qh Jh 9c 9d 9s 2c", *OTHERS], round_index=1)
    with pytest.raises(ContractNotMet):
        s.apply(lay(s, "Jh Qh Kh"))
    assert s.apply(lay(s, "Jh Qh Kh", "9c 9d 9s")).out[0]
    listed = [a for a in s.legal_actions() if isinstance(a, LayMelds)]
    assert listed


def test_vijf_rondes_round_3_a_run_of_4() -> None:
    s = make_state(VIJF, hands=["5h 6h 7h 8h 9c 9d 9s 2c", *OTHERS], round_index=2)
    with pytest.raises(ContractNotMet):
        s.apply(lay(s, "9c 9d 9s"))
    with pytest.raises(ContractNotMet):
        s.apply(lay(s, "5h 6h 7h"))
    assert s.apply(lay(s, "5h 6h 7h 8h")).out[0]


def test_vijf_rondes_round_4_a_run_of_5() -> None:
    s = make_state(VIJF, hands=["5h 6h 7h 8h 9h 2c", *OTHERS], round_index=3)
    with pytest.raises(ContractNotMet):
        s.apply(lay(s, "5h 6h 7h 8h"))
    assert s.apply(lay(s, "5h 6h 7h 8h 9h")).out[0]


def test_vijf_rondes_round_5_all_cards_in_one_turn() -> None:
    s = make_state(VIJF, hands=["5h 6h 7h 9c 9d 9s 2c Kd", *OTHERS], round_index=4)
    with pytest.raises(ContractNotMet):
        s.apply(lay(s, "5h 6h 7h", "9c 9d 9s"))  # two cards left
    t = make_state(VIJF, hands=["5h 6h 7h 9c 9d 9s Kd", *OTHERS], round_index=4)
    assert len(t.apply(lay(t, "5h 6h 7h", "9c 9d 9s")).hands[0]) == 1


def test_vijf_rondes_scores_the_number_of_cards() -> None:
    assert VIJF.scoring == "cards"


# --- organizer-made variants ------------------------------------------------------------------


def test_every_field_can_be_changed_with_replace() -> None:
    v = replace(J13, name="club13", num_players=3, turn_limit=200, scoring="cards")
    assert v.num_players == 3 and v.turn_limit == 200 and v.scoring == "cards"


@pytest.mark.parametrize(
    ("changes", "words"),
    [
        ({"decks": 3}, "decks"),
        ({"num_players": 5}, "num_players"),
        ({"hand_size": 30}, "cards"),
        ({"hand_size": 0}, "hand_size"),
        ({"rounds": 0}, "rounds"),
        ({"turn_limit": 0}, "turn_limit"),
        ({"complete_meld": "keep"}, "complete_meld"),
        ({"opening": "fifty"}, "opening"),
        ({"scoring": "goals"}, "scoring"),
        ({"opening": "contract"}, "contract"),
        ({"lay_off_before_out": True, "lay_off_same_turn": False}, "lay_off"),
        ({"name": ""}, "name"),
        ({"decks": True}, "decks"),
    ],
)
def test_invalid_fields_raise_a_clear_value_error(changes: dict[str, object], words: str) -> None:
    with pytest.raises(ValueError, match=words):
        replace(J13, **changes)  # type: ignore[arg-type]


def test_contracts_only_with_a_contract_opening() -> None:
    with pytest.raises(ValueError, match="contract"):
        replace(J13, contracts=KLASSIEK.contracts)


def test_a_contract_must_require_something() -> None:
    with pytest.raises(ValueError, match="require"):
        Contract()
    with pytest.raises(ValueError, match="run"):
        Contract(runs=(2,))
    with pytest.raises(ValueError, match="group"):
        Contract(groups=(5,))


@pytest.mark.parametrize("name", sorted(PRESETS))
def test_variant_json_round_trip(name: str) -> None:
    v = PRESETS[name]
    assert variant_from_json(v.to_json()) == v


def test_variant_json_rejects_unknown_and_missing_fields() -> None:
    data = J13.to_json()
    with pytest.raises(ValueError, match="unknown"):
        variant_from_json({**data, "jokers": 6})
    del data["decks"]
    with pytest.raises(ValueError, match="missing"):
        variant_from_json(data)
    with pytest.raises(ValueError, match="decks"):
        variant_from_json({**J13.to_json(), "decks": 4})


def all_out_listing(state: JokerenState) -> list[list[list[str]]]:
    out = []
    for a in state.legal_actions():
        if isinstance(a, LayMelds):
            out.append(sorted(sorted(CARD_CODE[c] for c in cards) for cards, _ in a.melds))
    return out


def test_all_out_listing_finds_the_one_card_to_keep() -> None:
    # Kc fits no meld, so it must be the card left to discard
    s = make_state(VIJF, hands=["5h 6h 7h 9c 9d 9s Kc", *OTHERS], round_index=4)
    listed = all_out_listing(s)
    assert [["5h", "6h", "7h"], ["9c", "9d", "9s"]] in listed
    for a in s.legal_actions():
        if isinstance(a, LayMelds):
            left = s.apply(a).hands[0]
            assert [CARD_CODE[c] for c in left] == ["Kc"]


def test_all_out_listing_uses_jokers_and_both_copies_of_a_card() -> None:
    # two decks: two 7h; the joker completes the second run
    s = make_state(KLASSIEK, hands=["3h 4h 5h 6h 7h 7h 8h ** 2c", *OTHERS], round_index=5)
    listed = all_out_listing(s)
    assert listed
    for a in s.legal_actions():
        if isinstance(a, LayMelds):
            after = s.apply(a)
            assert len(after.hands[0]) == 1
            assert any(m.kind == "run" and len(m.cards) >= 5 for m in after.table)


def test_all_out_keeps_no_card_taken_from_the_open_pile() -> None:
    s = make_state(
        VIJF, hands=["5h 6h 7h 9c 9d 9s Kc", *OTHERS], round_index=4, taken_from_open="Kc"
    )
    assert all_out_listing(s) == []


def test_no_all_out_when_two_cards_fit_nowhere() -> None:
    s = make_state(VIJF, hands=["5h 6h 7h 9c 9d 9s Kc 2d", *OTHERS], round_index=4)
    assert all_out_listing(s) == []
