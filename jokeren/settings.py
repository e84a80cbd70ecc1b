"""Settings: everything from the environment, with embedded defaults for development.

With nothing set: SQLite (``db.sqlite3`` in the project directory), Celery tasks run inline
(``CELERY_TASK_ALWAYS_EAGER``) and the local-memory cache. DEBUG is off unless ``DEBUG=true``
(``scripts/run.sh`` sets it); with DEBUG off the settings refuse to load without a real
``SECRET_KEY`` and default to the production security settings (``check --deploy`` clean).
With ``DATABASE_URL`` and ``REDIS_URL``: PostgreSQL (psycopg 3), Redis as Celery broker,
result backend and Django cache, and real Celery workers. See deploy/README.md.
"""

import atexit
import os
import tempfile
from datetime import timedelta
from ipaddress import ip_network
from pathlib import Path

import environ
from django.core.exceptions import ImproperlyConfigured
from django.utils.translation import gettext_lazy as _

BASE_DIR = Path(__file__).resolve().parent.parent

env = environ.Env()
if (BASE_DIR / ".env").is_file():
    environ.Env.read_env(BASE_DIR / ".env")

DEBUG = env.bool("DEBUG", default=False)

#: The key of the development server (DEBUG on only): public, so refused with DEBUG off.
DEV_SECRET_KEY = "django-insecure-dev-only-key-do-not-use-in-production"
#: Keys published in this repository (deploy/env.example, the Dockerfile's build step):
#: refused with DEBUG off whatever their length.
PLACEHOLDER_SECRET_KEYS = frozenset(
    {DEV_SECRET_KEY, "change-me-to-50-random-characters", "collectstatic-only"}
)
#: Django's own bar for a production key (check --deploy, security.W009).
SECRET_KEY_MIN_LENGTH = 50
SECRET_KEY_MIN_UNIQUE_CHARACTERS = 5


def secret_key_problem(key: str) -> str | None:
    """Why ``key`` must not sign sessions in production, or None if it may."""
    if not key:
        return "SECRET_KEY is not set"
    if key in PLACEHOLDER_SECRET_KEYS or key.startswith("django-insecure-"):
        return "SECRET_KEY is a placeholder published with the code"
    if len(key) < SECRET_KEY_MIN_LENGTH or len(set(key)) < SECRET_KEY_MIN_UNIQUE_CHARACTERS:
        return (
            f"SECRET_KEY is too short (it needs {SECRET_KEY_MIN_LENGTH}+ random characters, "
            f"at least {SECRET_KEY_MIN_UNIQUE_CHARACTERS} of them different)"
        )
    return None


SECRET_KEY = env.str("SECRET_KEY", default="")
if DEBUG:
    SECRET_KEY = SECRET_KEY or DEV_SECRET_KEY
elif (_key_problem := secret_key_problem(SECRET_KEY)) is not None:
    raise ImproperlyConfigured(
        f"{_key_problem}. With DEBUG off the site needs its own secret key, e.g. "
        "SECRET_KEY=$(python3 -c 'import secrets; print(secrets.token_urlsafe(50))'); "
        "DEBUG=true runs the development server with a public one (see README.md)."
    )

ALLOWED_HOSTS = env.list("ALLOWED_HOSTS", default=["localhost", "127.0.0.1", "[::1]"])
CSRF_TRUSTED_ORIGINS = env.list("CSRF_TRUSTED_ORIGINS", default=[])
# Under /api/ a CSRF failure has the API's error body (docs/api.md); elsewhere Django's page.
CSRF_FAILURE_VIEW = "tournaments.api.csrf_failure"

INSTALLED_APPS = [
    "django.contrib.admin",
    "django.contrib.auth",
    "django.contrib.contenttypes",
    "django.contrib.sessions",
    "django.contrib.messages",
    "whitenoise.runserver_nostatic",
    "django.contrib.staticfiles",
    "tournaments",
    "accounts",
    # sign-up with a verified address, log-in by name or address, password reset, address
    # change, throttling (allauth.account) and the second factor (allauth.mfa): accounts/
    "allauth",
    "allauth.account",
    "allauth.mfa",
]

