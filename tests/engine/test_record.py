"""Game records (docs/game-record.md): a game played here, move by move, as the site plays
it (seat 0 chooses, the other seats are bots of the record's level), verifies; every kind
of tampering is reported with its round."""

from __future__ import annotations

import copy
from typing import Any

import pytest

from engine import record
from engine.dealing import commitment
from engine.registry import game_module


def check(data: dict[str, Any]) -> record.Verification:
    return record.verify(record.read_record(data))


@pytest.fixture
def jokeren(jokeren_record: dict[str, Any]) -> dict[str, Any]:
    return copy.deepcopy(jokeren_record)


def test_a_played_game_verifies(jokeren: dict[str, Any]) -> None:
    result = check(jokeren)
    assert result.ok, result.all_problems()
    assert [c.replayed for c in result.rounds] == jokeren["round_scores"]
    assert result.totals_replayed == jokeren["totals"]
    assert jokeren["commitment"] == commitment(bytes.fromhex(jokeren["secret"]))
    assert result.final_state.is_terminal
    lines = record.verification_lines(result)
    assert lines[0].startswith("round 1: ") and lines[0].endswith("ok")
    assert lines[-1].startswith("verified")


def test_a_klaverjas_game_verifies(play_record: Any) -> None:
    result = check(play_record("klaverjas", "rotterdams", 1, level="basic"))
    assert result.ok, result.all_problems()


def test_a_changed_score_is_reported_with_its_round(jokeren: dict[str, Any]) -> None:
    data = copy.deepcopy(jokeren)
    data["round_scores"][1][2] += 5
    data["totals"][2] += 5
    result = check(data)
    assert not result.ok
    assert result.rounds[0].ok and not result.rounds[1].ok
    assert result.rounds[1].replayed == jokeren["round_scores"][1]
    assert any(line.startswith("round 2: MISMATCH") for line in record.verification_lines(result))


def test_changed_totals_are_reported(jokeren: dict[str, Any]) -> None:
    data = copy.deepcopy(jokeren)
    data["totals"][0] -= 1
    result = check(data)
    assert all(c.ok for c in result.rounds) and not result.ok
    assert "totals" in result.problems[0]


def test_a_deleted_action_is_reported(jokeren: dict[str, Any]) -> None:
    data = copy.deepcopy(jokeren)
    del data["actions"][0][3]
    result = check(data)
    assert not result.rounds[0].ok and result.rounds[1].ok
    assert "action 4" in result.rounds[0].problems[0]


def test_a_swapped_pair_of_actions_is_reported(jokeren: dict[str, Any]) -> None:
    data = copy.deepcopy(jokeren)
    row = data["actions"][1]
    # South's draw and discard of one turn, the other way round: discarding before drawing.
    i = next(
        i
        for i, a in enumerate(row)
        if a["seat"] == 0 and a["action"]["type"] == "draw" and row[i + 1]["seat"] == 0
    )
    row[i]["action"], row[i + 1]["action"] = row[i + 1]["action"], row[i]["action"]
    result = check(data)
    assert result.rounds[0].ok and not result.rounds[1].ok
    assert f"action {i + 1} (seat 0) is illegal" in result.rounds[1].problems[0]


def test_a_bot_action_that_is_not_the_bots_choice_is_reported(jokeren: dict[str, Any]) -> None:
    module = game_module("jokeren")
    variant = module.variant_from_json(jokeren["variant"])
    data = copy.deepcopy(jokeren)
    state = module.new_round(variant, secret=bytes.fromhex(data["secret"]), round_index=0)
    row = data["actions"][0]
    i = next(i for i, item in enumerate(row) if item["by_bot"])
    for item in row[:i]:
        state = state.apply(module.action_from_json(item["action"]))
    row[i]["action"] = next(
        a.to_json() for a in state.legal_actions() if a.to_json() != row[i]["action"]
    )
    result = check(data)
    assert "not the bot's choice" in result.rounds[0].problems[0]
    assert f"action {i + 1} " in result.rounds[0].problems[0]


def test_a_secret_that_does_not_match_the_commitment_is_reported(
    jokeren: dict[str, Any],
) -> None:
    data = copy.deepcopy(jokeren)
    data["commitment"] = commitment(b"another secret")
    result = check(data)
    assert not result.ok and not result.commitment_ok
    assert "commitment: MISMATCH with the secret" in record.verification_lines(result)


def test_a_record_cut_short_is_reported(jokeren: dict[str, Any]) -> None:
    data = copy.deepcopy(jokeren)
    data["actions"].pop()
    data["round_scores"].pop()
    data["totals"] = data["round_scores"][0]
    result = check(data)
    assert result.problems == ["the game does not end where the record ends"]


def test_the_json_round_trips(jokeren: dict[str, Any]) -> None:
    assert record.read_record(jokeren).to_json() == jokeren


@pytest.mark.parametrize(
    ("change", "message"),
    [
        (lambda d: d.update(format="other/1"), "format must be"),
        (lambda d: d.pop("secret"), "missing field(s): secret"),
        (lambda d: d.update(secret="zz"), "secret must be"),
        (lambda d: d.update(game="poker"), "game must be"),
        (lambda d: d.update(variant={"hand_size": "x"}), "not a valid jokeren variant"),
        (lambda d: d.update(bot_level="genius"), "bot_level must be"),
        (lambda d: d["actions"][0].append({"seat": 0}), "must be an object with seat"),
        (lambda d: d["round_scores"][0].append(1), "round_scores[0] must have 4 scores"),
        (lambda d: d.update(totals="12"), "totals must be a list"),
        (lambda d: d.update(rounds=0), "rounds must be at least 1"),
    ],
)
def test_a_document_that_is_not_a_record_is_refused(
    jokeren: dict[str, Any], change: Any, message: str
) -> None:
    data = copy.deepcopy(jokeren)
    change(data)
    with pytest.raises(record.RecordError) as info:
        record.read_record(data)
    assert message in str(info.value)
