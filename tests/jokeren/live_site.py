"""The site served by gunicorn in a process of its own, on the test's database, for the
fault tests that break a part under it (tests/jokeren/test_redis_outage.py,
test_database_terminated.py)."""

from __future__ import annotations

import http.client
import os
import subprocess
import sys
import time
from pathlib import Path

from django.conf import settings
from django.db import connection
from own_redis import free_port

ROOT = Path(__file__).resolve().parents[2]


def database_url() -> str:
    db = connection.settings_dict
    if db["ENGINE"] == "django.db.backends.sqlite3":
        return f"sqlite:///{db['NAME']}"
    auth = db["USER"] + (f":{db['PASSWORD']}" if db["PASSWORD"] else "")
    return f"postgres://{auth}@{db['HOST'] or '127.0.0.1'}:{db['PORT'] or 5432}/{db['NAME']}"


class Site:
    """gunicorn serving the site on ``port``; ``request()`` answers (status, headers, body)."""

    def __init__(
        self,
        redis_url: str,
        log: Path,
        *,
        workers: int = 1,
        database: str = "",
        env: dict[str, str] | None = None,
    ) -> None:
        """``database``: the test database's URL unless told (``database_url()``);
        ``env``: more settings for the site."""
        self.port = free_port()
        env = {
            **os.environ,
            "DJANGO_SETTINGS_MODULE": "jokeren.settings",
            "DEBUG": "true",
            "SECRET_KEY": settings.SECRET_KEY,
            "DATABASE_URL": database or database_url(),
            "REDIS_URL": redis_url,
            "CELERY_BROKER_URL": redis_url,
            "CELERY_RESULT_BACKEND": redis_url,
            "CACHE_URL": redis_url,
            "CELERY_TASK_ALWAYS_EAGER": "false",
            "CONN_MAX_AGE": "0",
            "CACHE_RETRY_SECONDS": "1",
            "MOVE_RATE_LIMIT": "240/m",
            **(env or {}),
        }
        self.log = log
        self.proc = subprocess.Popen(
            [
                *(sys.executable, "-m", "gunicorn", "jokeren.wsgi"),
                *("-b", f"127.0.0.1:{self.port}", "-w", str(workers), "--timeout", "60"),
            ],
            cwd=ROOT,
            env=env,
            stdout=log.open("wb"),
            stderr=subprocess.STDOUT,
        )
        deadline = time.monotonic() + 60
        while True:
            try:
                if self.request("GET", "/health/")[0] in (200, 503):
                    return
            except OSError:
                pass
            assert self.proc.poll() is None, log.read_text()
            assert time.monotonic() < deadline, log.read_text()
            time.sleep(0.2)

    def request(
        self,
        method: str,
        path: str,
        body: bytes | None = None,
        headers: dict[str, str] | None = None,
    ) -> tuple[int, dict[str, str], bytes]:
        conn = http.client.HTTPConnection("127.0.0.1", self.port, timeout=30)
        try:
            conn.request(method, path, body=body, headers=headers or {})
            response = conn.getresponse()
            return (
                response.status,
                {k.lower(): v for k, v in response.getheaders()},
                response.read(),
            )
        finally:
            conn.close()

    def stop(self) -> None:
        self.proc.terminate()
        try:
            self.proc.wait(timeout=20)
        except subprocess.TimeoutExpired:
            self.proc.kill()
            self.proc.wait(timeout=20)
