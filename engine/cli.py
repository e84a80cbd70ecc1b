"""``python -m engine``: the engine on the command line, JSON on stdout.

Subcommands:

- ``deal --variant V --secret HEX --round R [--players N]``: the deal of round R (the
  game module's ``deal_summary``: commitment, hands, and the open card and stock or the
  trump); ``--players 3`` deals a Jokeren table of three (seed 001);
- ``meld CODE...``: ``valid`` (exit 0) or ``invalid: <reason>`` (exit 1) for Jokeren
  cards such as ``7h Td **``, in any order;
- ``simulate --variant V --secret HEX [--rounds N] [--bots B] [--players N]``: a game
  with a bot in every seat; B is one level for every seat or one per seat,
  comma-separated, seat 0 first (default: the weakest level);
- ``roem C C C C --trump S``: the roem of one Klaverjas trick (S: c, d, h or s);
- ``bench [--seconds T]``: full rounds per second for each preset of every game and
  each bot level, one core;
- ``verify-game FILE``: replay a game record (docs/game-record.md; ``-`` reads stdin)
  and print, per round, whether its score matches the replay; exit 0 when everything
  matches, 1 otherwise.

Bad arguments, or a file that is not a game record: a message on stderr and exit status 2.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from collections.abc import Sequence
from typing import Any, NoReturn

from engine import record
from engine.cards import SUITS, CardCodeError, klaverjas_id
from engine.dealing import copy_secret
from engine.jokeren.melds import meld_verdict
from engine.klaverjas.roem import trick_roem
from engine.match import play_match, play_round
from engine.protocol import GameModule
from engine.registry import GAMES, game_module, game_of_preset

#: The secret ``bench`` deals from (any fixed secret: the figures do not depend on it).
BENCH_SECRET = bytes(range(32))


#: Help of ``--players``.
PLAYERS_HELP = "players at the table (Jokeren: 3 or 4; default: the variant's)"


class UsageError(Exception):
    """A bad argument: printed on stderr, exit status 2."""


class _Parser(argparse.ArgumentParser):
    def error(self, message: str) -> NoReturn:
        raise UsageError(f"{self.prog}: {message}")


def _parser() -> argparse.ArgumentParser:
    p = _Parser(prog="python -m engine", description="Jokeren and Klaverjas engine")
    sub = p.add_subparsers(dest="command", required=True, parser_class=_Parser)

    deal = sub.add_parser("deal", help="the deal of one round, as JSON")
    deal.add_argument("--variant", required=True, help="preset name, e.g. jokeren13")
    deal.add_argument("--secret", required=True, help="the tournament secret in hex")
    deal.add_argument("--round", required=True, type=int, help="round index, from 0")
    deal.add_argument("--players", type=int, default=None, help=PLAYERS_HELP)
    deal.add_argument(
        "--copy", type=int, default=0, help="the copy of the round in a deal pool, from 0"
    )

    meld = sub.add_parser("meld", help="is this a Jokeren meld? (** is a joker)")
    meld.add_argument("codes", nargs="+", metavar="CODE")

    sim = sub.add_parser("simulate", help="a game with bots in every seat, as JSON")
    sim.add_argument("--variant", required=True)
    sim.add_argument("--secret", required=True)
    sim.add_argument("--rounds", type=int, default=None)
    sim.add_argument("--bots", default=None, help="a level, or one level per seat: a,b,c,d")
    sim.add_argument("--players", type=int, default=None, help=PLAYERS_HELP)

    roem = sub.add_parser("roem", help="the roem of one Klaverjas trick")
    roem.add_argument("cards", nargs=4, metavar="CODE")
    roem.add_argument("--trump", required=True, help="trump suit: c, d, h or s")

    bench = sub.add_parser("bench", help="rounds per second per preset and bot level")
    bench.add_argument("--seconds", type=float, default=1.0, help="time per measurement")

    verify = sub.add_parser("verify-game", help="replay a game record and check its scores")
    verify.add_argument("file", help="the record (JSON, docs/game-record.md); - for stdin")
    return p


def _secret(text: str) -> bytes:
    try:
        secret = bytes.fromhex(text)
    except ValueError:
        raise UsageError(f"--secret must be hexadecimal, not {text!r}") from None
    if not secret:
        raise UsageError("--secret must not be empty")
    return secret


def _game_and_variant(name: str, players: int | None = None) -> tuple[GameModule, Any]:
    """The game and the preset ``name``, with ``players`` seats where given (the variant
    checks the number: a bad one is a usage error)."""
    try:
        game = game_module(game_of_preset(name))
    except KeyError:
        names = ", ".join(p for g in GAMES for p in game_module(g).PRESETS)
        raise UsageError(f"unknown variant {name!r}; choose one of: {names}") from None
    variant = game.PRESETS[name]
    if players is not None:
        try:
            variant = game.variant_from_json({**variant.to_json(), "num_players": players})
        except ValueError as exc:
            raise UsageError(f"--players {players}: {exc}") from None
    return game, variant


def _levels(game: GameModule, variant: Any, spec: str | None) -> list[str]:
    n = int(variant.num_players)
    if spec is None:
        return [game.BOT_LEVELS[0]] * n
    levels = [s.strip() for s in spec.split(",")]
    if len(levels) == 1:
        levels = levels * n
    if len(levels) != n:
        raise UsageError(f"--bots needs one level or {n} comma-separated levels")
    for level in levels:
        if level not in game.BOT_LEVELS:
            raise UsageError(
                f"unknown bot level {level!r}; choose from: {', '.join(game.BOT_LEVELS)}"
            )
    return levels


def cmd_deal(args: argparse.Namespace) -> dict[str, Any]:
    game, variant = _game_and_variant(args.variant, args.players)
    if args.round < 0:
        raise UsageError("--round must be 0 or more")
    if args.copy < 0:
        raise UsageError("--copy must be 0 or more")
    secret = copy_secret(_secret(args.secret), args.copy)
    return game.deal_summary(variant, secret=secret, round_index=args.round)


def cmd_meld(codes: Sequence[str]) -> tuple[str, int]:
    ok, _nl, en = meld_verdict(codes)
    return ("valid", 0) if ok else (f"invalid: {en}", 1)


def cmd_simulate(args: argparse.Namespace) -> dict[str, Any]:
    game, variant = _game_and_variant(args.variant, args.players)
    if args.rounds is not None and args.rounds < 1:
        raise UsageError("--rounds must be at least 1")
    levels = _levels(game, variant, args.bots)
    match = play_match(
        game, variant, secret=_secret(args.secret), rounds=args.rounds, levels=levels
    )
    return match.to_json()


def cmd_roem(cards: Sequence[str], trump: str) -> int:
    if trump.lower() not in tuple(SUITS):
        raise UsageError(f"--trump must be one of c, d, h, s, not {trump!r}")
    try:
        ids = [klaverjas_id(c) for c in cards]
    except CardCodeError as exc:
        raise UsageError(str(exc)) from None
    if len(set(ids)) != len(ids):
        raise UsageError("a Klaverjas trick holds four different cards")
    return trick_roem(ids, SUITS.index(trump.lower()))


def rounds_per_second(
    game: GameModule,
    variant: Any,
    level: str,
    *,
    seconds: float,
    secret: bytes = BENCH_SECRET,
    first_round: int = 0,
) -> tuple[float, int]:
    """Full rounds per second with bots of ``level`` in every seat, playing rounds
    ``first_round``, ``first_round + 1``, ... of ``secret`` for at least ``seconds`` (at
    least one round); returns the rate and the number of rounds played. Measurements
    that should not share the bots' caches use far apart ``first_round`` values."""
    levels = [level] * int(variant.num_players)
    n = 0
    start = time.perf_counter()
    elapsed = 0.0
    while n == 0 or elapsed < seconds:
        play_round(game, variant, secret=secret, round_index=first_round + n, levels=levels)
        n += 1
        elapsed = time.perf_counter() - start
    return n / elapsed, n


