"""Words for people on the site (issue 13): cards in words (suit symbol and rank in the
language, never codes) in the move texts of the API, replay and review, and on the
verify page, with hands in the table's order; numbers and dates in the locale's format."""

from __future__ import annotations

import re
from datetime import UTC, datetime, timedelta
from typing import Any

import factories
import pytest
from django.test import Client
from django.urls import reverse
from django.utils import timezone, translation
from django.utils.formats import date_format

from engine import jokeren, klaverjas
from engine.cards import CARD_CODE, klaverjas_id
from engine.jokeren.actions import Discard
from engine.klaverjas.actions import Bid, PlayCard
from tournaments import numbers
from tournaments.models import Tournament
from tournaments.presentation.words import describe_action, hand_text
from tournaments.selectors import replay as replay_selectors
from tournaments.services import closing as closing_services
from tournaments.services import entries as entry_services
from tournaments.services import results as result_services

pytestmark = pytest.mark.django_db

#: a card as the machine writes it ("Ts", "Jh", "7c")
CODE = re.compile(r"\b([2-9TJQKA][cdhs])\b")
#: a card as a person reads it, Dutch (suit first, B V H A) and English (rank first, J Q K A)
NL_CARD = r"(?:[♣♦♥♠](?:10|[2-9BVHA])|joker)"
EN_CARD = r"(?:(?:10|[2-9JQKA])[♣♦♥♠]|joker)"


def _id(code: str) -> int:
    return CARD_CODE.index(code)


def test_a_move_is_a_sentence_with_the_seat_as_subject_and_the_card_in_words() -> None:
    assert describe_action(Discard(_id("Ts")), 2, 4, module=jokeren) == (
        "Noord gooit ♠10 weg",
        "North discarded 10♠",
    )
    # the player's own seat: the verbs agree with "Jij"/"You"
    assert describe_action(Discard(_id("Jh")), 0, 4, module=jokeren) == (
        "Jij gooit ♥B weg",
        "You discarded J♥",
    )
    assert describe_action(Bid(False), 0, 4, module=klaverjas) == (
        "Jij past",
        "You passed",
    )
    assert describe_action(PlayCard(klaverjas_id("Qd")), 1, 4, module=klaverjas) == (
        "West speelt ♦V",
        "West played Q♦",
    )