MIDDLEWARE = [
    # GET /health/ for a load balancer: before the host check and the HTTPS redirect
    "jokeren.health.HealthMiddleware",
    # a request whose database connection broke outside its view (the session's, the
    # user's or the token's read): run once more on a new connection if safe
    "jokeren.resilience.RequestRetryMiddleware",
    "django.middleware.security.SecurityMiddleware",
    "whitenoise.middleware.WhiteNoiseMiddleware",
    "django.contrib.sessions.middleware.SessionMiddleware",
    "django.middleware.locale.LocaleMiddleware",
    "django.middleware.common.CommonMiddleware",
    "django.middleware.csrf.CsrfViewMiddleware",
    "django.contrib.auth.middleware.AuthenticationMiddleware",
    "allauth.account.middleware.AccountMiddleware",
    # the browser's long-lived device identifier (fair play: linked accounts)
    "jokeren.device.DeviceMiddleware",
    # 400 for NUL and other control characters, before a view or the CSRF check reads them
    "jokeren.guards.ControlCharacterMiddleware",
    # bearer requests from an address with too many unknown tokens: 429
    "jokeren.guards.TokenThrottleMiddleware",
    # /api/ requests with "Authorization: Bearer <token>" (personal API tokens)
    "tournaments.tokens.BearerTokenMiddleware",
    "django.contrib.messages.middleware.MessageMiddleware",
    "django.middleware.clickjacking.XFrameOptionsMiddleware",
    # a view that lost its database connection: run again once if safe, else 503
    "jokeren.resilience.DatabaseRetryMiddleware",
]

ROOT_URLCONF = "jokeren.urls"

TEMPLATES = [
    {
        "BACKEND": "django.template.backends.django.DjangoTemplates",
        "DIRS": [BASE_DIR / "templates"],
        "APP_DIRS": True,
        "OPTIONS": {
            "context_processors": [
                "django.template.context_processors.debug",
                "django.template.context_processors.request",
                "django.template.context_processors.i18n",
                "django.contrib.auth.context_processors.auth",
                "django.contrib.messages.context_processors.messages",
                "tournaments.context_processors.roles",
            ],
        },
    },
]

WSGI_APPLICATION = "jokeren.wsgi.application"

# --- Database -------------------------------------------------------------------------
DATABASES = {
    "default": env.db_url("DATABASE_URL", default=f"sqlite:///{BASE_DIR / 'db.sqlite3'}"),
}
if DATABASES["default"]["ENGINE"] == "django.db.backends.sqlite3":
    # BEGIN IMMEDIATE: every transaction takes the write lock at its start, so two
    # concurrent moves on one game are serialized (the second sees the new seq: 409).
    DATABASES["default"].setdefault("OPTIONS", {}).update(
        {"transaction_mode": "IMMEDIATE", "timeout": 20}
    )
    # Tests use a file (not the shared in-memory database) so that threads in one test
    # wait for each other's write lock instead of failing with "table is locked"; one file
    # per test process (removed at exit), so parallel test runs never share it.
    _test_db = Path(tempfile.gettempdir()) / f"jokeren-test-{os.getpid()}.sqlite3"
    DATABASES["default"].setdefault("TEST", {}).setdefault("NAME", str(_test_db))

    def _remove_test_db() -> None:
        for suffix in ("", "-journal", "-wal", "-shm"):
            _test_db.with_name(_test_db.name + suffix).unlink(missing_ok=True)

    atexit.register(_remove_test_db)
else:
    DATABASES["default"].setdefault("CONN_MAX_AGE", env.int("CONN_MAX_AGE", default=60))
    DATABASES["default"].setdefault("CONN_HEALTH_CHECKS", True)
    if DATABASES["default"]["ENGINE"] == "django.db.backends.postgresql":
        # Django's, with a health check that makes no round trip and prepared statements
        # for the move's hot path (jokeren/postgresql/base.py).
        DATABASES["default"]["ENGINE"] = "jokeren.postgresql"
        # 0: a statement of prepared_cursor() is prepared at its first use on a connection
        # (Django's own queries bind on the client and are never prepared); None: never
        # (a pooler that cannot keep prepared statements).
        DATABASES["default"].setdefault("OPTIONS", {}).setdefault(
            "prepare_threshold",
            0 if env.bool("DATABASE_PREPARED_STATEMENTS", default=True) else None,
        )

if env.str("TEST_DATABASE_NAME", default=""):
    DATABASES["default"].setdefault("TEST", {})["NAME"] = env.str("TEST_DATABASE_NAME")

DEFAULT_AUTO_FIELD = "django.db.models.BigAutoField"

