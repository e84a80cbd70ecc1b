"""The accounts app's flows through Django's test client (docs/rules.md, "Accounts"):
sign-up with a verified address, log-in by name or address, the reset by mail, the
address change, the password change, and what an unverified address costs (no mail, no
rating)."""

from __future__ import annotations

import re
from typing import Any

import factories
import pytest
from allauth.account.models import EmailAddress
from django.contrib.auth import get_user_model
from django.contrib.messages import get_messages
from django.test import Client
from django.urls import reverse

from tournaments import permissions
from tournaments.models import MailKind
from tournaments.services import mail as mail_services

pytestmark = pytest.mark.django_db

PASSWORD = "Schoppen-Heer-83"


def _link(message: Any) -> str:
    """The one address of this site in a mail's text (the verification or reset link)."""
    found = re.findall(r"https?://[^\s>]+", message.body)
    assert len(found) == 1, message.body
    return re.sub(r"^https?://[^/]+", "", found[0])


def _sign_up(client: Client, name: str = "nieuweling", **extra: str) -> Any:
    data = {
        "username": name,
        "email": f"{name}@example.org",
        "password1": PASSWORD,
        "password2": PASSWORD,
        **extra,
    }
    return client.post(reverse("signup"), data)


def test_sign_up_asks_for_an_address_and_mails_the_link_that_verifies_it(
    client: Client, mailoutbox: list[Any]
) -> None:
    no_address = client.post(
        reverse("signup"),
        {"username": "zonder", "email": "", "password1": PASSWORD, "password2": PASSWORD},
    )
    assert no_address.status_code == 200 and not get_user_model().objects.exists()
    assert _sign_up(client).status_code == 302
    user = get_user_model().objects.get(username="nieuweling")
    assert user.email == "nieuweling@example.org"
    assert not permissions.has_verified_address(user)
    assert [m.to for m in mailoutbox] == [["nieuweling@example.org"]]
    link = _link(mailoutbox[0])
    # the link asks to confirm (a GET changes nothing: a mail scanner may follow it)
    assert client.get(link).status_code == 200
    assert not permissions.has_verified_address(user)
    assert client.post(link).status_code == 302
    assert permissions.has_verified_address(user)


def test_a_weak_password_is_refused_by_djangos_validators(client: Client) -> None:
    response = client.post(
        reverse("signup"),
        {"username": "zwak", "email": "z@example.org", "password1": "123", "password2": "123"},
    )
    assert response.status_code == 200
    assert response.context["form"].errors["password1"]
    assert not get_user_model().objects.exists()


def test_log_in_by_name_or_by_address(user: Any) -> None:
    for typed in (user.username, user.email, user.email.upper()):
        client = Client()
        response = client.post(reverse("login"), {"login": typed, "password": factories.PASSWORD})
        assert response.status_code == 302, typed
        assert client.session["_auth_user_id"] == str(user.pk)
    wrong = Client().post(reverse("login"), {"login": user.email, "password": "fout"})
    assert wrong.status_code == 200 and "_auth_user_id" not in wrong.client.session


def test_the_log_in_page_sends_a_logged_in_player_on_to_next(
    client: Client, user: Any, tournament: Any
) -> None:
    client.force_login(user)
    detail = reverse("tournament_detail", args=[tournament.pk])
    response = client.get(reverse("login") + f"?next={detail}")
    assert response.status_code == 302 and response["Location"] == detail
    elsewhere = client.get(reverse("login") + "?next=https://elders.example.net/")
    assert elsewhere.status_code == 302 and elsewhere["Location"] == "/"


def test_the_reset_gives_one_answer_for_any_address_and_its_link_works_once(
    client: Client, user: Any, mailoutbox: list[Any]
) -> None:
    answers = []
    for address in (user.email, "niemand@example.org"):
        response = client.post(reverse("account_reset_password"), {"email": address})
        assert response.status_code == 302
        page = client.get(response["Location"]).content.decode().replace(address, "")
        answers.append(re.sub(r'name="csrfmiddlewaretoken" value="\w+"', "", page))
    assert answers[0] == answers[1]
    assert [m.to for m in mailoutbox] == [[user.email]]  # nothing to an unknown address
    link = _link(mailoutbox[0])
    form = client.get(link, follow=True)
    assert form.status_code == 200
    new = {"password1": "Klaveren-Aas-19", "password2": "Klaveren-Aas-19"}
    done = client.post(form.redirect_chain[-1][0] if form.redirect_chain else link, new)
    assert done.status_code == 302
    user.refresh_from_db()
    assert user.check_password("Klaveren-Aas-19")
    # once: the same link again is refused
    again = client.get(link, follow=True)
    assert "password1" not in again.content.decode()


