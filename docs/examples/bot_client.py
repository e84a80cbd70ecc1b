#!/usr/bin/env python3
"""A minimal API client (Python standard library only): it joins a tournament with a
personal API token and plays its game to the end with a simple strategy.

    python docs/examples/bot_client.py --url https://example.org --token jk_... [--tournament 7]

Make the token on the site's account page (Account and API); a program should play on a
bot account (same page). Without --tournament it joins the first open tournament that
admits bot accounts. The strategy: Klaverjassen, the first legal action the server lists;
Jokeren, draw from the stock, then discard the highest card the server accepts (it never
lays melds, so it rarely goes out: a baseline to beat). See docs/api.md.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import time
import urllib.error
import urllib.request
from typing import Any


class Api:
    def __init__(self, base: str, token: str) -> None:
        self.base = base.rstrip("/")
        self.token = token

    def call(self, method: str, path: str, body: Any = None) -> tuple[int, Any]:
        data = None if body is None else json.dumps(body).encode()
        request = urllib.request.Request(self.base + path, data=data, method=method)
        request.add_header("Authorization", f"Bearer {self.token}")
        request.add_header("Accept", "application/json")
        request.add_header("Accept-Language", "en")
        if data is not None:
            request.add_header("Content-Type", "application/json")
        try:
            with urllib.request.urlopen(request, timeout=30) as response:
                return response.status, json.load(response)
        except urllib.error.HTTPError as err:
            raw = err.read()
            try:
                return err.code, json.loads(raw)
            except ValueError:
                return err.code, {"error": {"code": "http", "message": raw[:200].decode()}}


def candidates(game: dict[str, Any]) -> list[dict[str, Any]]:
    """The actions to try, best first."""
    obs = game["observation"]
    if "legal_actions" in obs:  # Klaverjassen lists them
        return list(obs["legal_actions"])[:1]
    if obs.get("phase") == "draw":
        return [{"type": "draw", "source": "stock"}, {"type": "draw", "source": "open"}]
    hand = sorted(obs["hand"], reverse=True)
    return [{"type": "discard", "card": card} for card in hand]


def play(api: Api, game_id: int) -> dict[str, Any]:
    status, game = api.call("GET", f"/api/games/{game_id}/")
    if status != 200:
        raise SystemExit(f"cannot read game {game_id}: {status} {game}")
    while game["status"] == "playing":
        if not game["your_turn"]:
            time.sleep(1)  # the tournament may have closed: the bot finishes the game
            status, game = api.call("GET", f"/api/games/{game_id}/")
            continue
        for action in candidates(game):
            status, answer = api.call(
                "POST", f"/api/games/{game_id}/moves/", {"seq": game["seq"], "action": action}
            )
            if status == 200:
                game = answer
                break
            if status == 429:
                time.sleep(5)
                break
            if status == 409 or answer["error"]["code"] in ("game_finished", "tournament_closed"):
                break
            # 400: this move is refused (the message says why): try the next one
        else:
            raise SystemExit(f"no move accepted in game {game_id}")
        if status != 200:
            status, game = api.call("GET", f"/api/games/{game_id}/")
    return game


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--url", required=True, help="the site, e.g. https://example.org")
    parser.add_argument("--token", default=os.environ.get("JOKEREN_TOKEN", ""))
    parser.add_argument("--tournament", type=int, help="a tournament id (default: first open)")
    args = parser.parse_args(argv)
    if not args.token:
        parser.error("--token or JOKEREN_TOKEN is needed")
    api = Api(args.url, args.token)
    tournament_id = args.tournament
    if tournament_id is None:
        _status, listing = api.call("GET", "/api/tournaments/?status=open")
        open_ones = [
            t for t in listing["tournaments"] if t["admits_bots"] and t["status"] == "open"
        ]
        if not open_ones:
            print("no open tournament", file=sys.stderr)
            return 1
        tournament_id = open_ones[0]["id"]
    status, joined = api.call("POST", f"/api/tournaments/{tournament_id}/join/")
    if status == 201:
        game_id = joined["game"]
    else:
        _status, detail = api.call("GET", f"/api/tournaments/{tournament_id}/")
        if not detail.get("my_game"):
            print(f"cannot join: {joined['error']['message']}", file=sys.stderr)
            return 1
        game_id = detail["my_game"]
    game = play(api, game_id)
    result = game["result"] or {}
    print(
        f"game {game_id} finished: total {result.get('total')}, "
        f"result {result.get('result')}, rank {result.get('rank')}"
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
