"""The card table in a real browser: sign up, join a Jokeren 7 tournament, play a whole
round by clicking, see the result and the leaderboard; an illegal move shows the reason
and changes nothing; a reload resumes at the same state; a stale move reloads."""

from __future__ import annotations

from collections import defaultdict
from itertools import groupby
from typing import Any

import factories
import pytest
from playwright.sync_api import Page, expect

from engine.cards import card_id_of, hand_value, parse_code
from engine.jokeren.melds import check_meld, stands_for_from_json
from engine.jokeren.state import state_from_json
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

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]

# --- helpers ----------------------------------------------------------------------------


def make_tournament(rounds: int = 1, south_plays: tuple[int, ...] = (0,)) -> Tournament:
    """An open Jokeren 7 tournament (of one round unless told) whose deals give South a
    turn in the rounds ``south_plays`` (round 0 unless told): with a random secret a bot
    may go out before South ever plays (``factories.make_tournament``)."""
    return factories.make_tournament(
        name="E2E Jokeren 7", preset="jokeren7", rounds=rounds, south_plays=south_plays
    )


def hand(page: Page) -> list[tuple[int, str]]:
    """The hand on screen: (card id, code) per card, in display order."""
    return [
        (int(card), code)
        for card, code in page.eval_on_selector_all(
            "[data-testid=hand-card]", "els => els.map(e => [e.dataset.card, e.dataset.code])"
        )
    ]


def snapshot(page: Page) -> dict[str, Any]:
    """Everything the player sees of the state, to compare before and after."""
    return {
        "hand": sorted(code for _, code in hand(page)),
        "melds": page.eval_on_selector_all(
            "[data-testid=meld]", "els => els.map(e => [e.dataset.owner, e.dataset.codes])"
        ),
        "stock": page.inner_text("[data-testid=stock-count]"),
        "open": page.eval_on_selector(
            "[data-testid=open-pile]", "el => el.querySelector('[data-code]')?.dataset.code ?? ''"
        ),
        "phase": table(page, "phase"),
        "seq": table(page, "seq"),
        "sizes": [page.inner_text(f"[data-testid=hand-size-{s}]") for s in (1, 2, 3)],
    }


def find_meld(cards: list[tuple[int, str]], skip: set[frozenset[int]]) -> list[int] | None:
    """A group or run of natural cards in the hand (the largest first), or None."""
    naturals = [(cid, *parse_code(code)) for cid, code in cards if code != "**"]
    found: list[list[int]] = []
    by_rank: dict[int, dict[int, int]] = defaultdict(dict)
    by_suit: dict[int, dict[int, int]] = defaultdict(dict)
    for cid, rank, suit in naturals:
        by_rank[rank].setdefault(suit, cid)
        by_suit[suit].setdefault(rank, cid)
        if rank == 1:
            by_suit[suit].setdefault(14, cid)
    for suits in by_rank.values():
        if len(suits) >= 3:
            found.append(list(suits.values())[:4])
    for ranks in by_suit.values():
        run: list[int] = []
        for r in range(1, 16):
            if r in ranks and ranks[r] not in run:
                run.append(ranks[r])
                continue
            if len(run) >= 3:
                found.append(run)
            run = [ranks[r]] if r in ranks else []
    found = [m for m in found if frozenset(m) not in skip]
    found.sort(key=len, reverse=True)
    return found[0] if found else None


def click_cards(page: Page, ids: list[int]) -> None:
    for cid in ids:
        page.click(f"[data-testid=hand-card][data-card='{cid}']")


def play_turn(page: Page, skip: set[frozenset[int]], taken: list[int]) -> None:
    """One step of a simple fixed strategy: draw from the stock (the open pile when the
    stock is empty), lay the largest meld while one card stays to discard, then discard
    the card worth the most points."""
    if table(page, "phase") == "draw":
        taken.clear()
        if page.is_enabled("[data-testid=stock]"):
            page.click("[data-testid=stock]")
        else:
            top = page.get_attribute("[data-testid=open-top]", "data-code")
            taken.append(next(cid for cid, code in reversed(hand(page)) if code == top))
            page.click("[data-testid=open-pile]")
        return
    cards = hand(page)
    meld = find_meld(cards, skip)
    if meld is not None and len(cards) - len(meld) >= 1:
        click_cards(page, meld)
        page.click("[data-testid=btn-lay]")
        settle(page)
        if page.is_visible("[data-testid=error]"):
            skip.add(frozenset(meld))
            click_cards(page, meld)
        return
    points = {cid: hand_value(parse_code(code)[0]) for cid, code in cards}
    choices = [cid for cid, _ in cards if cid not in taken] or [cards[0][0]]
    worst = max(choices, key=lambda cid: (points[cid], cid))
    click_cards(page, [worst])
    page.click("[data-testid=btn-discard]")


