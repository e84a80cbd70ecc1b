"""The Klaverjas bots, by concern (docs/rules.md, section 6):

- ``bidding``: how the ``basic`` and ``strong`` bots value a hand and bid;
- ``knowledge``: the strong bot's card counting (which the experts' samples use too);
- ``basic``, ``strong``: one module per level (its bid and its play);
- ``dd``: a double-dummy solver of the tricks left (every hand open);
- ``expert_v1``, ``expert_v2``, ``expert_v3``: the versions of the ``expert``;
- ``versions``: the levels, the released versions and the protocol's entry points
  (``bot_action`` of every level and version, ``simplest_action``).

Imports go one way, down this list. The names below are the ones code outside the
package uses.
"""

from __future__ import annotations

from engine.klaverjas.bots.bidding import hand_value
from engine.klaverjas.bots.versions import (
    BOT_LEVELS,
    BOT_VERSION,
    BOT_VERSIONS,
    DEFAULT_BOT_LEVEL,
    bot_action,
    choose,
    choose_expert,
    simplest_action,
)

__all__ = [
    "BOT_LEVELS",
    "BOT_VERSION",
    "BOT_VERSIONS",
    "DEFAULT_BOT_LEVEL",
    "bot_action",
    "choose",
    "choose_expert",
    "hand_value",
    "simplest_action",
]
