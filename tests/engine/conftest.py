"""Fixtures shared by the engine tests (cards, dealing, Jokeren)."""

from __future__ import annotations

import pytest


@pytest.fixture
def secret() -> bytes:
    """A fixed 32-byte tournament secret."""
    return bytes(range(32))
