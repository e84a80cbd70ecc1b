"""After the game: par, the field on every deal, where two games split, and the strong
bot's view of your decisions (docs/rules.md §7, tournaments 15-19). Reads only; playing
on from a position ("what if", "play this deal again") is ``services.what_if``.

Moves and replays are read only through the modules that own them (``game_record``,
``deal_results``, ``results_visibility``). Nothing here branches on
the game's name: the game module's protocol (``new_round``, ``bot_action``, ``results``)
is all it needs. Seat 0 is the player; the bots are deterministic, so a round is fully
defined by the secret, the variant and the actions.
"""

from __future__ import annotations

from collections.abc import Collection, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from django.utils.translation import gettext_lazy as _

from engine.match import bot_move
from tournaments.errors import GameFinished, IllegalMoveError, InvalidSettings
from tournaments.games import PLAYER_SEAT, module_of
from tournaments.models import Game, ParRound, Tournament
from tournaments.presentation.words import describe_action
from tournaments.selectors import deals as deal_selectors
from tournaments.selectors import replay as replay_selectors
from tournaments.selectors import standings as standing_selectors
from tournaments.services import par as par_services
from tournaments.services import play as play_services

# --- The field on each deal -----------------------------------------------------------------


@dataclass(frozen=True)
class FieldRow:
    """One entrant on one deal: the ``DealRow``, the share of the other entrants they beat
    on it (a tie counts half; ``None`` for the bot's rounds and for a field of one) and
    their result against par (``None`` without par)."""

    row: deal_selectors.DealRow
    percentage: float | None
    vs_par: float | None


@dataclass(frozen=True)
class DealView:
    deal: deal_selectors.Deal
    rows: list[FieldRow]
    par: ParRound | None
    median: float | None
    #: The viewer's own row when the page shown (``deal.me``) leaves it out.
    me: FieldRow | None = None
    #: The deal's distribution of the field's own results (percentages of any row).
    spread: deal_selectors.Distribution | None = None


def percentages(results: Sequence[float], *, lower_is_better: bool) -> list[float | None]:
    """Per result, the share (0-100) of the other results it beats, a tie counting half
    (Funbridge's and BBO's percentage); ``None`` when there is no other result
    (``deal_selectors.Distribution``, which the per-deal figures count in the database)."""
    spread = deal_selectors.Distribution.of(results, sign=1 if lower_is_better else -1)
    return [spread.percentage(r) for r in results]


def field_deals(
    *,
    tournament: Tournament,
    visibility: standing_selectors.Visibility,
    par: Mapping[tuple[int, int], ParRound],
    game_ids: Collection[int] | None = None,
) -> list[DealView]:
    """``deal_results`` for the rounds ``visibility`` shows, with each entrant's percentage
    and result against par, the field's median result and par's row. The bot's rounds are
    left out of the percentages and the median (docs/rules.md §4). ``game_ids``: only the
    rows of those games (a page and the viewer's own): then no deal's rows are read in
    full; the percentages, ranks and medians come from each deal's distribution of
    results, counted in the database (``deal_selectors.deal_distributions``). ``par``: per
    (round, copy) (``par_services.tournament_pars``); a deal pool's per-deal rows hold the
    result against the copy's par already (docs/rules.md §5, "Deal pools")."""
    spreads = deal_selectors.deal_distributions(
        tournament=tournament, rounds=min(tournament.rounds, visibility.rounds)
    )
    if game_ids is None:
        deals = deal_selectors.deal_results(tournament=tournament, visibility=visibility)
    else:
        deals = deal_selectors.deal_rows_of(
            tournament=tournament, visibility=visibility, game_ids=game_ids
        )
    pooled = tournament.pooled
    out = []
    for deal in deals:
        spread = spreads.get(deal.key, deal_selectors.Distribution(()))
        p = par.get(deal.key)
        rows = [_field_row(d, spread, p, pooled=pooled) for d in deal.rows]
        out.append(DealView(deal=deal, rows=rows, par=p, median=spread.median(), spread=spread))
    return out