# --- Cache, Celery --------------------------------------------------------------------
REDIS_URL = env.str("REDIS_URL", default="")

if REDIS_URL:
    CACHES = {
        "default": {
            # Django's, one Redis client per connection pool (jokeren/cache.py).
            "BACKEND": "jokeren.cache.RedisCache",
            "LOCATION": env.str("CACHE_URL", default=REDIS_URL),
            # A Redis out of reach costs a request at most this long before the cache
            # fails open (jokeren/cache.py), not the operating system's minutes.
            "OPTIONS": {
                "socket_connect_timeout": env.float("CACHE_SOCKET_TIMEOUT", default=0.5),
                "socket_timeout": env.float("CACHE_SOCKET_TIMEOUT", default=0.5),
            },
        }
    }
    # Sessions read from the shared cache (written through to the database): a request
    # (every move POST) needs no session query. Only with a cache every process shares:
    # a per-process cache would keep a session another process ended (a log-out). With
    # Redis out of reach the cache fails open and sessions are read from the database.
    SESSION_ENGINE = "django.contrib.sessions.backends.cached_db"
else:
    CACHES = {"default": {"BACKEND": "django.core.cache.backends.locmem.LocMemCache"}}

CELERY_BROKER_URL = env.str("CELERY_BROKER_URL", default=REDIS_URL or "memory://")
CELERY_RESULT_BACKEND = env.str("CELERY_RESULT_BACKEND", default=REDIS_URL or "cache+memory://")
CELERY_TASK_ALWAYS_EAGER = env.bool("CELERY_TASK_ALWAYS_EAGER", default=not REDIS_URL)
CELERY_TASK_EAGER_PROPAGATES = True
# A task's message is acknowledged when the task has finished, not when it starts: a worker
# that dies in the middle (SIGKILL, OOM, a lost machine) leaves it unacknowledged, and the
# broker gives it to another worker. Every task is idempotent, so running one again after
# a crash changes nothing that the first run had finished (tournaments/tasks.py).
CELERY_TASK_ACKS_LATE = True
# ...and a pool child killed mid-task (prefork) requeues the task instead of acking it.
CELERY_TASK_REJECT_ON_WORKER_LOST = True
CELERY_WORKER_PREFETCH_MULTIPLIER = 1
# A lost broker connection cancels the running late-ack tasks (their messages come back).
CELERY_WORKER_CANCEL_LONG_RUNNING_TASKS_ON_CONNECTION_LOSS = True
CELERY_BROKER_CONNECTION_RETRY_ON_STARTUP = True
#: Time limits of every task, in seconds, sized for the longest task of a close: one batch
#: of ``CLOSE_BATCH`` (10) games (``tasks.games_close``: the bot finishes each unfinished
#: game, then the replay audit: a batch of 32-round Jokeren 13 games took 2.2 s on the
#: 2-core test machine without the compiled engine; tests/jokeren/test_close_bounds.py
#: times it), or the close's start and finish (the fan-out, the reveal and the
#: standings). 90 s is room for a batch many times slower than that. Past the soft limit
#: a task stops between two games (each game is its own transaction); the close's finish
#: does the games a batch left, and beat's next run carries on with a close that did not
#: finish.
CELERY_TASK_SOFT_TIME_LIMIT = env.int("CELERY_TASK_SOFT_TIME_LIMIT", default=90)
CELERY_TASK_TIME_LIMIT = env.int("CELERY_TASK_TIME_LIMIT", default=100)
#: Redis gives an unacknowledged task to another worker after this many seconds: longer
#: than the hard time limit, so a task still running is never started twice, and as short
#: as that allows, since it is how long a task of a killed worker waits (Redis's own
#: default is an hour). Workers look for such tasks every CELERY_UNACKED_RESTORE_INTERVAL
#: s. A close whose worker was killed outright finishes within visibility + restore
#: interval + one batch + the finish: 120 + 10 + a few seconds, under 3 minutes.
CELERY_BROKER_VISIBILITY_TIMEOUT = env.int("CELERY_BROKER_VISIBILITY_TIMEOUT", default=120)
CELERY_UNACKED_RESTORE_INTERVAL = env.int("CELERY_UNACKED_RESTORE_INTERVAL", default=10)
if not 0 < CELERY_TASK_SOFT_TIME_LIMIT < CELERY_TASK_TIME_LIMIT < CELERY_BROKER_VISIBILITY_TIMEOUT:
    raise ImproperlyConfigured(
        "Celery time limits: need 0 < CELERY_TASK_SOFT_TIME_LIMIT < CELERY_TASK_TIME_LIMIT"
        " < CELERY_BROKER_VISIBILITY_TIMEOUT"
    )
