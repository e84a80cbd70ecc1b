"""The fair-play check of play that knows too much (``engine.fairplay``, issue 33 item 2):
the statistic on seeded honest and cheating games, the view-best choices, the tail."""

from __future__ import annotations

import importlib
import json
import math
import random
import sys
from pathlib import Path
from typing import Any

import pytest

from engine import fairplay
from engine.match import bot_move
from engine.registry import game_module, game_of_preset

SECRET = bytes(range(100, 132))
BENCHMARKS = Path(__file__).resolve().parents[2] / "benchmarks"


def _round(
    preset: str, round_index: int, *, level: str, share: float, seed: str
) -> list[fairplay.Step]:
    """One round where seat 0 plays like the ``level`` bot with a random legal move one
    time in ten, and (a cheater) on a share ``share`` of its decisions makes a deal-best
    choice; the others are strong bots. The round's steps, as the site stores them."""
    module: Any = game_module(game_of_preset(preset))
    variant = module.PRESETS[preset]
    version = module.BOT_VERSION
    levels = fairplay.rollout_levels(module, bot_level="strong", num_players=variant.num_players)
    rng = random.Random(f"{seed}:{preset}:{round_index}")
    state = module.new_round(variant, secret=SECRET, round_index=round_index)
    steps = []
    while not state.is_terminal:
        seat = state.current_player
        if seat != fairplay.PLAYER:
            move = bot_move(module, state, level="strong", version=version).action
            steps.append(fairplay.Step(seat, move, True))
            state = state.apply(move)
            continue
        move = module.bot_action(state, level=level, version=version)
        if rng.random() < 0.1:
            move = rng.choice(fairplay.candidates(state))
        elif share and rng.random() < share:
            probe = fairplay.check_decision(module, state, None, levels=levels, version=version)
            if probe.deal_best and not any(state.same_move(move, a) for a in probe.deal_best):
                move = probe.deal_best[0]
        steps.append(fairplay.Step(seat, move, False))
        state = state.apply(move)
    return steps


def _evidence(
    preset: str, rounds: int, *, level: str, share: float, seed: str
) -> fairplay.Evidence:
    module: Any = game_module(game_of_preset(preset))
    variant = module.PRESETS[preset]
    checks = []
    for r in range(rounds):
        steps = _round(preset, r, level=level, share=share, seed=seed)
        checks += fairplay.round_checks(
            module,
            variant,
            secret=SECRET,
            round_index=r,
            steps=steps,
            bot_level="strong",
            version=module.BOT_VERSION,
        )
    return fairplay.evidence_of(checks)


@pytest.mark.parametrize("preset", ["jokeren7", "rotterdams"])
def test_honest_seeded_play_is_not_flagged_and_cheating_play_is(preset: str) -> None:
    honest_strong = _evidence(preset, 8, level="strong", share=0.0, seed="honest")
    honest_basic = _evidence(preset, 8, level="basic", share=0.0, seed="honest")
    cheat = _evidence(preset, 16, level="strong", share=1.0, seed="cheat")
    for honest in (honest_strong, honest_basic):
        assert honest.decisions > 0 and honest.opportunities > 0
        assert not honest.flagged, (honest.figure, honest.telling, honest.expected)
    assert cheat.flagged, (cheat.figure, cheat.telling, cheat.expected)
    # the cheater's telling decisions are many more than an honest player's rate expects
    assert cheat.telling > 3 * cheat.expected


