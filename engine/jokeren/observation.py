"""What one seat of a Jokeren round may see: ``JokerenObservation`` (its own hand and every
public fact; never another hand, the stock's order or the round seed: docs/rules.md §2)
and ``SeatView``, its narrow part that the basic bots read at most decisions. The JSON
form is ``JokerenState.observation`` (shape in ``engine.jokeren.state``).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import NamedTuple

from engine.jokeren.melds import Meld
from engine.jokeren.round_log import Log, LogNode, flat, linked_log
from engine.jokeren.turns import EndReason, Phase
from engine.jokeren.variants import Contract, Variant


@dataclass(frozen=True)
class JokerenObservation:
    """What one seat may see (see the module text); built cheaply for the bots."""

    seat: int
    variant: Variant
    round_index: int
    dealer: int
    current_player: int | None
    phase: Phase
    turn: int
    move_count: int
    hand: tuple[int, ...]
    hand_counts: tuple[int, ...]
    stock_count: int
    open_pile: tuple[int, ...]
    table: tuple[Meld, ...]
    removed: tuple[int, ...]
    out: tuple[bool, ...]
    came_out_this_turn: bool
    taken_from_open: int | None
    first_cycle: bool
    may_meld: bool
    may_lay_off: bool
    needs_opening: bool
    contract: Contract | None
    reshuffles: int
    winner: int | None
    end_reason: EndReason | None
    is_terminal: bool
    #: ``(seat, card id)`` of every card taken from the open pile this round, in order
    #: (public: the log shows each one).
    open_takes: tuple[tuple[int, int], ...]
    log_chunks: tuple[Log, ...] = field(repr=False)
    log_tail: Log = field(repr=False)

    @property
    def log(self) -> Log:
        """The public log, oldest entry first."""
        return flat(self.log_chunks, self.log_tail)

    @property
    def open_top(self) -> int | None:
        return self.open_pile[-1] if self.open_pile else None

    @property
    def log_node(self) -> LogNode:
        """The log as a linked list, newest entry first (built on each call)."""
        return linked_log(self.log)


class SeatView(NamedTuple):
    """A narrow part of what one seat may see (``JokerenState.seat_view``): the fields of
    its ``JokerenObservation`` that a basic bot reads at most decisions, each the same
    value as the observation's field of the same name, made without the rest (a named
    tuple: made for every decision, and cheaply). Nothing in it is hidden from the seat:
    its own hand and public facts."""

    seat: int
    variant: Variant
    round_index: int
    dealer: int
    current_player: int | None
    phase: Phase
    turn: int
    move_count: int
    reshuffles: int
    hand: tuple[int, ...]
    open_pile: tuple[int, ...]
    table: tuple[Meld, ...]
    removed: tuple[int, ...]
    out: tuple[bool, ...]
    came_out_this_turn: bool
    taken_from_open: int | None
    first_cycle: bool
    may_meld: bool
    may_lay_off: bool
    needs_opening: bool
