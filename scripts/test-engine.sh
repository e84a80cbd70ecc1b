#!/usr/bin/env bash
# The engine's tests alone, in a throwaway venv that holds only what the engine needs
# (mypy-extensions), pytest and hypothesis: no Django, no Celery, no pytest-django. An
# engine test (or engine module) that imports any of them fails here.
#
#   bash scripts/test-engine.sh                        # tests/engine
#   bash scripts/test-engine.sh -x -q                  # options go to pytest
#   bash scripts/test-engine.sh tests/engine/test_cards.py
#
# The engine comes from this checkout (the current directory is on the path under
# `python -m pytest`), compiled modules included where `pip install -e .` built them.
# pyproject's addopts name pytest-django's options (--ds, --reuse-db), unknown without it:
# `-o addopts=""` replaces them and the command line gives the rest.
set -euo pipefail
cd "$(dirname "$0")/.."

PYTHON=${PYTHON:-python3}
VENV=$(mktemp -d)
trap 'rm -rf "$VENV"' EXIT
"$PYTHON" -m venv "$VENV"
"$VENV/bin/python" -m pip install --quiet --disable-pip-version-check \
  pytest hypothesis 'mypy-extensions>=1.0'
for site_package in django celery pytest_django; do
  if "$VENV/bin/python" -c "import $site_package" 2>/dev/null; then
    echo "test-engine.sh: $site_package is installed in the engine's venv" >&2
    exit 1
  fi
done

# Extra arguments go to pytest; test paths among them replace tests/engine.
paths=(tests/engine)
for arg in "$@"; do
  case "$arg" in
    tests/*) paths=() ;;
  esac
done
"$VENV/bin/python" -m pytest -o addopts="" -p no:cacheprovider -m "not slow" "$@" "${paths[@]}"