#: Tasks over a whole tournament that are not part of a close (the admin's audit of every
#: game, the standings written again, par; a game's ratings computed again): a longer
#: limit, and acknowledged when they start, so that one running longer than the visibility
#: timeout is not started a second time; a worker killed under one loses it (run it again:
#: each is idempotent).
CELERY_LONG_TASK_SOFT_TIME_LIMIT = env.int("CELERY_LONG_TASK_SOFT_TIME_LIMIT", default=600)
CELERY_LONG_TASK_TIME_LIMIT = env.int("CELERY_LONG_TASK_TIME_LIMIT", default=660)
if not 0 < CELERY_LONG_TASK_SOFT_TIME_LIMIT < CELERY_LONG_TASK_TIME_LIMIT:
    raise ImproperlyConfigured(
        "Celery time limits: need 0 < CELERY_LONG_TASK_SOFT_TIME_LIMIT"
        " < CELERY_LONG_TASK_TIME_LIMIT"
    )
LONG_TASKS = (
    "tournaments.tasks.tournament_audit",
    "tournaments.tasks.tournament_standings_refresh",
    "tournaments.tasks.tournament_par_compute",
    "tournaments.tasks.ratings_recompute",
)
CELERY_TASK_ANNOTATIONS = {
    name: {
        "soft_time_limit": CELERY_LONG_TASK_SOFT_TIME_LIMIT,
        "time_limit": CELERY_LONG_TASK_TIME_LIMIT,
        "acks_late": False,
    }
    for name in LONG_TASKS
}
CELERY_BROKER_TRANSPORT_OPTIONS = {
    "visibility_timeout": CELERY_BROKER_VISIBILITY_TIMEOUT,
    "unacked_restore_interval": CELERY_UNACKED_RESTORE_INTERVAL,
    # look at every interval (kombu's default looks only at every 10th one)
    "unacked_restore_throttle": 1,
}
CELERY_TASK_SERIALIZER = "json"
CELERY_RESULT_SERIALIZER = "json"
CELERY_ACCEPT_CONTENT = ["json"]
CELERY_RESULT_EXPIRES = timedelta(hours=1)
CELERY_TIMEZONE = "UTC"
CELERY_BEAT_SCHEDULE = {
    "close-due-tournaments": {
        "task": "tournaments.tasks.tournaments_close_due",
        "schedule": env.float("CLOSE_DUE_EVERY_SECONDS", default=60.0),
    },
    # a live club evening's slots: a round's board within seconds of its slot's end
    "close-due-live-slots": {
        "task": "tournaments.tasks.live_slots_close_due",
        "schedule": env.float("LIVE_SLOTS_EVERY_SECONDS", default=1.0),
    },
    # a live club evening's reminder, an hour before its first round
    "remind-live-evenings": {
        "task": "tournaments.tasks.live_reminders_due",
        "schedule": env.float("LIVE_REMINDERS_EVERY_SECONDS", default=60.0),
    },
    # par whose task was lost (the broker out of reach when it was queued)
    "catch-up-par": {
        "task": "tournaments.tasks.tournaments_par_catch_up",
        "schedule": env.float("PAR_CATCH_UP_EVERY_SECONDS", default=600.0),
    },
    # fair play keeps sightings of devices for a bounded time (docs/rules.md, "Fair play")
    "purge-old-sightings": {
        "task": "tournaments.tasks.sightings_purge",
        "schedule": env.float("SIGHTINGS_PURGE_EVERY_SECONDS", default=3600.0),
    },
    # the deeper play checks the close's time budget left pending (docs/rules.md, "Fair play")
    "expire-late-play-checks": {
        "task": "tournaments.tasks.play_checks_expire",
        "schedule": env.float("PLAY_CHECK_EXPIRE_EVERY_SECONDS", default=60.0),
    },
    "create-due-series-editions": {
        "task": "tournaments.tasks.series_editions_create_due",
        "schedule": env.float("SERIES_DUE_EVERY_SECONDS", default=30.0),
    },
}

