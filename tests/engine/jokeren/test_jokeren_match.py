"""Seed 001's match and competition tables: three or four at a table ("er kan met 3 of 4
personen aan een tafel worden gespeeld"), the match ("er worden 2 ronden van 10 gespeeld",
"na vijf beurten wordt een tussentotaal geteld") and the score sheet ("op het formulier
wordt voor de winnaar een − gezet ... ter controle worden de − en geteld")."""

from __future__ import annotations

from dataclasses import replace

import pytest

from engine.jokeren import PRESETS, bot_action, new_round, variant_from_json
from engine.jokeren.scoring import results, score_sheet

WEDSTRIJD = PRESETS["wedstrijd"]
SECRET = bytes(range(32))


# --- three or four at a table --------------------------------------------------------------


@pytest.mark.parametrize("level", ["basic", "strong"])
@pytest.mark.parametrize("preset", sorted(PRESETS))
def test_every_preset_plays_at_a_table_of_three(preset: str, level: str) -> None:
    variant = replace(PRESETS[preset], num_players=3)
    state = new_round(variant, secret=SECRET, round_index=1)
    assert len(state.hands) == 3
    assert all(len(h) == variant.hand_size for h in state.hands)
    turns = 0
    while not state.is_terminal:
        assert state.current_player in (0, 1, 2)
        state = state.apply(bot_action(state, level=level))
        turns += 1
    assert len(state.scores()) == 3
    assert turns > 0


def test_the_dealer_rotates_over_three_seats() -> None:
    """The dealer of round r is seat r mod 3 at a table of three; the next seat begins."""
    variant = replace(PRESETS["klassiek"], num_players=3)
    for r in range(7):
        state = new_round(variant, secret=SECRET, round_index=r)
        assert state.dealer == r % 3
        assert state.current_player == (r + 1) % 3


def test_a_table_has_three_or_four_players() -> None:
    for n in (2, 5):
        with pytest.raises(ValueError, match="num_players"):
            variant_from_json({**WEDSTRIJD.to_json(), "num_players": n})
    assert WEDSTRIJD.FIELD_CHOICES["num_players"] == (3, 4)


def test_the_result_at_three_is_own_total_minus_the_average_of_the_two_others() -> None:
    assert results([10, 4, 8]) == [10 - 6, 4 - 9, 8 - 7]


# --- the match: two parts of ten, a subtotal after five --------------------------------------


def test_wedstrijd_preset_follows_the_rule_text() -> None:
    v = WEDSTRIJD
    # "2 ronden van 10", "iedere speler krijgt 13 kaarten", the cards kept are counted
    assert (v.rounds, v.part_rounds, v.subtotal_after) == (20, 10, 5)
    assert (v.decks, v.hand_size, v.scoring) == (2, 13, "cards")
    # the classic rules of the text: the potjes, a first cycle, no open card
    assert v.opening == "contract" and v.contracts == PRESETS["klassiek"].contracts
    assert v.first_cycle_no_meld and not v.open_card
    assert [list(p) for p in v.parts()] == [list(range(10)), list(range(10, 20))]


def test_other_presets_are_one_part_without_subtotal() -> None:
    for name, v in PRESETS.items():
        if name != "wedstrijd":
            assert (v.part_rounds, v.subtotal_after) == (0, 0)
            assert v.parts() == [range(v.rounds)]


def test_the_organizer_may_change_the_counts() -> None:
    ten = variant_from_json({**WEDSTRIJD.to_json(), "rounds": 10, "part_rounds": 0})
    assert ten.parts() == [range(10)] and ten.subtotal_after == 5
    # a last part shorter than the others
    odd = variant_from_json({**WEDSTRIJD.to_json(), "rounds": 25})
    assert odd.parts() == [range(0, 10), range(10, 20), range(20, 25)]


@pytest.mark.parametrize(
    ("changes", "message"),
    [
        ({"part_rounds": -1}, "0 or more"),
        ({"subtotal_after": -5}, "0 or more"),
        ({"subtotal_after": 10}, "subtotal"),
        ({"part_rounds": 0, "rounds": 5}, "subtotal"),
        ({"part_rounds": True}, "whole number"),
    ],
)
def test_bad_counts_are_refused(changes: dict[str, object], message: str) -> None:
    with pytest.raises(ValueError, match=message):
        variant_from_json({**WEDSTRIJD.to_json(), **changes})


