"""The Jokeren bots, by concern (docs/rules.md, section 4: a bot's choice is a function
of what its seat may see and of the round's seed).

- ``lanes``: hands as bit masks, for the quick tests;
- ``hand``: hand analysis, the split of a hand into melds that leaves the least penalty;
- ``opening``: the first lay-down that meets the variant's opening requirement;
- ``table``: the melds on the table as a bot sees them (lay-off places, joker swaps);
- ``view``: what a bot sees of its seat (``BotView``), from its observation;
- ``going_out``: the exact search for a way out this turn, for every level;
- ``play``: what both levels do after their draw (lay down, swap, lay off, discard);
- ``basic``, ``strong``, ``expert``: one module per level (policy);
- ``versions``: the levels, the released versions and the protocol's entry points
  (``bot_action`` of every level and version, ``simplest_action``).

Imports go one way, down this list. The names below are the ones code outside the
package uses.
"""

from __future__ import annotations

from engine.jokeren.bots.going_out import going_out_line, open_card_goes_out
from engine.jokeren.bots.hand import (
    JOKER_KIND,
    KIND_POINTS,
    HandMeld,
    Partition,
    hand_partition,
    kind_of,
    partition,
)
from engine.jokeren.bots.table import TableView, table_view
from engine.jokeren.bots.versions import (
    BOT_LEVELS,
    BOT_VERSION,
    BOT_VERSIONS,
    DEFAULT_BOT_LEVEL,
    bot_action,
    choose,
    clear_caches,
    simplest_action,
)
from engine.jokeren.bots.view import BotView, view_of

__all__ = [
    "BOT_LEVELS",
    "BOT_VERSION",
    "BOT_VERSIONS",
    "DEFAULT_BOT_LEVEL",
    "JOKER_KIND",
    "KIND_POINTS",
    "BotView",
    "HandMeld",
    "Partition",
    "TableView",
    "bot_action",
    "choose",
    "clear_caches",
    "going_out_line",
    "hand_partition",
    "kind_of",
    "open_card_goes_out",
    "partition",
    "simplest_action",
    "table_view",
    "view_of",
]
