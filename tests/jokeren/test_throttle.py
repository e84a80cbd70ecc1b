"""Log-in and sign-up throttles (jokeren/throttle.py): per client IP and per account, in
the shared cache, with the client IP from X-Forwarded-For only behind a trusted proxy."""

from __future__ import annotations

import re
from ipaddress import ip_network
from typing import Any

import factories
import pytest
from django.contrib.auth import get_user_model
from django.test import Client, RequestFactory
from django.urls import reverse

pytestmark = pytest.mark.django_db

ATTACKER = "198.51.100.7"
NEIGHBOUR = "203.0.113.9"
WRONG = "not-the-password"


@pytest.fixture
def limits(settings: Any) -> Any:
    settings.LOGIN_RATE_LIMIT_ACCOUNT = "3/15m"
    settings.LOGIN_RATE_LIMIT_IP = "5/15m"
    settings.SIGNUP_RATE_LIMIT = "2/h"
    settings.TRUSTED_PROXIES = []
    return settings


def log_in(client: Client, username: str, password: str, ip: str, path: str = "") -> Any:
    # the site's log-in page names the field ``login`` (name or address), the admin's
    # ``username``
    field = "username" if path else "login"
    return client.post(
        path or reverse("login"), {field: username, "password": password}, REMOTE_ADDR=ip
    )


def logged_in(response: Any) -> bool:
    return response.status_code == 302 and "_auth_user_id" in response.client.session


def test_wrong_passwords_then_blocked_even_with_the_right_one(limits: Any) -> None:
    victim = factories.make_user("slachtoffer")
    for _ in range(3):
        assert log_in(Client(), victim.username, WRONG, ATTACKER).status_code == 200
    blocked = log_in(Client(), victim.username, factories.PASSWORD, ATTACKER)
    assert blocked.status_code == 429
    assert 0 < int(blocked["Retry-After"]) <= 15 * 60
    assert "_auth_user_id" not in blocked.client.session
    # the account's counter: from another address, in another case, still blocked
    assert log_in(Client(), "SLACHTOFFER", factories.PASSWORD, NEIGHBOUR).status_code == 429
    # another account from the attacker's own address is not
    other = factories.make_user("buurman")
    assert logged_in(log_in(Client(), other.username, factories.PASSWORD, ATTACKER))


def test_failures_over_many_accounts_block_the_address_not_the_accounts(limits: Any) -> None:
    users = [factories.make_user(f"speler{i}") for i in range(6)]
    for u in users[:5]:
        assert log_in(Client(), u.username, WRONG, ATTACKER).status_code == 200
    assert log_in(Client(), users[5].username, factories.PASSWORD, ATTACKER).status_code == 429
    # the same account from another address logs in
    assert logged_in(log_in(Client(), users[5].username, factories.PASSWORD, NEIGHBOUR))


def test_successful_log_ins_are_not_counted(limits: Any) -> None:
    user = factories.make_user("trouw")
    for _ in range(6):
        assert logged_in(log_in(Client(), user.username, factories.PASSWORD, ATTACKER))


def test_the_block_ends_with_its_window(limits: Any, monkeypatch: pytest.MonkeyPatch) -> None:
    import django_ratelimit.core

    user = factories.make_user("geduldig")
    for _ in range(3):
        log_in(Client(), user.username, WRONG, ATTACKER)
    wait = int(log_in(Client(), user.username, factories.PASSWORD, ATTACKER)["Retry-After"])
    later = django_ratelimit.core.time.time() + wait + 1
    monkeypatch.setattr(django_ratelimit.core.time, "time", lambda: later)
    assert logged_in(log_in(Client(), user.username, factories.PASSWORD, ATTACKER))


def test_the_admin_log_in_shares_the_throttle(limits: Any) -> None:
    admin = factories.make_user("beheerder", is_staff=True, is_superuser=True)
    path = reverse("admin:login")
    for _ in range(3):
        assert log_in(Client(), admin.username, WRONG, ATTACKER, path).status_code == 200
    assert log_in(Client(), admin.username, factories.PASSWORD, ATTACKER, path).status_code == 429
    # and it counts on the site's page too: one counter per account
    assert log_in(Client(), admin.username, factories.PASSWORD, NEIGHBOUR).status_code == 429


