"""The review of a player's own game (``analysis.game_review``, the review page): the same
move in another order is the strong bot's choice, and each decision shows what the
player saw then: their hand and the table, never another seat's hand."""

from __future__ import annotations

import hashlib
import re
from typing import Any

import factories
import pytest
from django.test import Client
from django.urls import reverse

from engine.cards import CARD_CODE, card_label
from tournaments import analysis
from tournaments.games import module_of
from tournaments.models import Game, Tournament
from tournaments.selectors import replay as replay_selectors
from tournaments.services import entries as entry_services
from tournaments.services import play as play_services

pytestmark = pytest.mark.django_db

#: A Jokeren 7 deal on which South, playing like the strong bot against the basic bots,
#: lays down a meld with a joker in round 1 (found once by playing it out).
MELD_SECRET = hashlib.sha256(b"review-0").digest()


def _client(user: Any) -> Client:
    client = Client()
    client.force_login(user)
    return client


def _reversed(action: dict[str, Any]) -> dict[str, Any]:
    """A ``lay_melds`` with every meld's cards, and the melds, in the opposite order."""
    melds = [
        {"cards": m["cards"][::-1], "stands_for": m["stands_for"][::-1]}
        for m in action["melds"][::-1]
    ]
    return {"type": "lay_melds", "melds": melds}


def _play_like_the_strong_bot_melds_reversed(game: Game, user: Any) -> tuple[Game, list[int]]:
    """Play South's round like the strong bot, each meld laid with its cards in the
    opposite order; the game and the round's indexes of those lay-downs."""
    module = module_of(game.game)
    reversed_at = []
    game.refresh_from_db()
    while not game.is_finished:
        state = module.state_from_json(game.state)
        action = module.bot_action(state, level="strong", version=game.bot_version).to_json()
        if action["type"] == "lay_melds":
            action = _reversed(action)
            reversed_at.append(state.move_count)
        game = play_services.game_play_move(
            game_id=game.pk, user=user, seq=game.seq, action=action
        ).game
    return game, reversed_at


def _tournament(organizer: Any, **settings: Any) -> Tournament:
    return factories.make_tournament(created_by=organizer, rounds=1, **settings)


def test_the_same_meld_in_another_card_order_is_the_strong_bots_choice(
    organizer: Any, user: Any
) -> None:
    t = _tournament(organizer, secret=MELD_SECRET)
    game, reversed_at = _play_like_the_strong_bot_melds_reversed(
        entry_services.entry_join(tournament_id=t.pk, user=user).game, user
    )
    assert reversed_at, "South lays a meld on this deal"
    actions = replay_selectors.game_record(game=game).actions[0]
    result = analysis.game_analysis(game=game, round_index=0)
    by_index = {d.index: d for d in result.decisions}
    for i in reversed_at:
        d = by_index[i]
        assert actions[i].action["type"] == "lay_melds"
        # the words differ (another order), the move does not: no "different choice"
        assert d.played_nl != d.best_nl
        assert not d.differs and d.gain is None
    assert not any(d.differs for d in result.decisions)
    assert result.difference is None
    page = _client(user).get(reverse("game_review", args=[game.pk]) + "?round=0")
    assert page.status_code == 200
    assert 'class="differs"' not in page.content.decode()


def test_two_games_with_the_same_meld_in_another_order_do_not_split(
    organizer: Any, user: Any, other_user: Any
) -> None:
    t = _tournament(organizer, secret=MELD_SECRET)
    anna = entry_services.entry_join(tournament_id=t.pk, user=user).game
    module = module_of(anna.game)
    while not anna.is_finished:
        state = module.state_from_json(anna.state)
        action = module.bot_action(state, level="strong", version=anna.bot_version).to_json()
        anna = play_services.game_play_move(
            game_id=anna.pk, user=user, seq=anna.seq, action=action
        ).game
    bram, reversed_at = _play_like_the_strong_bot_melds_reversed(
        entry_services.entry_join(tournament_id=t.pk, user=other_user).game, other_user
    )
    assert reversed_at
    mine = replay_selectors.game_record(game=anna).actions[0]
    theirs = replay_selectors.game_record(game=bram).actions[0]
    assert [a.action for a in mine] != [a.action for a in theirs]
    split = analysis.games_split(game=anna, other=bram, round_index=0)
    assert split.left.steps == [] and split.right.steps == []
    assert len(split.common) == len(mine) and split.difference == 0


def _views_at_decisions(game: Game) -> dict[int, dict[str, Any]]:
    """Seat 0's observation before each of their decisions in round 0, by action index."""
    module = module_of(game.game)
    state = module.new_round(
        module.variant_from_json(game.variant), secret=game.secret_bytes, round_index=0
    )
    out = {}
    for i, a in enumerate(replay_selectors.game_record(game=game).actions[0]):
        if a.seat == 0 and not a.by_bot:
            out[i] = state.observation(0)
        state = state.apply(module.action_from_json(a.action))
    return out


