"""Services: creating, joining, playing, scoring, ranking and closing (docs/rules.md §4, §5)."""

from __future__ import annotations

import hashlib
import json
from datetime import timedelta
from typing import Any

import factories
import pytest
from django.utils import timezone

from engine.cards import hand_points
from engine.jokeren import PRESETS
from tournaments import tasks
from tournaments.errors import (
    AlreadyEntered,
    IllegalMoveError,
    InvalidSettings,
    ServiceError,
    StaleMove,
    TournamentClosed,
    TournamentFull,
    TournamentLocked,
    TournamentNotOpen,
)
from tournaments.games import PLAYER_SEAT, module_of
from tournaments.models import Game, Tournament
from tournaments.selectors import deals as deal_selectors
from tournaments.selectors import replay as replay_selectors
from tournaments.selectors import standings as standing_selectors
from tournaments.services import closing as closing_services
from tournaments.services import entries as entry_services
from tournaments.services import play as play_services
from tournaments.services import results as result_services
from tournaments.services import tournaments as tournament_services

pytestmark = pytest.mark.django_db


def _state(game: Game) -> Any:
    return module_of(game.game).state_from_json(game.state)


# --- Creating ---------------------------------------------------------------------------


def test_create_commits_to_a_32_byte_secret(organizer: Any) -> None:
    # Any deal: the service's own secret and commitment, never one the factory put in.
    t = factories.make_tournament(created_by=organizer, south_plays=())
    secret = bytes(t.secret)
    assert len(secret) == 32
    assert t.commitment == hashlib.sha256(secret).hexdigest()
    other = factories.make_tournament(created_by=organizer, south_plays=())
    assert bytes(other.secret) != secret


def test_create_stores_every_field_of_the_variant_with_the_rounds(organizer: Any) -> None:
    t = factories.make_tournament(created_by=organizer, preset="klassiek", rounds=6)
    expected = PRESETS["klassiek"].to_json()
    assert set(t.variant) == set(expected)
    assert t.variant["rounds"] == 6
    assert t.variant["contracts"] == expected["contracts"]


def test_create_with_an_adjusted_variant(organizer: Any) -> None:
    variant = PRESETS["jokeren13"].to_json()
    variant["hand_size"] = 11
    t = factories.make_tournament(created_by=organizer, preset="jokeren13", variant=variant)
    assert t.variant["hand_size"] == 11


@pytest.mark.parametrize(
    ("change", "value"), [("hand_size", "seven"), ("no_such_setting", 1), ("decks", 5)]
)
def test_create_refuses_an_invalid_variant(organizer: Any, change: str, value: Any) -> None:
    variant = PRESETS["jokeren7"].to_json()
    variant[change] = value
    with pytest.raises(InvalidSettings):
        factories.make_tournament(created_by=organizer, variant=variant)


def test_create_refuses_a_window_that_closes_before_it_opens(organizer: Any) -> None:
    now = timezone.now()
    with pytest.raises(InvalidSettings):
        factories.make_tournament(created_by=organizer, opens_at=now, closes_at=now)


def test_create_refuses_unknown_bot_level_and_preset(organizer: Any) -> None:
    with pytest.raises(InvalidSettings):
        factories.make_tournament(created_by=organizer, bot_level="cheater")
    with pytest.raises(InvalidSettings):
        factories.make_tournament(created_by=organizer, preset="rotterdams")


def test_update_locks_the_game_once_someone_entered(tournament: Tournament, user: Any) -> None:
    tournament_services.tournament_update(tournament=tournament, rounds=3, name="Nieuwe naam")
    assert (tournament.rounds, tournament.name, tournament.variant["rounds"]) == (
        3,
        "Nieuwe naam",
        3,
    )
    entry_services.entry_join(tournament_id=tournament.pk, user=user)
    with pytest.raises(TournamentLocked):
        tournament_services.tournament_update(tournament=tournament, rounds=4)
    with pytest.raises(InvalidSettings):
        tournament_services.tournament_update(tournament=tournament, max_entrants=0)
    tournament_services.tournament_update(tournament=tournament, name="Weer anders", max_entrants=5)
    assert tournament.name == "Weer anders"


