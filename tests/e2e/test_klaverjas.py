"""The Klaverjas table in a real browser: sign up, join a Klaverjas tournament, bid and
play a whole round by clicking, see the round's score, the result and the leaderboard;
an illegal card shows the rule it breaks and changes nothing; a reload resumes; a stale
move reloads (docs/rules.md §6, docs/api.md)."""

from __future__ import annotations

import hashlib
from dataclasses import replace
from itertools import pairwise
from typing import Any

import factories
import pytest
from playwright.sync_api import Page, expect

from engine.cards import card_label, klaverjas_code, klaverjas_id
from engine.klaverjas import Bid, MustFollowSuit, Variant, bot_action, new_round, state_from_json
from engine.klaverjas.rules import legal_cards, play_error
from engine.klaverjas.variants import ROTTERDAMS
from tests.e2e.helpers import (
    api_get,
    api_post,
    deal_position,
    dialog_open,
    join,
    log_in,
    screenshot,
    settle,
    sign_up,
    table,
)
from tournaments.models import Game, Tournament
from tournaments.selectors import replay as replay_selectors
from tournaments.services import entries as entry_services
from tournaments.services import play as play_services

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]


# --- helpers ----------------------------------------------------------------------------


def secret_where_the_bots_pass() -> bytes:
    """A tournament secret whose round 0 lets West, North and East pass the proposed
    trump (basic bots), so that South bids: round 0 is dealt by South (seat 0)."""
    for i in range(1, 500):
        secret = hashlib.sha256(f"klaverjas-e2e-{i}".encode()).digest()
        state = new_round(ROTTERDAMS, secret=secret, round_index=0)
        for _ in range(3):
            action = bot_action(state, level="basic")
            if action.to_json() != {"type": "bid", "play": False}:
                break
            state = state.apply(action)
        else:
            return secret
    raise AssertionError("no deal found where the three bots pass")


def secret_where_everybody_passes_the_proposed_trump(variant: Variant) -> bytes:
    """A secret whose round 0 (dealt by South) goes: the three bots pass, South passes,
    and in the second bidding round (``two_rounds``) the three bots pass again."""
    for i in range(1, 2000):
        secret = hashlib.sha256(f"klaverjas-e2e-two-{i}".encode()).digest()
        state = new_round(variant, secret=secret, round_index=0)
        ok = True
        for seat in (1, 2, 3, 0, 1, 2, 3):
            assert state.current_player == seat
            action = Bid(False) if seat == 0 else bot_action(state, level="basic")
            if action != Bid(False):
                ok = False
                break
            state = state.apply(action)
        if ok and state.phase == "bidding2" and state.current_player == 0:
            return secret
    raise AssertionError("no deal found where everybody passes")


def make_tournament(
    *, rounds: int = 1, secret: bytes | None = None, variant: Variant = ROTTERDAMS
) -> Tournament:
    """An open Klaverjas tournament (Rotterdams unless told), with a chosen secret if given."""
    t = factories.make_tournament(
        name="E2E Klaverjassen",
        game="klaverjas",
        preset="rotterdams",
        rounds=rounds,
        variant={**variant.to_json(), "name": "rotterdams"},
    )
    if secret is not None:
        Tournament.objects.filter(pk=t.pk).update(
            secret=secret, commitment=hashlib.sha256(secret).hexdigest()
        )
        t.refresh_from_db()
    return t


def hand(page: Page) -> list[dict[str, str]]:
    """The hand on screen in display order: card id, code and legality per card."""
    rows: list[dict[str, str]] = page.eval_on_selector_all(
        "[data-testid=hand-card]",
        "els => els.map(e => ({card: e.dataset.card, code: e.dataset.code,"
        " legal: e.dataset.legal ?? ''}))",
    )
    return rows


def snapshot(page: Page) -> dict[str, Any]:
    """Everything the player sees of the state, to compare before and after."""
    return {
        "hand": [c["code"] for c in hand(page)],
        "trick": page.eval_on_selector_all(
            "[data-testid=trick] [data-seat]",
            "els => els.map(e => [e.dataset.seat, e.dataset.code])",
        ),
        "phase": table(page, "phase"),
        "seq": table(page, "seq"),
        "trump": table(page, "trump"),
        "tricks": table(page, "tricks"),
        "won": [page.inner_text(f"[data-testid=tricks-won-{t}]") for t in (0, 1)],
    }


