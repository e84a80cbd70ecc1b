"""The replay audit (audit_services.game_audit): a finished game is rebuilt from the secret and
the entrant's stored actions through the engine and compared with what is stored. A
changed score, a deleted action or round, a changed move count, a swapped action are each
caught; the close audits every game, a flagged
entry is kept out of the ranking and shown to the organizer until it is resolved."""

from __future__ import annotations

import json
from typing import Any

import factories
import pytest
from django.core.management import CommandError, call_command
from django.test import Client
from django.urls import reverse

from tournaments import tasks
from tournaments.errors import GameNotFinished, NothingToResolve
from tournaments.models import Entry, Game, GameRound, Tournament
from tournaments.selectors import standings as standing_selectors
from tournaments.services import audit as audit_services
from tournaments.services import closing as closing_services
from tournaments.services import entries as entry_services
from tournaments.services import results as result_services

pytestmark = pytest.mark.django_db


def finished_game(tournament: Tournament, username: str | None = None) -> Game:
    user = factories.make_user(username)
    game = entry_services.entry_join(tournament_id=tournament.pk, user=user).game
    game, _ = factories.play_to_end(game, user)
    return game


@pytest.fixture
def tournament(organizer: Any) -> Tournament:
    """South has a turn in both rounds: a test deletes an action of theirs from the last
    round (on a random deal a bot may go out before South ever moves: nothing to delete)."""
    return factories.make_tournament(created_by=organizer, south_plays=(0, 1))


@pytest.fixture
def game(tournament: Tournament) -> Game:
    return finished_game(tournament)


def entry_of(game: Game) -> Entry:
    return Entry.objects.get(game=game)


def change_score(game: Game, round_index: int, delta: int) -> None:
    """What a bad write (or a hand in the database) does: one seat-0 score and the totals
    changed together, so the sums still add up."""
    game.refresh_from_db()
    scores = [list(s) for s in game.round_scores]
    scores[round_index][0] += delta
    totals = [game.totals[0] + delta, *game.totals[1:]]
    Game.objects.filter(pk=game.pk).update(round_scores=scores, totals=totals)


def stored_round(game: Game, round_index: int) -> tuple[GameRound, list[Any]]:
    row = game.played_rounds.get(round_index=round_index)
    return row, json.loads(row.actions)


def south_turn(game: Game) -> tuple[GameRound, list[Any], int]:
    """The last round's row, South's actions in it and the index of a draw of South's
    (the action after it is South's own, in the same turn)."""
    row, actions = stored_round(game, game.rounds - 1)
    for i, action in enumerate(actions[:-1]):
        if action["type"] == "draw":
            return row, actions, i
    raise AssertionError("South never drew in the last round")


def test_a_clean_game_passes_and_its_entry_is_verified(game: Game) -> None:
    audit = audit_services.game_audit(game_id=game.pk)
    assert audit.ok, audit.problems
    entry = entry_of(game)
    assert entry.audit_status == Entry.AuditStatus.OK
    assert entry.audit_detail == "" and entry.audited_at is not None


def test_a_changed_round_score_is_caught(game: Game) -> None:
    change_score(game, 1, -4)
    audit = audit_services.game_audit(game_id=game.pk)
    assert not audit.ok
    assert len(audit.problems) == 1
    assert audit.problems[0].startswith("round 2: recorded scores")
    entry = entry_of(game)
    assert entry.audit_status == Entry.AuditStatus.MISMATCH
    assert entry.audit_detail == audit.problems[0]


def test_changed_totals_are_caught(game: Game) -> None:
    changed = [t + 1 for t in game.totals]
    Game.objects.filter(pk=game.pk).update(totals=changed)
    audit = audit_services.game_audit(game_id=game.pk)
    assert audit.problems == [f"recorded totals {changed}, the rounds add up to {game.totals}"]


