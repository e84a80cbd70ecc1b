"""How a selection of cards reads as a new meld (``meld_readings``), from the rule texts:
docs/rules.md §2 (groups, runs, the ace low or high, a joker stands for one definite card)
and §7 Jokeren 9 (the first free choice, which the table proposes)."""

from __future__ import annotations

import random
from itertools import combinations, product

import pytest
from jokeren_helpers import ids

from engine.cards import CARD_CODE, CARD_RANK, CARD_SUIT, card_id_of
from engine.jokeren import Meld, check_meld, meld_readings, meld_readings_json
from engine.jokeren.melds import InvalidMeld, stands_for_from_json


def shown(meld: Meld) -> str:
    """A reading as a card player writes it: the kind, then the cards in table order, a
    joker as the card it stands for in brackets ("group: 7c [7d] 7h")."""
    parts = [
        CARD_CODE[c] if sf is None else f"[{code(sf)}]"
        for c, sf in zip(meld.cards, meld.stands_for, strict=True)
    ]
    return f"{meld.kind}: {' '.join(parts)}"


def code(sf: tuple[int, int]) -> str:
    rank, suit = sf
    return "A23456789TJQK"[rank - 1] + "cdhs"[suit]


def readings(codes: str) -> list[str]:
    return [shown(m) for m in meld_readings(ids(codes))]


# --- §2: a meld or not ------------------------------------------------------------------


@pytest.mark.parametrize(
    "codes",
    [
        "7h 7c 7c",  # a group's cards are of different suits
        "2s 3s 4d",  # a run is of one suit
        "Kd Ad 2d",  # never wrapping
        "** ** **",  # a meld holds a natural card
        "7h 7h **",  # the same card twice (two decks)
        "6c 6d 6h 6s 6c",  # a group holds at most four
        "7h **",  # at least three cards
        "2h 4h ** ** 9h",  # a gap too wide for the jokers
    ],
)
def test_cards_that_form_no_meld_have_no_reading(codes: str) -> None:
    assert readings(codes) == []


def test_natural_cards_have_one_reading_in_table_order() -> None:
    """No joker, so nothing to choose: a group in suit order c d h s, a run low to high."""
    assert readings("7h 7c 7s") == ["group: 7c 7h 7s"]
    assert readings("4s 2s 3s") == ["run: 2s 3s 4s"]
    assert readings("Ad Kd Qd") == ["run: Qd Kd Ad"]  # the ace high
    assert readings("3d Ad 2d") == ["run: Ad 2d 3d"]  # the ace low


# --- §2: a joker stands for one definite card ---------------------------------------------


def test_a_joker_in_a_group_stands_for_a_missing_suit_the_first_one_first() -> None:
    """7h 7c **: the joker is 7d or 7s; the proposal is the first missing suit (c d h s)."""
    assert readings("7h 7c **") == ["group: 7c [7d] 7h", "group: 7c 7h [7s]"]


def test_a_joker_in_a_run_gap_has_one_place() -> None:
    assert readings("5h ** 7h") == ["run: 5h [6h] 7h"]
    assert readings("Ac ** 3c 4c") == ["run: Ac [2c] 3c 4c"]


def test_a_joker_at_the_open_end_of_a_run_goes_high_first() -> None:
    """2s 3s **: the joker is 4s (the high end, proposed) or the low ace."""
    assert readings("2s 3s **") == ["run: 2s 3s [4s]", "run: [As] 2s 3s"]
    assert readings("Qd Kd **") == ["run: Qd Kd [Ad]", "run: [Jd] Qd Kd"]
    assert readings("Ks ** Qs") == ["run: Qs Ks [As]", "run: [Js] Qs Ks"]
    assert readings("** 5h 6h") == ["run: 5h 6h [7h]", "run: [4h] 5h 6h"]


def test_the_ace_is_high_or_low_never_both_and_never_wrapping() -> None:
    """Ad Kd **: only Q-K-A (K-A-2 wraps); Ad ** ** ** **: A-2-3-4-5 before 10-J-Q-K-A."""
    assert readings("Ad Kd **") == ["run: [Qd] Kd Ad"]
    assert readings("Ad ** ** ** **") == [
        "run: Ad [2d] [3d] [4d] [5d]",
        "run: [Td] [Jd] [Qd] [Kd] Ad",
    ]


def test_one_natural_card_with_jokers_is_a_group_first_then_the_runs() -> None:
    """§7 Jokeren 9: one natural card with jokers is a group unless named otherwise; the
    groups take the missing suits in the order c d h s, the runs the jokers high first."""
    assert readings("7h ** **") == [
        "group: [7c] [7d] 7h",
        "group: [7c] 7h [7s]",
        "group: [7d] 7h [7s]",
        "run: 7h [8h] [9h]",
        "run: [6h] 7h [8h]",
        "run: [5h] [6h] 7h",
    ]
    assert readings("Ad ** **") == [
        "group: [Ac] Ad [Ah]",
        "group: [Ac] Ad [As]",
        "group: Ad [Ah] [As]",
        "run: Ad [2d] [3d]",
        "run: [Qd] [Kd] Ad",
    ]


