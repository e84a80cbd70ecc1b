"""Settings from the environment: DEBUG off unless asked for, no production start with a
published or weak secret key, and deploy/env.example passes ``check --deploy`` cleanly.

Settings are read once per process, so each case starts a fresh Python with exactly the
environment under test (nothing inherited from the test run, whose settings have DEBUG on).
"""

from __future__ import annotations

import json
import os
import secrets
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
ENV_EXAMPLE = ROOT / "deploy" / "env.example"
#: The development server's key (public: it is in the code).
DEV_KEY = "django-insecure-dev-only-key-do-not-use-in-production"
SHOW = (
    "import json; from django.conf import settings as s; print(json.dumps({k: getattr(s, k, None)"
    " for k in ('DEBUG', 'SECRET_KEY', 'SECURE_SSL_REDIRECT', 'SESSION_COOKIE_SECURE',"
    " 'CSRF_COOKIE_SECURE', 'SECURE_HSTS_SECONDS', 'SECURE_PROXY_SSL_HEADER')}))"
)


def strong_key() -> str:
    return secrets.token_urlsafe(50)


def env_example() -> dict[str, str]:
    """deploy/env.example's settings (the lines ``NAME=value``)."""
    values = {}
    for line in ENV_EXAMPLE.read_text().splitlines():
        if line.strip() and not line.lstrip().startswith("#"):
            name, _, value = line.partition("=")
            values[name.strip()] = value.strip()
    return values


def run_python(code: str, env: dict[str, str], *args: str) -> subprocess.CompletedProcess[str]:
    """``python -c code`` (or manage.py with ``args``) with only ``env`` and the basics."""
    base = {k: os.environ[k] for k in ("PATH", "HOME", "LANG", "TMPDIR") if k in os.environ}
    full = {**base, "DJANGO_SETTINGS_MODULE": "jokeren.settings", **env}
    cmd = [sys.executable, "manage.py", *args] if args else [sys.executable, "-c", code]
    return subprocess.run(
        cmd, cwd=ROOT, env=full, capture_output=True, text=True, timeout=120, check=False
    )


def load_settings(env: dict[str, str]) -> subprocess.CompletedProcess[str]:
    return run_python(f"import django; django.setup(); {SHOW}", env)


def test_a_server_started_with_only_the_database_and_redis_refuses_to_start() -> None:
    started = load_settings(
        {
            "DATABASE_URL": "postgres://jokeren@127.0.0.1:5432/jokeren",
            "REDIS_URL": "redis://127.0.0.1:6379/0",
        }
    )
    assert started.returncode != 0
    assert "ImproperlyConfigured: SECRET_KEY is not set" in started.stderr


def test_debug_is_off_when_unset_and_the_security_defaults_are_the_production_ones() -> None:
    key = strong_key()
    started = load_settings({"SECRET_KEY": key})
    assert started.returncode == 0, started.stderr
    assert json.loads(started.stdout) == {
        "DEBUG": False,
        "SECRET_KEY": key,
        "SECURE_SSL_REDIRECT": True,
        "SESSION_COOKIE_SECURE": True,
        "CSRF_COOKIE_SECURE": True,
        "SECURE_HSTS_SECONDS": 31_536_000,
        "SECURE_PROXY_SSL_HEADER": None,
    }


def test_debug_on_asked_for_explicitly_runs_with_the_development_key() -> None:
    started = load_settings({"DEBUG": "true"})
    assert started.returncode == 0, started.stderr
    shown = json.loads(started.stdout)
    assert shown["DEBUG"] is True
    assert shown["SECRET_KEY"] == DEV_KEY
    assert shown["SECURE_SSL_REDIRECT"] is False and shown["SESSION_COOKIE_SECURE"] is False


@pytest.mark.parametrize(
    "key",
    [
        pytest.param(env_example()["SECRET_KEY"], id="env.example's placeholder"),
        pytest.param(DEV_KEY, id="the development key"),
        pytest.param("collectstatic-only", id="an old build-step key"),
        pytest.param("django-insecure-" + strong_key(), id="django-insecure- prefix"),
        pytest.param(strong_key()[:49], id="49 characters"),
        pytest.param("ab" * 40, id="two different characters"),
    ],
)
def test_with_debug_off_a_published_or_weak_key_is_refused(key: str) -> None:
    started = load_settings({"DEBUG": "false", "SECRET_KEY": key})
    assert started.returncode != 0
    assert "django.core.exceptions.ImproperlyConfigured: SECRET_KEY is" in started.stderr