def trump_first_and_high_to_low(codes: list[str], trump: str) -> bool:
    """The hand's order: suits together, trump first, each suit from high to low."""
    trump_order, plain_order = "J9ATKQ87", "ATKQJ987"
    suits = [c[1] for c in codes]
    together = all(suits.index(s) == i or suits[i - 1] == s for i, s in enumerate(suits))
    trump_leads = trump not in suits or suits[0] == trump
    ranked = True
    for a, b in pairwise(codes):
        if a[1] == b[1]:
            order = trump_order if a[1] == trump else plain_order
            ranked = ranked and order.index(a[0]) < order.index(b[0])
    return together and trump_leads and ranked


# --- tests ------------------------------------------------------------------------------


def test_sign_up_join_bid_play_a_round_and_see_the_leaderboard(
    live_server: Any, page: Page
) -> None:
    tournament = make_tournament(secret=secret_where_the_bots_pass())
    sign_up(page, live_server.url, "klaverjasser")
    game_id = join(page, live_server.url, tournament.pk)

    # The table: eight cards, North is the partner, the three bots passed, South bids.
    expect(page.locator("[data-testid=hand-card]")).to_have_count(8)
    expect(page.locator("[data-testid=seat-2] [data-testid=partner-label]")).to_have_count(1)
    expect(page.locator("[data-testid=seat-1] [data-testid=partner-label]")).to_have_count(0)
    assert table(page, "phase") == "bidding"
    assert table(page, "your-turn") == "true"
    for s in (1, 2, 3):
        expect(page.locator(f"[data-testid=bid-{s}]")).to_be_visible()
    expect(page.locator("[data-testid=bid-pass]")).to_be_visible()
    proposed = page.get_attribute("[data-testid=trump]", "data-suit")
    assert proposed == ""  # only proposed so far
    page.click("[data-testid=bid-play]")  # "Spelen": our team plays the proposed trump
    settle(page)
    trump = table(page, "trump")
    assert trump in ("c", "d", "h", "s")
    assert page.get_attribute("[data-testid=trump]", "data-suit") == trump
    assert page.get_attribute("[data-testid=playing-team]", "data-team") == "0"
    assert trump_first_and_high_to_low([c["code"] for c in hand(page)], trump)

    round_scores: list[str] | None = None
    round_notes: list[str] = []
    shot = False
    for _ in range(40):
        settle(page)
        if dialog_open(page):
            expect(page.locator("[data-testid=round-scores]")).to_be_visible()
            round_scores = [page.inner_text(f"[data-testid=round-score-{i}]") for i in (0, 1)]
            round_notes = page.locator("[data-testid=round-note]").all_inner_texts()
            screenshot(page, "klaverjas-round-over.png")
            page.click("[data-testid=continue]")
            continue
        if table(page, "status") == "finished":
            break
        assert table(page, "your-turn") == "true"
        assert table(page, "phase") == "play"
        cards = hand(page)
        legal = [c for c in cards if c["legal"] == "true"]
        assert legal, "South to move but no card is playable"
        # The legal cards on screen are the engine's for the server's state.
        server = api_get(page, game_id)
        assert sorted(int(c["card"]) for c in legal) == sorted(
            a["card"] for a in server["observation"]["legal_actions"]
        )
        if not shot and int(table(page, "tricks")) >= 2 and len(cards) > len(legal):
            screenshot(page, "klaverjas.png")
            shot = True
        before = int(table(page, "tricks"))
        page.click(f"[data-testid=hand-card][data-card='{legal[-1]['card']}']")
        settle(page)
        if not dialog_open(page):
            assert int(table(page, "tricks")) == before + 1 or table(page, "status") == "finished"
    else:
        pytest.fail("the round did not end")

    # Eight tricks were played; the round's score, the sheet and the result agree.
    assert table(page, "tricks") == "8"
    assert round_scores is not None
    game = Game.objects.get(user__username="klaverjasser")
    assert game.status == Game.Status.FINISHED
    we, they = game.totals[0], game.totals[1]
    assert round_scores == [str(we), str(they)]
    won = [int(page.inner_text(f"[data-testid=tricks-won-{t}]")) for t in (0, 1)]
    assert sum(won) == 8
    expect(page.locator("[data-testid=boom-row]")).to_have_count(1)
    assert page.inner_text("[data-testid=total-we]") == str(we)
    assert page.inner_text("[data-testid=total-they]") == str(they)
    end = assert_sheet_marks(page, game, 0)
    if end["nat"]:  # the round-over panel said so too
        assert round_notes
    final = page.locator("[data-testid=final]")
    expect(final).to_be_visible()
    assert page.inner_text("[data-testid=final-result]") == f"{we - they}"  # whole points
    assert page.inner_text("[data-testid=final-rank]") == "1"  # the only entrant
    # The moves list holds all 32 cards and the 8 tricks (and the bids).
    assert page.locator("[data-testid=log] li").count() >= 40

    page.click("[data-testid=leaderboard-link]")
    page.wait_for_url(f"{live_server.url}/tournaments/{tournament.pk}/")
    expect(page.locator("#leaderboard tr.me")).to_contain_text("klaverjasser")