# --- tests ------------------------------------------------------------------------------


def test_sign_up_join_play_a_round_and_see_the_leaderboard(live_server: Any, page: Page) -> None:
    tournament = make_tournament()

    sign_up(page, live_server.url, "speler_zuid")
    join(page, live_server.url, tournament.pk)
    expect(page.locator("[data-testid=hand-card]")).to_have_count(7)
    assert table(page, "your-turn") == "true"
    assert table(page, "phase") == "draw"
    # No action buttons before drawing: only the sort toggle.
    assert page.locator("[data-testid=btn-discard]").count() == 0

    skip: set[frozenset[int]] = set()
    taken: list[int] = []
    round_score: str | None = None
    shot = False
    for _ in range(400):
        settle(page)
        if dialog_open(page):
            expect(page.locator("[data-testid=round-scores]")).to_be_visible()
            round_score = page.inner_text("[data-testid=round-score-0]")
            screenshot(page, "round-over.png")
            page.click("[data-testid=continue]")
            continue
        if table(page, "status") == "finished":
            break
        assert table(page, "your-turn") == "true"
        if (
            not shot
            and table(page, "phase") == "play"
            and page.locator("[data-testid=meld]").count() >= 2
        ):
            # A card that fits a meld selected: it rises and the buttons that fit it appear.
            state = state_from_json(Game.objects.get(user__username="speler_zuid").state)
            fitting = [
                a.to_json()["card"]
                for a in state.legal_actions()
                if a.to_json()["type"] == "lay_off"
            ]
            if fitting:
                click_cards(page, fitting[:1])
                expect(page.locator("[data-testid=btn-lay-off]")).to_be_visible()
                screenshot(page, "table.png")
                click_cards(page, fitting[:1])
                shot = True
        play_turn(page, skip, taken)
    else:
        pytest.fail("the round did not end")

    final = page.locator("[data-testid=final]")
    expect(final).to_be_visible()
    assert round_score is not None
    assert page.inner_text("[data-testid=final-total]") == round_score
    assert page.inner_text("[data-testid=final-rank]") == "1"  # the only entrant
    game = Game.objects.get(user__username="speler_zuid")
    assert game.status == Game.Status.FINISHED
    assert game.totals[0] == int(round_score)
    # The log shows the moves of all four seats, one line per move.
    assert page.locator("[data-testid=log] li").count() >= 4

    page.click("[data-testid=leaderboard-link]")
    page.wait_for_url(f"{live_server.url}/tournaments/{tournament.pk}/")
    expect(page.locator("#leaderboard tr.me")).to_contain_text("speler_zuid")