# --- Joining ----------------------------------------------------------------------------


def test_join_starts_the_game_with_the_bots_before_south(tournament: Tournament, user: Any) -> None:
    # (the fixture's deal gives South a turn in round 0: factories.make_tournament)
    entry = entry_services.entry_join(tournament_id=tournament.pk, user=user)
    game = entry.game
    state = _state(game)
    # Round 0: the dealer is seat 0, so West, North and East play before South.
    assert state.current_player == PLAYER_SEAT
    assert game.status == Game.Status.PLAYING and game.round_index == 0
    assert game.round_scores == [] and game.totals == [0, 0, 0, 0]
    moves = replay_selectors.game_moves(game=game)
    seats = [m.seat for m in moves]
    assert seats[0] == 1 and seats == sorted(seats) and set(seats) == {1, 2, 3}
    assert all(m.by_bot and m.round_index == 0 for m in moves)
    assert game.seq == len(moves)
    assert json.loads(game.round_actions) == [m.action for m in moves]


def test_join_plays_on_into_round_1_when_a_bot_goes_out_before_south(
    organizer: Any, user: Any
) -> None:
    """Joining plays the bots until South is to move, over the end of a round: on a deal
    where a bot goes out in its first turn, round 0 is scored (the bot out scores 0, the
    others their hands' points: docs/rules.md §2) and South starts in round 1, dealt by West,
    after North and East."""
    t = factories.make_tournament(created_by=organizer, rounds=2, south_plays=())

    def bot_out_first(secret: bytes) -> bool:
        return not factories.south_gets_a_turn(t, 0, secret) and factories.south_gets_a_turn(
            t, 1, secret
        )

    factories.set_secret(t, factories.secret_where("bot-out-before-south", bot_out_first))
    game = entry_services.entry_join(tournament_id=t.pk, user=user).game
    assert game.status == Game.Status.PLAYING and game.round_index == 1
    assert _state(game).current_player == PLAYER_SEAT
    # Round 0: only the bots played, West first, and one of them went out.
    moves = replay_selectors.game_moves(game=game)
    first = [m for m in moves if m.round_index == 0]
    assert first[0].seat == 1 and all(m.by_bot and m.seat in (1, 2, 3) for m in first)
    (outcome,) = game.round_results
    winner = outcome["winner"]
    assert outcome["end_reason"] == "out" and winner in (1, 2, 3)
    (scores,) = game.round_scores
    end = replay_selectors.game_replay(game=game, round_index=0)[-1].observations
    assert scores == [hand_points(o["hand"]) for o in end]
    assert scores[winner] == 0 and end[winner]["hand"] == []
    assert game.totals == scores
    # Round 1: the dealer is West (seat 1), so North and East play before South.
    seats = [m.seat for m in moves if m.round_index == 1]
    assert seats[0] == 2 and seats == sorted(seats) and set(seats) == {2, 3}
    assert game.seq == len(moves)
    assert json.loads(game.round_actions) == [m.action for m in moves if m.round_index == 1]
    assert game.played_rounds.get().moves == len(first)
    row = standing_selectors.standings(tournament=t)[0]
    assert row.rounds_played == 1 and row.rank == 1


def test_join_twice_is_refused(tournament: Tournament, user: Any) -> None:
    entry_services.entry_join(tournament_id=tournament.pk, user=user)
    with pytest.raises(AlreadyEntered) as info:
        entry_services.entry_join(tournament_id=tournament.pk, user=user)
    assert info.value.nl and info.value.en and info.value.nl != info.value.en


def test_join_a_full_tournament_is_refused(organizer: Any) -> None:
    t = factories.make_tournament(created_by=organizer, max_entrants=2)
    for _ in range(2):
        entry_services.entry_join(tournament_id=t.pk, user=factories.make_user())
    with pytest.raises(TournamentFull):
        entry_services.entry_join(tournament_id=t.pk, user=factories.make_user())
    assert t.entries.count() == 2


