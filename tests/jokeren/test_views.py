"""Site-level views: the ping (the load benchmark's yardstick)."""

from __future__ import annotations

import pytest
from django.test import Client
from django.urls import reverse


@pytest.mark.django_db
def test_ping_answers_a_small_json_without_a_login() -> None:
    response = Client().get(reverse("api_ping"))
    assert response.status_code == 200 and response.json() == {"ok": True}
