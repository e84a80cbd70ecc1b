"""The Klaverjas expert, version 3 (``engine.klaverjas.bots.expert_v3``): version 2's play
within one work cap. Its decisions are a function of the observation and the stream,
never do more than ``WORK_CAP`` units of work (a count, not a time), and are version 2's
wherever the cap did not bind."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from engine.dealing import Stream
from engine.klaverjas import PRESETS, KlaverjasObservation, PlayCard, new_round
from engine.klaverjas.bots import (
    BOT_VERSION,
    BOT_VERSIONS,
    bot_action,
    choose_expert,
    expert_v3,
    strong,
)
from engine.klaverjas.bots.expert_v3 import DRAW_COST, WORK_CAP, decide

#: the largest piece of work bought at once: a rollout sample of eight cards, each
#: played out over the 32 cards of a round (a draw and a bid check cost less)
LARGEST_PURCHASE = 8 * 32


def test_version_3_is_the_current_expert_and_versions_1_and_2_stay() -> None:
    assert BOT_VERSION == 3
    assert BOT_VERSIONS == (1, 2, 3)


def _decisions(
    preset: str, rounds: int, tag: bytes
) -> Iterator[tuple[KlaverjasObservation, Stream]]:
    """Every play decision with a choice of the even seats (the expert's) in ``rounds``
    rounds played by the strong bot, with the stream the expert would get."""
    for r in range(rounds):
        state = new_round(PRESETS[preset], secret=tag + bytes([r]), round_index=r)
        while not state.is_terminal:
            seat = state.current_player
            assert seat is not None
            obs = state.observe(seat)
            if seat % 2 == 0 and obs.phase == "play" and len(obs.legal) > 1:
                yield obs, Stream(state.round_seed, f"bot:{seat}", start=state.move_count)
            state = state.apply(bot_action(state, level="strong"))


@pytest.mark.parametrize("preset", sorted(PRESETS))
def test_version_3_decides_deterministically_within_the_cap_and_as_version_2_below_it(
    preset: str,
) -> None:
    seen = 0
    below = 0
    for obs, _ in _decisions(preset, 6, b"v3-" + preset.encode()):
        key = obs.seat
        start = len(obs.tricks)  # a fixed stream per decision
        first = decide(obs, rng=Stream(b"s" * 32, f"bot:{key}", start=start))
        again = decide(obs, rng=Stream(b"s" * 32, f"bot:{key}", start=start))
        assert first == again  # the same action and the same count of work
        action, work = first
        assert 0 <= work <= WORK_CAP
        assert action in obs.legal
        if work + LARGEST_PURCHASE < WORK_CAP:
            # the cap never bound: version 2's choice
            v2 = choose_expert(obs, rng=Stream(b"s" * 32, f"bot:{key}", start=start), version=2)
            assert action == v2
            below += 1
        seen += 1
    assert seen >= 50 and below >= seen // 2


@pytest.mark.parametrize("cap", [0, DRAW_COST - 1, 40, 300, 1500])
def test_a_smaller_cap_is_never_exceeded_and_every_choice_stays_legal(
    cap: int, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(expert_v3, "WORK_CAP", cap)
    works = []
    for obs, rng in _decisions("rotterdams", 3, b"v3-cap"):
        action, work = decide(obs, rng=rng)
        assert work <= cap
        assert action in obs.legal
        works.append(work)
    assert works
    if cap >= 300:
        # the cap binds: some decisions spend (nearly) all of it
        assert max(works) > cap - LARGEST_PURCHASE


def test_with_no_work_allowed_the_expert_plays_the_strong_card(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setattr(expert_v3, "WORK_CAP", DRAW_COST - 1)
    for obs, _ in _decisions("amsterdams", 2, b"v3-none"):
        start = len(obs.tricks)
        action, work = decide(obs, rng=Stream(b"s" * 32, "bot:0", start=start))
        assert work == 0
        expected = strong.choose(obs, Stream(b"s" * 32, "bot:0", start=start))
        assert action == expected
        assert isinstance(action, PlayCard)


def test_the_expert_of_version_3_plays_through_the_versions_entry_point() -> None:
    for obs, _ in _decisions("rotterdams", 1, b"v3-entry"):
        rng = Stream(b"s" * 32, "bot:0", start=3)
        assert (
            choose_expert(obs, rng=rng, version=3)
            == decide(obs, rng=Stream(b"s" * 32, "bot:0", start=3))[0]
        )
