"""The replay of a closed tournament's games (docs/rules.md §4: after closing every entrant's
games can be replayed move by move, all hands open): a Klaverjas round shows every card
in the order it was played and the round's result, the frames follow the move log, the
page's small frames rebuild exactly the full table view, and nobody sees a replay before
the tournament closes."""

from __future__ import annotations

import json
import time
from typing import Any

import factories
import pytest
from django.test import Client
from django.urls import reverse

from engine.cards import klaverjas_code
from tournaments.models import Game, Tournament
from tournaments.selectors import replay as replay_selectors
from tournaments.services import closing as closing_services
from tournaments.services import entries as entry_services

pytestmark = pytest.mark.django_db

#: Card points of a Klaverjas round: 152 in the cards and 10 for the last trick (§6).
ROUND_POINTS = 162
#: The keys of a seat's own view that are not part of the table.
OWN_KEYS = {"hand", "hand_codes", "legal_actions"}


def closed_game(game: str, preset: str, rounds: int = 1) -> tuple[Tournament, Game]:
    return factories.closed_game(game, preset, rounds)


def page(client: Client, game: Game, round_index: int = 0) -> Any:
    response = client.get(reverse("game_replay", args=[game.pk]) + f"?round={round_index}")
    assert response.status_code == 200
    return response


