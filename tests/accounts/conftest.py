"""The site's fixtures (tests/site_fixtures.py); the engine's tests do without them."""

from site_fixtures import *  # noqa: F403
