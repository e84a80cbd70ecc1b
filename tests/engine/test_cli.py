"""``python -m engine``: every subcommand through a real subprocess."""

from __future__ import annotations

import json
import subprocess
import sys
from collections import Counter
from dataclasses import replace
from pathlib import Path
from typing import Any

import pytest

from engine.cards import CARD_CODE
from engine.jokeren import PRESETS as JOKEREN_PRESETS
from engine.jokeren import new_round
from engine.klaverjas import PRESETS as KLAVERJAS_PRESETS
from engine.klaverjas import new_round as klaverjas_new_round

ROOT = Path(__file__).resolve().parents[2]
SECRET_HEX = bytes(range(32)).hex()


def run(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "engine", *args],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=120,
    )


def run_json(*args: str) -> Any:
    proc = run(*args)
    assert proc.returncode == 0, proc.stderr
    return json.loads(proc.stdout)


# --- deal ------------------------------------------------------------------------------


@pytest.mark.parametrize("preset", ["jokeren7", "jokeren13", "klassiek"])
def test_deal_matches_new_round(preset: str) -> None:
    variant = JOKEREN_PRESETS[preset]
    out = run_json("deal", "--variant", preset, "--secret", SECRET_HEX, "--round", "3")
    assert set(out) == {"commitment", "hands", "open", "stock"}
    assert len(out["commitment"]) == 64
    assert len(out["hands"]) == variant.num_players
    assert all(len(h) == variant.hand_size for h in out["hands"])
    assert len(out["open"]) == (1 if variant.open_card else 0)
    # every card of the pack exactly once
    everything = [c for h in out["hands"] for c in h] + out["open"] + out["stock"]
    assert len(everything) == variant.pack_size
    state = new_round(variant, secret=bytes(range(32)), round_index=3)
    for seat in range(variant.num_players):
        assert Counter(out["hands"][seat]) == Counter(CARD_CODE[c] for c in state.hands[seat])
    assert out["open"] == [CARD_CODE[c] for c in state.open_pile]
    assert out["stock"] == [CARD_CODE[c] for c in state.stock]


def test_deal_commitment_is_sha256_of_the_secret() -> None:
    import hashlib

    out = run_json("deal", "--variant", "jokeren7", "--secret", SECRET_HEX, "--round", "0")
    assert out["commitment"] == hashlib.sha256(bytes(range(32))).hexdigest()


def test_deal_klaverjas_preset() -> None:
    out = run_json("deal", "--variant", "rotterdams", "--secret", SECRET_HEX, "--round", "1")
    assert set(out) == {"commitment", "hands", "trump"}
    assert [len(h) for h in out["hands"]] == [8, 8, 8, 8]
    assert len({c for h in out["hands"] for c in h}) == 32
    assert out["trump"] in ("c", "d", "h", "s")
    state = klaverjas_new_round(
        KLAVERJAS_PRESETS["rotterdams"], secret=bytes(range(32)), round_index=1
    )
    assert len(state.hands) == 4


def test_deal_differs_per_round() -> None:
    a = run_json("deal", "--variant", "jokeren13", "--secret", SECRET_HEX, "--round", "0")
    b = run_json("deal", "--variant", "jokeren13", "--secret", SECRET_HEX, "--round", "1")
    assert a["hands"] != b["hands"]


# --- meld ------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "codes",
    [
        # seed 000, "Voorbeelden": toegestaan
        "7h 7c 7s",
        "7h 7c **",
        "2s 3s 4s",
        "2s 3s **",
        # order does not matter
        "4s 2s 3s",
        "** 3s 2s",
        # the ace high and low (docs/rules.md §2)
        "Qh Kh Ah",
        "Ah 2h 3h",
    ],
)
def test_meld_valid(codes: str) -> None:
    proc = run("meld", *codes.split())
    assert proc.returncode == 0
    assert proc.stdout.strip() == "valid"


@pytest.mark.parametrize(
    "codes",
    [
        # seed 000, "Voorbeelden": niet toegestaan
        "7h 7c 7c",
        "2s 3s 4d",
        # no wrapping (docs/rules.md §2), too short, only jokers
        "Kh Ah 2h",
        "7h 7c",
        "** ** **",
    ],
)
def test_meld_invalid(codes: str) -> None:
    proc = run("meld", *codes.split())
    assert proc.returncode == 1
    assert proc.stdout.startswith("invalid: ")
    assert len(proc.stdout.strip()) > len("invalid: ")