def _field_row(
    row: deal_selectors.DealRow,
    spread: deal_selectors.Distribution,
    par: ParRound | None,
    *,
    pooled: bool,
) -> FieldRow:
    """A per-deal row with its percentage of the deal's field and its result against par
    (a deal pool's rows hold that result already)."""
    if pooled:
        vs_par: float | None = row.result
    else:
        vs_par = round(row.result - par.result, 9) if par is not None else None
    return FieldRow(
        row=row,
        percentage=None if row.by_bot else spread.percentage(row.result),
        vs_par=vs_par,
    )


def field_pages(
    *,
    tournament: Tournament,
    pages: Sequence[deal_selectors.Deal],
    par: Mapping[tuple[int, int], ParRound],
) -> list[DealView]:
    """The per-deal tables a page at a time (``deal_selectors.deal_results`` with a page size):
    each shown row with its percentage and result against par over the whole field of that
    deal (its copy's in a deal pool), from the deal's distribution (cached, as
    ``field_deals`` reads it)."""
    spreads = deal_selectors.deal_distributions(tournament=tournament, rounds=tournament.rounds)
    pooled = tournament.pooled
    out = []
    for page in pages:
        spread = spreads.get(page.key, deal_selectors.Distribution(()))
        p = par.get(page.key)
        out.append(
            DealView(
                deal=page,
                rows=[_field_row(row, spread, p, pooled=pooled) for row in page.rows],
                par=p,
                median=spread.median(),
                me=_field_row(page.me, spread, p, pooled=pooled) if page.me is not None else None,
                spread=spread,
            )
        )
    return out


@dataclass(frozen=True)
class BoardExtra:
    """Beside an entrant's result on the leaderboard: the average of their percentages
    over the deals counted for them, and their result against par over those deals."""

    percentage: float | None
    vs_par: float | None


def _counted_rounds(
    s: standing_selectors.Standing, visibility: standing_selectors.Visibility
) -> list[int]:
    span = min(s.rounds_played, visibility.rounds)
    return [r for r in range(span) if r not in s.bot_rounds]


def board_extras(
    *,
    tournament: Tournament,
    board: standing_selectors.Board,
    deals: Sequence[DealView],
    par: Mapping[tuple[int, int], ParRound],
) -> dict[int, BoardExtra]:
    """Per game id on ``board``: the average percentage and the result against par over
    the rounds its result counts (the entrant's own rounds the viewer may see)."""
    module = module_of(tournament.game)
    share = {(f.row.game_id, d.deal.round_index): f.percentage for d in deals for f in d.rows}
    out = {}
    for s in [*board.rows, *([board.me] if board.me is not None else [])]:
        rounds = _counted_rounds(s, board.visibility) if board.visibility.scores else []
        values = [v for r in rounds if (v := share.get((s.game_id, r))) is not None]
        vs_par = None
        if tournament.pooled:
            # a deal pool's result is the result against the copies' par (docs/rules.md §5)
            vs_par = s.result if rounds else None
        elif rounds and s.result is not None and all((r, 0) in par for r in rounds):
            totals = [sum(seat) for seat in zip(*(par[(r, 0)].scores for r in rounds), strict=True)]
            vs_par = round(s.result - par_services.round_result(module, totals), 9)
        out[s.game_id] = BoardExtra(
            percentage=round(sum(values) / len(values), 9) if values else None, vs_par=vs_par
        )
    return out


def board_extras_for(
    *, tournament: Tournament, board: standing_selectors.Board
) -> dict[int, BoardExtra]:
    """``board_extras`` with the par and the deals it needs (the standings API)."""
    par = par_services.tournament_pars(tournament=tournament) if board.visibility.scores else {}
    deals = field_deals(
        tournament=tournament, visibility=board.visibility, par=par, game_ids=board_games(board)
    )
    return board_extras(tournament=tournament, board=board, deals=deals, par=par)


def board_games(board: standing_selectors.Board) -> set[int]:
    """The games of a leaderboard's page and the viewer's own row."""
    return {s.game_id for s in [*board.rows, *([board.me] if board.me is not None else [])]}


