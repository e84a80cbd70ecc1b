#!/usr/bin/env bash
# Install everything the tests need and run the whole test suite.
#
#   bash scripts/test.sh                 # embedded default: SQLite, inline Celery tasks
#   DATABASE_URL=postgres://postgres@127.0.0.1:5432/jokeren \
#   REDIS_URL=redis://127.0.0.1:6379/0 bash scripts/test.sh   # PostgreSQL + a real Celery worker
#
# Extra arguments go to pytest. The slow tier (10,000 random rounds per preset) runs with
#   bash scripts/test.sh -m slow
set -euo pipefail
cd "$(dirname "$0")/.."

PYTHON=${PYTHON:-python3}
if [ ! -x .venv/bin/python ]; then
  "$PYTHON" -m venv .venv
fi
.venv/bin/python -m pip install --quiet --upgrade pip
.venv/bin/python -m pip install --quiet -e '.[dev]'

# The end-to-end tests drive Debian's chromium (never a downloaded browser build).
if [ ! -x /usr/bin/chromium ]; then
  if [ "$(id -u)" = 0 ]; then SUDO=""; else SUDO="sudo"; fi
  $SUDO apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq chromium >/dev/null
fi

# Tests that need a real Celery worker over Redis run when REDIS_URL is set.
if [ -n "${REDIS_URL:-}" ]; then
  MARKERS="not slow"
else
  MARKERS="not slow and not celery_worker"
fi
if [[ " $* " == *" -m "* ]]; then
  exec .venv/bin/python -m pytest "$@"
fi
exec .venv/bin/python -m pytest -m "$MARKERS" "$@"
