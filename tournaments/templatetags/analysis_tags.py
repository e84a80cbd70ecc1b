"""Template filters of the after-the-game pages (par, the field, splits, analysis)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from django import template
from django.utils import translation

from engine.cards import (
    SUIT_NAMES_EN,
    SUIT_NAMES_NL,
    SUITS,
    card_label,
    language_of,
)
from tournaments.games import PLAYER_SEAT, module_of
from tournaments.models import ParRound
from tournaments.numbers import RESULT_DECIMALS, format_comparison, format_percent, format_result
from tournaments.presentation.words import hand_text, seat_names
from tournaments.selectors import standings as standing_selectors

register = template.Library()


@register.filter
def extra_for(extras: Mapping[Any, Any] | None, key: Any) -> Any:
    """``extras[key]``, or ``None`` (a leaderboard row's figures beside its result)."""
    if not extras:
        return None
    return extras.get(key)


def _decimals(of: Any) -> int:
    """The decimals of results of ``of``: a tournament, series or game (its game's
    ``RESULT_DECIMALS``: Jokeren 1, Klaverjassen 0), or that number itself; one decimal
    without one."""
    decimals = of if isinstance(of, int) and not isinstance(of, bool) else None
    decimals = getattr(of, "result_decimals", decimals)
    return decimals if isinstance(decimals, int) else RESULT_DECIMALS


@register.filter
def compared(value: float | None, of: Any = None) -> str:
    """A result minus the one it is compared with, in words for the first ("27,7
    slechter", "3,0 beter", "gelijk"; Klaverjassen "12 beter";
    ``tournaments.numbers.format_comparison``): ``{{ f.vs_par|compared:tournament }}``,
    the tournament (series, game) whose game's ranking and decimals it follows (or only
    the ranking: ``lower_is_better``, a bool)."""
    game = getattr(of, "game", None)
    if isinstance(game, str):
        lower_is_better = module_of(game).LOWER_IS_BETTER
    else:
        lower_is_better = bool(of) if isinstance(of, bool) else False
    return format_comparison(value, lower_is_better=lower_is_better, decimals=_decimals(of))


@register.filter
def against_bot(gain: float | None, of: Any = None) -> str:
    """The player's choice against the strong bot's, in words ("3,0 slechter"), from the
    analysis's ``gain`` (how much better the bot's choice did, in either game's sense),
    with the decimals of ``of``'s game."""
    return format_comparison(None if gain is None else -gain, decimals=_decimals(of))


@register.filter
def par_opponents(par: ParRound | None) -> float | None:
    """What par's South is measured against (the opponents' average, the other team's
    points), as a player's row shows it (``standing_selectors.opponents_of``)."""
    if par is None:
        return None
    return standing_selectors.opponents_of(int(par.scores[0]), par.result)


@register.filter
def result(value: float | None, of: Any = None) -> str:
    """A result with the decimals of ``of``'s game in the page's language ("79,3" /
    "79.3"; Klaverjassen "123"); "–" for ``None`` (``tournaments.numbers.format_result``):
    ``{{ s.result|result:tournament }}``."""
    return format_result(value, _decimals(of))


@register.filter
def seat_scores(scores: Sequence[Any], player: str | None = None) -> str:
    """A round's points with each seat's name beside them, in the page's language: "Jij 35
    · West 5 · Noord 12 · Oost 0"; ``player``: the name of seat 0 instead of "Jij" (the
    split page compares two players)."""
    language = translation.get_language() or "nl"
    names = seat_names(language, len(scores), player=player or None)
    return " · ".join(f"{name} {score}" for name, score in zip(names, scores, strict=True))


@register.filter
def percent(value: float | None) -> str:
    """A percentage with one decimal ("62,5%"); "–" for ``None``."""
    return format_percent(value)


# --- What the player saw at a decision (the review) -------------------------------------------


@dataclass(frozen=True)
class SeenCard:
    """A card as the page shows it: its label in the language, whether it is red, and its
    suit's symbol (drawn as the card's pip: the review and split show card faces, as the
    table does; "" for a joker)."""

    label: str
    red: bool
    suit: str = ""


@dataclass(frozen=True)
class SeenPosition:
    """Seat 0's view of the table at one decision, for the review: their own hand (in the
    table's order; ``hand_codes`` as the observation lists them), the other seats' card
    counts (seat name, count), the open pile's top card and the melds on the table (the
    owner's seat name, its cards with what each joker stands for) for Jokeren; trump and
    the trick so far for Klaverjas. Only what the observation holds: no other hand."""

    hand: list[SeenCard]
    hand_codes: list[str]
    others: list[tuple[str, int]]
    open_top: SeenCard | None = None
    melds: list[tuple[str, list[SeenCard]]] = field(default_factory=list)
    trump: str | None = None
    proposed_trump: str | None = None
    trick: list[tuple[str, SeenCard]] = field(default_factory=list)


def _seen(label: str) -> SeenCard:
    suit = "" if label.startswith("joker") else next((c for c in label if c in "♣♦♥♠"), "")
    return SeenCard(label, "♥" in label or "♦" in label, suit)


def _suit_name(letter: Any, language: str) -> str | None:
    if not isinstance(letter, str) or letter not in SUITS:
        return None
    names = SUIT_NAMES_EN if language_of(language) == "en" else SUIT_NAMES_NL
    return names[SUITS.index(letter)]


@register.simple_tag
def seen_position(seen: Mapping[str, Any] | None, language: str) -> SeenPosition | None:
    """``SeenPosition`` of an observation of seat 0 (``ReviewStep.seen``) in ``language``;
    ``None`` without one."""
    if not seen:
        return None
    module = module_of(str(seen.get("game", "")))
    counts = [int(c) for c in seen.get("hand_counts", [])]
    names = seat_names(language, len(counts))
    codes = [str(c) for c in seen.get("hand_codes", [])]
    trump = seen.get("trump")
    hand = hand_text(
        game=module.GAME, codes=codes, language=language, trump=trump or seen.get("proposed_trump")
    )

    def card(card_id: Any) -> SeenCard:
        return _seen(card_label(module.card_code(int(card_id)), language))

    # What the observation holds, whichever game it is of: the trump and the trick so far
    # (Klaverjas), the open pile's top card and the melds on the table (Jokeren).
    top = seen.get("open_top")
    melds = []
    for meld in seen.get("table", []):
        cards = []
        for code, sf in zip(meld["codes"], meld["stands_for"], strict=True):
            label = card_label(code, language)
            cards.append(_seen(f"{label} ({card_label(sf, language)})" if sf else label))
        melds.append((names[int(meld["owner"])], cards))
    trick = seen.get("trick") or {}
    return SeenPosition(
        hand=[_seen(label) for label in hand.split()],
        hand_codes=codes,
        others=[(names[s], n) for s, n in enumerate(counts) if s != PLAYER_SEAT],
        open_top=card(top) if top is not None else None,
        melds=melds,
        trump=_suit_name(trump, language),
        proposed_trump=_suit_name(seen.get("proposed_trump"), language),
        trick=[(names[int(p["seat"])], card(p["card"])) for p in trick.get("plays", [])],
    )
