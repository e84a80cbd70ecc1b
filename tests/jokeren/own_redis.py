"""A Redis server of a test's own, on a free port, that the test may stop and start again
(never the machine's Redis, which other runs share)."""

from __future__ import annotations

import contextlib
import os
import shutil
import socket
import subprocess
import sys
import time
from pathlib import Path

import redis


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


class OwnRedis:
    """``redis-server`` on ``port`` without persistence: ``start()``, ``stop()`` (SIGKILL:
    as a crash, nothing kept), ``url(db)``."""

    def __init__(self) -> None:
        self.port = free_port()
        self.proc: subprocess.Popen[bytes] | None = None

    def url(self, db: int = 0) -> str:
        return f"redis://127.0.0.1:{self.port}/{db}"

    def start(self) -> None:
        server = shutil.which("redis-server")
        assert server, "redis-server is not installed"
        self.proc = subprocess.Popen(
            [
                *(server, "--port", str(self.port), "--bind", "127.0.0.1"),
                *("--save", "", "--appendonly", "no", "--daemonize", "no"),
            ],
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
        )
        client = redis.Redis(port=self.port, socket_connect_timeout=0.2)
        deadline = time.monotonic() + 20
        while True:
            try:
                client.ping()
                return
            except redis.ConnectionError:
                if time.monotonic() > deadline:
                    raise
                time.sleep(0.05)
            finally:
                client.close()

    def stop(self) -> None:
        if self.proc is None:
            return
        with contextlib.suppress(ProcessLookupError):
            self.proc.kill()
        self.proc.wait(timeout=20)
        self.proc = None


#: The project's folder (the working directory of a process of the site's own).
ROOT = Path(__file__).resolve().parents[2]


def run_site_script(
    script: str, *, database: Path, redis_url: str
) -> subprocess.CompletedProcess[str]:
    """``script`` in a Python process of its own with the test settings on the SQLite
    ``database`` and ``redis_url`` as cache and broker, tasks queued (not run inline);
    fails the test when the process fails. (Celery's pools are made once per process:
    a test that points the site at another broker does it in a process of its own.)"""
    env = {
        **os.environ,
        "DJANGO_SETTINGS_MODULE": "tests.settings",
        "DATABASE_URL": f"sqlite:///{database}",
        "REDIS_URL": redis_url,
        "CELERY_TASK_ALWAYS_EAGER": "false",
        "PYTHONPATH": str(ROOT),
    }
    done = subprocess.run(
        [sys.executable, "-c", script],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert done.returncode == 0, done.stderr[-3000:]
    return done