def test_the_reset_link_expires(
    client: Client, user: Any, mailoutbox: list[Any], settings: Any
) -> None:
    client.post(reverse("account_reset_password"), {"email": user.email})
    link = _link(mailoutbox[0])
    settings.PASSWORD_RESET_TIMEOUT = -1
    expired = client.get(link, follow=True)
    assert "password1" not in expired.content.decode()


def test_a_new_address_replaces_the_old_only_once_verified(
    client: Client, user: Any, mailoutbox: list[Any]
) -> None:
    client.force_login(user)
    old = user.email
    response = client.post(
        reverse("account_email"), {"action_add": "", "email": "nieuw-adres@example.org"}
    )
    assert response.status_code == 302
    user.refresh_from_db()
    assert user.email == old and permissions.has_verified_address(user)
    assert [m.to for m in mailoutbox] == [["nieuw-adres@example.org"]]
    client.post(_link(mailoutbox[0]))
    user.refresh_from_db()
    assert user.email == "nieuw-adres@example.org" and permissions.has_verified_address(user)
    assert not EmailAddress.objects.filter(user=user, email=old).exists()


def test_changing_the_password_logs_out_the_other_sessions(user: Any) -> None:
    here, there = Client(), Client()
    for client in (here, there):
        client.post(reverse("login"), {"login": user.username, "password": factories.PASSWORD})
    response = here.post(
        reverse("account_change_password"),
        {
            "oldpassword": factories.PASSWORD,
            "password1": "Ruiten-Tien-55",
            "password2": "Ruiten-Tien-55",
        },
    )
    assert response.status_code == 302
    assert here.get(reverse("account")).status_code == 200
    assert there.get(reverse("account")).status_code == 302  # to the log-in page


def test_an_account_without_an_address_is_asked_for_one_at_log_in_and_on_its_page(
    client: Client,
) -> None:
    user = factories.make_user("oudgediende", email="")
    response = client.post(
        reverse("login"), {"login": user.username, "password": factories.PASSWORD}
    )
    assert response.status_code == 302 and response["Location"] == reverse("account_email")
    shown = [str(m) for m in get_messages(response.wsgi_request)]
    assert any("geen mailadres" in m for m in shown)
    page = client.get(reverse("account")).content.decode()
    assert 'id="address-missing"' in page


def test_an_unverified_player_is_told_on_the_tournament_page(
    client: Client, tournament: Any
) -> None:
    unverified = factories.make_user("onbevestigd", verified=False)
    client.force_login(unverified)
    detail = reverse("tournament_detail", args=[tournament.pk])
    assert 'id="unrated-note"' in client.get(detail).content.decode()
    client.force_login(factories.make_user("bevestigd"))
    assert 'id="unrated-note"' not in client.get(detail).content.decode()


def test_mail_goes_only_to_a_verified_address(mailoutbox: list[Any]) -> None:
    verified = factories.make_user("bevestigd")
    unverified = factories.make_user("onbevestigd", verified=False)
    for user in (verified, unverified):
        sent = mail_services.mail_send(
            kind=MailKind.INVITES, user_id=user.pk, object_id=1, context={}
        )
        assert sent is (user == verified)
    assert [m.to for m in mailoutbox] == [[verified.email]]
    users = get_user_model().objects.filter(pk__in=[verified.pk, unverified.pk])
    assert mail_services.recipients(users, kind=MailKind.INVITES, object_id=2) == [[verified.pk]]


def test_organizers_and_staff_act_on_a_tournament_only_with_a_second_factor(
    client: Client, tournament: Any
) -> None:
    """docs/rules.md, "Accounts", rule 6."""
    edit = reverse("tournament_edit", args=[tournament.pk])
    for who in (
        factories.make_user("orga", organizer=True, second_factor=False),
        factories.make_user("beheer", is_staff=True, second_factor=False),
    ):
        assert permissions.needs_second_factor(who)
        client.force_login(who)
        response = client.get(edit)
        assert response.status_code == 302
        assert (
            response["Location"]
            == f"{reverse('mfa_activate_totp')}?next={edit.replace('/', '%2F')}"
        )
        closing = client.post(reverse("tournament_close", args=[tournament.pk]))
        assert closing["Location"].startswith(reverse("mfa_activate_totp"))
        factories.add_second_factor(who)
        assert not permissions.needs_second_factor(who)
        assert client.get(edit).status_code == 200
    # a player needs none
    assert not permissions.needs_second_factor(factories.make_user("speler2"))