def test_join_outside_the_window_is_refused(organizer: Any, user: Any) -> None:
    now = timezone.now()
    early = factories.make_tournament(
        created_by=organizer, opens_at=now + timedelta(hours=1), closes_at=now + timedelta(days=1)
    )
    late = factories.make_tournament(
        created_by=organizer, opens_at=now - timedelta(days=1), closes_at=now - timedelta(hours=1)
    )
    for t in (early, late):
        with pytest.raises(TournamentNotOpen):
            entry_services.entry_join(tournament_id=t.pk, user=user)
    assert not Game.objects.exists()


# --- Playing ----------------------------------------------------------------------------


def test_every_entrant_gets_identical_deals_and_bots(organizer: Any) -> None:
    t = factories.make_tournament(created_by=organizer, preset="jokeren13", rounds=2)
    one = entry_services.entry_join(tournament_id=t.pk, user=factories.make_user()).game
    two = entry_services.entry_join(tournament_id=t.pk, user=factories.make_user()).game
    assert _state(one).observation(0)["hand"] == _state(two).observation(0)["hand"]
    one, _ = factories.play_to_end(one, one.user)
    two, _ = factories.play_to_end(two, two.user)
    # Same choices, same deals, deterministic bots: the same game move for move.
    assert [(m.seat, m.action) for m in replay_selectors.game_moves(game=one)] == [
        (m.seat, m.action) for m in replay_selectors.game_moves(game=two)
    ]
    assert one.round_scores == two.round_scores


def test_a_full_game_scores_each_round_by_the_hands_left(tournament: Tournament, user: Any) -> None:
    game = entry_services.entry_join(tournament_id=tournament.pk, user=user).game
    game, events = factories.play_to_end(game, user)
    assert game.status == Game.Status.FINISHED and not game.bot_finished
    assert len(game.round_scores) == tournament.rounds == 2
    assert game.totals == [sum(col) for col in zip(*game.round_scores, strict=True)]
    ends = [e for e in events if e.get("type") == "round_over"]
    # (the fixture's deal gives South a turn in round 0: both rounds end after South moved)
    assert [e["round"] for e in ends] == [0, 1]
    for end in ends:
        # Jokeren 7 scores hand points: the one who went out has none left and scores 0.
        assert end["scores"] == game.round_scores[end["round"]]
        # While the tournament runs the round's end shows how many cards each seat kept,
        # not the cards (docs/rules.md, "The card table", rule 2); the replay has them.
        assert end["hands"] == []
        last = replay_selectors.game_replay(game=game, round_index=end["round"])[-1]
        hands = [last.observations[seat]["hand"] for seat in range(4)]
        assert [len(h) for h in hands] == end["hand_counts"]
        assert [hand_points(h) for h in hands] == end["scores"]
    moves = replay_selectors.game_moves(game=game)
    assert [m.seq for m in moves] == list(range(game.seq))
    assert [r.moves for r in game.played_rounds.all()] == [
        len([m for m in moves if m.round_index == r]) for r in range(tournament.rounds)
    ]


def test_result_is_own_total_minus_the_opponents_average(tournament: Tournament, user: Any) -> None:
    game = entry_services.entry_join(tournament_id=tournament.pk, user=user).game
    game, _ = factories.play_to_end(game, user)
    total, average, result = standing_selectors.game_result(game)
    assert total == game.totals[0]
    assert average == pytest.approx(sum(game.totals[1:]) / 3)
    assert result == pytest.approx(total - average)


def test_an_illegal_move_changes_nothing(tournament: Tournament, user: Any) -> None:
    game = entry_services.entry_join(tournament_id=tournament.pk, user=user).game
    before = (game.seq, game.state, game.round_actions, game.played_rounds.count())
    hand = _state(game).observation(0)["hand"]
    # South must draw before discarding (docs/rules.md §2: a turn starts with drawing).
    with pytest.raises(IllegalMoveError) as info:
        play_services.game_play_move(
            game_id=game.pk, user=user, seq=game.seq, action={"type": "discard", "card": hand[0]}
        )
    assert info.value.status == 400
    assert info.value.nl and info.value.en and info.value.nl != info.value.en
    game.refresh_from_db()
    assert (game.seq, game.state, game.round_actions, game.played_rounds.count()) == before


