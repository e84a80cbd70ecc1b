"""Words for people on the site (issue 13): cards in words (suit symbol and rank in the
language, never codes) in the move texts of the API, replay and review, and on the
verify page, with hands in the table's order; numbers and dates in the locale's format."""

from __future__ import annotations

import re
from typing import Any

import pytest
from django.test import Client
from django.urls import reverse

from engine.cards import CARD_CODE, klaverjas_id
from engine.jokeren.actions import Discard
from engine.klaverjas.actions import Bid, PlayCard
from tournaments import services
from tournaments.models import Tournament

pytestmark = pytest.mark.django_db

#: a card as the machine writes it ("Ts", "Jh", "7c")
CODE = re.compile(r"\b([2-9TJQKA][cdhs])\b")
#: a card as a person reads it, Dutch (suit first, B V H A) and English (rank first, J Q K A)
NL_CARD = r"(?:[♣♦♥♠](?:10|[2-9BVHA])|joker)"
EN_CARD = r"(?:(?:10|[2-9JQKA])[♣♦♥♠]|joker)"


def _id(code: str) -> int:
    return CARD_CODE.index(code)


def test_a_move_is_a_sentence_with_the_seat_as_subject_and_the_card_in_words() -> None:
    assert services.describe_action(Discard(_id("Ts")), 2, 4) == (
        "Noord gooit ♠10 weg",
        "North discarded 10♠",
    )
    # the player's own seat: the verbs agree with "Jij"/"You"
    assert services.describe_action(Discard(_id("Jh")), 0, 4) == (
        "Jij gooit ♥B weg",
        "You discarded J♥",
    )
    assert services.describe_action(Bid(False), 0, 4) == ("Jij past", "You passed")
    assert services.describe_action(PlayCard(klaverjas_id("Qd")), 1, 4) == (
        "West speelt ♦V",
        "West played Q♦",
    )


def test_the_replay_and_the_api_events_name_cards_in_words(
    client: Client, tournament: Tournament, user: Any
) -> None:
    game = services.entry_join(tournament_id=tournament.pk, user=user).game
    services.tournament_close(tournament_id=tournament.pk)
    frames = services.game_replay(game=game, round_index=0)[1:]
    assert frames
    for frame in frames:
        assert not CODE.search(frame.text_nl) and not CODE.search(frame.text_en)
        assert ": " not in frame.text_nl and ": " not in frame.text_en
    discards = [f for f in frames if " gooit " in f.text_nl]
    assert discards
    for f in discards:
        assert re.fullmatch(rf"\w+ gooit {NL_CARD} weg", f.text_nl), f.text_nl
        assert re.fullmatch(rf"\w+ discarded {EN_CARD}", f.text_en), f.text_en


#: the table's order of a Jokeren hand: spades, hearts, clubs, diamonds; 2 up to the ace
_SUIT_ORDER = "♠♥♣♦"
_NUMBERS = [str(n) for n in range(2, 11)]
_RANKS = {"nl": [*_NUMBERS, "B", "V", "H", "A"], "en": [*_NUMBERS, "J", "Q", "K", "A"]}


def _key(label: str, language: str) -> tuple[int, int, int]:
    if label == "joker":
        return (1, 0, 0)
    if language == "nl":
        suit, rank = label[0], label[1:]
    else:
        suit, rank = label[-1], label[:-1]
    return (0, _SUIT_ORDER.index(suit), _RANKS[language].index(rank))


@pytest.mark.parametrize(("language", "card"), [("nl", NL_CARD), ("en", EN_CARD)])
def test_the_verify_page_shows_each_hand_in_words_sorted_as_the_table(
    client: Client, tournament: Tournament, language: str, card: str
) -> None:
    services.tournament_close(tournament_id=tournament.pk)
    client.cookies["django_language"] = language
    response = client.get(reverse("tournament_verify", args=[tournament.pk]))
    assert response.status_code == 200
    html = response.content.decode()
    cells = re.findall(r'<td data-testid="deal-hand">([^<]*)</td>', html)
    assert len(cells) == tournament.rounds * 4
    tournament.refresh_from_db()
    dealt = services.tournament_verify(tournament=tournament).deals
    for i, cell in enumerate(cells):
        labels = cell.split()
        assert all(re.fullmatch(card, x) for x in labels), cell
        assert labels == sorted(labels, key=lambda x: _key(x, language)), cell
        assert len(labels) == len(dealt[i // 4]["hands"][i % 4])


def test_a_klaverjas_hand_text_puts_the_proposed_trump_first() -> None:
    codes = ["7s", "Ah", "Jh", "9h", "Tc", "Ad", "Kc", "8s"]
    assert services.hand_text(game="klaverjas", codes=codes, language="nl", trump="h") == (
        "♥B ♥9 ♥A ♠8 ♠7 ♦A ♣10 ♣H"
    )
    assert services.hand_text(game="jokeren", codes=["**", "Kd", "2d"], language="en") == (
        "2♦ K♦ joker"
    )