def test_five_cards_with_one_natural_card_are_runs_only() -> None:
    """A group holds at most four cards."""
    found = readings("9c ** ** ** **")
    assert found and all(r.startswith("run: ") for r in found)
    # every window of five that holds the 9: from 9-K down to 5-9
    assert [r.split()[1] for r in found] == ["9c", "[8c]", "[7c]", "[6c]", "[5c]"]


# --- what the engine makes of each reading -------------------------------------------------


def random_selections(n: int) -> list[list[int]]:
    """Selections of a two-deck pack: one to four natural cards of one suit close together
    (around the ace too: K A 2) or of one rank, and none to three jokers."""
    rng = random.Random(24)
    jokers = [card_id_of(0, -1, d, j) for d in (0, 1) for j in (0, 1)]
    out = []
    for _ in range(n):
        rank, suit = rng.randint(1, 13), rng.randrange(4)
        if rng.random() < 0.5:
            near = {(r - 1) % 13 + 1 for r in range(rank - 3, rank + 4)}
            pool = [card_id_of(r, suit, d) for r in sorted(near) for d in (0, 1)]
        else:
            pool = [card_id_of(rank, s, d) for s in range(4) for d in (0, 1)]
        out.append(rng.sample(pool, rng.randint(1, 4)) + rng.sample(jokers, rng.randint(0, 3)))
    return out


def test_every_reading_is_a_meld_the_engine_lays_as_read_the_first_its_own_choice() -> None:
    seen_several = 0
    for cards in random_selections(400):
        found = meld_readings(cards)
        try:
            own = check_meld(cards)
        except InvalidMeld:
            assert found == []
            continue
        # the engine's own choice, as the table lays it: with its jokers named
        assert found[0] == check_meld(own.cards, own.stands_for)
        # no two readings say the same of every card (one move)
        namings = {frozenset(zip(m.cards, m.stands_for, strict=True)) for m in found}
        assert len(namings) == len(found)
        seen_several += len(found) > 1
        for meld in found:
            assert sorted(meld.cards) == sorted(cards)
            named = check_meld(meld.cards, meld.stands_for)
            assert (named.kind, named.cards, named.stands_for) == (
                meld.kind,
                meld.cards,
                meld.stands_for,
            )
            # a joker stands for one definite card, a natural card for itself
            for c, sf in zip(meld.cards, meld.stands_for, strict=True):
                assert (sf is None) == (c % 54 < 52)
    assert seen_several > 20


def test_a_joker_as_the_ace_of_a_run_two_to_king_is_one_reading() -> None:
    """§2: the ace is low or high, and a run holds at most 13 cards; a joker laid as the
    ace of 2..K names the ace of hearts either way, so it is one move, and it lies as it
    reads (the ace low, §7 Jokeren 10)."""
    cards = ids("2h 3h 4h 5h 6h 7h 8h 9h Th Jh Qh Kh **")
    assert readings("2h 3h 4h 5h 6h 7h 8h 9h Th Jh Qh Kh **") == [
        "run: [Ah] 2h 3h 4h 5h 6h 7h 8h 9h Th Jh Qh Kh"
    ]
    (only,) = meld_readings(cards)
    assert check_meld(only.cards, only.stands_for) == only


def test_no_naming_of_the_jokers_that_the_engine_accepts_is_missing() -> None:
    """Every way to name the jokers (each a different card of a natural card's rank or
    suit: a group's or a run's) that ``check_meld`` accepts is one of the readings."""
    for cards in random_selections(150):
        if len(cards) < 3:
            continue
        naturals = [c for c in cards if CARD_RANK[c]]
        jokers = len(cards) - len(naturals)
        keys = {(CARD_RANK[c], CARD_SUIT[c]) for c in naturals}
        names = sorted(
            {
                (r, s)
                for r0, s0 in keys
                for r, s in product(range(1, 14), range(4))
                if r == r0 or s == s0
            }
            - keys
        )
        accepted = set()
        for chosen in combinations(names, jokers):
            named = iter(chosen)
            sfs = [None if CARD_RANK[c] else next(named) for c in cards]
            try:
                meld = check_meld(cards, sfs)
            except InvalidMeld:
                continue
            accepted.add(shown(meld))
        assert {shown(m) for m in meld_readings(cards)} >= accepted, [CARD_CODE[c] for c in cards]


def test_the_order_of_the_selection_does_not_matter() -> None:
    rng = random.Random(5)
    for cards in random_selections(200):
        shuffled = rng.sample(cards, len(cards))
        assert [shown(m) for m in meld_readings(shuffled)] == [
            shown(m) for m in meld_readings(cards)
        ]


def test_the_json_of_a_reading_is_what_a_lay_down_sends() -> None:
    cards = ids("7h 7c **")
    found = meld_readings_json(cards)
    assert [r["stands_for"] for r in found] == [[None, "7d", None], [None, None, "7s"]]
    for reading in found:
        assert set(reading) == {"kind", "cards", "codes", "stands_for"}
        sfs = [stands_for_from_json(x) for x in reading["stands_for"]]
        assert check_meld(reading["cards"], sfs).to_json()["stands_for"] == reading["stands_for"]