def test_a_stale_or_repeated_move_is_refused(tournament: Tournament, user: Any) -> None:
    game = entry_services.entry_join(tournament_id=tournament.pk, user=user).game
    seq = game.seq
    action = factories.south_action(game)
    play_services.game_play_move(game_id=game.pk, user=user, seq=seq, action=action)
    game.refresh_from_db()
    after = (game.seq, game.state)
    with pytest.raises(StaleMove) as info:
        play_services.game_play_move(game_id=game.pk, user=user, seq=seq, action=action)
    assert info.value.status == 409 and info.value.seq == game.seq
    game.refresh_from_db()
    assert (game.seq, game.state) == after


def test_someone_elses_game_is_not_found(
    tournament: Tournament, user: Any, other_user: Any
) -> None:
    game = entry_services.entry_join(tournament_id=tournament.pk, user=user).game
    with pytest.raises(Game.DoesNotExist):
        play_services.game_play_move(
            game_id=game.pk, user=other_user, seq=game.seq, action=factories.south_action(game)
        )


def test_no_moves_after_the_closing_time(tournament: Tournament, user: Any) -> None:
    game = entry_services.entry_join(tournament_id=tournament.pk, user=user).game
    Tournament.objects.filter(pk=tournament.pk).update(closes_at=timezone.now())
    with pytest.raises(TournamentClosed):
        play_services.game_play_move(
            game_id=game.pk, user=user, seq=game.seq, action=factories.south_action(game)
        )


def test_practice_games_get_fresh_deals(user: Any) -> None:
    one = entry_services.game_practice_start(user=user, game="jokeren", preset="jokeren7")
    two = entry_services.game_practice_start(user=user, game="jokeren", preset="jokeren7")
    assert one.entry is None and len(bytes(one.secret)) == 32
    assert bytes(one.secret) != bytes(two.secret)
    assert one.rounds == PRESETS["jokeren7"].rounds
    assert _state(one).current_player == PLAYER_SEAT


# --- Ranking ----------------------------------------------------------------------------


def test_rank_values_share_ranks_on_ties() -> None:
    assert standing_selectors.rank_values([5.0, -3.0, 5.0, 9.0], lower_is_better=True) == [
        2,
        1,
        2,
        4,
    ]
    assert standing_selectors.rank_values([5.0, -3.0, 5.0, 9.0], lower_is_better=False) == [
        2,
        4,
        2,
        1,
    ]
    assert standing_selectors.rank_values([1.0, None, 1.0], lower_is_better=True) == [1, None, 1]
    # Averages of different totals that are equal in exact arithmetic share a rank.
    assert standing_selectors.rank_values([10 - 94 / 3, 11 - 97 / 3], lower_is_better=True) == [
        1,
        1,
    ]


def _entrant_with_totals(t: Tournament, totals: list[int], rounds: int) -> Game:
    """An entrant whose game has ``rounds`` finished rounds adding up to ``totals`` (with
    ``rounds=0``: none, even when a bot went out before South's first turn)."""
    game = entry_services.entry_join(tournament_id=t.pk, user=factories.make_user()).game
    scores = [totals] + [[0, 0, 0, 0]] * (rounds - 1) if rounds else []
    Game.objects.filter(pk=game.pk).update(totals=totals, round_scores=scores)
    result_services.entry_results_update(game=game)
    return game