@dataclass(frozen=True)
class Chart:
    """A small line chart of cumulative results round by round, as SVG polylines in a
    ``width`` x ``height`` box: ``series`` is (css class, label, points, final value) per
    line; ``ticks`` the x position of each round's point (1, 2, ...); ``y_ticks`` the
    value and y position of each label on the vertical axis (the highest, 0 and the
    lowest value); the plot starts at x = ``left``. ``drawn``: the series in the order
    they are drawn, the viewer's last (on top: where it equals the median or par it stays
    visible), and ``marks`` the viewer's point after each round."""

    width: int
    height: int
    series: list[tuple[str, str, str, float]]
    ticks: list[tuple[int, float]]
    rounds: int
    low: float
    high: float
    zero_y: float
    y_ticks: list[tuple[float, float]]
    left: int = 0
    marks: list[tuple[float, float]] = field(default_factory=list)

    @property
    def drawn(self) -> list[tuple[str, str, str, float]]:
        return sorted(self.series, key=lambda s: s[0] == "mine")


#: Room left of the plot for the vertical axis's labels, and the padding elsewhere.
CHART_LEFT = 34
CHART_PAD = 8


def _chart_y(v: float, *, height: int, low: float, high: float) -> float:
    """The y position of value ``v`` in a chart ``height`` high spanning ``low``..``high``."""
    span = (high - low) or 1.0
    return CHART_PAD + (high - v) / span * (height - 2 * CHART_PAD)


def _polyline(values: Sequence[float], *, width: int, height: int, low: float, high: float) -> str:
    step = (width - CHART_LEFT - CHART_PAD) / max(len(values) - 1, 1)
    return " ".join(
        f"{CHART_LEFT + i * step:.1f},{_chart_y(v, height=height, low=low, high=high):.1f}"
        for i, v in enumerate(values)
    )


def _cumulative(values: Sequence[float]) -> list[float]:
    out, total = [], 0.0
    for v in values:
        total += v
        out.append(round(total, 9))
    return out


def progress_chart(
    *,
    game_id: int,
    deals: Sequence[DealView],
    par: Mapping[tuple[int, int], ParRound],
    pooled: bool = False,
) -> Chart | None:
    """The viewer's cumulative result round by round against the field's median and par,
    over the visible rounds the viewer has finished (``None`` with fewer than one); in a
    deal pool (``pooled``) the field of the viewer's copy, and par is 0 (the results are
    against the copy's par already)."""
    mine: list[float] = []
    medians: list[float] = []
    pars: list[float] = []
    own: dict[int, tuple[DealView, deal_selectors.DealRow]] = {}
    for d in deals:
        row = next((f.row for f in d.rows if f.row.game_id == game_id), None)
        if row is not None:
            own.setdefault(d.deal.round_index, (d, row))
    for r in range(len(own)):
        if r not in own or own[r][0].median is None:
            break
        d, row = own[r]
        mine.append(row.result)
        medians.append(d.median)  # type: ignore[arg-type]
        if pooled:
            pars.append(0.0)
        elif d.par is not None:
            pars.append(d.par.result)
    if not mine:
        return None
    lines = [
        ("mine", str(_("You")), _cumulative(mine)),
        ("median", str(_("Field median")), _cumulative(medians)),
    ]
    if len(pars) == len(mine):
        lines.append(("par", str(_("Par")), _cumulative(pars)))
    every = [v for _c, _l, values in lines for v in values] + [0.0]
    low, high = min(every), max(every)
    width, height = 320, 160
    series = [
        (
            css,
            label,
            _polyline([0.0, *values], width=width, height=height, low=low, high=high),
            values[-1],
        )
        for css, label, values in lines
    ]
    step = (width - CHART_LEFT - CHART_PAD) / len(mine)
    ticks = [(r, round(CHART_LEFT + r * step, 1)) for r in range(1, len(mine) + 1)]
    y_ticks = [
        (v, round(_chart_y(v, height=height, low=low, high=high), 1))
        for v in sorted({high, 0.0, low}, reverse=True)
    ]
    zero_y = _chart_y(0.0, height=height, low=low, high=high)
    marks = [
        (x, round(_chart_y(v, height=height, low=low, high=high), 1))
        for (_r, x), v in zip(ticks, lines[0][2], strict=True)
    ]
    return Chart(
        width,
        height,
        series,
        ticks,
        len(mine),
        low,
        high,
        round(zero_y, 1),
        y_ticks,
        CHART_LEFT,
        marks,
    )


