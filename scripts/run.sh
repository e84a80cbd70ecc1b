#!/usr/bin/env bash
# Install and start the site on the embedded default (SQLite, inline Celery tasks,
# local-memory cache) with the demo data, at http://127.0.0.1:8000
set -euo pipefail
cd "$(dirname "$0")/.."

PYTHON=${PYTHON:-python3}
if [ ! -x .venv/bin/python ]; then
  "$PYTHON" -m venv .venv
fi
.venv/bin/python -m pip install --quiet --upgrade pip
.venv/bin/python -m pip install --quiet -e .
.venv/bin/python manage.py migrate --noinput
.venv/bin/python manage.py demo
exec .venv/bin/python manage.py runserver 127.0.0.1:${PORT:-8000}