#: The deeper check of play that knows too much (tournaments/services/playcheck.py) starts
#: no new work later than this many seconds after a tournament's close; what it has not
#: checked by then is recorded as not checked in full (docs/rules.md, "Fair play", rule 3).
PLAY_CHECK_SECONDS = env.int("PLAY_CHECK_SECONDS", default=600)
if PLAY_CHECK_SECONDS < 0:
    raise ImproperlyConfigured("PLAY_CHECK_SECONDS must be at least 0")

# --- Auth ------------------------------------------------------------------------------
# Django's model backend, the session's user read by a query written once (common/auth.py);
# log-ins store the first. Django's own serves the sessions made before it (a session names
# the backend that logged it in) and checks no password (common/auth.py).
# A log-in by mail address goes to allauth's backend (the name's refusal in ours is final,
# the address's is allauth's); its sessions are served by allauth's backend.
AUTHENTICATION_BACKENDS = [
    "jokeren.auth.ModelBackend",
    "allauth.account.auth_backends.AuthenticationBackend",
    "django.contrib.auth.backends.ModelBackend",
]
AUTH_PASSWORD_VALIDATORS = [
    {"NAME": "django.contrib.auth.password_validation.UserAttributeSimilarityValidator"},
    {"NAME": "django.contrib.auth.password_validation.MinimumLengthValidator"},
    {"NAME": "django.contrib.auth.password_validation.CommonPasswordValidator"},
    {"NAME": "django.contrib.auth.password_validation.NumericPasswordValidator"},
]
LOGIN_URL = "login"
LOGIN_REDIRECT_URL = "home"
LOGOUT_REDIRECT_URL = "home"
#: How long a password reset link works (seconds); it works once (Django's token hashes
#: the password it replaces).
PASSWORD_RESET_TIMEOUT = env.int("PASSWORD_RESET_TIMEOUT", default=2 * 3600)

# --- Accounts (django-allauth; docs/rules.md, "Accounts") ----------------------------------
ACCOUNT_ADAPTER = "accounts.adapter.AccountAdapter"
ACCOUNT_FORMS = {"login": "accounts.forms.LoginForm", "signup": "accounts.forms.SignupForm"}
ACCOUNT_LOGIN_METHODS = {"username", "email"}
ACCOUNT_SIGNUP_FIELDS = ["username*", "email*", "password1*", "password2*"]
# The link in the mail verifies the address; until then the account plays, unrated and
# without mail (tournaments/services/mail.py, tournaments/services/ratings.py).
ACCOUNT_EMAIL_VERIFICATION = "optional"
ACCOUNT_UNIQUE_EMAIL = True
# A new address is verified before it replaces the old one.
ACCOUNT_CHANGE_EMAIL = True
ACCOUNT_EMAIL_CONFIRMATION_EXPIRE_DAYS = 3
# The same answer for a known and an unknown address, and no mail to an unknown one.
ACCOUNT_PREVENT_ENUMERATION = True
ACCOUNT_EMAIL_UNKNOWN_ACCOUNTS = False
ACCOUNT_LOGIN_ON_PASSWORD_RESET = False
# A changed password keeps this session and ends the others (their hash no longer holds).
ACCOUNT_LOGOUT_ON_PASSWORD_CHANGE = False
ACCOUNT_EMAIL_SUBJECT_PREFIX = "Jokeren: "
ACCOUNT_USERNAME_MIN_LENGTH = 2
# allauth's limits; failed log-ins and sign-ups per client IP are jokeren/throttle.py's.
ACCOUNT_RATE_LIMITS = {"login_failed": None, "signup": None}
MFA_SUPPORTED_TYPES = ["totp", "recovery_codes"]
MFA_TOTP_ISSUER = "Jokeren"
# A code that passes every second factor: for the demo only (scripts/run.sh sets it with
# DEBUG on; allauth refuses it with DEBUG off).
MFA_TOTP_INSECURE_BYPASS_CODE = env.str("MFA_TOTP_INSECURE_BYPASS_CODE", default="") or None

# --- Internationalization -------------------------------------------------------------
LANGUAGE_CODE = "nl"
LANGUAGES = [("nl", _("Dutch")), ("en", _("English"))]
LOCALE_PATHS = [BASE_DIR / "locale"]
TIME_ZONE = env.str("TIME_ZONE", default="Europe/Amsterdam")
USE_I18N = True
USE_TZ = True
#: Our own date, time and number formats per language (jokeren/formats/<lang>/formats.py):
#: 24-hour clock, day before month, the time zone's abbreviation after a time.
FORMAT_MODULE_PATH = ["jokeren.formats"]