def test_a_decision_is_telling_only_when_the_deal_best_choice_is_off_view_and_made() -> None:
    module: Any = game_module("jokeren")
    variant = module.PRESETS["jokeren7"]
    levels = fairplay.rollout_levels(module, bot_level="strong", num_players=4)
    found = 0
    for r in range(4):
        state = module.new_round(variant, secret=SECRET, round_index=r)
        while not state.is_terminal:
            if state.current_player == fairplay.PLAYER:
                probe = fairplay.check_decision(module, state, None, levels=levels, version=1)
                if probe.opportunity:
                    best = probe.deal_best[0]
                    made = fairplay.check_decision(
                        module, state, best, levels=levels, version=1, round_index=r, index=3
                    )
                    assert made.telling and made.opportunity
                    assert 0 < made.null < 1 and 0 < made.share <= 1
                    assert made.best_value is not None and made.reference_value is not None
                    assert made.best_value > made.reference_value
                    # the strong bot's own choice is never telling
                    view = fairplay.check_decision(
                        module, state, probe.view_best[0], levels=levels, version=1
                    )
                    assert view.opportunity and not view.telling
                    nl, en = fairplay.describe_telling(module, made)
                    assert nl.startswith(f"Ronde {r + 1}, zet 4: de speler heeft ")
                    assert "sterke bot" in nl and "ronde-uitslag" in nl
                    assert en.startswith(f"Round {r + 1}, move 4: the player ")
                    assert "strong bot" in en and "round result" in en
                    found += 1
                elif probe.deal_best:
                    # a deal-best choice among the view-best ones: nothing to tell
                    assert any(
                        state.same_move(a, b) for a in probe.deal_best for b in probe.view_best
                    )
            state = bot_move(module, state, level="strong", version=1).state
    assert found > 0


@pytest.mark.parametrize("preset", ["jokeren7", "klassiek", "rotterdams", "amsterdams"])
def test_the_view_best_choices_start_with_the_strong_bots_and_are_legal(preset: str) -> None:
    module: Any = game_module(game_of_preset(preset))
    state = module.new_round(module.PRESETS[preset], secret=SECRET, round_index=1)
    seen_near = 0
    while not state.is_terminal:
        near = module.near_best_actions(state, version=module.BOT_VERSION)
        assert near[0] == module.bot_action(state, level="strong", version=module.BOT_VERSION)
        for a in near:
            state.apply(a)  # legal (raises otherwise)
        assert len({repr(a) for a in near}) == len(near)
        seen_near += len(near) > 1
        state = bot_move(module, state, level="strong", version=module.BOT_VERSION).state
    assert seen_near > 0


def test_the_tail_is_the_binomial_tail_and_evidence_adds_up() -> None:
    p, n = 0.2, 12
    for k in range(n + 2):
        want = sum(math.comb(n, j) * p**j * (1 - p) ** (n - j) for j in range(k, n + 1))
        assert fairplay.poisson_binomial_tail([p] * n, k) == pytest.approx(want, abs=1e-12)
    a = fairplay.Evidence(10, (0.1, 0.2), 1)
    b = fairplay.Evidence(5, (0.5,), 1)
    both = fairplay.combined([a, b])
    assert (both.decisions, both.nulls, both.telling) == (15, (0.1, 0.2, 0.5), 2)
    assert both.expected == pytest.approx(0.8)
    assert fairplay.Evidence.from_json(both.to_json()) == both
    # many telling decisions where honest players rarely make one: far past the threshold
    assert fairplay.Evidence(40, (0.05,) * 20, 10).flagged
    assert not fairplay.Evidence(40, (0.05,) * 20, 2).flagged
    assert fairplay.null_rate("jokeren", "NoSuchKind", 0.6) == fairplay.FALLBACK_RATE


def test_the_benchmarks_quick_run_reports_every_share_of_its_table(tmp_path: Path) -> None:
    """``benchmarks/cheat.py --quick``: a small run of the benchmark, end to end."""
    sys.path.insert(0, str(BENCHMARKS))
    try:
        cheat = importlib.import_module("cheat")
    finally:
        sys.path.remove(str(BENCHMARKS))
    assert (
        cheat.main(["--quick", "--preset", "jokeren7", "--workers", "1", "--out", str(tmp_path)])
        == 0
    )
    report = json.loads((tmp_path / "cheat.json").read_text())
    assert report["threshold"] == fairplay.THRESHOLD
    (row,) = report["table"]
    assert row["preset"] == "jokeren7" and row["rounds"] == 4
    for key in ("honest_flagged", "caught_p1.0", "caught_p0.5", "caught_p0.3"):
        assert 0.0 <= row[key] <= 1.0
    # knowing the deal on every decision where it pays gains, and is caught more than
    # honest play is flagged
    assert row["gain_p1.0"] > 0
    assert row["caught_p1.0"] > row["honest_flagged"]
    rounds = (tmp_path / "rounds.jsonl").read_text().splitlines()
    assert len(rounds) == 6 * (4 + 3)