def test_standings_rank_lower_results_first_with_shared_ranks(organizer: Any) -> None:
    t = factories.make_tournament(created_by=organizer, rounds=1)
    a = _entrant_with_totals(t, [10, 30, 30, 30], 1)  # 10 - 30 = -20
    b = _entrant_with_totals(t, [40, 30, 30, 30], 1)  # +10
    c = _entrant_with_totals(t, [20, 40, 40, 40], 1)  # -20: ties with a
    d = _entrant_with_totals(t, [0, 0, 0, 0], 0)  # no round finished yet
    rows = standing_selectors.standings(tournament=t)
    by_game = {s.game_id: s for s in rows}
    assert (by_game[a.pk].rank, by_game[c.pk].rank, by_game[b.pk].rank) == (1, 1, 3)
    assert by_game[d.pk].rank is None and by_game[d.pk].result is None
    assert [s.game_id for s in rows][-1] == d.pk
    assert by_game[b.pk].result == pytest.approx(10.0)
    assert by_game[a.pk].opponents_average == pytest.approx(30.0)
    assert by_game[a.pk].rounds_played == 1


def test_standings_follow_new_rounds(tournament: Tournament, user: Any) -> None:
    game = entry_services.entry_join(tournament_id=tournament.pk, user=user).game
    assert (
        standing_selectors.standings(tournament=tournament)[0].rounds_played == game.rounds_played
    )
    factories.play_to_end(game, user)
    row = standing_selectors.standings(tournament=tournament)[0]
    assert row.rounds_played == 2 and row.finished and row.rank == 1


def test_deal_results_compare_the_field_on_each_deal(organizer: Any) -> None:
    t = factories.make_tournament(created_by=organizer, rounds=1)
    a = _entrant_with_totals(t, [0, 10, 20, 30], 1)
    b = _entrant_with_totals(t, [25, 5, 5, 5], 1)
    (deal,) = deal_selectors.deal_results(
        tournament=t, visibility=standing_selectors.Visibility(rounds=1)
    )
    assert [row.game_id for row in deal.rows] == [a.pk, b.pk]
    assert deal.rows[0].result == pytest.approx(-20.0) and deal.rows[0].rank == 1
    assert deal.rows[1].score == 25 and deal.rows[1].opponents_average == pytest.approx(5.0)


# --- Closing ----------------------------------------------------------------------------


def test_close_lets_the_bot_finish_open_games(organizer: Any, user: Any) -> None:
    # Round 1 must give South a turn, or no bot ever plays South's seat in it (a bot
    # in an earlier seat may go out in its first turn) and it has no ``bot_from``.
    tournament = factories.make_tournament(created_by=organizer, south_plays=(0, 1))
    finished = entry_services.entry_join(
        tournament_id=tournament.pk, user=factories.make_user()
    ).game
    finished, _ = factories.play_to_end(finished, finished.user)
    open_game = entry_services.entry_join(tournament_id=tournament.pk, user=user).game
    play_services.game_play_move(
        game_id=open_game.pk, user=user, seq=open_game.seq, action=factories.south_action(open_game)
    )
    closing_services.tournament_close(tournament_id=tournament.pk)
    tournament.refresh_from_db()
    open_game.refresh_from_db()
    finished.refresh_from_db()
    assert tournament.closed_at is not None and tournament.closes_at <= timezone.now()
    assert open_game.status == Game.Status.FINISHED and open_game.bot_finished
    assert len(open_game.round_scores) == tournament.rounds
    moves = replay_selectors.game_moves(game=open_game)
    own = [m.seq for m in moves if m.seat == 0 and not m.by_bot]
    bot = [m.seq for m in moves if m.seat == 0 and m.by_bot]
    assert own and bot and max(own) < min(bot)
    # The round the bot took over keeps the entrant's action and where the bot began.
    assert [(r.bot_from, len(r.action_list)) for r in open_game.played_rounds.all()] == [
        (1, 1),
        (0, 0),
    ]
    assert not finished.bot_finished
    rows = standing_selectors.standings(tournament=tournament)
    assert all(s.finished for s in rows)
    # The bot played every round of the open game in its entrant's seat: none counts.
    by_game = {s.game_id: s for s in rows}
    assert by_game[finished.pk].rank == 1
    assert by_game[open_game.pk].bot_rounds == (0, 1) and by_game[open_game.pk].rank is None
    # Closing twice changes nothing.
    closed_at = tournament.closed_at
    closing_services.tournament_close(tournament_id=tournament.pk)
    tournament.refresh_from_db()
    assert tournament.closed_at == closed_at


