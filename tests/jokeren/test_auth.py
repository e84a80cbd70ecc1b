"""The site's authentication backend (common/auth.py): the session's user read by a query
written once, with what Django's ModelBackend decides kept: the user as stored, nobody for
an inactive or deleted account or a session whose password has changed."""

from __future__ import annotations

from typing import Any

import factories
import pytest
from django.contrib.auth import get_user_model
from django.test import Client
from django.urls import reverse

from jokeren.auth import ModelBackend

pytestmark = pytest.mark.django_db


def test_the_backend_returns_the_user_as_the_orm_reads_it() -> None:
    user = factories.make_user(first_name="Anna", email="anna@example.org")
    got = ModelBackend().get_user(user.pk)
    stored = get_user_model().objects.get(pk=user.pk)
    assert got is not None and got.pk == user.pk
    fields = [f.attname for f in get_user_model()._meta.concrete_fields]
    assert {f: getattr(got, f) for f in fields} == {f: getattr(stored, f) for f in fields}
    assert got._state.adding is False and got._state.db == "default"


def test_nobody_for_an_unknown_or_inactive_user() -> None:
    user = factories.make_user(is_active=False)
    assert ModelBackend().get_user(user.pk) is None
    assert ModelBackend().get_user(user.pk + 1000) is None


def test_a_session_is_the_users_until_the_account_changes(client: Client) -> None:
    user = factories.make_user()
    assert client.login(username=user.username, password=factories.PASSWORD)
    response = client.get(reverse("home"))
    assert response.wsgi_request.user.pk == user.pk
    # A changed password ends the session (Django's session hash, checked against the row).
    user.set_password("een-ander-wachtwoord-7")
    user.save()
    response = client.get(reverse("home"))
    assert not response.wsgi_request.user.is_authenticated


def test_a_deactivated_account_is_logged_out(client: Client) -> None:
    user = factories.make_user()
    client.force_login(user)
    assert client.get(reverse("home")).wsgi_request.user.pk == user.pk
    get_user_model().objects.filter(pk=user.pk).update(is_active=False)
    assert not client.get(reverse("home")).wsgi_request.user.is_authenticated


def test_a_session_of_djangos_backend_is_still_served(client: Client) -> None:
    """Sessions made before this backend name Django's; they stay logged in."""
    user = factories.make_user()
    client.force_login(user, backend="django.contrib.auth.backends.ModelBackend")
    assert client.get(reverse("home")).wsgi_request.user.pk == user.pk
    client.logout()
    client.force_login(user)  # a new log-in stores this site's backend
    assert client.session["_auth_user_backend"] == "jokeren.auth.ModelBackend"


def test_a_wrong_password_is_checked_once(monkeypatch: pytest.MonkeyPatch) -> None:
    """Django's backend, listed after this one for old sessions, is not asked again."""
    from django.contrib.auth import authenticate, base_user

    user = factories.make_user()
    real = base_user.check_password
    calls = []

    def counted(*args: Any, **kwargs: Any) -> Any:
        calls.append(args)
        return real(*args, **kwargs)

    monkeypatch.setattr(base_user, "check_password", counted)
    assert authenticate(username=user.username, password="fout") is None
    assert len(calls) == 1
    got = authenticate(username=user.username, password=factories.PASSWORD)
    assert got is not None and got.pk == user.pk and len(calls) == 2
    assert got.backend == "jokeren.auth.ModelBackend"