# --- Static files ----------------------------------------------------------------------
# DEBUG off: hashed, compressed files (jokeren/storage.py) from ``collectstatic``, served by
# whitenoise: the hashed names cached for ten years ("immutable"), any other name for
# WHITENOISE_MAX_AGE seconds.
STATIC_URL = "static/"
STATICFILES_DIRS = [BASE_DIR / "static"]
STATIC_ROOT = Path(env.str("STATIC_ROOT", default=str(BASE_DIR / "staticfiles")))
STORAGES = {
    "default": {"BACKEND": "django.core.files.storage.FileSystemStorage"},
    "staticfiles": {
        "BACKEND": (
            "django.contrib.staticfiles.storage.StaticFilesStorage"
            if DEBUG
            else "jokeren.storage.StaticFilesStorage"
        )
    },
}

# --- Security (production: see deploy/README.md) --------------------------------------
# With DEBUG off every default is the production one (HTTPS only, secure cookies, HSTS for a
# year): ``manage.py check --deploy`` has nothing to warn about. A plain-HTTP setup (the
# compose demo) turns them off explicitly.
SESSION_COOKIE_SECURE = env.bool("SESSION_COOKIE_SECURE", default=not DEBUG)
CSRF_COOKIE_SECURE = env.bool("CSRF_COOKIE_SECURE", default=not DEBUG)
SECURE_SSL_REDIRECT = env.bool("SECURE_SSL_REDIRECT", default=not DEBUG)
SECURE_HSTS_SECONDS = env.int("SECURE_HSTS_SECONDS", default=0 if DEBUG else 31_536_000)
SECURE_HSTS_INCLUDE_SUBDOMAINS = env.bool("SECURE_HSTS_INCLUDE_SUBDOMAINS", default=not DEBUG)
SECURE_HSTS_PRELOAD = env.bool("SECURE_HSTS_PRELOAD", default=not DEBUG)
# Behind nginx terminating TLS: trust its X-Forwarded-Proto (nginx.conf sets it; never set
# this when clients reach gunicorn directly, they could claim HTTPS).
if env.bool("BEHIND_TLS_PROXY", default=False):
    SECURE_PROXY_SSL_HEADER = ("HTTP_X_FORWARDED_PROTO", "https")

# --- Mail (tournaments/services/mail.py; deploy/README.md) ------------------------------
# The embedded default writes every mail to the console (the worker's log). Production:
# EMAIL_URL (smtp+tls://user:password@host:587, smtp+ssl://...:465) or EMAIL_HOST with
# EMAIL_PORT, EMAIL_HOST_USER, EMAIL_HOST_PASSWORD, EMAIL_USE_TLS / EMAIL_USE_SSL; either
# makes SMTP the backend unless EMAIL_BACKEND says otherwise.
_email = env.email_url_config(env.str("EMAIL_URL")) if env.str("EMAIL_URL", default="") else {}
EMAIL_HOST = _email.get("EMAIL_HOST") or env.str("EMAIL_HOST", default="localhost")
EMAIL_PORT = _email.get("EMAIL_PORT") or env.int("EMAIL_PORT", default=25)
EMAIL_HOST_USER = _email.get("EMAIL_HOST_USER") or env.str("EMAIL_HOST_USER", default="")
EMAIL_HOST_PASSWORD = _email.get("EMAIL_HOST_PASSWORD") or env.str(
    "EMAIL_HOST_PASSWORD", default=""
)
EMAIL_USE_TLS = bool(_email.get("EMAIL_USE_TLS")) or env.bool("EMAIL_USE_TLS", default=False)
EMAIL_USE_SSL = bool(_email.get("EMAIL_USE_SSL")) or env.bool("EMAIL_USE_SSL", default=False)
#: Seconds an SMTP connection may hang before the mail task fails (and is retried).
EMAIL_TIMEOUT = env.int("EMAIL_TIMEOUT", default=20)
EMAIL_BACKEND = env.str(
    "EMAIL_BACKEND",
    default=(
        _email.get("EMAIL_BACKEND")
        or (
            "django.core.mail.backends.smtp.EmailBackend"
            if env.str("EMAIL_HOST", default="")
            else "django.core.mail.backends.console.EmailBackend"
        )
    ),
)
DEFAULT_FROM_EMAIL = env.str("DEFAULT_FROM_EMAIL", default="Jokeren <noreply@localhost>")
SERVER_EMAIL = env.str("SERVER_EMAIL", default=DEFAULT_FROM_EMAIL)
#: The site's address as players reach it: the links in the mail are absolute.
SITE_URL = env.str("SITE_URL", default="http://127.0.0.1:8000").rstrip("/")

