"""Record the site's answers to a fixed set of requests, to compare two versions of the
code byte for byte (a refactoring must not change them):

    python scripts/api_record.py OUT_DIR

It builds a fresh SQLite database in a temporary folder, a Jokeren 7 and a Klaverjas
tournament on fixed secrets with fixed times, and one player who joins both and plays
every move as the basic bot would; then it writes each answer to ``OUT_DIR/<name>``: the
game (GET), each move's answer (POST), the standings (API, open and closed), the
tournaments list, the replay's frames (the JSON the replay page carries) and the game's
record. ``diff -r`` two such folders.
"""

from __future__ import annotations

import json
import os
import re
import sys
import tempfile
from datetime import UTC, datetime, timedelta
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path[:0] = [str(ROOT), str(ROOT / "tests")]
DATA = Path(tempfile.mkdtemp(prefix="api-record-"))
os.environ["DATABASE_URL"] = f"sqlite:///{DATA / 'db.sqlite3'}"
os.environ.pop("REDIS_URL", None)
os.environ["DJANGO_SETTINGS_MODULE"] = "tests.settings"

import django  # noqa: E402

django.setup()

import factories  # noqa: E402
from django.core.management import call_command  # noqa: E402
from django.test import Client  # noqa: E402
from django.test.utils import override_settings  # noqa: E402
from django.utils import timezone  # noqa: E402

from tournaments.models import Game, Tournament  # noqa: E402
from tournaments.services import closing as closing_services  # noqa: E402
from tournaments.services import clubs as club_services  # noqa: E402
from tournaments.services import entries as entry_services  # noqa: E402
from tournaments.services import tournaments as tournament_services  # noqa: E402

#: Every time the site shows comes from these (the tournaments' windows).
OPENS = datetime(2026, 12, 1, 19, 0, tzinfo=UTC)
CLOSES = OPENS + timedelta(days=30)


def record(out: Path) -> None:
    call_command("migrate", verbosity=0)
    organizer = factories.make_user("organisator", organizer=True)
    player = factories.make_user("speler")
    client = Client(HTTP_ACCEPT_LANGUAGE="nl")
    client.force_login(player)
    written: list[str] = []

    def keep(name: str, body: bytes) -> None:
        (out / name).write_bytes(body)
        written.append(name)

    for game, preset, secret in (
        ("jokeren", "jokeren7", bytes(range(32))),
        ("klaverjas", "rotterdams", bytes(range(1, 33))),
    ):
        t = tournament_services.tournament_create(
            created_by=organizer,
            club=club_services.club_default(),
            name=f"Vast {preset}",
            game=game,
            preset=preset,
            rounds=2,
            opens_at=OPENS,
            closes_at=CLOSES,
        )
        factories.set_secret(t, secret)
        g = entry_services.entry_join(tournament_id=t.pk, user=player).game
        keep(f"{preset}-game-start.json", client.get(f"/api/games/{g.pk}/").content)
        move = 0
        while True:
            g.refresh_from_db()
            if g.status != Game.Status.PLAYING:
                break
            answer = client.post(
                f"/api/games/{g.pk}/moves/",
                data=json.dumps({"seq": g.seq, "action": factories.south_action(g)}),
                content_type="application/json",
            )
            if answer.status_code != 200 or move > 1000:
                raise SystemExit(f"move {move}: {answer.status_code} {answer.content[:200]!r}")
            keep(f"{preset}-move-{move:03d}.json", answer.content)
            move += 1
        keep(f"{preset}-game-end.json", client.get(f"/api/games/{g.pk}/").content)
        keep(
            f"{preset}-standings-open.json",
            client.get(f"/api/tournaments/{t.pk}/standings/").content,
        )
        Tournament.objects.filter(pk=t.pk).update(closes_at=OPENS + timedelta(minutes=1))
        closing_services.tournament_close(tournament_id=t.pk)
        Tournament.objects.filter(pk=t.pk).update(closed_at=CLOSES)
        keep(
            f"{preset}-standings-closed.json",
            client.get(f"/api/tournaments/{t.pk}/standings/").content,
        )
        for r in range(2):
            page = client.get(f"/games/{g.pk}/replay/?round={r}").content.decode()
            frames = re.search(r'<script id="replay-frames"[^>]*>(.*?)</script>', page, re.S)
            keep(f"{preset}-replay-{r}.json", (frames.group(1) if frames else page).encode())
        Game.objects.filter(pk=g.pk).update(finished_at=CLOSES)
        keep(f"{preset}-record.json", client.get(f"/games/{g.pk}/record.json").content)
    keep("tournaments.json", Client().get("/api/tournaments/").content)
    print(f"{len(written)} answers in {out}")


def main(argv: list[str]) -> int:
    out = Path(argv[1])
    out.mkdir(parents=True, exist_ok=True)
    with override_settings(MOVE_RATE_LIMIT="", ALLOWED_HOSTS=["testserver"]):
        record(out)
    return 0


if __name__ == "__main__":
    timezone.activate(UTC)
    sys.exit(main(sys.argv))
