"""The site's use cases, a module per concern; every write goes through them, inside a
transaction (docs/architecture.md).

- ``checks``: the settings a tournament and a series share, checked.
- ``tournaments``: create and change a tournament.
- ``closing``: the close (end the window, bots finish, audit, reveal, standings).
- ``entries``: join a tournament, start a practice game.
- ``runner``: the game runner: a game advanced inside one transaction (``GameRun``).
- ``play``: a move, an undo, the bot finishing a game.
- ``par``: every deal played by the tournament's bots in every seat.
- ``results``: the entries' results as they happen, and the standings' rebuild.
- ``audit``: every game checked by replay.
- ``what_if``: play on from a position ("what if", "play this deal again").

Callers import the module of the concern (``from tournaments.services import play as
play_services``); the reads are in ``tournaments.selectors``, the errors in
``tournaments.errors``, the words in ``tournaments.presentation``.
"""