def _to_an_illegal_position(game: Game, user: Any) -> Game:
    """Play South like the basic bot until South must follow the led suit and also holds
    a card of another suit (which may not be played)."""
    for _ in range(200):
        game.refresh_from_db()
        state = state_from_json(game.state)
        if state.phase == "play" and state.current_player == 0 and state.trick:
            led = {c // 8 for c in state.hands[0]} & {state.trick[0] // 8}
            if led and len({c // 8 for c in state.hands[0]}) > 1:
                return game
        play_services.game_play_move(
            game_id=game.pk, user=user, seq=game.seq, action=factories.south_action(game)
        )
    raise AssertionError("no position with an illegal card was reached")


def test_illegal_card_reload_and_stale_move(live_server: Any, page: Page) -> None:
    tournament = make_tournament(rounds=3)
    user = factories.make_user("klaverjas_west")
    game = entry_services.entry_join(tournament_id=tournament.pk, user=user).game
    game = _to_an_illegal_position(game, user)
    state = state_from_json(game.state)
    assert state.trump is not None
    illegal = min(c for c in state.hands[0] if c // 8 != state.trick[0] // 8)
    assert illegal not in legal_cards(state.hands[0], state.trick, state.trump, state.variant)
    reason = play_error(state.hands[0], state.trick, state.trump, state.variant, illegal)
    assert isinstance(reason, MustFollowSuit)

    log_in(page, live_server.url, "klaverjas_west")
    page.goto(f"{live_server.url}/games/{game.pk}/")
    settle(page)
    # The cards that may not be played are dimmed; the trick on the table is shown.
    card = page.locator(f"[data-testid=hand-card][data-card='{illegal}']")
    assert card.get_attribute("data-legal") == "false"
    assert "is-illegal" in (card.get_attribute("class") or "")
    expect(page.locator("[data-testid=trick] [data-seat]")).to_have_count(len(state.trick))
    before = snapshot(page)

    card.click()
    settle(page)
    error = page.locator("[data-testid=error]")
    expect(error).to_be_visible()
    # The rule it breaks, in the page's language (Dutch by default).
    assert error.inner_text() == reason.nl
    # the card in words (suit symbol and rank, Dutch order), never its code
    assert "bekennen" in reason.nl and card_label(klaverjas_code(illegal), "nl") in reason.nl
    assert klaverjas_code(illegal) not in reason.nl
    assert snapshot(page) == before
    assert api_get(page, game.pk)["seq"] == game.seq

    # A reload resumes exactly where the game was.
    page.reload()
    settle(page)
    assert snapshot(page) == before
    expect(page.locator("[data-testid=error]")).to_be_hidden()

    # A move made elsewhere (another tab) makes this page stale: its next move gets 409,
    # the page reloads the state from the server and says so.
    legal = [int(c["card"]) for c in hand(page) if c["legal"] == "true"]
    status, _body = api_post(
        page, game.pk, {"seq": game.seq, "action": {"type": "play", "card": legal[0]}}
    )
    assert status == 200
    page.click(f"[data-testid=hand-card][data-card='{legal[-1]}']")
    settle(page)
    expect(page.locator("[data-testid=error]")).to_be_visible()
    server = api_get(page, game.pk)
    assert server["seq"] > game.seq
    assert table(page, "seq") == str(server["seq"])
    assert sorted(int(c["card"]) for c in hand(page)) == sorted(server["observation"]["hand"])
    assert legal[0] not in server["observation"]["hand"]


def assert_sheet_marks(page: Page, game: Game, r: int) -> dict[str, Any]:
    """The score sheet's row of round ``r`` marks nat (the playing team's cell) and pit
    (the team that won every trick) as the round ended; returns the round's result."""
    end: dict[str, Any] = replay_selectors.game_replay(game=game, round_index=r)[-1].observations[
        0
    ]["result"]
    for team, cell in ((0, f"boom-{r}-we"), (1, f"boom-{r}-they")):
        nat = page.locator(f"[data-testid={cell}] [data-testid=mark-nat]").count()
        pit = page.locator(f"[data-testid={cell}] [data-testid=mark-pit]").count()
        assert nat == int(end["nat"] and end["playing_team"] == team), cell
        assert pit == int(end["pit_team"] == team), cell
    return end


def play_legal_cards_until_the_round_ends(page: Page) -> list[str]:
    """Click the last playable card until the round-over dialog opens; its scores."""
    for _ in range(20):
        settle(page)
        if dialog_open(page):
            return [page.inner_text(f"[data-testid=round-score-{i}]") for i in (0, 1)]
        legal = [c for c in hand(page) if c["legal"] == "true"]
        assert legal
        page.click(f"[data-testid=hand-card][data-card='{legal[-1]['card']}']")
    raise AssertionError("the round did not end")


def test_second_bidding_round_and_the_score_sheet_over_two_rounds(
    live_server: Any, page: Page
) -> None:
    variant = replace(ROTTERDAMS, bidding="two_rounds")
    secret = secret_where_everybody_passes_the_proposed_trump(variant)
    tournament = make_tournament(rounds=2, secret=secret, variant=variant)
    user = factories.make_user("klaverjas_oost")
    game = entry_services.entry_join(tournament_id=tournament.pk, user=user).game
    proposed = game.state["proposed_trump"]
    log_in(page, live_server.url, "klaverjas_oost")
    page.goto(f"{live_server.url}/games/{game.pk}/")
    settle(page)

    # First round of bidding: pass the proposed suit like the three bots.
    assert table(page, "phase") == "bidding"
    page.click("[data-testid=bid-pass]")
    settle(page)
    # Second round: everybody passed, so South may play with any other suit, or pass.
    assert table(page, "phase") == "bidding2"
    others = [s for s in "cdhs" if s != proposed]
    for s in others:
        expect(page.locator(f"[data-testid=bid-play-{s}]")).to_be_visible()
    expect(page.locator(f"[data-testid=bid-play-{proposed}]")).to_have_count(0)
    expect(page.locator("[data-testid=bid-pass]")).to_be_visible()
    expect(page.locator("[data-testid=bid-play]")).to_have_count(0)
    page.click(f"[data-testid=bid-play-{others[0]}]")
    settle(page)
    assert table(page, "trump") == others[0]
    assert page.get_attribute("[data-testid=trump]", "data-suit") == others[0]
    assert page.get_attribute("[data-testid=playing-team]", "data-team") == "0"

    first = play_legal_cards_until_the_round_ends(page)
    notes = page.locator("[data-testid=round-note]").all_inner_texts()
    page.click("[data-testid=continue]")
    settle(page)

    # Round 2 is dealt; the score sheet holds round 1 with its nat or pit marks.
    assert table(page, "round") == "1"
    assert table(page, "status") == "playing"
    expect(page.locator("[data-testid=hand-card]")).to_have_count(8)
    expect(page.locator("[data-testid=boom-row]")).to_have_count(1)
    game.refresh_from_db()
    we, they = game.round_scores[0][0], game.round_scores[0][1]
    assert first == [str(we), str(they)]
    assert page.inner_text("[data-testid=total-we]") == str(we)
    assert page.inner_text("[data-testid=total-they]") == str(they)
    end = assert_sheet_marks(page, game, 0)
    pit_marks = page.locator("[data-testid=mark-pit]").count()
    assert len(notes) == int(end["nat"]) + int(end["pit_team"] is not None)

    # Play on into round 2 until South has a card to play; the sheet survives a reload.
    for _ in range(10):
        settle(page)
        if table(page, "your-turn") == "true" and table(page, "phase") == "play":
            break
        buttons = page.locator("[data-testid=bidding] button")
        buttons.nth(buttons.count() - 1).click()
    page.reload()
    settle(page)
    expect(page.locator("[data-testid=boom-row]")).to_have_count(1)
    assert page.locator("[data-testid=mark-pit]").count() == pit_marks
    screenshot(page, "klaverjas-round-2.png")


def arrange_trick(monkeypatch: Any, game: Game, *, trump: str, trick: str, south: str) -> None:
    """Put round 0 at South's turn in the first trick: West, North and East passed, South
    plays with ``trump``; West led, the ``trick`` cards lie on the table; South holds
    ``south``; every other card goes to the bots (seven each)."""
    trick_ids = [klaverjas_id(c) for c in trick.split()]
    south_ids = [klaverjas_id(c) for c in south.split()]
    rest = [c for c in range(32) if c not in trick_ids + south_ids]
    assert len(south_ids) == 8 and len(rest) == 21
    state = dict(game.state)
    state.update(
        dealer=0,
        deal_number=0,
        hands=[sorted(south_ids), rest[0:7], rest[7:14], rest[14:21]],
        phase="play",
        current_player=0,
        bids=[
            {"seat": 1, "round": 1, "play": False, "suit": None},
            {"seat": 2, "round": 1, "play": False, "suit": None},
            {"seat": 3, "round": 1, "play": False, "suit": None},
            {"seat": 0, "round": 1, "play": True, "suit": None},
        ],
        proposed_trump=trump,
        trump=trump,
        playing_seat=0,
        leader=1,
        trick=trick_ids,
        tricks=[],
        move_count=4 + len(trick_ids),
    )
    state_from_json(state)  # a state the engine accepts
    deal_position(monkeypatch, game, state)


def test_roem_in_a_trick_is_called_out(
    live_server: Any, page: Page, monkeypatch: pytest.MonkeyPatch
) -> None:
    tournament = make_tournament(rounds=2)
    user = factories.make_user("klaverjas_noord")
    game = entry_services.entry_join(tournament_id=tournament.pk, user=user).game
    # Trump hearts: West led the king, North the queen, East the seven; South's jack wins
    # the trick with jack-queen-king in sequence (20) and king and queen of trump,
    # "stuk" (20): roem 40 (docs/rules.md §6), and 20 + 3 + 4 + 0 = 27 card points.
    arrange_trick(monkeypatch, game, trump="h", trick="Kh Qh 7h", south="Jh 9h Ac Tc 8d As Ks 7s")
    log_in(page, live_server.url, "klaverjas_noord")
    page.goto(f"{live_server.url}/games/{game.pk}/")
    settle(page)
    assert page.locator("[data-testid=trick] [data-seat]").count() == 3
    # Trump was led and the king is the highest trump in the trick: South must play a
    # higher trump (order J 9 A 10 K Q 8 7): the jack or the nine, nothing else.
    legal = sorted(c["code"] for c in hand(page) if c["legal"] == "true")
    assert legal == ["9h", "Jh"]
    page.click(f"[data-testid=hand-card][data-card='{klaverjas_id('Jh')}']")
    settle(page)
    call = page.locator("[data-testid=roem-call]")
    expect(call).to_be_visible()
    assert "40" in call.inner_text()
    expect(page.locator("[data-testid=trick-winner]")).to_be_visible()
    assert page.inner_text("[data-testid=tricks-won-0]") == "1"
    assert page.inner_text("[data-testid=roem-0]") == "40"
    assert page.inner_text("[data-testid=points-0]") == "27"
    # South won the trick, so South leads the next one: every card may be played.
    assert table(page, "your-turn") == "true"
    assert all(c["legal"] == "true" for c in hand(page))
    assert len(hand(page)) == 7
    page.wait_for_timeout(600)  # let the cards land
    screenshot(page, "klaverjas-roem.png")


def test_choosing_trump_without_bidding_after_three_rounds(live_server: Any, page: Page) -> None:
    # "Zonder passen": no bidding, the player after the dealer chooses trump and plays.
    # Round 4 is dealt by East, so South chooses.
    variant = replace(ROTTERDAMS, bidding="no_passing")
    tournament = make_tournament(rounds=4, variant=variant)
    user = factories.make_user("klaverjas_zuid")
    game = entry_services.entry_join(tournament_id=tournament.pk, user=user).game
    while game.round_index < 3:
        play_services.game_play_move(
            game_id=game.pk, user=user, seq=game.seq, action=factories.south_action(game)
        )
        game.refresh_from_db()
    log_in(page, live_server.url, "klaverjas_zuid")
    page.goto(f"{live_server.url}/games/{game.pk}/")
    settle(page)
    assert table(page, "phase") == "choose_trump"
    assert table(page, "your-turn") == "true"
    for s in "cdhs":
        expect(page.locator(f"[data-testid=choose-{s}]")).to_be_visible()
    expect(page.locator("[data-testid=bid-pass]")).to_have_count(0)
    # The score sheet holds the three rounds played, and the totals.
    expect(page.locator("[data-testid=boom-row]")).to_have_count(3)
    assert page.inner_text("[data-testid=total-we]") == str(game.totals[0])
    assert page.inner_text("[data-testid=total-they]") == str(game.totals[1])

    page.click("[data-testid=choose-s]")
    settle(page)
    assert table(page, "trump") == "s"
    assert page.get_attribute("[data-testid=playing-team]", "data-team") == "0"
    # South leads the first trick: every card may be played, spades (trump) come first.
    cards = hand(page)
    assert len(cards) == 8 and all(c["legal"] == "true" for c in cards)
    assert trump_first_and_high_to_low([c["code"] for c in cards], "s")