def test_the_429_page_says_what_happened_in_dutch_and_english(limits: Any) -> None:
    factories.make_user("taal")
    for _ in range(3):
        log_in(Client(), "taal", WRONG, ATTACKER)
    dutch = log_in(Client(), "taal", WRONG, ATTACKER).content.decode()
    assert "Te veel pogingen" in dutch and "Te veel mislukte inlogpogingen" in dutch
    assert re.search(r"Probeer het over \d+ minu(ut|ten) opnieuw\.", dutch)
    english = Client(HTTP_ACCEPT_LANGUAGE="en")
    page = log_in(english, "taal", WRONG, ATTACKER).content.decode()
    assert "Too many attempts" in page and "Too many failed log-ins" in page
    assert re.search(r"Try again in \d+ minutes?\.", page)


def sign_up(client: Client, username: str, ip: str) -> Any:
    password = "Harten-Vrouw-77"
    return client.post(
        reverse("signup"),
        {
            "username": username,
            "email": f"{username}@example.org",
            "password1": password,
            "password2": password,
        },
        REMOTE_ADDR=ip,
    )


def test_sign_up_is_throttled_per_address(limits: Any) -> None:
    assert sign_up(Client(), "eerste", ATTACKER).status_code == 302
    assert sign_up(Client(), "tweede", ATTACKER).status_code == 302
    blocked = sign_up(Client(), "derde", ATTACKER)
    assert blocked.status_code == 429 and "Te veel registraties" in blocked.content.decode()
    assert not get_user_model().objects.filter(username="derde").exists()
    assert sign_up(Client(), "derde", NEIGHBOUR).status_code == 302


def test_forwarded_for_is_ignored_unless_the_peer_is_a_trusted_proxy(limits: Any) -> None:
    from jokeren import throttle

    rf = RequestFactory()
    spoofed = rf.post("/", REMOTE_ADDR=ATTACKER, HTTP_X_FORWARDED_FOR="192.0.2.1")
    assert throttle.client_ip(spoofed) == ATTACKER
    limits.TRUSTED_PROXIES = [ip_network("127.0.0.1/32"), ip_network("10.0.0.0/8")]
    # nginx appends the address it saw: the client's own X-Forwarded-For is on the left
    via_nginx = rf.post("/", REMOTE_ADDR="127.0.0.1", HTTP_X_FORWARDED_FOR=f"192.0.2.1, {ATTACKER}")
    assert throttle.client_ip(via_nginx) == ATTACKER
    two_proxies = rf.post(
        "/", REMOTE_ADDR="127.0.0.1", HTTP_X_FORWARDED_FOR=f"{ATTACKER}, 10.1.2.3"
    )
    assert throttle.client_ip(two_proxies) == ATTACKER
    garbage = rf.post("/", REMOTE_ADDR="127.0.0.1", HTTP_X_FORWARDED_FOR="unknown")
    assert throttle.client_ip(garbage) == "127.0.0.1"
    no_header = rf.post("/", REMOTE_ADDR="127.0.0.1")
    assert throttle.client_ip(no_header) == "127.0.0.1"


def test_behind_a_trusted_proxy_each_client_has_its_own_counter(limits: Any) -> None:
    limits.TRUSTED_PROXIES = [ip_network("127.0.0.1/32")]
    factories.make_user("achter-nginx")
    for i in range(5):
        Client().post(
            reverse("login"),
            {"login": f"iemand{i}", "password": WRONG},
            REMOTE_ADDR="127.0.0.1",
            HTTP_X_FORWARDED_FOR=ATTACKER,
        )
    blocked = Client().post(
        reverse("login"),
        {"login": "achter-nginx", "password": factories.PASSWORD},
        REMOTE_ADDR="127.0.0.1",
        HTTP_X_FORWARDED_FOR=f"{NEIGHBOUR}, {ATTACKER}",
    )
    assert blocked.status_code == 429
    ok = Client().post(
        reverse("login"),
        {"login": "achter-nginx", "password": factories.PASSWORD},
        REMOTE_ADDR="127.0.0.1",
        HTTP_X_FORWARDED_FOR=NEIGHBOUR,
    )
    assert logged_in(ok)
