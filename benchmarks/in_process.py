"""The site in a benchmark's own process: the repository and ``benchmarks/`` on the path,
the site's settings with what a benchmark needs (the test client's host, no HTTPS
redirect, no move rate limit, a random secret key so DEBUG stays off), and Django set up.
Call it before importing any of the site's modules."""

from __future__ import annotations

import os
import secrets
import sys
from pathlib import Path

import django

ROOT = Path(__file__).resolve().parents[1]


def site_setup() -> None:
    """Set the site up in this process (see the module's docstring)."""
    sys.path.insert(0, str(ROOT))
    sys.path.insert(0, str(ROOT / "benchmarks"))
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "jokeren.settings")
    os.environ.setdefault("ALLOWED_HOSTS", "127.0.0.1,testserver")
    os.environ.setdefault("SECURE_SSL_REDIRECT", "false")
    os.environ.setdefault("MOVE_RATE_LIMIT", "")
    os.environ.setdefault("SECRET_KEY", secrets.token_hex(32))  # DEBUG stays off
    django.setup()