# --- the score sheet -----------------------------------------------------------------------


def test_the_sheet_marks_the_winner_and_counts_the_cards_kept() -> None:
    scores = [[0, 5, 9, 2], [7, 0, 3, 11]]
    sheet = score_sheet(scores, [0, 1], parts=[range(10)], subtotal_after=5)
    (part,) = sheet.parts
    assert [(line.kind, line.number, line.winner) for line in part.lines] == [
        ("round", 1, 0),
        ("round", 2, 1),
    ]
    assert part.lines[0].scores == (0, 5, 9, 2)
    assert part.totals == (7, 5, 12, 13)
    assert part.dashes == (1, 1, 0, 0)
    assert not part.complete


def test_a_subtotal_after_five_and_the_columns_added_at_the_end() -> None:
    # ten games at a table of three; seat r % 3 goes out in game r
    scores = [[0 if s == r % 3 else r + s + 1 for s in range(3)] for r in range(10)]
    sheet = score_sheet(scores, [r % 3 for r in range(10)], parts=[range(10)], subtotal_after=5)
    (part,) = sheet.parts
    kinds = [line.kind for line in part.lines]
    assert kinds == ["round"] * 5 + ["subtotal"] + ["round"] * 5
    subtotal = part.lines[5]
    assert subtotal.number == 5
    assert subtotal.scores == tuple(sum(scores[r][s] for r in range(5)) for s in range(3))
    assert part.totals == tuple(sum(scores[r][s] for r in range(10)) for s in range(3))
    # the check: every game has one "−", so the marks add up to the games played
    assert part.dashes == (4, 3, 3) and sum(part.dashes) == 10
    assert part.complete
    assert sheet.totals == part.totals and sheet.dashes == part.dashes


def test_two_parts_each_with_its_own_subtotal_and_total() -> None:
    scores = [[0, 1, 2, 3]] * 12
    winners: list[int | None] = [0] * 11 + [None]
    sheet = score_sheet(scores, winners, parts=WEDSTRIJD.parts(), subtotal_after=5)
    first, second = sheet.parts
    assert [line.number for line in first.lines if line.kind == "subtotal"] == [5]
    assert first.totals == (0, 10, 20, 30) and first.complete
    assert [line.number for line in second.lines] == [11, 12]
    assert second.totals == (0, 2, 4, 6) and not second.complete
    # a round without a winner has no "−"
    assert second.dashes == (1, 0, 0, 0)
    assert sheet.totals == (0, 12, 24, 36) and sheet.dashes == (11, 0, 0, 0)


def test_a_sheet_needs_one_winner_entry_per_round() -> None:
    with pytest.raises(ValueError, match="winner"):
        score_sheet([[0, 1, 2]], [], parts=[range(10)])


def test_the_game_module_gives_a_sheet_for_card_count_variants_only() -> None:
    from engine import jokeren, klaverjas

    scores = [[0, 4, 6, 2], [3, 3, 3, 3]]
    outcomes = [{"winner": 0, "end_reason": "out"}, {"winner": None, "end_reason": "stock"}]
    sheet = jokeren.score_sheet_of(WEDSTRIJD, round_scores=scores, round_results=outcomes)
    assert sheet is not None
    assert [line.winner for line in sheet.parts[0].lines] == [0, None]
    assert sheet.dashes == (1, 0, 0, 0) and sheet.totals == (3, 7, 9, 5)
    # hand points (Jokeren 7 and 13, Veertigen) are not the form's card count
    for name in ("jokeren7", "jokeren13", "veertigen"):
        assert (
            jokeren.score_sheet_of(PRESETS[name], round_scores=scores, round_results=outcomes)
            is None
        )
    rotterdams = klaverjas.PRESETS["rotterdams"]
    assert klaverjas.score_sheet_of(rotterdams, round_scores=[], round_results=[]) is None
    assert klaverjas.game_parts(rotterdams) == [range(rotterdams.rounds)]
    assert jokeren.game_parts(WEDSTRIJD) == [range(10), range(10, 20)]