def _hidden_code(game: Game) -> str:
    """A card a bot holds at one of South's decisions that South never sees in the round
    (neither copy in South's hand, the open pile, a meld, out of the game, or named by
    any action of the round)."""
    module = module_of(game.game)
    state = module.new_round(
        module.variant_from_json(game.variant), secret=game.secret_bytes, round_index=0
    )
    seen: set[str] = set()
    held: list[str] = []
    for a in replay_selectors.game_record(game=game).actions[0]:
        view = state.observation(0)
        seen.update(view["hand_codes"])
        seen.update(CARD_CODE[c] for c in [*view["open_pile"], *view["removed"]])
        seen.update(code for meld in view["table"] for code in meld["codes"])
        if a.seat == 0:
            held.extend(CARD_CODE[c] for seat in (1, 2, 3) for c in state.hands[seat])
        state = state.apply(module.action_from_json(a.action))
    # every card an action named (a discard, a lay-off, a swap, a lay-down), any seat
    for a in replay_selectors.game_record(game=game).actions[0]:
        if "card" in a.action:
            seen.add(CARD_CODE[int(a.action["card"])])
        for meld in a.action.get("melds", []):
            seen.update(CARD_CODE[int(c)] for c in meld["cards"])
    hidden = [code for code in held if code != "**" and code not in seen]
    assert hidden, "some bot card stays hidden from South all round"
    return hidden[0]


def test_the_review_shows_each_decisions_hand_and_table_and_no_other_hand(
    organizer: Any, user: Any
) -> None:
    t = _tournament(organizer, secret=MELD_SECRET)
    game, _ = _play_like_the_strong_bot_melds_reversed(
        entry_services.entry_join(tournament_id=t.pk, user=user).game, user
    )
    page = _client(user).get(
        reverse("game_review", args=[game.pk]) + "?round=0", HTTP_ACCEPT_LANGUAGE="nl"
    )
    html = page.content.decode()
    views = _views_at_decisions(game)
    rows = dict(re.findall(r'data-step="(\d+)">(.*?)</tr>', html, flags=re.S))
    assert sorted(int(i) for i in rows) == sorted(views)
    melds_shown = 0
    for i, view in views.items():
        row = rows[str(i)]
        codes = re.search(r'data-testid="position-hand" data-codes="([^"]*)"', row)
        assert codes is not None
        assert sorted(codes.group(1).split()) == sorted(view["hand_codes"])
        shown = re.findall(r'class="seen-card[^"]*">([^<]*)<', row.split("position-open")[0])
        assert sorted(shown) == sorted(card_label(c, "nl") for c in view["hand_codes"])
        top = view["open_top"]
        if top is not None:
            assert f'data-testid="position-open">{card_label(CARD_CODE[top], "nl")}<' in row
        counts = re.sub(r"<[^>]+>|\s+", " ", row.split('data-testid="position-counts"')[1])
        for name, n in zip(("West", "Noord", "Oost"), view["hand_counts"][1:], strict=True):
            assert f"{name} {n}" in counts
        if view["table"]:
            melds_shown += 1
            assert 'data-testid="position-melds"' in row
    assert melds_shown, "the table had melds at some decision"
    # a joker on the table is shown with the card it stands for
    assert re.search(r"joker \([♣♦♥♠]", html)
    hidden = card_label(_hidden_code(game), "nl")
    assert hidden not in html


def test_a_klaverjas_review_shows_the_hand_and_the_trick(organizer: Any, user: Any) -> None:
    t = _tournament(organizer, game="klaverjas", preset="rotterdams")
    game = entry_services.entry_join(tournament_id=t.pk, user=user).game
    module = module_of(game.game)
    while not game.is_finished:
        state = module.state_from_json(game.state)
        action = module.bot_action(state, level="basic").to_json()
        game = play_services.game_play_move(
            game_id=game.pk, user=user, seq=game.seq, action=action
        ).game
    html = (
        _client(user)
        .get(reverse("game_review", args=[game.pk]), HTTP_ACCEPT_LANGUAGE="nl")
        .content.decode()
    )
    views = _views_at_decisions(game)
    rows = dict(re.findall(r'data-step="(\d+)">(.*?)</tr>', html, flags=re.S))
    assert sorted(int(i) for i in rows) == sorted(views)
    for i, view in views.items():
        codes = re.search(r'data-codes="([^"]*)"', rows[str(i)])
        assert codes is not None
        assert sorted(codes.group(1).split()) == sorted(view["hand_codes"])
        if view["trick"]["plays"]:
            assert "Slag:" in re.sub(r"<[^>]+>", "", rows[str(i)])
    assert "Troef:" in re.sub(r"<[^>]+>", "", html)