@pytest.mark.parametrize("preset", ["jokeren7", "klassiek", "wedstrijd"])
def test_deal_at_a_table_of_three(preset: str) -> None:
    """``--players 3`` (seed 001: "met 3 of 4 personen aan een tafel"): three hands,
    the rest in the stock, the same deal as the engine's for that table."""
    variant = replace(JOKEREN_PRESETS[preset], num_players=3)
    out = run_json(
        "deal", "--variant", preset, "--secret", SECRET_HEX, "--round", "4", "--players", "3"
    )
    assert len(out["hands"]) == 3
    assert all(len(h) == variant.hand_size for h in out["hands"])
    everything = [c for h in out["hands"] for c in h] + out["open"] + out["stock"]
    assert len(everything) == variant.pack_size
    state = new_round(variant, secret=bytes(range(32)), round_index=4)
    assert state.dealer == 1  # round 4: 4 mod 3
    for seat in range(3):
        assert Counter(out["hands"][seat]) == Counter(CARD_CODE[c] for c in state.hands[seat])


# --- simulate --------------------------------------------------------------------------


def test_simulate_at_a_table_of_three() -> None:
    out = run_json(
        "simulate",
        "--variant",
        "klassiek",
        "--secret",
        SECRET_HEX,
        "--rounds",
        "3",
        "--players",
        "3",
        "--bots",
        "strong,basic,basic",
    )
    assert len(out["rounds"]) == 3
    assert all(len(r) == 3 for r in out["rounds"])
    totals = [sum(r[s] for r in out["rounds"]) for s in range(3)]
    assert out["totals"] == totals
    # own total minus the average of the two others
    for s in range(3):
        others = [totals[o] for o in range(3) if o != s]
        assert out["results"][s] == pytest.approx(totals[s] - sum(others) / 2)


def test_simulate_shape_and_totals() -> None:
    out = run_json("simulate", "--variant", "jokeren7", "--secret", SECRET_HEX, "--rounds", "3")
    assert set(out) == {"rounds", "totals", "results"}
    assert len(out["rounds"]) == 3
    assert all(len(r) == 4 for r in out["rounds"])
    assert out["totals"] == [sum(r[s] for r in out["rounds"]) for s in range(4)]
    # Jokeren: own total minus the average of the three others (docs/rules.md §4)
    totals = out["totals"]
    for s in range(4):
        others = [totals[o] for o in range(4) if o != s]
        assert out["results"][s] == pytest.approx(totals[s] - sum(others) / 3)
    # every round has a player who went out with 0, or ended without a winner
    assert all(min(r) >= 0 for r in out["rounds"])


def test_simulate_is_deterministic_and_uses_the_bots_per_seat() -> None:
    args = ("simulate", "--variant", "jokeren13", "--secret", SECRET_HEX, "--rounds", "2")
    a = run_json(*args, "--bots", "strong,basic,strong,basic")
    b = run_json(*args, "--bots", "strong,basic,strong,basic")
    assert a == b
    c = run_json(*args, "--bots", "basic")
    d = run_json(*args)  # the default is the weakest level
    assert c == d


def test_simulate_default_rounds_is_the_variants() -> None:
    out = run_json("simulate", "--variant", "vijf-rondes", "--secret", SECRET_HEX)
    assert len(out["rounds"]) == JOKEREN_PRESETS["vijf-rondes"].rounds


def test_simulate_klaverjas() -> None:
    out = run_json("simulate", "--variant", "amsterdams", "--secret", SECRET_HEX, "--rounds", "2")
    assert len(out["rounds"]) == 2
    # teams across the table score the same (docs/rules.md §6)
    for r in out["rounds"]:
        assert r[0] == r[2] and r[1] == r[3]


# --- roem ------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("cards", "trump", "roem"),
    [
        ("7h 8h 9h Kc", "c", 20),  # three in sequence
        ("7h 8h 9h Th", "c", 50),  # four in sequence
        ("Kh Qh 7c 8d", "h", 20),  # stuk: king and queen of trump
        ("Kh Qh 7c 8d", "c", 0),  # king and queen of another suit
        ("Jh Qh Kh 7c", "h", 40),  # a sequence with the stuk in it
        ("7c 7d 7h 7s", "h", 100),  # four of a kind
        ("7c 9d Jh As", "s", 0),
    ],
)
def test_roem(cards: str, trump: str, roem: int) -> None:
    proc = run("roem", *cards.split(), "--trump", trump)
    assert proc.returncode == 0, proc.stderr
    assert int(proc.stdout.strip()) == roem


# --- bench -----------------------------------------------------------------------------