def rebuild(frames: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """The full table view of every frame, from the deltas, as the page's script does."""
    views: list[dict[str, Any]] = []
    for frame in frames:
        view = dict(views[-1]) if views else {}
        view.update(frame.get("set", {}))
        for key, (start, removed, items) in frame.get("splice", {}).items():
            view[key] = [*view[key][:start], *items, *view[key][start + removed :]]
        views.append(view)
    return views


def embedded_frames(response: Any) -> list[dict[str, Any]]:
    """The frames exactly as the page's script reads them from its JSON."""
    html = response.content.decode()
    start = html.index(">", html.index('id="replay-frames"')) + 1
    data: list[dict[str, Any]] = json.loads(html[start : html.index("</script>", start)])
    return data


# --- Klaverjas: every card in order and the result ---------------------------------------


def test_klaverjas_replay_shows_every_card_in_play_order_and_the_result(client: Client) -> None:
    _, game = closed_game("klaverjas", "rotterdams")
    frames = embedded_frames(page(client, game))
    views = rebuild(frames)
    moves = [m for m in replay_selectors.game_moves(game=game) if m.round_index == 0]
    played = [m for m in moves if m.action["type"] == "play"]

    # All 32 cards are played, 8 tricks of 4, and the replay's tricks hold them in order.
    assert len(played) == 32
    end = views[-1]
    assert len(end["tricks"]) == 8
    in_tricks = [(p["seat"], p["card"]) for t in end["tricks"] for p in t["plays"]]
    assert in_tricks == [(m.seat, m.action["card"]) for m in played]

    # Step by step: a played card leaves its player's open hand and lies on the table.
    for before, frame, view in zip(frames, frames[1:], views[1:], strict=False):
        move = next(m for m in moves if m.seq == frame["seq"])
        if move.action["type"] != "play":
            continue
        code = klaverjas_code(move.action["card"])
        assert code in before["hands"][move.seat]
        assert code not in frame["hands"][move.seat]
        on_table = [p["card"] for p in view["trick"]["plays"]] or [
            p["card"] for p in view["tricks"][-1]["plays"]
        ]
        assert move.action["card"] in on_table

    # The deal shows all four hands of 8 cards: the whole pack.
    assert [len(h) for h in frames[0]["hands"]] == [8, 8, 8, 8]
    assert len({c for h in frames[0]["hands"] for c in h}) == 32

    # The result: every card point goes to a team, the scores are the game's.
    result = end["result"]
    assert sum(result["points"]) == ROUND_POINTS
    we, they = result["scores"]
    assert game.round_scores[0] == [we, they, we, they]
    if result["nat"]:
        assert result["scores"][result["playing_team"]] == 0
    # The bidding and the trump are there from the frame they were made in.
    assert end["trump"] in "cdhs" and end["bids"]
    assert end["playing_team"] == end["playing_seat"] % 2


def test_klaverjas_replay_page_carries_its_dutch_labels(client: Client) -> None:
    _, game = closed_game("klaverjas", "rotterdams")
    html = page(client, game).content.decode()
    strings = html[html.index('id="replay-strings"') :]
    for dutch in ("Uitslag van de ronde", "Gespeelde slagen", "Slag op tafel", "Troef"):
        assert dutch in strings


# --- Frames: move order, scores, the small encoding --------------------------------------


@pytest.mark.parametrize(("kind", "preset"), [("klaverjas", "rotterdams"), ("jokeren", "jokeren7")])
def test_frames_follow_the_move_log_and_end_with_the_round_scores(
    client: Client, kind: str, preset: str
) -> None:
    _, game = closed_game(kind, preset, rounds=2)
    for r in range(2):
        frames = embedded_frames(page(client, game, r))
        first = sum(row.moves for row in game.played_rounds.filter(round_index__lt=r))
        moves = game.played_rounds.get(round_index=r).moves
        assert frames[0]["seq"] is None
        assert [f["seq"] for f in frames[1:]] == list(range(first, first + moves))
        own = [f["seat"] == 0 and not f["by_bot"] for f in frames[1:]]
        assert sum(own) == len(game.played_rounds.get(round_index=r).action_list)
        assert rebuild(frames)[-1]["scores"] == game.round_scores[r]


@pytest.mark.parametrize(
    ("kind", "preset"), [("klaverjas", "rotterdams"), ("jokeren", "jokeren13")]
)
def test_small_frames_rebuild_every_seat_s_full_view(
    client: Client, kind: str, preset: str
) -> None:
    """The page gets only what changed, yet each rebuilt step is exactly what the seats
    saw: the table as in South's view and each seat's own hand."""
    _, game = closed_game(kind, preset)
    frames = embedded_frames(page(client, game))
    full = replay_selectors.game_replay(game=game, round_index=0)
    assert len(frames) == len(full)
    for frame, view, step in zip(frames, rebuild(frames), full, strict=True):
        observations = step.observations
        assert view == {k: v for k, v in observations[0].items() if k not in OWN_KEYS}
        assert frame["hands"] == [o["hand_codes"] for o in observations]
    # Nothing unchanged is sent again: a key is in a frame only when its value changed.
    views = rebuild(frames)
    for before, frame in zip(views, frames[1:], strict=False):
        for key, value in frame.get("set", {}).items():
            assert before.get(key) != value
        for key, (start, removed, items) in frame.get("splice", {}).items():
            assert (removed or items) and isinstance(before[key], list)
            assert before[key][start : start + removed] != items


def test_a_long_jokeren_replay_stays_small_and_fast(client: Client) -> None:
    """Jokeren 13: the log grows every move; sending every seat's full view per frame made
    the page over 1 MB for one round. Now it is a fraction of that. (The factory's deal
    gives South a turn in round 0: the round is not over after the bots' first turns.)"""
    _, game = closed_game("jokeren", "jokeren13")
    full = replay_selectors.game_replay(game=game, round_index=0)
    everything = len(json.dumps([f.observations for f in full]))
    started = time.perf_counter()
    response = page(client, game)
    elapsed = time.perf_counter() - started
    assert len(response.content) < everything / 4
    assert len(response.content) < 500_000
    assert elapsed < 3.0  # generous: a shared two-core machine


# --- Before closing ----------------------------------------------------------------------


def test_no_replay_before_the_tournament_closes(client: Client) -> None:
    tournament = factories.make_tournament(game="klaverjas", preset="rotterdams", rounds=1)
    user = factories.make_user()
    game = entry_services.entry_join(tournament_id=tournament.pk, user=user).game
    game, _ = factories.play_to_end(game, user)
    url = reverse("game_replay", args=[game.pk])
    assert client.get(url).status_code == 404  # anonymous
    client.force_login(factories.make_user())
    assert client.get(url).status_code == 404  # another entrant
    client.force_login(user)
    assert client.get(url).status_code == 404  # the player: others may still play the deals
    closing_services.tournament_close(tournament_id=tournament.pk)
    assert client.get(url).status_code == 200
