"""The one small protocol that every game module follows.

``tournaments/`` never branches on a game's name except to pick the module from
``engine.registry``. A game module (``engine.jokeren``, ``engine.klaverjas``) exposes:

- ``GAME``: the game's name (``"jokeren"`` or ``"klaverjas"``);
- ``PRESETS``: preset name -> frozen variant (the game's parameters);
- ``variant_from_json(obj)`` and ``variant.to_json()``: a variant as plain JSON, every
  field present; ``variant.num_players`` and ``variant.rounds`` (default rounds in a game);
- ``new_round(variant, *, secret, round_index)``: the dealt round state (the dealer is
  seat ``round_index % num_players``, the first player the next seat clockwise);
- ``state_from_json(obj)`` / ``action_from_json(obj)``;
- ``bot_action(state, *, level, version=BOT_VERSION)``: the choice of the bot of that
  level and version for ``state.current_player``; it reads only that seat's observation
  and the round's ``bot:<seat>`` stream; a version not in ``BOT_VERSIONS`` raises
  ``engine.errors.UnknownBotVersion``;
- ``BOT_VERSION``: the bots' current version (an ``int``), which new games get;
  ``BOT_VERSIONS``: every version the module still plays, oldest first. Stored games keep
  only the entrant's actions and replay the bots' moves with the game's version, so a
  released version's choices never change (``tests/engine/test_bot_fingerprints.py``);
- ``near_best_actions(state, *, version=BOT_VERSION)``: the strong bot's choice for the
  seat to move and then the choices it rates nearly as good (``engine.fairplay``'s
  view-best set), from that seat's observation only;
- ``simplest_action(state)``: a legal action of ``state.current_player`` that needs no
  thought (Jokeren: draw from the stock, discard the lowest card), for the site's bot
  loop when the engine refuses a bot's choice;
- ``BOT_LEVELS``: the bot levels, weakest first (``basic``, ``strong``, ``expert``);
  every stored game of any of them plays and replays;
- ``OFFERED_BOT_LEVELS``: those offered for new tournaments, series and practice games:
  ``basic``, ``strong``, and a level above them only while it earns its place
  (``engine.strength``); ``STRENGTHS``: the measurements that decide it and that the
  rules page shows (``engine.strength.Strength``);
- ``DEFAULT_BOT_LEVEL``: the level a tournament or practice game gets unless the
  organizer (or player) chooses another (``strong``);
- ``results(totals)``: each seat's duplicate result from the match totals;
- ``LOWER_IS_BETTER``: the sense of ``results`` for ranking;
- ``RESULT_DECIMALS``: the decimals a result (and a figure like it: an average, a
  difference with par) is shown with (Jokeren 1, Klaverjassen 0: whole points);
- ``deal_summary(variant, *, secret, round_index)``: the JSON of ``python -m engine deal``;
- ``game_parts(variant)``: the rounds (from 0) of each part of a game (seed 001's match:
  "2 ronden van 10"; one part for most variants);
- ``score_sheet_of(variant, *, round_scores, round_results)``: the paper score sheet of
  the rounds so far (seed 001, "het formulier"), or ``None`` where the game has none;
- ``describe(action)``: what a player did, Dutch and English, after the seat's name, as
  the table's log says it and fitting every seat, "Jij"/"You" included ("gooit ♠10 weg" /
  "discarded 10♠"), for the move texts of the API, the replay and the review;
- ``describe_advice(action)``: an action in card terms, Dutch and English, as what a
  player "would have done" ("8♥ aangelegd" / "laid off 8♥"), for the analysis;
- ``card_code(card)``: the code ("7h", "**") of one of the game's card ids, as the
  observation's ``hand_codes`` write them;
- ``hand_in_table_order(codes, *, trump=None)``: a hand's codes in the order the table
  shows them (Klaverjas: the trump suit, or while bidding the proposed one, first);
- ``TABLE_CSS``: the stylesheet of the game's card table (a path in the site's static
  files), for the pages that show the table (the replay);
- ``TITLE``: the game's name, ``(nl, en)``;
- ``VARIANT_FIELDS``: each setting of the variant that the organizer's form shows, as an
  ``engine.fields.FieldSpec``: its label and help ``(nl, en)``, when it applies, the words
  of its values, the whole numbers it allows, ``normal_item`` for a list of items to
  choose from (Jokeren's contracts);
- ``meld_readings_json(cards)``: how card ids read as one new meld, each reading the cards
  in table order and what each joker stands for, the engine's own choice first; ``None``
  for a game without melds (Klaverjas).

Every text is a pair ``(nl, en)``: the engine knows no Django, the site shows the one of
the page's language. ``engine.registry.MODULES`` holds each module typed as a
``GameModule``, so mypy checks that every game module has every member.

A round state is immutable; ``apply`` returns a new one. See ``RoundState`` below.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any, Protocol

from engine.fields import FieldSpec
from engine.strength import Strength


class Action(Protocol):
    """A move: a small frozen dataclass that round-trips through JSON."""

    def to_json(self) -> dict[str, Any]: ...


class Variant(Protocol):
    """The game's parameters, frozen; presets are instances."""

    @property
    def name(self) -> str: ...

    @property
    def num_players(self) -> int: ...

    @property
    def rounds(self) -> int: ...

    def to_json(self) -> dict[str, Any]: ...