@pytest.mark.parametrize("which", ["early", "last"])
def test_a_deleted_action_of_the_player_is_caught(game: Game, which: str) -> None:
    round_index = 0 if which == "early" else game.rounds - 1
    row, actions = stored_round(game, round_index)
    gone = 1 if which == "early" else len(actions) - 1
    GameRound.objects.filter(pk=row.pk).update(
        actions=json.dumps(actions[:gone] + actions[gone + 1 :])
    )
    audit = audit_services.game_audit(game_id=game.pk)
    assert not audit.ok
    assert any(p.startswith(f"round {round_index + 1}: ") for p in audit.problems)
    assert entry_of(game).audit_status == Entry.AuditStatus.MISMATCH


def test_a_deleted_round_is_caught(game: Game) -> None:
    row, _actions = stored_round(game, 1)
    row.delete()
    audit = audit_services.game_audit(game_id=game.pk)
    assert audit.problems[0] == "round 2 is not stored"
    assert f"seq is {game.seq}, the stored rounds hold {game.seq - row.moves} moves" in (
        audit.problems
    )
    assert entry_of(game).audit_status == Entry.AuditStatus.MISMATCH


def test_a_changed_move_count_is_caught(game: Game) -> None:
    row, _actions = stored_round(game, 1)
    GameRound.objects.filter(pk=row.pk).update(moves=row.moves + 1)
    audit = audit_services.game_audit(game_id=game.pk)
    assert audit.problems == [
        f"round 2: {row.moves + 1} moves stored, the replay makes {row.moves}",
        f"seq is {game.seq}, the stored rounds hold {game.seq + 1} moves",
    ]


def test_a_swapped_action_is_caught(game: Game) -> None:
    row, actions, i = south_turn(game)
    actions[i], actions[i + 1] = actions[i + 1], actions[i]
    GameRound.objects.filter(pk=row.pk).update(actions=json.dumps(actions))
    audit = audit_services.game_audit(game_id=game.pk)
    assert not audit.ok
    assert "(seat 0) is illegal" in audit.problems[0]
    assert audit.problems[0].startswith(f"round {game.rounds}: ")


def test_a_changed_last_round_on_the_game_is_caught(game: Game) -> None:
    """The game keeps every action of its last round (its final state comes from them):
    one action short, and they are not the replay's."""
    actions = json.loads(game.round_actions)
    Game.objects.filter(pk=game.pk).update(round_actions=json.dumps(actions[:-1]))
    audit = audit_services.game_audit(game_id=game.pk)
    assert audit.problems == ["the stored last round is not the replay's"]


def test_a_game_the_engine_cannot_read_is_flagged_and_the_close_completes(
    tournament: Tournament, game: Game
) -> None:
    Game.objects.filter(pk=game.pk).update(variant={"name": "jokeren7"})
    closing_services.tournament_close(tournament_id=tournament.pk)
    tournament.refresh_from_db()
    assert tournament.closed_at is not None
    entry = entry_of(game)
    assert entry.audit_status == Entry.AuditStatus.MISMATCH
    assert entry.audit_detail.startswith("the game cannot be replayed: ")


def test_an_unfinished_game_is_not_audited(tournament: Tournament, user: Any) -> None:
    game = entry_services.entry_join(tournament_id=tournament.pk, user=user).game
    with pytest.raises(GameNotFinished):
        audit_services.game_audit(game_id=game.pk)


