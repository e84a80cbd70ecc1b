"""Site-level views: the ping (the load benchmark's yardstick), the scripts' translation
catalogue."""

from __future__ import annotations

import pytest
from django.conf import settings
from django.test import Client
from django.urls import reverse
from django.utils import translation

from jokeren import views


@pytest.mark.django_db
def test_ping_answers_a_small_json_without_a_login() -> None:
    response = Client().get(reverse("api_ping"))
    assert response.status_code == 200 and response.json() == {"ok": True}


# --- The scripts' translation catalogue ------------------------------------------------


def _catalog(client: Client, lang: str) -> tuple[str, str]:
    response = client.get(reverse("javascript-catalog"), {"lang": lang})
    assert response.status_code == 200
    return response.content.decode(), response["Cache-Control"]


@pytest.mark.django_db
def test_the_js_catalog_is_in_the_language_of_its_address_and_may_be_cached() -> None:
    with translation.override("nl"):
        dutch = translation.gettext("matches the commitment")
    assert dutch != "matches the commitment"
    # The cookie says English, the address Dutch: the address wins, both ways.
    client = Client()
    client.cookies[settings.LANGUAGE_COOKIE_NAME] = "en"
    body, cache = _catalog(client, "nl")
    assert dutch in body
    assert f"max-age={views.JS_CATALOG_MAX_AGE}" in cache
    client.cookies[settings.LANGUAGE_COOKIE_NAME] = "nl"
    body, _ = _catalog(client, "en")
    assert dutch not in body


@pytest.mark.django_db
def test_pages_link_the_catalog_of_their_language_without_blocking_the_page() -> None:
    client = Client()
    for lang in ("nl", "en"):
        client.cookies[settings.LANGUAGE_COOKIE_NAME] = lang
        page = client.get(reverse("home")).content.decode()
        url = f"{reverse('javascript-catalog')}?lang={lang}"
        assert f'<script src="{url}" defer></script>' in page
