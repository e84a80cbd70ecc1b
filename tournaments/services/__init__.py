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

This package also gives the names the site used from the one ``services`` module it
replaced (the errors, the game modules, the reads of ``tournaments.selectors`` and the
words of ``tournaments.presentation``), so ``services.X`` goes on working.
"""

from __future__ import annotations

from tournaments.errors import (
    AlreadyEntered,
    BotsNotAdmitted,
    ClaimNotHeld,
    GameFinished,
    GameNotFinished,
    IllegalMoveError,
    InvalidSettings,
    NotABot,
    NothingToResolve,
    NothingToUndo,
    PracticeOnly,
    ServiceError,
    StaleMove,
    TournamentClosed,
    TournamentFull,
    TournamentLocked,
    TournamentNotOpen,
)
from tournaments.games import (
    PLAYER_SEAT,
    PlayedRound,
    available_games,
    dealt_round,
    module_of,
)
from tournaments.presentation.words import (
    describe_action,
    hand_text,
    player_name_for,
    seat_names,
)
from tournaments.selectors.deals import (
    Deal,
    DealRow,
    Distribution,
    deal_distributions,
    deal_results,
    deal_rows_of,
)
from tournaments.selectors.replay import (
    Frame,
    PlayedMove,
    StoredRound,
    Verification,
    game_moves,
    game_record,
    game_replay,
    game_score_sheet,
    has_score_sheet,
    replay_frames_json,
    tournament_verify,
)
from tournaments.selectors.standings import (
    MAX_PAGE_SIZE,
    PAGE_SIZE,
    Board,
    MyEntry,
    Standing,
    Visibility,
    entered_games,
    entry_standings,
    game_result,
    my_entries,
    opponents_of,
    player_rank,
    rank_values,
    results_visibility,
    standings,
    standings_for_viewer,
    standings_page,
    standings_under_review,
    tournament_parts,
)
from tournaments.services.audit import (
    GameAudit,
    entry_audit_resolve,
    game_audit,
    games_audit,
    tournament_audit,
)
from tournaments.services.checks import (
    GameSettings,
    check_moment,
    game_settings_check,
)
from tournaments.services.closing import (
    CLOSE_BATCH,
    CLOSE_RETRY_SECONDS,
    game_close,
    games_close,
    tournament_close,
    tournament_close_early,
    tournament_close_finish,
    tournament_close_if_due,
    tournament_close_start,
    tournaments_due,
)
from tournaments.services.entries import (
    entry_join,
    game_practice_start,
)
from tournaments.services.par import (
    par_queue,
    par_round_play,
    tournament_par,
    tournament_par_compute,
)
from tournaments.services.play import (
    MoveOutcome,
    game_bot_finish,
    game_play_move,
    game_undo,
    practice_check,
)
from tournaments.services.results import (
    EntryRounds,
    entry_results_update,
    standings_rebuild,
    standings_refresh,
    user_results_rename,
)
from tournaments.services.runner import (
    ROUND_END_KEYS,
    game_finish,
)
from tournaments.services.tournaments import (
    tournament_create,
    tournament_update,
)

__all__ = [
    "CLOSE_BATCH",
    "CLOSE_RETRY_SECONDS",
    "MAX_PAGE_SIZE",
    "PAGE_SIZE",
    "PLAYER_SEAT",
    "ROUND_END_KEYS",
    "AlreadyEntered",
    "Board",
    "BotsNotAdmitted",
    "ClaimNotHeld",
    "Deal",
    "DealRow",
    "Distribution",
    "EntryRounds",
    "Frame",
    "GameAudit",
    "GameFinished",
    "GameNotFinished",
    "GameSettings",
    "IllegalMoveError",
    "InvalidSettings",
    "MoveOutcome",
    "MyEntry",
    "NotABot",
    "NothingToResolve",
    "NothingToUndo",
    "PlayedMove",
    "PlayedRound",
    "PracticeOnly",
    "ServiceError",
    "StaleMove",
    "Standing",
    "StoredRound",
    "TournamentClosed",
    "TournamentFull",
    "TournamentLocked",
    "TournamentNotOpen",
    "Verification",
    "Visibility",
    "available_games",
    "check_moment",
    "deal_distributions",
    "deal_results",
    "deal_rows_of",
    "dealt_round",
    "describe_action",
    "entered_games",
    "entry_audit_resolve",
    "entry_join",
    "entry_results_update",
    "entry_standings",
    "game_audit",
    "game_bot_finish",
    "game_close",
    "game_finish",
    "game_moves",
    "game_play_move",
    "game_practice_start",
    "game_record",
    "game_replay",
    "game_result",
    "game_score_sheet",
    "game_settings_check",
    "game_undo",
    "games_audit",
    "games_close",
    "hand_text",
    "has_score_sheet",
    "module_of",
    "my_entries",
    "opponents_of",
    "par_queue",
    "par_round_play",
    "player_name_for",
    "player_rank",
    "practice_check",
    "rank_values",
    "replay_frames_json",
    "results_visibility",
    "seat_names",
    "standings",
    "standings_for_viewer",
    "standings_page",
    "standings_rebuild",
    "standings_refresh",
    "standings_under_review",
    "tournament_audit",
    "tournament_close",
    "tournament_close_early",
    "tournament_close_finish",
    "tournament_close_if_due",
    "tournament_close_start",
    "tournament_create",
    "tournament_par",
    "tournament_par_compute",
    "tournament_parts",
    "tournament_update",
    "tournament_verify",
    "tournaments_due",
    "user_results_rename",
]