def test_the_close_audits_every_game_and_ranks_only_the_verified(
    tournament: Tournament, client: Client
) -> None:
    honest = finished_game(tournament, "eerlijk")
    flagged = finished_game(tournament, "verdacht")
    unfinished_user = factories.make_user("halverwege")
    unfinished = entry_services.entry_join(tournament_id=tournament.pk, user=unfinished_user).game
    # The changed score would put the flagged entry far ahead (lower is better).
    change_score(flagged, 0, -500)
    assert result_services.standings_refresh(tournament=tournament)[0].username == "verdacht"

    closing_services.tournament_close(tournament_id=tournament.pk)

    statuses = dict(Entry.objects.values_list("user__username", "audit_status"))
    assert statuses == {"eerlijk": "ok", "verdacht": "mismatch", "halverwege": "ok"}
    unfinished.refresh_from_db()
    assert unfinished.bot_finished
    rows = {s.username: s for s in standing_selectors.standings(tournament=tournament)}
    assert rows["verdacht"].rank is None and rows["verdacht"].under_review
    # every round of the unfinished game is the bot's: no round of its own, unranked
    assert rows["eerlijk"].rank == 1 and rows["halverwege"].rank is None
    assert not rows["eerlijk"].under_review
    assert standing_selectors.player_rank(game=flagged) is None and honest.pk != flagged.pk

    api = client.get(reverse("api_tournament_standings", args=[tournament.pk])).json()
    assert {s["player"]: s["under_review"] for s in api["standings"]} == {
        "eerlijk": False,
        "verdacht": True,
        "halverwege": False,
    }
    html = client.get(tournament.get_absolute_url(), HTTP_ACCEPT_LANGUAGE="en").content.decode()
    start = html.index("Under review")
    review = html[start : html.index("</ul>", start)]
    assert "verdacht" in review and "eerlijk" not in review


def test_the_entries_page_and_the_admin_show_a_mismatch(
    tournament: Tournament, game: Game, organizer: Any, client: Client
) -> None:
    change_score(game, 0, 3)
    closing_services.tournament_close(tournament_id=tournament.pk)
    detail = entry_of(game).audit_detail
    assert detail.startswith("round 1: recorded scores")

    client.force_login(organizer)
    page = client.get(
        reverse("tournament_entries", args=[tournament.pk]), HTTP_ACCEPT_LANGUAGE="en"
    ).content.decode()
    assert "under review: the replay differs" in page
    assert detail.replace("[", "").split(",")[0] in page.replace("[", "")
    assert reverse("entry_audit", args=[tournament.pk, entry_of(game).pk]) in page
    dutch = client.get(reverse("tournament_entries", args=[tournament.pk])).content.decode()
    assert "in onderzoek: het naspelen wijkt af" in dutch and "Opnieuw controleren" in dutch

    admin = factories.make_user("beheerder", is_staff=True, is_superuser=True)
    client.force_login(admin)
    listing = client.get(
        reverse("admin:tournaments_entry_changelist") + "?audit_status=mismatch",
        HTTP_ACCEPT_LANGUAGE="en",
    ).content.decode()
    assert game.user.get_username() in listing
    assert "under review: the replay differs" in listing


def test_an_organizer_resolves_a_mismatch_and_the_entry_is_ranked_again(
    tournament: Tournament, game: Game, organizer: Any, client: Client
) -> None:
    change_score(game, 0, 3)
    closing_services.tournament_close(tournament_id=tournament.pk)
    entry = entry_of(game)
    client.force_login(organizer)
    url = reverse("entry_audit", args=[tournament.pk, entry.pk])

    # Audit again without a repair: still under review.
    assert client.post(url, {"action": "audit"}).status_code == 302
    assert entry_of(game).audit_status == Entry.AuditStatus.MISMATCH

    client.post(url, {"action": "resolve"})
    entry.refresh_from_db()
    assert entry.audit_status == Entry.AuditStatus.RESOLVED
    assert entry.audit_resolved_by == organizer
    assert standing_selectors.standings(tournament=tournament)[0].rank == 1
    # The same finding again keeps the resolution; resolving twice is refused.
    audit_services.game_audit(game_id=game.pk)
    assert entry_of(game).audit_status == Entry.AuditStatus.RESOLVED
    with pytest.raises(NothingToResolve):
        audit_services.entry_audit_resolve(entry_id=entry.pk, user=organizer)


