"""Lean storage: the move log (one ``Move`` row per action, every seat's) becomes one
``GameRound`` row per finished round holding the entrant's own actions (compact JSON),
the round's number of moves and when the bot took over the entrant's seat; the round
being played keeps every seat's actions on the ``Game`` (``round_actions``; a finished
game those of its last round), from which its state is rebuilt: the ``state`` snapshot
goes. The bots' moves of finished rounds are not kept: they are deterministic and
recomputed by replay (``engine.record.replay_round``).

Going back rebuilds every ``Move`` row and the ``state`` snapshot by that replay."""

import json

import django.db.models.deletion
from django.db import migrations, models


def _compact(value):
    return json.dumps(value, separators=(",", ":"), ensure_ascii=False)


def moves_to_rounds(apps, schema_editor):
    Game = apps.get_model("tournaments", "Game")
    Move = apps.get_model("tournaments", "Move")
    GameRound = apps.get_model("tournaments", "GameRound")
    for game in Game.objects.order_by("pk").iterator():
        by_round: dict[int, list[tuple[int, object, bool]]] = {}
        for round_index, seat, action, by_bot in (
            Move.objects.filter(game_id=game.pk)
            .order_by("seq")
            .values_list("round_index", "seat", "action", "by_bot")
        ):
            by_round.setdefault(round_index, []).append((seat, action, by_bot))
        finished = len(game.round_scores)
        rows = []
        for round_index in range(max([finished, *(r + 1 for r in by_round)], default=0)):
            moves = by_round.get(round_index, [])
            own = [action for seat, action, by_bot in moves if seat == 0 and not by_bot]
            taken = [i for i, (seat, _, by_bot) in enumerate(moves) if seat == 0 and by_bot]
            bot_from = None
            if taken:
                bot_from = sum(1 for seat, _, by_bot in moves[: taken[0]] if seat == 0)
            if round_index < finished or game.status == "finished":
                rows.append(
                    GameRound(
                        game_id=game.pk,
                        round_index=round_index,
                        moves=len(moves),
                        bot_from=bot_from,
                        actions=_compact(own),
                    )
                )
        GameRound.objects.bulk_create(rows)
        # The round the game's state is in: the current one, or the last one of a game over.
        current = by_round.get(game.round_index, [])
        game.round_actions = _compact([action for _seat, action, _by_bot in current])
        game.save(update_fields=["round_actions"])


def rounds_to_moves(apps, schema_editor):
    from engine import record
    from engine.registry import game_module

    Game = apps.get_model("tournaments", "Game")
    Move = apps.get_model("tournaments", "Move")
    for game in Game.objects.select_related("entry__tournament").order_by("pk").iterator():
        module = game_module(game.game)
        variant = module.variant_from_json(game.variant)
        secret = bytes(game.entry.tournament.secret if game.entry_id else game.secret)
        stored = [
            (r.round_index, json.loads(r.actions), r.bot_from)
            for r in game.played_rounds.order_by("round_index")
        ]
        if game.status != "finished":
            # The round being played: every seat's actions; the entrant's are seat 0's.
            state = module.new_round(variant, secret=secret, round_index=game.round_index)
            own = []
            for action in json.loads(game.round_actions):
                if state.current_player == 0:
                    own.append(action)
                state = state.apply(module.action_from_json(action))
            stored.append((game.round_index, own, None))
        moves = []
        state = None
        for round_index, own, bot_from in stored:
            replay = record.replay_round(
                module,
                variant,
                secret=secret,
                round_index=round_index,
                bot_level=game.bot_level,
                # every game stored before bot versions is of version 1 (0010_bot_version)
                bot_version=1,
                own_actions=own,
                bot_from=bot_from,
            )
            for done in replay.actions:
                moves.append(
                    Move(
                        game_id=game.pk,
                        seq=len(moves),
                        round_index=round_index,
                        seat=done.seat,
                        action=dict(done.action),
                        by_bot=done.by_bot,
                    )
                )
            state = replay.final_state
        Move.objects.bulk_create(moves)
        if state is None:
            state = module.new_round(variant, secret=secret, round_index=game.round_index)
        game.state = json.loads(json.dumps(state.to_json()))
        game.save(update_fields=["state"])


class Migration(migrations.Migration):
    dependencies = [
        ("tournaments", "0008_entry_results"),
    ]

    operations = [
        migrations.AddField(
            model_name="game",
            name="round_actions",
            field=models.TextField(blank=True, default="[]"),
        ),
        migrations.AlterField(
            model_name="game",
            name="state",
            field=models.JSONField(null=True),
        ),
        migrations.CreateModel(
            name="GameRound",
            fields=[
                (
                    "id",
                    models.BigAutoField(
                        auto_created=True, primary_key=True, serialize=False, verbose_name="ID"
                    ),
                ),
                ("round_index", models.PositiveSmallIntegerField()),
                ("moves", models.PositiveSmallIntegerField()),
                ("bot_from", models.PositiveSmallIntegerField(blank=True, null=True)),
                ("actions", models.TextField(default="[]")),
                (
                    "game",
                    models.ForeignKey(
                        db_index=False,
                        on_delete=django.db.models.deletion.CASCADE,
                        related_name="played_rounds",
                        to="tournaments.game",
                    ),
                ),
            ],
            options={
                "ordering": ["game", "round_index"],
                "constraints": [
                    models.UniqueConstraint(
                        fields=("game", "round_index"), name="gameround_unique_per_game"
                    )
                ],
            },
        ),
        migrations.RunPython(moves_to_rounds, rounds_to_moves),
        migrations.DeleteModel(name="Move"),
        migrations.RemoveField(model_name="game", name="state"),
    ]
