"""What every part of ``load.py`` shares: the services it starts (gunicorn, Celery,
Redis), HTTP to the site, the CPU meter, percentiles, the log, and the tournaments and
entrants it makes.
"""

from __future__ import annotations

import http.client
import os
import secrets
import signal
import socket
import subprocess
import sys
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
VENV_BIN = Path(sys.executable).parent


def percentile(values: list[float], q: float) -> float:
    """The q-th percentile (0-100) by linear interpolation; 0 without values."""
    if not values:
        return 0.0
    data = sorted(values)
    k = (len(data) - 1) * q / 100
    lo = int(k)
    hi = min(lo + 1, len(data) - 1)
    return data[lo] + (data[hi] - data[lo]) * (k - lo)


def summary(latencies: list[float], seconds: float) -> dict[str, float]:
    return {
        "requests": len(latencies),
        "per_second": round(len(latencies) / seconds, 1) if seconds else 0.0,
        "p50_ms": round(percentile(latencies, 50) * 1000, 1),
        "p95_ms": round(percentile(latencies, 95) * 1000, 1),
        "p99_ms": round(percentile(latencies, 99) * 1000, 1),
    }


def load_average() -> str:
    return " ".join(f"{x:.2f}" for x in os.getloadavg())


def cpu_seconds(pid: int) -> float:
    """User and system CPU seconds of a process so far (0 once it is gone)."""
    try:
        with open(f"/proc/{pid}/stat") as f:
            fields = f.read().rsplit(")", 1)[1].split()
    except OSError:
        return 0.0
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def _process_group(pgid: int) -> list[int]:
    """The processes of a process group (gunicorn's master and its workers)."""
    pids = []
    for entry in os.listdir("/proc"):
        if entry.isdigit():
            try:
                with open(f"/proc/{entry}/stat") as f:
                    fields = f.read().rsplit(")", 1)[1].split()
            except OSError:
                continue
            if int(fields[2]) == pgid:
                pids.append(int(entry))
    return pids


class CpuMeter:
    """CPU seconds spent by the site's processes during a slice, read from /proc, so other
    work on the machine does not count: gunicorn (its process group), the PostgreSQL
    backends connected to the benchmark's database (the benchmark's own excepted) and the
    benchmark's process itself (the client threads). Linux only."""

    def __init__(self, gunicorn_pgid: int) -> None:
        self.gunicorn_pgid = gunicorn_pgid

    def _backends(self) -> list[int]:
        from django.db import connection

        with connection.cursor() as cursor:
            cursor.execute(
                "SELECT pid FROM pg_stat_activity WHERE datname = current_database()"
                " AND pid <> pg_backend_pid()"
            )
            return [int(row[0]) for row in cursor.fetchall()]

    def sample(self) -> dict[str, dict[int, float]]:
        return {
            "gunicorn": {p: cpu_seconds(p) for p in _process_group(self.gunicorn_pgid)},
            "postgres": {p: cpu_seconds(p) for p in self._backends()},
            "client": {0: time.process_time()},
        }

    @staticmethod
    def spent(
        before: dict[str, dict[int, float]], after: dict[str, dict[int, float]]
    ) -> dict[str, float]:
        """CPU seconds of each class between two samples (a process born in between
        counts from 0)."""
        return {
            name: sum(after[name][p] - before[name].get(p, 0.0) for p in after[name])
            for name in after
        }


def log(message: str) -> None:
    print(f"[{time.strftime('%H:%M:%S', time.gmtime())}] {message}", flush=True)


# --- Services ------------------------------------------------------------------------


def port_open(host: str, port: int) -> bool:
    with socket.socket() as s:
        s.settimeout(0.5)
        return s.connect_ex((host, port)) == 0


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


@contextmanager
def process(
    cmd: list[str], env: dict[str, str], name: str, logs: Path
) -> Iterator[subprocess.Popen[bytes]]:
    """A child process in its own process group, stopped (SIGTERM, then SIGKILL) on exit;
    its output goes to ``logs/<name>.log``."""
    logfile = open(logs / f"{name}.log", "wb")  # noqa: SIM115
    proc = subprocess.Popen(
        cmd, env=env, cwd=ROOT, stdout=logfile, stderr=subprocess.STDOUT, start_new_session=True
    )
    try:
        yield proc
    finally:
        if proc.poll() is None:
            os.killpg(proc.pid, signal.SIGTERM)
            try:
                proc.wait(timeout=30)
            except subprocess.TimeoutExpired:
                os.killpg(proc.pid, signal.SIGKILL)
                proc.wait()
        logfile.close()


def wait_for(check: Callable[[], bool], what: str, timeout: float = 60) -> None:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if check():
            return
        time.sleep(0.2)
    raise RuntimeError(f"{what} did not come up in {timeout:.0f} s")


# --- HTTP ----------------------------------------------------------------------------


class Http:
    """One request per connection (gunicorn's sync workers close it after each answer)."""

    def __init__(self, host: str, port: int) -> None:
        self.host = host
        self.port = port

    def request(
        self, method: str, path: str, *, body: bytes | None = None, headers: dict[str, str]
    ) -> tuple[int, bytes, float]:
        start = time.perf_counter()
        conn = http.client.HTTPConnection(self.host, self.port, timeout=60)
        try:
            conn.request(method, path, body=body, headers=headers)
            response = conn.getresponse()
            data = response.read()
        finally:
            conn.close()
        return response.status, data, time.perf_counter() - start


def session_headers(user: Any) -> dict[str, str]:
    """Cookies of a logged-in session for ``user`` (made in the session store directly)
    and the CSRF token a POST quotes."""
    from importlib import import_module

    from django.conf import settings
    from django.contrib.auth import BACKEND_SESSION_KEY, HASH_SESSION_KEY, SESSION_KEY

    store = import_module(settings.SESSION_ENGINE).SessionStore()
    store[SESSION_KEY] = str(user.pk)
    store[BACKEND_SESSION_KEY] = settings.AUTHENTICATION_BACKENDS[0]  # what a log-in stores
    store[HASH_SESSION_KEY] = user.get_session_auth_hash()
    store.save()
    csrf = secrets.token_hex(16)
    return {
        "Cookie": f"{settings.SESSION_COOKIE_NAME}={store.session_key}; csrftoken={csrf}",
        "X-CSRFToken": csrf,
        "Host": "127.0.0.1",
    }


def make_entrants(t: Any, count: int, prefix: str) -> list[Any]:
    from django.contrib.auth.models import User

    from tournaments.services import entries as entry_services

    games = []
    for i in range(count):
        user = User.objects.create_user(username=f"{prefix}{i}", password=None)
        games.append(entry_services.entry_join(tournament_id=t.pk, user=user).game)
    return games


def new_tournament(name: str, *, rounds: int, max_entrants: int) -> Any:
    from datetime import timedelta

    from django.contrib.auth.models import User
    from django.utils import timezone

    from tournaments.services import clubs as club_services
    from tournaments.services import tournaments as tournament_services

    organizer, _ = User.objects.get_or_create(username="bench-organizer")
    now = timezone.now()
    return tournament_services.tournament_create(
        created_by=organizer,
        club=club_services.club_default(),
        name=name,
        game="jokeren",
        preset="jokeren7",
        rounds=rounds,
        max_entrants=max_entrants,
        bot_level="basic",
        opens_at=now - timedelta(minutes=1),
        closes_at=now + timedelta(days=1),
    )
