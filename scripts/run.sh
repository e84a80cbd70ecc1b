#!/usr/bin/env bash
# Install and start the site on the embedded default (SQLite, inline Celery tasks,
# local-memory cache) with the demo data, at http://127.0.0.1:${PORT:-8000}, until Ctrl-C.
# Re-running is safe: migrations and the demo data are idempotent.
# DEBUG is on here, explicitly (the settings default to off): Django's development server
# with its debug pages and the public development key; never a production setting.
set -euo pipefail
cd "$(dirname "$0")/.."

PYTHON=${PYTHON:-python3}
if [ ! -x .venv/bin/python ]; then
  if ! "$PYTHON" -c 'import sys; sys.exit(sys.version_info < (3, 11))' 2>/dev/null; then
    echo "scripts/run.sh: needs Python 3.11 or newer; '$PYTHON' is $({ "$PYTHON" -V; } 2>/dev/null || echo missing)." >&2
    echo "Pick one with PYTHON=python3.11 bash scripts/run.sh" >&2
    exit 1
  fi
  "$PYTHON" -m venv .venv
fi
.venv/bin/python -m pip install --quiet --upgrade pip
.venv/bin/python -m pip install --quiet -e .
export DEBUG=true
# the demo organizer's second factor also takes this code (printed by the demo command)
export MFA_TOTP_INSECURE_BYPASS_CODE="${MFA_TOTP_INSECURE_BYPASS_CODE:-000000}"
.venv/bin/python manage.py migrate --noinput
.venv/bin/python manage.py demo
exec .venv/bin/python manage.py runserver 127.0.0.1:${PORT:-8000}