def test_env_example_with_a_real_key_passes_check_deploy_without_a_warning() -> None:
    values = env_example()
    assert values["DEBUG"] == "false"
    checked = run_python(
        "", {**values, "SECRET_KEY": strong_key()}, "check", "--deploy", "--fail-level", "WARNING"
    )
    assert checked.returncode == 0, checked.stderr
    assert "System check identified no issues (0 silenced)." in checked.stdout, (
        checked.stdout + checked.stderr
    )
    # the same command with the placeholder still in place does not start at all
    placeholder = run_python("", values, "check", "--deploy", "--fail-level", "WARNING")
    assert placeholder.returncode != 0
    assert "SECRET_KEY is a placeholder" in placeholder.stderr


@pytest.mark.parametrize(
    ("soft", "hard", "visibility"),
    [("600", "660", "600"), ("600", "600", "900"), ("0", "60", "900")],
)
def test_celery_time_limits_must_end_a_task_before_the_broker_hands_it_out_again(
    soft: str, hard: str, visibility: str
) -> None:
    started = load_settings(
        {
            "DEBUG": "true",
            "CELERY_TASK_SOFT_TIME_LIMIT": soft,
            "CELERY_TASK_TIME_LIMIT": hard,
            "CELERY_BROKER_VISIBILITY_TIMEOUT": visibility,
        }
    )
    assert started.returncode != 0
    assert "ImproperlyConfigured: Celery time limits" in started.stderr


MAIL = (
    "import json; from django.conf import settings as s; print(json.dumps({k: getattr(s, k)"
    " for k in ('EMAIL_BACKEND', 'EMAIL_HOST', 'EMAIL_PORT', 'EMAIL_HOST_USER',"
    " 'EMAIL_HOST_PASSWORD', 'EMAIL_USE_TLS', 'EMAIL_USE_SSL', 'DEFAULT_FROM_EMAIL',"
    " 'SITE_URL')}))"
)


def mail_settings(env: dict[str, str]) -> dict[str, object]:
    started = run_python(f"import django; django.setup(); {MAIL}", {"DEBUG": "true", **env})
    assert started.returncode == 0, started.stderr
    loaded: dict[str, object] = json.loads(started.stdout)
    return loaded


def test_mail_goes_to_the_console_unless_smtp_is_configured() -> None:
    default = mail_settings({})
    assert default["EMAIL_BACKEND"] == "django.core.mail.backends.console.EmailBackend"
    assert default["SITE_URL"] == "http://127.0.0.1:8000"
    by_url = mail_settings(
        {
            "EMAIL_URL": "smtp+tls://jokeren:p%40ss@smtp.example.org:587",
            "DEFAULT_FROM_EMAIL": "Jokeren <noreply@example.org>",
            "SITE_URL": "https://jokeren.example.org/",
        }
    )
    assert by_url == {
        "EMAIL_BACKEND": "django.core.mail.backends.smtp.EmailBackend",
        "EMAIL_HOST": "smtp.example.org",
        "EMAIL_PORT": 587,
        "EMAIL_HOST_USER": "jokeren",
        "EMAIL_HOST_PASSWORD": "p@ss",
        "EMAIL_USE_TLS": True,
        "EMAIL_USE_SSL": False,
        "DEFAULT_FROM_EMAIL": "Jokeren <noreply@example.org>",
        "SITE_URL": "https://jokeren.example.org",
    }
    by_host = mail_settings(
        {"EMAIL_HOST": "mail.example.org", "EMAIL_PORT": "465", "EMAIL_USE_SSL": "true"}
    )
    assert by_host["EMAIL_BACKEND"] == "django.core.mail.backends.smtp.EmailBackend"
    assert (by_host["EMAIL_HOST"], by_host["EMAIL_PORT"], by_host["EMAIL_USE_SSL"]) == (
        "mail.example.org",
        465,
        True,
    )