def test_illegal_move_reload_and_stale_move(live_server: Any, page: Page) -> None:
    # Round 1 gives South a turn too: the game goes on even if a bot goes out in round 0.
    tournament = make_tournament(rounds=2, south_plays=(0, 1))
    factories.make_user("speler_west")
    log_in(page, live_server.url, "speler_west")
    game_id = join(page, live_server.url, tournament.pk)

    page.click("[data-testid=stock]")
    settle(page)
    assert table(page, "phase") == "play"
    expect(page.locator("[data-testid=hand-card]")).to_have_count(8)

    # "Sorteren" switches between by rank and by suit (ace high, jokers last).
    def order() -> list[tuple[int, int]]:
        keys = []
        for _, code in hand(page):
            rank, suit = parse_code(code)
            keys.append((99, 99) if code == "**" else (14 if rank == 1 else rank, suit))
        return keys

    page.click("[data-testid=btn-sort]")
    by_rank = order()
    assert [r for r, _ in by_rank] == sorted(r for r, _ in by_rank)
    page.click("[data-testid=btn-sort]")
    by_suit = [s for _, s in order() if s != 99]
    assert all(by_suit.count(s) == len(list(g)) for s, g in groupby(by_suit))  # suits together

    # Three cards that are neither a group nor a run: "Leg uit" gets the server's reason.
    cards = hand(page)
    naturals = [(cid, *parse_code(code)) for cid, code in cards if code != "**"]
    bad = next(
        [a[0], b[0], c[0]]
        for i, a in enumerate(naturals)
        for j, b in enumerate(naturals[i + 1 :], i + 1)
        for c in naturals[j + 1 :]
        if len({a[2], b[2], c[2]}) > 1 and len({a[1], b[1], c[1]}) > 1
    )
    before = snapshot(page)
    click_cards(page, bad)
    expect(page.locator("[data-testid=btn-lay]")).to_be_visible()
    page.click("[data-testid=btn-lay]")
    settle(page)
    error = page.locator("[data-testid=error]")
    expect(error).to_be_visible()
    message = error.inner_text()
    assert message
    assert snapshot(page) == before
    # The server says the same, in the page's language, and stored nothing.
    melds = [{"cards": bad, "stands_for": [None, None, None]}]
    status, body = api_post(
        page, game_id, {"seq": int(before["seq"]), "action": {"type": "lay_melds", "melds": melds}}
    )
    assert status == 400
    assert body["error"]["message"] == message
    assert api_get(page, game_id)["seq"] == int(before["seq"])

    # A reload resumes exactly where the game was.
    page.reload()
    settle(page)
    assert snapshot(page) == before
    expect(page.locator("[data-testid=error]")).to_be_hidden()

    # In English the table speaks English, and so does the server's reason.
    page.click("button[name=language][value=en]")
    page.wait_for_load_state()
    settle(page)
    assert page.get_attribute("html", "lang") == "en"
    assert page.inner_text("[data-testid=status]").startswith("Your turn")
    click_cards(page, bad)
    expect(page.locator("[data-testid=btn-lay]")).to_have_text("Lay down")
    page.click("[data-testid=btn-lay]")
    settle(page)
    expect(page.locator("[data-testid=error]")).to_have_text(body["error"]["en"])
    assert body["error"]["en"] != body["error"]["nl"]
    click_cards(page, bad)  # deselect

    # A move made elsewhere (another tab) makes this page stale: its next move gets 409,
    # the page reloads the state from the server and says so.
    discard = next(cid for cid, code in hand(page) if code != "**")
    status, body = api_post(
        page, game_id, {"seq": int(before["seq"]), "action": {"type": "discard", "card": discard}}
    )
    assert status == 200
    other = next(cid for cid, _ in hand(page) if cid != discard)
    click_cards(page, [other])
    page.click("[data-testid=btn-discard]")
    settle(page)
    expect(page.locator("[data-testid=error]")).to_be_visible()
    server = api_get(page, game_id)
    assert server["seq"] > int(before["seq"])
    assert table(page, "seq") == str(server["seq"])
    assert table(page, "phase") == server["observation"]["phase"]
    assert sorted(c for c, _ in hand(page)) == sorted(server["observation"]["hand"])
    # The other tab's discard is the move stored at that seq. While round 0 goes on the
    # card has left South's hand; a bot may go out after it, and round 1's new hand may
    # then hold the same card.
    stored = replay_selectors.game_moves(game=Game.objects.get(pk=game_id))[int(before["seq"])]
    assert (stored.seat, stored.action) == (0, {"type": "discard", "card": discard})
    if server["round"] == 0:
        assert discard not in server["observation"]["hand"]
    else:
        assert server["round"] == 1 and len(server["round_scores"]) == 1


def arrange(
    monkeypatch: Any, game: Game, *, south: str, stock_top: str, open_pile: str, table: list[Any]
) -> None:
    """Put South's turn in a known position: South's hand, the top of the stock, the open
    pile and the melds on the table; every other card goes to the bots and the stock."""
    jokers = iter((52, 53))

    def ids(codes: str) -> list[int]:
        return [next(jokers) if c == "**" else card_id_of(*parse_code(c)) for c in codes.split()]

    hand_ids, top_ids, open_ids = ids(south), ids(stock_top), ids(open_pile)
    melds = [
        check_meld(ids(codes), [stands_for_from_json(x) for x in sf], owner=owner)
        for codes, sf, owner in table
    ]
    placed = {*hand_ids, *top_ids, *open_ids, *(c for m in melds for c in m.cards)}
    rest = [c for c in range(54) if c not in placed]
    state = game.state
    state.update(
        hands=[hand_ids, rest[0:5], rest[5:10], rest[10:15]],
        stock=top_ids + rest[15:],
        open_pile=open_ids,
        table=[m.to_json() for m in melds],
        removed=[],
        out=[False, True, True, False],
        current_player=0,
        phase="draw",
        came_out_this_turn=False,
        taken_from_open=None,
        log=[],
        move_count=0,  # the log holds one action per move (state_from_json checks it)
    )
    state_from_json(state)  # a state the engine accepts
    deal_position(monkeypatch, game, state)