# --- Where two games split ------------------------------------------------------------------


@dataclass(frozen=True)
class Step:
    seat: int
    by_bot: bool
    text_nl: str
    text_en: str


@dataclass(frozen=True)
class Line:
    """One side of a split: whose game, its steps after the split, the round's scores and
    seat 0's result."""

    label: str
    game_id: int | None
    steps: list[Step]
    scores: list[int]
    result: float


@dataclass(frozen=True)
class Split:
    """Two games on one deal: the moves they share, each one's continuation, seat 0's
    results' difference, and ``seen``: South's view of the table at the decision where
    they part (the same hand in both games: the split page shows it in each column),
    ``None`` when one game ends there."""

    round_index: int
    common: list[Step]
    left: Line
    right: Line
    difference: float
    seen: Mapping[str, Any] | None = None


def _steps(
    pairs: Sequence[tuple[int, Mapping[str, Any], bool]],
    num_players: int,
    module: Any,
    player: str,
) -> list[Step]:
    """The actions in words, the player's seat named ``player`` (the split page compares
    two players: never "Jij"/"You")."""
    out = []
    for seat, action, by_bot in pairs:
        nl, en = describe_action(
            module.action_from_json(action), seat, num_players, module=module, player=player
        )
        out.append(Step(seat, by_bot, nl, en))
    return out


def _game_line(
    game: Game, round_index: int
) -> tuple[list[tuple[int, Mapping[str, Any], bool]], list[int]]:
    return (
        [
            (a.seat, a.action, a.by_bot)
            for a in replay_selectors.round_actions(game=game, round_index=round_index)
        ],
        [int(s) for s in game.round_scores[round_index]],
    )


def games_split(
    *, game: Game, other: Game | None, round_index: int, par_label: str = "par"
) -> Split:
    """Two games of the same tournament on the same deal (``other=None``: par, the bots'
    game): the actions they share up to the first one where they differ, each
    continuation, and the difference of seat 0's results (``game`` minus ``other``)."""
    t = game.tournament
    if t is None or (other is not None and other.tournament != t):
        raise InvalidSettings.of(_("Only games of the same tournament can be compared."))
    if round_index >= len(game.round_scores) or (
        other is not None and round_index >= len(other.round_scores)
    ):
        raise InvalidSettings.of(_("Both games must have finished this round."))
    module = module_of(game.game)
    variant = module.variant_from_json(game.variant)
    n = variant.num_players
    copy = game.copy_of(round_index)
    if other is not None and other.copy_of(round_index) != copy:
        # a deal pool: only games of the same copy played the same cards
        raise InvalidSettings.of(_("These games were not dealt the same cards in this round."))
    mine, my_scores = _game_line(game, round_index)
    if other is None:
        state, acts = par_services.par_round_play(t, round_index, copy)
        theirs = [(seat, a.to_json(), True) for seat, a in acts]
        their_scores = [int(s) for s in state.scores()]
    else:
        theirs, their_scores = _game_line(other, round_index)
    # the games split at the first action that is another move in the rules: the same
    # meld in another card order, another copy of a card, is none (``same_move``)
    position = module.new_round(
        variant, secret=game.deal_secret(round_index), round_index=round_index
    )
    shared = 0
    while shared < min(len(mine), len(theirs)) and mine[shared][0] == theirs[shared][0]:
        action = module.action_from_json(mine[shared][1])
        if not position.same_move(action, module.action_from_json(theirs[shared][1])):
            break
        position = position.apply(action)
        shared += 1
    mine_result = par_services.round_result(module, my_scores)
    their_result = par_services.round_result(module, their_scores)
    left = str(game.user.get_username())
    right = str(other.user.get_username()) if other is not None else par_label
    return Split(
        round_index=round_index,
        common=_steps(mine[:shared], n, module, f"{left} / {right}"),
        left=Line(left, game.pk, _steps(mine[shared:], n, module, left), my_scores, mine_result),
        right=Line(
            right,
            other.pk if other is not None else None,
            _steps(theirs[shared:], n, module, right),
            their_scores,
            their_result,
        ),
        difference=round(mine_result - their_result, 9),
        seen=(
            position.observation(PLAYER_SEAT, log=False)
            if shared < min(len(mine), len(theirs))
            else None
        ),
    )