def test_audit_again_after_a_repair_clears_the_entry(
    tournament: Tournament, game: Game, organizer: Any, client: Client
) -> None:
    change_score(game, 0, 3)
    closing_services.tournament_close(tournament_id=tournament.pk)
    assert standing_selectors.standings(tournament=tournament)[0].rank is None
    change_score(game, 0, -3)  # the repair
    client.force_login(organizer)
    client.post(
        reverse("entry_audit", args=[tournament.pk, entry_of(game).pk]), {"action": "audit"}
    )
    assert entry_of(game).audit_status == Entry.AuditStatus.OK
    assert standing_selectors.standings(tournament=tournament)[0].rank == 1


def test_only_organizers_answer_an_audit_and_only_with_a_known_action(
    tournament: Tournament, game: Game, user: Any, organizer: Any, client: Client
) -> None:
    change_score(game, 0, 3)
    closing_services.tournament_close(tournament_id=tournament.pk)
    client.force_login(user)
    url = reverse("entry_audit", args=[tournament.pk, entry_of(game).pk])
    assert client.post(url, {"action": "resolve"}).status_code == 403
    assert entry_of(game).audit_status == Entry.AuditStatus.MISMATCH
    client.force_login(organizer)
    refused = client.post(url, {"action": "delete"})
    assert refused.status_code == 400 and "Onbekende controleactie." in refused.content.decode()
    assert entry_of(game).audit_status == Entry.AuditStatus.MISMATCH


def test_audit_games_command_summarises_and_fails_on_a_mismatch(
    tournament: Tournament, game: Game, user: Any, capsys: pytest.CaptureFixture[str]
) -> None:
    practice = entry_services.game_practice_start(
        user=user, game="jokeren", preset="jokeren7", bot_level="basic"
    )
    practice, _ = factories.play_to_end(practice, user)
    call_command("audit_games")
    assert capsys.readouterr().out.splitlines()[-1] == "2 game(s) audited, 0 mismatch(es)"

    change_score(game, 1, 2)
    with pytest.raises(CommandError) as info:
        call_command("audit_games", "--tournament", str(tournament.pk))
    assert info.value.returncode == 1
    out = capsys.readouterr().out.splitlines()
    assert out[0] == f"game {game.pk} (entry {game.entry_id}): MISMATCH"
    assert out[1].startswith("  round 2: recorded scores")
    assert out[-1] == "1 game(s) audited, 1 mismatch(es)"

    with pytest.raises(CommandError, match="no tournament"):
        call_command("audit_games", "--tournament", "999999")


def test_the_audit_task_names_the_games_that_mismatch(tournament: Tournament, game: Game) -> None:
    other = finished_game(tournament)
    change_score(other, 0, 1)
    assert tasks.tournament_audit.delay(tournament.pk).get() == [other.pk]
    assert tasks.game_audit.delay(game.pk).get() is True


def test_the_audit_and_its_resolution_change_the_kept_results_at_once(
    tournament: Tournament, organizer: Any
) -> None:
    """The results are kept per entry as they change: a flag of the audit takes the entry
    out of the ranking, and the organizer's resolution puts it back, with no refresh."""
    finished_game(tournament, "eerlijk")
    flagged = finished_game(tournament, "verdacht")
    change_score(flagged, 0, -500)
    result_services.standings_refresh(tournament=tournament)
    audit_services.game_audit(game_id=flagged.pk)
    rows = {s.username: s for s in standing_selectors.standings(tournament=tournament)}
    assert rows["verdacht"].under_review and rows["verdacht"].rank is None
    assert rows["eerlijk"].rank == 1
    audit_services.entry_audit_resolve(entry_id=flagged.entry_id, user=organizer)
    rows = {s.username: s for s in standing_selectors.standings(tournament=tournament)}
    assert not rows["verdacht"].under_review and rows["verdacht"].rank == 1
    assert rows["eerlijk"].rank == 2
