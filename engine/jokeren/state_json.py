"""A Jokeren round state from its JSON (``JokerenState.to_json``): only a state the rules
can reach is loaded (docs/rules.md §2-§3); anything else raises ``InvalidState``.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from engine.errors import IllegalMove, InvalidState
from engine.jokeren.melds import meld_from_json
from engine.jokeren.round import JokerenState
from engine.jokeren.round_log import Log, chunked, entry_from_json, open_takes_of
from engine.jokeren.turns import discardable
from engine.jokeren.variants import variant_from_json


def _ints(value: Any, what: str) -> tuple[int, ...]:
    """A JSON list of whole numbers (never ``true``, ``1.5`` or ``"7"``)."""
    if not isinstance(value, list) or not all(type(c) is int for c in value):
        raise InvalidState(f"state: {what} must be a list of whole numbers")
    return tuple(value)


def _whole(obj: Mapping[str, Any], key: str, low: int, high: int | None = None) -> int:
    """``obj[key]``, a whole number from ``low`` (up to ``high`` where given)."""
    value = obj[key]
    if type(value) is not int or value < low or (high is not None and value > high):
        bound = f"{low}..{high}" if high is not None else f">= {low}"
        raise InvalidState(f"state: {key} must be a whole number {bound}, not {value!r}")
    return value


def _seat_or_none(obj: Mapping[str, Any], key: str, n: int) -> int | None:
    return None if obj[key] is None else _whole(obj, key, 0, n - 1)


def state_from_json(obj: Mapping[str, Any]) -> JokerenState:
    """A state from ``JokerenState.to_json()``.

    Only a state the rules can reach is loaded; anything else raises ``InvalidState``
    (a ``ValueError``) naming what is wrong, never another exception: every card in
    exactly one place; seats, dealer, turn and counters in range; the player to move
    exists exactly while the round is not over, and holds a card (a draw finds a card
    in the stock; a player who has drawn keeps a card they may discard); a card taken
    from the open pile this turn is the last one the log shows taken, and is in the
    hand or on the table; the log holds one action entry per move; a finished round
    names how it ended (a winner has no cards left)."""
    try:
        if not isinstance(obj, Mapping) or obj.get("game", "jokeren") != "jokeren":
            raise InvalidState("state: not a Jokeren state")
        if not isinstance(obj["variant"], Mapping):
            raise InvalidState("state: variant must be the variant's JSON object")
        variant = variant_from_json(obj["variant"])
        n = variant.num_players
        hands_raw = obj["hands"]
        if not isinstance(hands_raw, list) or len(hands_raw) != n:
            raise InvalidState("state: one hand per seat")
        hands = tuple(tuple(sorted(_ints(h, "a hand"))) for h in hands_raw)
        if not isinstance(obj["table"], list) or not isinstance(obj["log"], list):
            raise InvalidState("state: table and log must be lists")
        table = tuple(meld_from_json(m) for m in obj["table"])
        log = tuple(entry_from_json(e) for e in obj["log"])
        log_chunks, log_tail = chunked(log)
        out_raw = obj["out"]
        if not isinstance(out_raw, list) or not all(isinstance(x, bool) for x in out_raw):
            raise InvalidState("state: out must be a list of true/false per seat")
        for key in ("came_out_this_turn",):
            if not isinstance(obj[key], bool):
                raise InvalidState(f"state: {key} must be true or false")
        seed_hex = obj["round_seed"]
        if not isinstance(seed_hex, str):
            raise InvalidState("state: round_seed must be hex text")
        state = JokerenState(
            variant=variant,
            round_index=_whole(obj, "round_index", 0),
            dealer=_whole(obj, "dealer", 0, n - 1),
            round_seed=bytes.fromhex(seed_hex),
            current_player=_seat_or_none(obj, "current_player", n),
            phase=obj["phase"],
            hands=hands,
            stock=_ints(obj["stock"], "stock"),
            open_pile=_ints(obj["open_pile"], "open_pile"),
            table=table,
            out=tuple(out_raw),
            came_out_this_turn=obj["came_out_this_turn"],
            taken_from_open=(
                None
                if obj["taken_from_open"] is None
                else _whole(obj, "taken_from_open", 0, variant.pack_size - 1)
            ),
            turn=_whole(obj, "turn", 0, variant.turn_limit),
            move_count=_whole(obj, "move_count", 0),
            reshuffles=_whole(obj, "reshuffles", 0),
            removed=_ints(obj["removed"], "removed"),
            winner=_seat_or_none(obj, "winner", n),
            end_reason=obj["end_reason"],
            log_chunks=log_chunks,
            log_tail=log_tail,
            open_takes=open_takes_of(log),
        )
    except InvalidState:
        raise
    except (KeyError, TypeError, ValueError, AttributeError, IndexError, IllegalMove) as exc:
        raise InvalidState(f"state: {exc!r}") from exc
    _check_reachable(state, log)
    return state


def _check_reachable(state: JokerenState, log: Log) -> None:
    """Raise ``InvalidState`` unless ``state`` is one the rules can reach (see
    ``state_from_json``)."""
    v = state.variant
    n = v.num_players
    hands = state.hands
    if state.phase not in ("draw", "play", "over") or len(state.out) != n:
        raise InvalidState("state: bad phase or seats")
    if len(state.round_seed) != 32:
        raise InvalidState("state: round_seed must be 32 bytes")
    if state.dealer != state.round_index % n:
        raise InvalidState("state: the dealer of round r is seat r mod the number of players")
    every = [c for h in hands for c in h]
    every += [*state.stock, *state.open_pile, *state.removed]
    every += [c for m in state.table for c in m.cards]
    if sorted(every) != list(range(v.pack_size)):
        raise InvalidState("state: every card must be in exactly one place")
    if sum(1 for entry in log if entry[0] == "action") != state.move_count:
        raise InvalidState("state: the log must hold one action per move")
    for meld in state.table:
        if not 0 <= meld.owner < n or not state.out[meld.owner]:
            raise InvalidState("state: a meld's owner must be a seat that came out")
    if state.phase == "over":
        if state.current_player is not None or state.taken_from_open is not None:
            raise InvalidState("state: nobody is to move once the round is over")
        if state.end_reason == "out":
            if state.winner is None or hands[state.winner]:
                raise InvalidState("state: the winner of a round has no cards left")
        elif state.end_reason in ("stock", "turn_limit"):
            if state.winner is not None:
                raise InvalidState("state: a round without a winner names none")
        else:
            raise InvalidState("state: a finished round names how it ended")
        return
    seat = state.current_player
    if seat is None or state.end_reason is not None or state.winner is not None:
        raise InvalidState("state: the round is over exactly when nobody is to move")
    if state.turn >= v.turn_limit:
        raise InvalidState("state: the turn limit is reached")
    if not all(hands):
        raise InvalidState("state: every player holds a card until the round is over")
    if state.came_out_this_turn and not state.out[seat]:
        raise InvalidState("state: only a player who came out came out this turn")
    taken = state.taken_from_open
    if state.phase == "draw":
        if not state.stock:
            raise InvalidState("state: a player to draw finds a card in the stock")
        if taken is not None or state.came_out_this_turn:
            raise InvalidState("state: nothing is taken or laid before the draw")
        return
    if taken is not None:
        takes = state.open_takes
        if not takes or takes[-1] != (seat, taken):
            raise InvalidState("state: the card taken this turn is the last one taken")
        melded = any(taken in m.cards for m in state.table) or any(
            entry[0] == "complete" and taken in entry[3][1:] for entry in log
        )
        if taken not in hands[seat] and not melded:
            raise InvalidState("state: the card taken this turn is in the hand or was laid")
    if not discardable(hands[seat], taken):
        raise InvalidState("state: a player who drew keeps a card they may discard")
