"""A difference between two results is said in words on every page (issue 23, item 4):
"27,7 slechter" / "3,0 beter" / "gelijk", the first result against the one it is compared
with, right for both games (Jokeren: lower is better; Klaverjassen: higher is better),
never a "+" or "−" whose meaning depends on the page or the game."""

from __future__ import annotations

import re
from typing import Any

import factories
import pytest
from django.template import Context, Template
from django.test import Client
from django.urls import reverse
from django.utils import translation

from tournaments import analysis, numbers
from tournaments.games import module_of
from tournaments.models import Game, Tournament
from tournaments.services import closing as closing_services
from tournaments.services import entries as entry_services
from tournaments.services import par as par_services
from tournaments.services import play as play_services
from tournaments.services import results as result_services

pytestmark = pytest.mark.django_db

#: a difference written with a sign, the old way ("+27,7", "−3,0", "+1.5")
SIGNED = re.compile(r"[+−]\d+[,.]\d")


def _text(response: Any) -> str:
    return re.sub(r"\s+", " ", response.content.decode())


# --- The helper -----------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("language", "worse", "better", "equal"),
    [("nl", "27,7 slechter", "3,0 beter", "gelijk"), ("en", "27.7 worse", "3.0 better", "equal")],
)
def test_jokeren_a_higher_result_is_worse(
    language: str, worse: str, better: str, equal: str
) -> None:
    with translation.override(language):
        assert numbers.format_comparison(27.7, lower_is_better=True) == worse
        assert numbers.format_comparison(-3, lower_is_better=True) == better
        assert numbers.format_comparison(0.04, lower_is_better=True) == equal
        assert numbers.format_comparison(None, lower_is_better=True) == "–"


@pytest.mark.parametrize(
    ("language", "worse", "better"),
    [("nl", "20,0 slechter", "27,7 beter"), ("en", "20.0 worse", "27.7 better")],
)
def test_klaverjas_a_higher_result_is_better(language: str, worse: str, better: str) -> None:
    with translation.override(language):
        assert numbers.format_comparison(27.66, lower_is_better=False) == better
        assert numbers.format_comparison(-20, lower_is_better=False) == worse
        equal = "gelijk" if language == "nl" else "equal"
        assert numbers.format_comparison(-0.04, lower_is_better=False) == equal


def test_the_filters_say_the_same_words() -> None:
    template = Template(
        "{% load analysis_tags %}{{ a|compared:True }} | {{ a|compared:False }} | "
        "{{ gain|against_bot }} | {{ none|compared:True }}"
    )
    with translation.override("nl"):
        text = template.render(Context({"a": 5.0, "gain": 2.5, "none": None}))
    # the strong bot's choice did 2,5 better: the player's choice did 2,5 worse
    assert text == "5,0 slechter | 5,0 beter | 2,5 slechter | –"


# --- The pages ------------------------------------------------------------------------------


def _entrant_against_par(game_name: str, preset: str, delta: int) -> tuple[Tournament, Any]:
    """A one-round tournament whose only entrant's round is par's with ``delta`` more points
    for South's side (Jokeren: penalty points; Klaverjassen: the team's points)."""
    t = factories.make_tournament(game=game_name, preset=preset, rounds=1, south_plays=())
    user = factories.make_user()
    game = entry_services.entry_join(tournament_id=t.pk, user=user).game
    scores = list(par_services.tournament_par(tournament=t)[0].scores)
    scores[0] += delta
    if game_name == "klaverjas":
        scores[2] += delta
    factories.set_rounds(game, [scores])
    result_services.standings_refresh(tournament=t)
    return t, user


@pytest.mark.parametrize(
    ("game_name", "preset", "nl", "en"),
    [
        ("jokeren", "jokeren7", "30,0 slechter", "30.0 worse"),
        ("klaverjas", "rotterdams", "30 beter", "30 better"),  # whole points
    ],
)
def test_the_leaderboard_and_the_deal_table_say_against_par_in_words(
    game_name: str, preset: str, nl: str, en: str
) -> None:
    t, user = _entrant_against_par(game_name, preset, 30)
    client = Client()
    client.force_login(user)
    for language, words, header in (("nl", nl, "Tegen par"), ("en", en, "Against par")):
        client.cookies["django_language"] = language
        page = _text(client.get(t.get_absolute_url()))
        assert f'<td class="num" data-testid="vs-par">{words}</td>' in page
        deals = page[page.index('id="deal-0"') :]
        assert f'<td class="num">{words}</td>' in deals
        assert header in page and "± par" not in page
        assert not SIGNED.search(page)
    live = _text(client.get(reverse("tournament_leaderboard", args=[t.pk])))
    assert f'data-testid="vs-par">{en}<' in live


def _play_off_first(game: Game, user: Any) -> Game:
    """South's first decision another legal action than the basic bot's and the strong
    bot's, then like the basic bot to the end: a game that differs from par and from the
    strong bot's choices."""
    module = module_of(game.game)
    game.refresh_from_db()
    state = module.state_from_json(game.state)
    usual = [module.bot_action(state, level=level).to_json() for level in ("basic", "strong")]
    other = next(a.to_json() for a in state.legal_actions() if a.to_json() not in usual)
    game = play_services.game_play_move(game_id=game.pk, user=user, seq=game.seq, action=other).game
    game, _events = factories.play_to_end(game, user)
    return game


def test_the_split_view_says_the_difference_in_words() -> None:
    t = factories.make_tournament(rounds=1)
    user = factories.make_user("anna")
    game, _events = factories.play_to_end(
        entry_services.entry_join(tournament_id=t.pk, user=user).game, user
    )
    closing_services.tournament_close(tournament_id=t.pk)
    # Anna's round is par's with 27 more penalty points for her (lower is better): worse.
    scores = list(par_services.tournament_par(tournament=t)[0].scores)
    scores[0] += 27
    factories.set_rounds(game, [scores])
    client = Client()
    client.cookies["django_language"] = "nl"
    url = reverse("game_split", args=[game.pk]) + "?round=0&with=par"
    page = _text(client.get(url))
    assert "Resultaat van anna tegenover Par (de bots) in deze ronde: 27,0 slechter" in page
    assert not SIGNED.search(page)


def test_the_review_and_the_replay_say_the_player_against_the_strong_bot_in_words() -> None:
    t = factories.make_tournament(rounds=1)
    user = factories.make_user("bram")
    game = _play_off_first(entry_services.entry_join(tournament_id=t.pk, user=user).game, user)
    result = analysis.game_analysis(game=game, round_index=0)
    differing = [d for d in result.decisions if d.differs and d.gain is not None]
    assert differing
    client = Client()
    client.force_login(user)
    client.cookies["django_language"] = "nl"
    review = _text(client.get(reverse("game_review", args=[game.pk])))
    with translation.override("nl"):
        for d in differing:
            assert f'<td class="num">{numbers.format_comparison(-d.gain)}</td>' in review
    assert "Tegen de sterke bot" in review
    assert "(+" not in review and not SIGNED.search(review)
    assert "beter of slechter" in review
    if result.difference is not None:
        with translation.override("nl"):
            words = numbers.format_comparison(-result.difference)
        assert f"tegen dat van de sterke bot op jouw plaats vanaf daar: {words}" in review
    closing_services.tournament_close(tournament_id=t.pk)
    replay = _text(client.get(reverse("game_replay", args=[game.pk])))
    assert "Tegen de sterke bot" in replay
    assert "(+" not in replay and not SIGNED.search(replay)