# --- The site ----------------------------------------------------------------------------
#: Moves per user per minute on the move API (django-ratelimit syntax); "" turns it off.
MOVE_RATE_LIMIT = env.str("MOVE_RATE_LIMIT", default="240/m")
#: Seconds before a view that lost its database connection is run again (a failover or a
#: pooler restart needs a moment; jokeren/resilience.py).
DATABASE_RETRY_PAUSE = env.float("DATABASE_RETRY_PAUSE", default=0.2)
RATELIMIT_USE_CACHE = "default"
#: A rate-limit counter that cannot be read (Redis down: jokeren/cache.py) limits no one.
RATELIMIT_FAIL_OPEN = True
#: After the cache failed to reach Redis, it does not try again for this many seconds.
CACHE_RETRY_SECONDS = env.float("CACHE_RETRY_SECONDS", default=2.0)
#: Failed bearer-token authentications (401) per client IP (django-ratelimit syntax); one
#: more request with a bearer token from that address gets 429 until the window ends
#: (jokeren/guards.py). "" turns it off.
TOKEN_FAIL_RATE_LIMIT = env.str("TOKEN_FAIL_RATE_LIMIT", default="20/m")
#: Failed log-ins allowed per client IP, and per account name, in a window (django-ratelimit
#: syntax, "30/15m": 30 per 15 minutes); one more POST, even with the right password, gets
#: the 429 page until the window ends. "" turns a limit off.
LOGIN_RATE_LIMIT_IP = env.str("LOGIN_RATE_LIMIT_IP", default="30/15m")
LOGIN_RATE_LIMIT_ACCOUNT = env.str("LOGIN_RATE_LIMIT_ACCOUNT", default="10/15m")
#: Sign-up POSTs per client IP ("" turns it off).
SIGNUP_RATE_LIMIT = env.str("SIGNUP_RATE_LIMIT", default="10/h")
#: Proxies in front of the site (addresses or networks, e.g. "127.0.0.1" for nginx on the
#: same machine): from them, the client IP is read from X-Forwarded-For. Empty: the peer's
#: address is the client's (never trust X-Forwarded-For from anyone else: it is forged).
try:
    TRUSTED_PROXIES = [ip_network(p, strict=False) for p in env.list("TRUSTED_PROXIES", default=[])]
except ValueError as exc:
    raise ImproperlyConfigured(f"TRUSTED_PROXIES: {exc}") from exc
RATELIMIT_IP_META_KEY = "jokeren.throttle.client_ip"
# The local-memory cache is per process: fine for one dev process, not for production.
SILENCED_SYSTEM_CHECKS = ["django_ratelimit.W001"] if not REDIS_URL else []

LOGGING = {
    "version": 1,
    "disable_existing_loggers": False,
    # A 403 or 404 is one line, not a traceback (jokeren/logs.py); under the development
    # server (DEBUG) its own access line is that line.
    "filters": {"client_errors": {"()": "jokeren.logs.ClientErrorsOnOneLine", "drop": DEBUG}},
    "handlers": {"console": {"class": "logging.StreamHandler"}},
    "root": {"handlers": ["console"], "level": env.str("LOG_LEVEL", default="INFO")},
    "loggers": {
        # Django's own "django" logger has a console handler of its own (when DEBUG is on):
        # without this it would print every line twice, once more through the root logger
        "django": {"handlers": ["console"], "level": "INFO", "propagate": False},
        "django.request": {"filters": ["client_errors"]},
        # Tasks run inline (no Redis): no "Task … succeeded in 0.01s" line for each of
        # them in the terminal of `scripts/run.sh`; a worker still logs its tasks.
        **({"celery.app.trace": {"level": "WARNING"}} if CELERY_TASK_ALWAYS_EAGER else {}),
        # The in-memory broker has no host: kombu's "No hostname was supplied" is noise.
        **(
            {"kombu.connection": {"level": "ERROR"}}
            if CELERY_BROKER_URL.startswith("memory://")
            else {}
        ),
    },
}