# --- Analysis ---------------------------------------------------------------------------------


@dataclass(frozen=True)
class Decision:
    """One decision of the player: what they did, what the strongest bot would have done,
    and, where they differ, how much better seat 0's round result is after the bot's
    choice than after theirs, both played on by the same bots (negative: the player's
    was better; ``None`` when they agree)."""

    index: int
    played_nl: str
    played_en: str
    best_nl: str
    best_en: str
    differs: bool
    gain: float | None


@dataclass(frozen=True)
class RoundAnalysis:
    round_index: int
    level: str
    decisions: list[Decision]
    #: How much better the round result is had the strongest bot played South from the
    #: first difference on than the actual one (``None`` when every decision agreed).
    difference: float | None


def _gain(module: Any, bot: float, player: float) -> float:
    """How much better the bot's result is than the player's, in points of the result:
    positive when the bot did better, whichever way the game ranks (Jokeren: lower)."""
    return round(player - bot if module.LOWER_IS_BETTER else bot - player, 9)


def advice(module: Any, action: Any, *, went_out: bool = False) -> tuple[str, str]:
    """The strong bot's choice as a sentence in card terms, Dutch and English ("de sterke
    bot had 8♥ aangelegd en was uitgegaan"), from the game module's ``describe_advice``;
    ``went_out``: played on from that choice, the player's seat ended the round."""
    nl, en = module.describe_advice(action)
    if went_out:
        return (
            f"de sterke bot had {nl} en was uitgegaan",
            f"the strong bot would have {en} and gone out",
        )
    return f"de sterke bot had {nl}", f"the strong bot would have {en}"


def game_analysis(*, game: Game, round_index: int, player: str | None = None) -> RoundAnalysis:
    """For each of the player's decisions in round ``round_index`` of a finished game,
    the strongest bot's choice in that position; where it differs, the points it makes:
    each choice is played on with the strongest bot in South and the game's bots
    elsewhere (the engine's deterministic continuation), and their results compared.
    ``player`` names the player's seat in the moves (``player_name_for``: their
    name for anyone but themselves), else it is "Jij"/"You"."""
    module = module_of(game.game)
    variant = module.variant_from_json(game.variant)
    n = variant.num_players
    # the strong bot ("de sterke bot"): the expert searches per decision and is too slow
    # to play out every decision of a round on a page (and no stronger at Jokeren)
    best_level = module.DEFAULT_BOT_LEVEL
    levels = [best_level] + [game.bot_level] * (n - 1)
    v = game.bot_version
    state = module.new_round(variant, secret=game.deal_secret(round_index), round_index=round_index)
    decisions = []
    first_difference = None
    for index, a in enumerate(replay_selectors.round_actions(game=game, round_index=round_index)):
        played = module.action_from_json(a.action)
        if a.seat == PLAYER_SEAT and not a.by_bot:
            best = bot_move(module, state, level=best_level, version=game.bot_version).action
            p_nl, p_en = describe_action(played, a.seat, n, module=module, player=player)
            # the same move in the rules is the same choice (the same meld in another
            # card order, another copy of a card: the engine's ``same_move``)
            differs = not state.same_move(best, played)
            gain = None
            went_out = False
            if differs:
                after_best, _x = par_services.play_out(
                    module, state.apply(best), levels=levels, version=v
                )
                after_played, _y = par_services.play_out(
                    module, state.apply(played), levels=levels, version=v
                )
                went_out = par_services.round_outcome(after_best).get("winner") == PLAYER_SEAT
                gain = _gain(
                    module,
                    par_services.round_result(module, after_best.scores()),
                    par_services.round_result(module, after_played.scores()),
                )
                if first_difference is None:
                    first_difference = state
            b_nl, b_en = advice(module, best, went_out=went_out)
            decisions.append(Decision(index, p_nl, p_en, b_nl, b_en, differs, gain))
        state = state.apply(played)
    difference = None
    rounds = replay_selectors.replay_rounds(game=game)
    if first_difference is not None and round_index in rounds:
        bot_end, _z = par_services.play_out(module, first_difference, levels=levels, version=v)
        difference = _gain(
            module,
            par_services.round_result(module, bot_end.scores()),
            par_services.round_result(module, game.round_scores[rounds.index(round_index)]),
        )
    return RoundAnalysis(round_index, best_level, decisions, difference)