def test_the_periodic_task_closes_due_tournaments_only(organizer: Any, user: Any) -> None:
    now = timezone.now()
    due = factories.make_tournament(created_by=organizer)
    entry_services.entry_join(tournament_id=due.pk, user=user)
    Tournament.objects.filter(pk=due.pk).update(closes_at=now - timedelta(seconds=1))
    running = factories.make_tournament(created_by=organizer)
    assert tasks.tournaments_close_due.delay().get() == [due.pk]
    due.refresh_from_db()
    running.refresh_from_db()
    assert due.closed_at is not None and running.closed_at is None
    assert Game.objects.get(entry__tournament=due).bot_finished


def test_close_early_ends_the_window_and_closes(
    tournament: Tournament, user: Any, django_capture_on_commit_callbacks: Any
) -> None:
    entry_services.entry_join(tournament_id=tournament.pk, user=user)
    with django_capture_on_commit_callbacks(execute=True):
        closing_services.tournament_close_early(tournament=tournament)
    tournament.refresh_from_db()
    assert tournament.closed_at is not None
    assert not tournament.window_open()
    with pytest.raises(TournamentClosed):
        closing_services.tournament_close_early(tournament=tournament)


# --- Replay and verification -----------------------------------------------------------


def test_replay_rebuilds_each_round_from_the_secret_and_the_log(
    tournament: Tournament, user: Any
) -> None:
    game = entry_services.entry_join(tournament_id=tournament.pk, user=user).game
    game, _ = factories.play_to_end(game, user)
    for r in range(tournament.rounds):
        frames = replay_selectors.game_replay(game=game, round_index=r)
        assert frames[0].seq is None
        assert len(frames) - 1 == game.played_rounds.get(round_index=r).moves
        last = frames[-1].observations[0]
        assert last["is_terminal"] and last["scores"] == game.round_scores[r]
        # In a replay every seat's own view is there: four hands.
        assert len(frames[0].observations) == 4
        assert frames[1].text_nl and frames[1].text_en


def test_verify_recomputes_commitment_and_deals(tournament: Tournament, user: Any) -> None:
    game = entry_services.entry_join(tournament_id=tournament.pk, user=user).game
    with pytest.raises(ServiceError):
        replay_selectors.tournament_verify(tournament=tournament)
    closing_services.tournament_close(tournament_id=tournament.pk)
    tournament.refresh_from_db()
    check = replay_selectors.tournament_verify(tournament=tournament)
    assert check.matches and check.recomputed == tournament.commitment
    assert check.secret_hex == bytes(tournament.secret).hex()
    assert len(check.deals) == tournament.rounds
    first = replay_selectors.game_replay(game=game, round_index=0)[0].observations[0]
    assert sorted(check.deals[0]["hands"][0]) == sorted(first["hand_codes"])


def test_close_due_command_and_page_view_close_past_tournaments(
    client: Any, organizer: Any, user: Any, django_capture_on_commit_callbacks: Any
) -> None:
    from io import StringIO

    from django.core.management import call_command
    from django.urls import reverse

    past = timezone.now() - timedelta(minutes=5)
    due = factories.make_tournament(created_by=organizer)
    game = entry_services.entry_join(tournament_id=due.pk, user=user).game
    Tournament.objects.filter(pk=due.pk).update(closes_at=past)
    call_command("close_due", stdout=StringIO())
    due.refresh_from_db()
    game.refresh_from_db()
    assert due.closed_at is not None and game.bot_finished
    # A due tournament that nothing closed yet gets closed when its page is viewed.
    late = factories.make_tournament(created_by=organizer)
    Tournament.objects.filter(pk=late.pk).update(closes_at=past)
    with django_capture_on_commit_callbacks(execute=True):
        client.get(reverse("tournament_detail", args=[late.pk]))
    late.refresh_from_db()
    assert late.closed_at is not None