def test_bench_reports_every_preset_and_level() -> None:
    out = run_json("bench", "--seconds", "0.01")
    rates = out["rounds_per_second"]
    assert set(rates) == set(JOKEREN_PRESETS) | set(KLAVERJAS_PRESETS)
    for preset, row in rates.items():
        assert set(row) == {"basic", "strong"}, preset
        assert all(v > 0 for v in row.values())


# --- bad arguments ---------------------------------------------------------------------


@pytest.mark.parametrize(
    "args",
    [
        [],
        ["shuffle"],
        ["deal", "--variant", "poker", "--secret", SECRET_HEX, "--round", "0"],
        ["deal", "--variant", "jokeren7", "--secret", "not-hex", "--round", "0"],
        ["deal", "--variant", "jokeren7", "--secret", SECRET_HEX, "--round", "-1"],
        ["deal", "--variant", "jokeren7", "--secret", SECRET_HEX],
        ["deal", "--variant", "jokeren7", "--secret", SECRET_HEX, "--round", "x"],
        ["meld"],
        ["simulate", "--variant", "jokeren7", "--secret", SECRET_HEX, "--rounds", "0"],
        ["simulate", "--variant", "jokeren7", "--secret", SECRET_HEX, "--bots", "genius"],
        ["simulate", "--variant", "jokeren7", "--secret", SECRET_HEX, "--bots", "basic,strong"],
        ["roem", "7h", "8h", "9h", "--trump", "h"],
        ["roem", "7h", "8h", "9h", "Th", "--trump", "x"],
        ["roem", "7h", "8h", "9h", "2h", "--trump", "h"],
        ["roem", "7h", "7h", "9h", "Th", "--trump", "h"],
        ["bench", "--seconds", "0"],
        ["deal", "--variant", "jokeren7", "--secret", SECRET_HEX, "--round", "0", "--players", "5"],
        [
            "deal",
            "--variant",
            "rotterdams",
            "--secret",
            SECRET_HEX,
            "--round",
            "0",
            "--players",
            "3",
        ],
        ["simulate", "--variant", "klassiek", "--secret", SECRET_HEX, "--players", "2"],
        [
            "simulate",
            "--variant",
            "klassiek",
            "--secret",
            SECRET_HEX,
            "--players",
            "3",
            "--bots",
            "basic,basic,basic,basic",
        ],
    ],
)
def test_bad_arguments_exit_2(args: list[str]) -> None:
    proc = run(*args)
    assert proc.returncode == 2
    assert proc.stderr.strip()
    assert proc.stdout == ""


# --- verify-game -------------------------------------------------------------------------


def write(tmp_path: Path, data: Any, name: str = "game.json") -> str:
    path = tmp_path / name
    path.write_text(data if isinstance(data, str) else json.dumps(data), encoding="utf-8")
    return str(path)


def test_verify_game_prints_every_round_and_exits_0(
    tmp_path: Path, jokeren_record: dict[str, Any]
) -> None:
    proc = run("verify-game", write(tmp_path, jokeren_record))
    assert proc.returncode == 0, proc.stdout + proc.stderr
    lines = proc.stdout.splitlines()
    for r, scores in enumerate(jokeren_record["round_scores"], start=1):
        assert f"round {r}: {' '.join(map(str, scores))}  ok" in lines
    assert f"totals: {' '.join(map(str, jokeren_record['totals']))}" in lines
    assert "commitment: ok" in lines


def test_verify_game_reports_the_round_of_a_changed_score(
    tmp_path: Path, jokeren_record: dict[str, Any]
) -> None:
    data = json.loads(json.dumps(jokeren_record))
    data["round_scores"][0][1] += 3
    data["totals"][1] += 3
    proc = run("verify-game", write(tmp_path, data))
    assert proc.returncode == 1
    lines = proc.stdout.splitlines()
    assert lines[0].startswith("round 1: MISMATCH: recorded scores")
    assert lines[1].startswith("round 2: ") and lines[1].endswith("ok")
    assert lines[-1].startswith("NOT verified")


@pytest.mark.parametrize(
    ("content", "message"),
    [
        ("{not json", "is not JSON"),
        ("[1, 2]", "is not a game record: a game record is a JSON object"),
        ('{"format": "jokeren-game-record/1"}', "is not a game record: missing field(s)"),
        (None, "cannot read"),
    ],
)
def test_verify_game_refuses_a_bad_file_without_a_traceback(
    tmp_path: Path, content: str | None, message: str
) -> None:
    path = write(tmp_path, content) if content is not None else str(tmp_path / "missing.json")
    proc = run("verify-game", path)
    assert proc.returncode == 2
    assert proc.stdout == ""
    assert proc.stderr.startswith("error: ") and message in proc.stderr
    assert "Traceback" not in proc.stderr