@dataclass(frozen=True)
class ReviewStep:
    """One action of a round as the table showed it, with the analysis of the player's
    decision where it is one (``None`` for the bots' actions) and, for a decision, what
    the player saw when making it: seat 0's observation of that moment (their own hand,
    the table, the other seats' card counts; never another hand, never the stock)."""

    index: int
    seat: int
    text_nl: str
    text_en: str
    decision: Decision | None
    seen: Mapping[str, Any] | None = None


@dataclass(frozen=True)
class Review:
    analysis: RoundAnalysis
    steps: list[ReviewStep]
    scores: list[int]


def game_review(*, game: Game, round_index: int) -> Review:
    """A finished round of a player's own game: every action in words (what the table's
    log showed: no hidden card), the strong bot's analysis beside each of the player's
    decisions (``game_analysis``) with the player's view of the table at that decision
    (``ReviewStep.seen``), and the round's scores."""
    module = module_of(game.game)
    variant = module.variant_from_json(game.variant)
    n = variant.num_players
    result = game_analysis(game=game, round_index=round_index)
    by_index = {d.index: d for d in result.decisions}
    state = module.new_round(variant, secret=game.deal_secret(round_index), round_index=round_index)
    steps = []
    for index, a in enumerate(replay_selectors.round_actions(game=game, round_index=round_index)):
        action = module.action_from_json(a.action)
        nl, en = describe_action(action, a.seat, n, module=module)
        decision = by_index.get(index)
        seen = state.observation(PLAYER_SEAT, log=False) if decision is not None else None
        steps.append(ReviewStep(index, a.seat, nl, en, decision, seen))
        state = state.apply(action)
    rounds = replay_selectors.replay_rounds(game=game)
    scores = game.round_scores[rounds.index(round_index)] if round_index in rounds else []
    return Review(result, steps, [int(s) for s in scores])


# --- A hint in a practice game ----------------------------------------------------------------


@dataclass(frozen=True)
class Hint:
    """The strong bot's choice in the player's current position: the action (JSON: only
    the player's own cards and the table's) and in words, Dutch and English."""

    seq: int
    action: dict[str, Any]
    text_nl: str
    text_en: str


def game_hint(*, game: Game) -> Hint:
    """What the strong bot (the level the analysis names so, ``game_analysis``) would do in
    the player's position now, in a practice game where it is the player's turn. The bot
    decides from the player's own observation (the bots never see a hidden card), so the
    hint tells nothing the player could not see. Raises ``PracticeOnly`` (a
    tournament's game), ``GameFinished``, ``IllegalMoveError`` (not the
    player's turn)."""
    play_services.practice_check(game)
    if game.is_finished:
        raise GameFinished.of(_("This game is over."))
    state = game.current_state()
    if state.is_terminal or state.current_player != PLAYER_SEAT:
        raise IllegalMoveError.of(_("It is not your turn."))
    module = module_of(game.game)
    best = bot_move(module, state, level=module.DEFAULT_BOT_LEVEL, version=game.bot_version).action
    nl, en = advice(module, best)
    return Hint(game.seq, dict(best.to_json()), nl[:1].upper() + nl[1:], en[:1].upper() + en[1:])
