"""The site's icon: every page links an SVG icon that is served, and /favicon.ico (which
browsers ask for on their own) leads to it instead of a 404."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from django.contrib.staticfiles import finders
from django.test import Client

pytestmark = pytest.mark.django_db


def test_every_page_links_the_icon_and_it_is_served(client: Client) -> None:
    page = client.get("/").content.decode()
    found = re.search(r'<link rel="icon" href="([^"]+)" type="image/svg\+xml">', page)
    assert found, "no icon linked"
    # The file the link names is among the static files (the browser test fetches it).
    assert found.group(1).startswith("/static/")
    path = finders.find(found.group(1).split("/static/", 1)[1])
    assert path and Path(path).read_text().lstrip().startswith("<svg")
    # Browsers that ask for /favicon.ico on their own are sent to the same icon.
    legacy = client.get("/favicon.ico")
    assert legacy.status_code == 301
    assert legacy["Location"] == found.group(1)