class RoundState(Protocol):
    """One round of a game, from the deal to its scoring."""

    @property
    def current_player(self) -> int | None:
        """The seat to act, or ``None`` once the round is over."""
        ...

    @property
    def is_terminal(self) -> bool: ...

    @property
    def move_count(self) -> int:
        """How many actions have been applied since the deal."""
        ...

    def legal_actions(self) -> list[Any]:
        """Every legal action of the current player, in a fixed canonical order."""
        ...

    def apply(self, action: Any) -> RoundState:
        """The state after the current player's action; raises an ``IllegalMove``."""
        ...

    def same_move(self, a: Any, b: Any) -> bool:
        """Whether two actions of the player to move make the same move in this position
        (Jokeren: the same meld in another card order is one move; ``move_key``)."""
        ...

    def scores(self) -> list[int]:
        """Points of each seat for this round (only meaningful once terminal)."""
        ...

    def observation(self, seat: int, *, log: bool = True) -> dict[str, Any]:
        """What ``seat`` may see, as JSON: never another hand, never the stock order;
        ``log=False`` leaves out the public log (key ``"log"``, where the game keeps one)."""
        ...

    @property
    def log_length(self) -> int:
        """How many entries the public log has (0 where the game keeps none)."""
        ...

    def log_json(self, start: int = 0) -> list[dict[str, Any]]:
        """The public log's entries from ``start`` on, as the observation shows them (the
        log only grows within a round)."""
        ...

    def to_json(self) -> dict[str, Any]: ...

    def state_hash(self) -> str:
        """A compact, stable hash of the full state."""
        ...


class GameModule(Protocol):
    """A game module (``engine.jokeren``, ``engine.klaverjas``): the members above. Its
    constants are read-only here (properties), so a module's ``Final`` tuple or dict
    satisfies them."""

    @property
    def GAME(self) -> str: ...

    @property
    def PRESETS(self) -> Mapping[str, Any]: ...

    @property
    def BOT_LEVELS(self) -> Sequence[str]: ...

    @property
    def OFFERED_BOT_LEVELS(self) -> Sequence[str]: ...

    @property
    def STRENGTHS(self) -> Sequence[Strength]: ...

    @property
    def DEFAULT_BOT_LEVEL(self) -> str: ...

    @property
    def BOT_VERSION(self) -> int: ...

    @property
    def BOT_VERSIONS(self) -> tuple[int, ...]: ...

    @property
    def LOWER_IS_BETTER(self) -> bool: ...

    @property
    def RESULT_DECIMALS(self) -> int: ...

    @property
    def TABLE_CSS(self) -> str: ...

    @property
    def TITLE(self) -> tuple[str, str]: ...

    @property
    def VARIANT_FIELDS(self) -> Mapping[str, FieldSpec]: ...

    def variant_from_json(self, obj: Mapping[str, Any]) -> Any: ...

    def new_round(self, variant: Any, *, secret: bytes, round_index: int) -> Any: ...

    def state_from_json(self, obj: Mapping[str, Any]) -> Any: ...

    def action_from_json(self, obj: Mapping[str, Any]) -> Any: ...

    def bot_action(self, state: Any, *, level: str, version: int = ...) -> Any: ...

    def near_best_actions(self, state: Any, *, version: int = ...) -> list[Any]: ...

    def simplest_action(self, state: Any) -> Any: ...

    def results(self, totals: Sequence[int]) -> list[float]: ...

    def deal_summary(self, variant: Any, *, secret: bytes, round_index: int) -> dict[str, Any]: ...

    def game_parts(self, variant: Any) -> list[range]: ...

    def describe(self, action: Any) -> tuple[str, str]: ...

    def describe_advice(self, action: Any) -> tuple[str, str]: ...

    def card_code(self, card: int) -> str: ...

    def meld_readings_json(self, cards: Sequence[int]) -> list[dict[str, Any]] | None: ...

    def hand_in_table_order(
        self, codes: Sequence[str], *, trump: str | None = ...
    ) -> list[str]: ...

    def score_sheet_of(
        self,
        variant: Any,
        *,
        round_scores: Sequence[Sequence[int]],
        round_results: Sequence[Mapping[str, Any]],
    ) -> Any: ...