def cmd_bench(seconds: float) -> dict[str, Any]:
    if not seconds > 0:
        raise UsageError("--seconds must be more than 0")
    out: dict[str, Any] = {}
    measured = 0
    for name in GAMES:
        game = game_module(name)
        for preset, variant in game.PRESETS.items():
            row: dict[str, float] = {}
            # the expert's speed is per decision (benchmarks/bench_expert.py): a round
            # of it takes seconds
            for level in (lv for lv in game.BOT_LEVELS if lv != "expert"):
                measured += 1
                rate, _ = rounds_per_second(
                    game, variant, level, seconds=seconds, first_round=measured * 100_000
                )
                row[level] = round(rate, 1)
            out[preset] = row
    return {"rounds_per_second": out, "seconds_per_measurement": seconds}


def cmd_verify_game(path: str) -> tuple[list[str], int]:
    """The verification's lines and the exit status (0: everything matches, 1: not)."""
    try:
        if path == "-":
            text = sys.stdin.read()
        else:
            with open(path, encoding="utf-8") as f:
                text = f.read()
    except (OSError, UnicodeDecodeError) as exc:
        raise UsageError(f"cannot read {path}: {exc}") from None
    try:
        data = json.loads(text)
    except json.JSONDecodeError as exc:
        raise UsageError(f"{path} is not JSON: {exc}") from None
    try:
        verification = record.verify(record.read_record(data))
    except record.RecordError as exc:
        raise UsageError(f"{path} is not a game record: {exc}") from None
    return record.verification_lines(verification), 0 if verification.ok else 1


def main(argv: Sequence[str] | None = None) -> int:
    """Run one subcommand; returns the exit status."""
    try:
        args = _parser().parse_args(argv)
        if args.command == "meld":
            text, status = cmd_meld(args.codes)
            print(text)
            return status
        if args.command == "verify-game":
            lines, status = cmd_verify_game(args.file)
            print("\n".join(lines))
            return status
        if args.command == "roem":
            print(cmd_roem(args.cards, args.trump))
            return 0
        if args.command == "deal":
            result = cmd_deal(args)
        elif args.command == "simulate":
            result = cmd_simulate(args)
        else:
            result = cmd_bench(args.seconds)
    except UsageError as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 2
    print(json.dumps(result))
    return 0
