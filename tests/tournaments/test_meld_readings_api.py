"""GET /api/games/<id>/meld-readings/?cards=...: how cards of the player's hand read as one
new meld (issue 24 item 5: the table asks the engine, it keeps no copy of the rules).
The same rule as a move: the game's own player only (404 for anyone else, 403 logged
out); only cards in the player's hand (400 in Dutch and English, the same for every card
the player does not hold, so nothing hidden is revealed). The observation the table
plays from lists the other legal actions of the player to move."""

from __future__ import annotations

import itertools
from typing import Any

import factories
import pytest
from django.test import Client
from django.urls import reverse

from engine.cards import CARD_RANK, CARD_SUIT
from engine.jokeren import LayMelds, check_meld
from tournaments.models import Game
from tournaments.services import entries as entry_services

pytestmark = pytest.mark.django_db


@pytest.fixture
def player(client: Client, user: Any) -> Client:
    client.force_login(user)
    return client


@pytest.fixture(autouse=True)
def _fixed_deals(monkeypatch: pytest.MonkeyPatch) -> None:
    """Practice games dealt from SHA-256("meld-readings:0"), ... in turn: the same deals on
    every run."""
    factories.fixed_secrets(monkeypatch, "meld-readings")


def _fits(a: int, b: int) -> bool:
    """Two natural cards a joker can make a meld with: one rank in two suits, or one suit
    at most two ranks apart."""
    ra, sa, rb, sb = CARD_RANK[a], CARD_SUIT[a], CARD_RANK[b], CARD_SUIT[b]
    return (ra == rb and sa != sb) or (sa == sb and 0 < abs(ra - rb) <= 2)


def _game_with_a_joker_meld(user: Any) -> tuple[Game, list[int]]:
    """A practice game whose player holds a joker and two natural cards it makes a meld
    with, and those three cards."""
    for _ in range(200):
        game = entry_services.game_practice_start(user=user, game="jokeren", preset="jokeren7")
        hand = game.current_state().hands[0]
        jokers = [c for c in hand if not CARD_RANK[c]]
        pairs = [(a, b) for a, b in itertools.combinations(hand, 2) if _fits(a, b)]
        if jokers and pairs:
            return game, [pairs[0][0], jokers[0], pairs[0][1]]
    raise AssertionError("no deal gave the player a joker and a pair it fits")


def _readings(client: Client, game: Game, cards: str) -> Any:
    return client.get(reverse("api_game_meld_readings", args=[game.pk]) + f"?cards={cards}")


def _ids(cards: list[int]) -> str:
    return ",".join(map(str, cards))


def test_the_player_gets_every_reading_of_cards_in_hand_the_engines_own_first(
    player: Client, user: Any
) -> None:
    game, cards = _game_with_a_joker_meld(user)
    response = _readings(player, game, _ids(cards))
    assert response.status_code == 200
    body = response.json()
    assert body["cards"] == cards
    readings = body["readings"]
    assert readings, "a joker with two cards it fits is a meld"
    own = check_meld(cards).to_json()  # what the engine lays when no joker is named
    assert readings[0] == {k: own[k] for k in ("kind", "cards", "codes", "stands_for")}
    for reading in readings:
        assert sorted(reading["cards"]) == sorted(cards)
        pairs = zip(reading["cards"], reading["stands_for"], strict=True)
        jokers = [sf for c, sf in pairs if not CARD_RANK[c]]
        assert len(jokers) == 1 and jokers[0] is not None  # it stands for one definite card
    # the cards of the hand that form no meld have no reading
    hand = game.current_state().hands[0]
    naturals = [c for c in hand if CARD_RANK[c]]
    apart = next(
        (a, b, c)
        for a, b, c in itertools.combinations(naturals, 3)
        if len({CARD_RANK[x] for x in (a, b, c)}) > 1 and len({CARD_SUIT[x] for x in (a, b, c)}) > 1
    )
    none = _readings(player, game, _ids(list(apart)))
    assert none.status_code == 200 and none.json()["readings"] == []


def test_a_card_the_player_does_not_hold_is_refused_alike_wherever_it_is(
    player: Client, user: Any
) -> None:
    """A card in a bot's hand and a card in the stock get the same answer: the question
    tells nothing about where a hidden card is."""
    game, cards = _game_with_a_joker_meld(user)
    state = game.current_state()
    in_bots_hand, in_stock = state.hands[1][0], state.stock[0]
    answers = []
    for other in (in_bots_hand, in_stock):
        response = _readings(player, game, _ids([*cards[:2], other]))
        assert response.status_code == 400
        answers.append(response.json())
    assert answers[0] == answers[1]
    error = answers[0]["error"]
    assert error["code"] == "card_not_in_hand"
    assert error["nl"] and error["en"] and error["nl"] != error["en"]


def test_one_card_named_twice_is_not_two_cards(player: Client, user: Any) -> None:
    """A meld needs three cards: one card of the hand named three times is refused, as a
    card not held twice (the hand holds it once)."""
    game, cards = _game_with_a_joker_meld(user)
    response = _readings(player, game, _ids([cards[0]] * 3))
    assert response.status_code == 400
    assert response.json()["error"]["code"] == "card_not_in_hand"


@pytest.mark.parametrize("cards", ["", "a,b,c", "1,,2", "-1,2,3", ",".join(["1"] * 21)])
def test_cards_that_are_not_card_ids_are_400(player: Client, user: Any, cards: str) -> None:
    game, _ = _game_with_a_joker_meld(user)
    response = _readings(player, game, cards)
    assert response.status_code == 400
    assert response.json()["error"]["code"] == "invalid_parameter"


def test_only_the_games_own_player_may_ask(
    player: Client, user: Any, other_user: Any, client: Client
) -> None:
    game, cards = _game_with_a_joker_meld(user)
    other = Client()
    other.force_login(other_user)
    assert _readings(other, game, _ids(cards)).status_code == 404
    assert _readings(Client(), game, _ids(cards)).status_code == 403
    missing = player.get(reverse("api_game_meld_readings", args=[10**6]) + "?cards=1,2,3")
    assert missing.status_code == 404
    post = player.post(reverse("api_game_meld_readings", args=[game.pk]) + "?cards=1,2,3")
    assert post.status_code == 405


def test_a_game_without_melds_has_no_readings(player: Client, user: Any) -> None:
    game = entry_services.game_practice_start(user=user, game="klaverjas", preset="rotterdams")
    response = _readings(player, game, "0,1,2")
    assert response.status_code == 404


def test_the_table_asks_the_games_own_address(player: Client, user: Any) -> None:
    game, _ = _game_with_a_joker_meld(user)
    page = player.get(reverse("play", args=[game.pk])).content.decode()
    assert f'data-readings-url="{reverse("api_game_meld_readings", args=[game.pk])}"' in page


def test_the_observation_lists_the_players_legal_actions_but_new_melds(
    player: Client, user: Any
) -> None:
    """On the player's turn the GET's observation lists what the engine allows but new
    melds, in the engine's order."""
    game, _ = _game_with_a_joker_meld(user)
    state = game.current_state()
    observation = player.get(reverse("api_game", args=[game.pk])).json()["observation"]
    assert state.current_player == 0
    expected = [a.to_json() for a in state.legal_actions() if not isinstance(a, LayMelds)]
    assert observation["legal_actions"] == expected