def test_the_replay_and_the_api_events_name_cards_in_words(
    client: Client, tournament: Tournament, user: Any
) -> None:
    game = entry_services.entry_join(tournament_id=tournament.pk, user=user).game
    closing_services.tournament_close(tournament_id=tournament.pk)
    frames = replay_selectors.game_replay(game=game, round_index=0)[1:]
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
    closing_services.tournament_close(tournament_id=tournament.pk)
    client.cookies["django_language"] = language
    response = client.get(reverse("tournament_verify", args=[tournament.pk]))
    assert response.status_code == 200
    html = response.content.decode()
    cells = re.findall(r'<td data-testid="deal-hand">([^<]*)</td>', html)
    assert len(cells) == tournament.rounds * 4
    tournament.refresh_from_db()
    dealt = replay_selectors.tournament_verify(tournament=tournament).deals
    for i, cell in enumerate(cells):
        labels = cell.split()
        assert all(re.fullmatch(card, x) for x in labels), cell
        assert labels == sorted(labels, key=lambda x: _key(x, language)), cell
        assert len(labels) == len(dealt[i // 4]["hands"][i % 4])


def test_a_klaverjas_hand_text_puts_the_proposed_trump_first() -> None:
    codes = ["7s", "Ah", "Jh", "9h", "Tc", "Ad", "Kc", "8s"]
    assert hand_text(game="klaverjas", codes=codes, language="nl", trump="h") == (
        "♥B ♥9 ♥A ♠8 ♠7 ♦A ♣10 ♣H"
    )
    assert hand_text(game="jokeren", codes=["**", "Kd", "2d"], language="en") == ("2♦ K♦ joker")


# --- Numbers: one format for a result (one decimal, the language's decimal sign) -------


@pytest.mark.parametrize(
    ("language", "texts"),
    [
        ("nl", ["79,3", "-20,0", "0,0", "56,3", "–"]),
        ("en", ["79.3", "-20.0", "0.0", "56.3", "–"]),
    ],
)
def test_a_result_has_one_decimal_and_the_languages_decimal_sign(
    language: str, texts: list[str]
) -> None:
    with translation.override(language):
        shown = [numbers.format_result(v) for v in (79.333, -20, -0.04, 56.25, None)]
        assert shown == texts
        assert numbers.format_comparison(1.46) == (
            "1,5 beter" if language == "nl" else "1.5 better"
        )
        assert numbers.format_comparison(-2) == (
            "2,0 slechter" if language == "nl" else "2.0 worse"
        )
        assert numbers.format_percent(62.54) == ("62,5%" if language == "nl" else "62.5%")


def test_a_csv_export_keeps_the_machine_format_with_the_same_decimals() -> None:
    with translation.override("nl"):
        assert [numbers.result_csv(v) for v in (79.333, -20, -0.04, None)] == [
            "79.3",
            "-20.0",
            "0.0",
            "",
        ]


@pytest.mark.parametrize(("language", "expected"), [("nl", "-20,0"), ("en", "-20.0")])
def test_the_tournament_page_shows_a_result_with_one_decimal(
    client: Client, user: Any, language: str, expected: str
) -> None:
    t = factories.make_tournament(rounds=1)
    game = entry_services.entry_join(tournament_id=t.pk, user=user).game
    factories.set_rounds(game, [[10, 20, 30, 40]])  # 10 − average(20, 30, 40)
    result_services.standings_refresh(tournament=t)
    client.force_login(user)
    client.cookies["django_language"] = language
    page = client.get(reverse("tournament_detail", args=[t.pk])).content.decode()
    board = page[page.index('id="leaderboard"') :]
    assert f'<td class="num">{expected}</td>' in board
    assert f"{expected}0" not in page  # never two decimals
    # the JSON for programs keeps the number as a number
    data = client.get(reverse("api_tournament_standings", args=[t.pk])).json()
    assert data["standings"][0]["result"] == -20


# --- Dates and times: the locale's 24-hour format, with the time zone ---------------------


@pytest.mark.parametrize(
    ("language", "opens", "long"),
    [
        ("nl", "30 december 2026 20:49 CET", "30 december 2026 20:49 CET"),
        ("en", "30 December 2026, 20:49 CET", "30 December 2026, 20:49 CET"),
    ],
)
def test_times_are_24_hour_day_first_with_the_time_zone(
    client: Client, organizer: Any, language: str, opens: str, long: str
) -> None:
    at = datetime(2026, 12, 30, 19, 49, tzinfo=UTC)  # 20:49 in Amsterdam (winter time)
    t = factories.make_tournament(
        created_by=organizer, opens_at=at, closes_at=at + timedelta(days=2), south_plays=()
    )
    client.cookies["django_language"] = language
    page = client.get(reverse("tournament_detail", args=[t.pk])).content.decode()
    assert opens in page
    assert "p.m." not in page and "12/30/2026" not in page
    with translation.override(language):
        assert date_format(timezone.localtime(at), "DATETIME_FORMAT") == long


@pytest.mark.parametrize(
    ("language", "labels"),
    [("nl", ["Opent op", "Sluit op"]), ("en", ["Opens at", "Closes at"])],
)
def test_the_organizer_form_states_the_time_zone_of_its_times(
    client: Client, organizer: Any, language: str, labels: list[str]
) -> None:
    client.force_login(organizer)
    client.cookies["django_language"] = language
    page = client.get(reverse("tournament_create")).content.decode()
    abbr = timezone.localtime().tzname()
    zone = "tijdzone" if language == "nl" else "time zone"
    for label in labels:
        assert f"{label} ({zone} Europe/Amsterdam, {abbr})" in page