def test_several_melds_joker_choice_lay_off_swap_and_next_round(
    live_server: Any, page: Page, monkeypatch: pytest.MonkeyPatch
) -> None:
    # South goes out in round 0 and then plays round 1: its deal must give South a turn.
    tournament = make_tournament(rounds=2, south_plays=(0, 1))
    user = factories.make_user("speler_noord")
    entry = entry_services.entry_join(tournament_id=tournament.pk, user=user)
    arrange(
        monkeypatch,
        entry.game,
        south="7h 8h 9h 5c 5d ** Qh",
        stock_top="Th",
        open_pile="2d",
        table=[("Qc Qd **", [None, None, "Qh"], 1), ("2s 3s 4s", [None, None, None], 2)],
    )
    log_in(page, live_server.url, "speler_noord")
    page.goto(f"{live_server.url}/games/{entry.game.pk}/")
    settle(page)
    melds = page.locator("[data-testid=meld]")
    expect(melds).to_have_count(2)
    assert melds.nth(0).get_attribute("data-stands") == "- - Qh"  # what the joker stands for

    page.click("[data-testid=stock]")
    settle(page)
    by_code = {code: cid for cid, code in hand(page)}
    assert "Th" in by_code

    # "Setje toevoegen" collects a meld; the hand no longer shows its cards.
    click_cards(page, [by_code[c] for c in ("7h", "8h", "9h")])
    page.click("[data-testid=btn-stage]")
    expect(page.locator("[data-testid=staged-meld]")).to_have_count(1)
    expect(page.locator("[data-testid=hand-card]")).to_have_count(5)
    # A group with a joker: the first free choice is proposed (hearts), spades is chosen.
    click_cards(page, [by_code[c] for c in ("5c", "5d", "**")])
    choice = page.locator("[data-testid=joker-choice]")
    expect(choice).to_be_visible()
    # the cards in words, Dutch order (suit symbol first)
    assert "♥5" in choice.locator("option").nth(0).inner_text()
    assert "♠5" in choice.locator("option").nth(1).inner_text()
    choice.select_option(index=1)
    page.click("[data-testid=btn-lay]")  # both melds in one action
    settle(page)
    expect(melds).to_have_count(4)
    assert melds.nth(2).get_attribute("data-codes") == "7h 8h 9h"
    assert melds.nth(3).get_attribute("data-stands") == "- - 5s"
    assert melds.nth(3).get_attribute("data-owner") == "0"
    assert sorted(code for _, code in hand(page)) == ["Qh", "Th"]

    # "Aanleggen": the ten of hearts onto the run.
    click_cards(page, [by_code["Th"]])
    page.click("[data-testid=btn-lay-off]")
    melds.nth(2).click()
    settle(page)
    assert melds.nth(2).get_attribute("data-codes") == "7h 8h 9h Th"

    # "Joker ruilen": the queen of hearts takes the joker's place in West's group.
    click_cards(page, [by_code["Qh"]])
    page.click("[data-testid=btn-swap]")
    melds.nth(0).click()
    settle(page)
    assert melds.nth(0).get_attribute("data-codes") == "Qc Qd Qh"
    assert [code for _, code in hand(page)] == ["**"]

    # Laying off the last card would leave nothing to discard: "Aanleggen" is not offered
    # (the joker would fit the run), and the server refuses it with its reason.
    joker = hand(page)[0][0]
    click_cards(page, [joker])
    expect(page.locator("[data-testid=btn-discard]")).to_be_visible()
    expect(page.locator("[data-testid=btn-lay-off]")).to_have_count(0)
    seq = int(table(page, "seq"))
    action = {"type": "lay_off", "card": joker, "meld": 2, "stands_for": "Jh"}
    status, body = api_post(page, entry.game.pk, {"seq": seq, "action": action})
    assert status == 400 and body["error"]["message"]
    assert melds.nth(2).get_attribute("data-codes") == "7h 8h 9h Th"

    # Discarding the joker empties the hand: South is out and scores 0 (seed 000).
    page.click("[data-testid=btn-discard]")
    settle(page)
    assert dialog_open(page)
    assert page.inner_text("[data-testid=round-score-0]") == "0"
    assert (
        page.locator("[data-testid=round-scores] tbody tr").nth(0).locator(".jk-card").count() == 0
    )
    page.click("[data-testid=continue]")

    # The next round is dealt: seven new cards, the scores so far, a new list of moves.
    settle(page)
    assert table(page, "round") == "1"
    assert table(page, "status") == "playing"
    assert table(page, "your-turn") == "true"
    expect(page.locator("[data-testid=hand-card]")).to_have_count(7)
    expect(page.locator("[data-testid=final]")).to_have_count(0)
    scores = page.locator("[data-testid=scores] tbody tr")
    expect(scores).to_have_count(1)
    assert scores.nth(0).locator("td").nth(0).inner_text() == "0"
    server = api_get(page, entry.game.pk)
    assert server["round"] == 1
    assert server["round_scores"][0][0] == 0
    log = [
        e for e in server["observation"]["log"] if e["type"] in ("action", "complete", "reshuffle")
    ]
    expect(page.locator("[data-testid=log] li")).to_have_count(len(log))
