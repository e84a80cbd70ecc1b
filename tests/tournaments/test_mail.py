"""Mail to players (docs/rules.md, "Mail"): the results mail after a close, received by a
real SMTP server in each player's language, the one-click link that turns it off
without logging in, never twice, never to a bot account; the new-edition mail of a
series; the settings on the account page and from the language switch."""

from __future__ import annotations

import re
from datetime import date, time, timedelta
from email.message import EmailMessage
from typing import Any
from urllib.parse import urlsplit

import factories
import pytest
from celery.exceptions import Retry
from django.core import signing
from django.test import Client
from django.urls import reverse
from django.utils import timezone
from mail_server import Inbox, free_port

from tournaments import jobs, mail_links, tasks
from tournaments import series as series_services
from tournaments.models import Account, MailKind, MailSent, Tournament
from tournaments.selectors import standings as standing_selectors
from tournaments.services import closing as closing_services
from tournaments.services import entries as entry_services
from tournaments.services import mail as mail_services

pytestmark = pytest.mark.django_db


def player(name: str, *, language: str = "nl", **account: Any) -> Any:
    user = factories.make_user(name, email=f"{name}@example.org")
    Account.objects.create(user=user, language=language, **account)
    return user


def played_tournament(users: list[Any], *, name: str = "Najaarstoernooi") -> Tournament:
    """A one-round tournament every one of ``users`` entered and played to the end."""
    t = factories.make_tournament(name=name, rounds=1, max_entrants=10)
    for user in users:
        game = entry_services.entry_join(tournament_id=t.pk, user=user).game
        factories.play_to_end(game, user)
    return t


def close(t: Tournament, capture: Any) -> None:
    """Close ``t`` and run what its commit queues (the results mail)."""
    with capture(execute=True):
        closing_services.tournament_close(tournament_id=t.pk)


def text_of(message: EmailMessage) -> str:
    part = message.get_body(preferencelist=("plain",))
    assert part is not None
    return str(part.get_content())


def html_of(message: EmailMessage) -> str:
    part = message.get_body(preferencelist=("html",))
    assert part is not None
    return str(part.get_content())


def off_path(message: EmailMessage) -> str:
    """The path of the link in the message's ``List-Unsubscribe`` header."""
    match = re.fullmatch(
        r"<(https://kaarten\.example\.org(/mail/off/[^>]+/))>", message["List-Unsubscribe"].strip()
    )
    assert match is not None, message["List-Unsubscribe"]
    assert match.group(1) in text_of(message)
    return match.group(2)


# --- The results mail through a real SMTP server --------------------------------------------


def test_the_results_mail_reaches_each_player_in_their_language_and_its_link_turns_it_off(
    smtp: Inbox, django_capture_on_commit_callbacks: Any
) -> None:
    anna = player("anna", language="nl")
    bill = player("bill", language="en")
    t = played_tournament([anna, bill])
    close(t, django_capture_on_commit_callbacks)
    ranks = {s.user_id: s.rank for s in standing_selectors.standings(tournament=t)}
    url = f"https://kaarten.example.org/tournaments/{t.pk}/"

    assert len(set(smtp.peers)) == 1  # one batch: one SMTP connection
    (dutch,) = smtp.messages("anna@example.org")
    assert dutch["Subject"] == "De uitslag van Najaarstoernooi is definitief"
    assert dutch["List-Unsubscribe-Post"] == "List-Unsubscribe=One-Click"
    body = text_of(dutch)
    assert "Hallo anna," in body
    assert f"Je plaats: {ranks[anna.pk]} van 2." in body
    assert url in body
    assert "Zet deze mail uit met één klik:" in body
    assert f'href="{url}"' in html_of(dutch)

    (english,) = smtp.messages("bill@example.org")
    assert english["Subject"] == "The results of Najaarstoernooi are final"
    body = text_of(english)
    assert "Hello bill," in body
    assert f"Your place: {ranks[bill.pk]} of 2." in body
    assert "Turn this mail off with one click:" in body
    assert url in body

    # The link works without logging in: a fresh client, CSRF checked as in a browser.
    visitor = Client(enforce_csrf_checks=True)
    path = off_path(english)
    page = visitor.get(path)
    assert page.status_code == 200
    assert 'method="post"' in page.content.decode()
    assert "Zet deze mail uit" in page.content.decode()  # a visitor's page is in Dutch
    assert Account.objects.get(user=bill).mail_results is True  # a GET changes nothing
    # What a mail client sends by itself (RFC 8058): no cookie, no CSRF token.
    done = visitor.post(path, {"List-Unsubscribe": "One-Click"})
    assert done.status_code == 200
    account = Account.objects.get(user=bill)
    assert account.mail_results is False
    assert account.mail_series is True and account.mail_invites is True
    assert Account.objects.get(user=anna).mail_results is True

    # The fan-out again (a redelivered task): nothing is sent twice.
    tasks.tournament_results_mail.delay(t.pk)
    assert len(smtp.envelopes) == 2
    # The next tournament: Anna is mailed, Bill no longer.
    second = played_tournament([anna, bill], name="Wintertoernooi")
    close(second, django_capture_on_commit_callbacks)
    assert [m["Subject"] for m in smtp.messages("anna@example.org")] == [
        "De uitslag van Najaarstoernooi is definitief",
        "De uitslag van Wintertoernooi is definitief",
    ]
    assert len(smtp.messages("bill@example.org")) == 1


# --- The link -----------------------------------------------------------------------------------


def test_a_forged_or_other_kinds_link_is_not_found_and_changes_nothing(client: Client) -> None:
    anna = player("anna")
    token = mail_links.mail_off_token(user_id=anna.pk, kind=MailKind.RESULTS)
    # Django's signing: "<payload>:<timestamp>:<signature>", the payload base64 JSON
    payload, stamp, signature = token.split(":")
    assert payload == signing.b64_encode(b'[%d,"results"]' % anna.pk).decode()
    other_user = signing.b64_encode(b'[%d,"results"]' % (anna.pk + 1)).decode()
    forged = [
        # one character of the signature changed (its first: the last one of a base64
        # signature may carry only padding bits, which a change there can leave alone)
        f"{payload}:{stamp}:{'A' if signature[0] != 'A' else 'B'}{signature[1:]}",
        # another user's id under the same timestamp and signature
        f"{other_user}:{stamp}:{signature}",
        # signed with the series' salt but saying "results"
        signing.dumps([anna.pk, "results"], salt=mail_links.salt_of("series")),
        # signed as the site does, but without a kind
        signing.dumps(anna.pk, salt=mail_links.salt_of("results")),
        "nonsense",
    ]
    for bad in forged:
        path = reverse("mail_off", args=[bad])
        assert client.get(path).status_code == 404
        assert client.post(path, {"List-Unsubscribe": "One-Click"}).status_code == 404
    account = Account.objects.get(user=anna)
    assert (account.mail_results, account.mail_series, account.mail_invites) == (True, True, True)
    # The real one turns off its own kind only, and again is no error.
    path = reverse("mail_off", args=[token])
    assert client.post(path).status_code == 200
    assert client.post(path).status_code == 200
    account.refresh_from_db()
    assert (account.mail_results, account.mail_series, account.mail_invites) == (False, True, True)


def test_a_link_for_a_user_without_an_account_row_makes_one_with_that_kind_off(
    client: Client,
) -> None:
    user = factories.make_user("zonder", email="zonder@example.org")
    token = mail_links.mail_off_token(user_id=user.pk, kind=MailKind.SERIES)
    assert client.post(reverse("mail_off", args=[token])).status_code == 200
    account = Account.objects.get(user=user)
    assert (account.mail_results, account.mail_series, account.language) == (True, False, "nl")


# --- Who gets it, and only once -------------------------------------------------------------------


def test_no_mail_to_a_bot_account_one_without_an_address_or_with_results_mail_off(
    mailoutbox: list[Any], django_capture_on_commit_callbacks: Any
) -> None:
    bot = factories.make_user("robot", email="robot@example.org")
    series_services.account_mark_bot(user=bot)
    quiet = player("stil", mail_results=False)
    nameless = factories.make_user("zonderadres", email="")
    anna = player("anna")
    t = played_tournament([anna, quiet, nameless])
    entry_services.entry_join(tournament_id=t.pk, user=bot)  # the bot plays it at the close
    close(t, django_capture_on_commit_callbacks)
    assert [m.to for m in mailoutbox] == [["anna@example.org"]]
    assert list(MailSent.objects.values_list("user_id", "kind", "object_id")) == [
        (anna.pk, "results", t.pk)
    ]


def test_a_close_run_again_or_its_tasks_delivered_twice_mail_no_one_twice(
    mailoutbox: list[Any], django_capture_on_commit_callbacks: Any, monkeypatch: Any
) -> None:
    monkeypatch.setattr(mail_services, "MAIL_BATCH", 2)
    users = [player(f"speler{i}") for i in range(5)]
    t = played_tournament(users)
    assert mail_services.tournament_results_recipients(tournament_id=t.pk) == []  # still open
    with django_capture_on_commit_callbacks(execute=True):
        batches = closing_services.tournament_close_start(tournament_id=t.pk)
        assert batches is not None
        for batch in batches:
            closing_services.games_close(game_ids=batch)
        closing_services.tournament_close_finish(tournament_id=t.pk)
    assert sorted(m.to[0] for m in mailoutbox) == [f"speler{i}@example.org" for i in range(5)]
    # every step again, and the batch task of the first two once more
    with django_capture_on_commit_callbacks(execute=True):
        closing_services.tournament_close(tournament_id=t.pk)
        closing_services.tournament_close_finish(tournament_id=t.pk)
    assert tasks.tournament_results_mail.delay(t.pk).get() == 0
    assert tasks.tournament_results_mail_batch.delay(t.pk, [u.pk for u in users[:2]]).get() == 0
    assert len(mailoutbox) == 5


def test_the_fan_out_sends_a_task_per_batch_of_users(
    mailoutbox: list[Any], monkeypatch: Any
) -> None:
    monkeypatch.setattr(mail_services, "MAIL_BATCH", 2)
    users = [player(f"speler{i}") for i in range(5)]
    t = played_tournament(users)
    closing_services.tournament_close(tournament_id=t.pk)  # in the test's transaction: no mail
    assert mailoutbox == []
    ids = sorted(u.pk for u in users)
    assert mail_services.tournament_results_recipients(tournament_id=t.pk) == [
        ids[0:2],
        ids[2:4],
        ids[4:5],
    ]
    assert tasks.tournament_results_mail.delay(t.pk).get() == 3
    assert len(mailoutbox) == 5
    assert mail_services.tournament_results_recipients(tournament_id=t.pk) == []


def test_an_entry_the_bot_played_is_told_it_is_not_ranked(mailoutbox: list[Any]) -> None:
    anna = player("anna", language="en")
    t = factories.make_tournament(name="Avond <b>&</b>", rounds=1)
    entry_services.entry_join(tournament_id=t.pk, user=anna)  # never played: the bot finishes
    closing_services.tournament_close(tournament_id=t.pk)
    tasks.tournament_results_mail.delay(t.pk)
    (message,) = mailoutbox
    # the name as it is in the text, escaped in the HTML
    assert message.subject == "The results of Avond <b>&</b> are final"
    html, _type = message.alternatives[0]
    assert "Avond &lt;b&gt;&amp;&lt;/b&gt; has closed" in html and "<b>" not in html
    # no round of its own: not ranked (docs/rules.md section 4)
    assert "Your entry is not ranked." in message.body and "Your place" not in message.body
    assert "The bot finished your game at the close" in message.body


def test_the_place_is_among_the_ranked_entries_only(mailoutbox: list[Any]) -> None:
    # anna and bill play; cor enters and never plays (no round of her own: not ranked)
    anna, bill, cor = (player(name, language="en") for name in ("anna", "bill", "cor"))
    t = played_tournament([anna, bill])
    entry_services.entry_join(tournament_id=t.pk, user=cor)
    closing_services.tournament_close(tournament_id=t.pk)
    tasks.tournament_results_mail.delay(t.pk)
    bodies = {m.to[0]: m.body for m in mailoutbox}
    assert len(bodies) == 3
    for name in ("anna", "bill"):
        assert re.search(r"Your place: [12] of 2\.", bodies[f"{name}@example.org"])
    assert "Your entry is not ranked." in bodies["cor@example.org"]


# --- A new edition of a series ----------------------------------------------------------------


def test_a_new_edition_is_mailed_to_the_players_of_earlier_editions(
    organizer: Any, mailoutbox: list[Any], django_capture_on_commit_callbacks: Any
) -> None:
    series = series_services.series_create(
        created_by=organizer,
        club=factories.default_club(),
        name="Dinsdagavond",
        game="jokeren",
        preset="jokeren7",
        rounds=1,
        bot_level="basic",
        kind="daily",
        time_of_day=time(20, 0),
        window_minutes=24 * 60,
        starts_on=date(2026, 3, 1),
        best_k=2,
    )
    now = timezone.now()
    with django_capture_on_commit_callbacks(execute=True):
        first = series_services.series_edition_create(
            series=series, opens_at=now - timedelta(hours=3)
        )
    assert first is not None
    assert mailoutbox == []  # nobody played the series before
    anna = player("anna", language="nl")
    bill = player("bill", language="en")
    quiet = player("stil", mail_series=False)
    player("buitenstaander")  # never played the series
    for user in (anna, bill, quiet):
        entry_services.entry_join(tournament_id=first.pk, user=user)
    with django_capture_on_commit_callbacks(execute=True):
        second = series_services.series_edition_create(
            series=series, opens_at=now - timedelta(hours=1)
        )
    assert second is not None
    by_address = {m.to[0]: m for m in mailoutbox}
    assert sorted(by_address) == ["anna@example.org", "bill@example.org"]
    dutch, english = by_address["anna@example.org"], by_address["bill@example.org"]
    assert dutch.subject == "Een nieuwe editie van Dinsdagavond is open"
    assert f"{second.name} is nu open" in dutch.body
    assert english.subject == "A new edition of Dinsdagavond is open"
    assert f"Its new edition {second.name} is open now." in english.body
    url = f"http://127.0.0.1:8000/tournaments/{second.pk}/"
    assert url in english.body and url in dutch.body
    off = dict(english.extra_headers)["List-Unsubscribe"]
    assert urlsplit(off.strip("<>")).path in english.body
    # the same edition again (a doubled beat): no second mail
    assert series_services.series_edition_create(series=series, opens_at=second.opens_at) is None
    assert tasks.series_edition_mail.delay(second.pk).get() == 0
    assert len(mailoutbox) == 2


# --- The settings ------------------------------------------------------------------------------


def test_the_account_page_changes_the_mail_settings(client: Client) -> None:
    anna = player("anna")
    client.force_login(anna)
    page = client.get(reverse("account"))
    assert page.status_code == 200 and 'name="mail_results"' in page.content.decode()
    answer = client.post(
        reverse("account"),
        {"action": "mail_settings", "language": "en", "mail_series": "on"},
    )
    assert answer.status_code == 302
    account = Account.objects.get(user=anna)
    assert (account.language, account.mail_results, account.mail_series, account.mail_invites) == (
        "en",
        False,
        True,
        False,
    )
    assert account.mail_announcements is False
    assert 'name="mail_announcements"' in page.content.decode()
    client.post(
        reverse("account"),
        {"action": "mail_settings", "language": "en", "mail_announcements": "on"},
    )
    assert Account.objects.get(user=anna).mail_announcements is True
    # the fair-play decisions' mail (docs/rules.md, "Fair play") is on the page too: the
    # form above left it unticked, so it is off; ticking it turns it on again
    assert account.mail_fairplay is False
    assert 'name="mail_fairplay"' in page.content.decode()
    client.post(
        reverse("account"),
        {"action": "mail_settings", "language": "en", "mail_fairplay": "on"},
    )
    assert Account.objects.get(user=anna).mail_fairplay is True
    assert answer.cookies["django_language"].value == "en"
    bad = client.post(reverse("account"), {"action": "mail_settings", "language": "fr"})
    assert bad.status_code == 200
    assert Account.objects.get(user=anna).language == "en"


def test_the_language_switch_is_remembered_for_the_mail_of_a_logged_in_user(
    client: Client,
) -> None:
    user = factories.make_user("anna")
    client.post(reverse("set_language"), {"language": "en", "next": "/"})
    assert not Account.objects.filter(user=user).exists()  # not logged in: only the cookie
    client.force_login(user)
    answer = client.post(reverse("set_language"), {"language": "en", "next": "/"})
    assert answer.status_code == 302
    assert Account.objects.get(user=user).language == "en"
    client.post(reverse("set_language"), {"language": "xx", "next": "/"})
    assert Account.objects.get(user=user).language == "en"
    client.post(reverse("set_language"), {"language": "nl", "next": "/"})
    assert Account.objects.get(user=user).language == "nl"


def test_a_new_account_gets_the_language_the_visitor_chose(client: Client) -> None:
    client.post(reverse("set_language"), {"language": "en", "next": "/"})
    password = "een-lang-wachtwoord-77"
    client.post(
        reverse("signup"),
        {
            "username": "nieuw",
            "email": "n@example.org",
            "password1": password,
            "password2": password,
        },
    )
    assert Account.objects.get(user__username="nieuw").language == "en"


# --- Any kind through the one general call (the club invite) ------------------------------------


def test_a_club_invite_goes_out_through_the_general_task_once_and_only_while_on(
    smtp: Inbox, django_capture_on_commit_callbacks: Any
) -> None:
    """What the clubs' invite does: one template (templates/mail/invites.txt) and one call,
    ``jobs.task_on_commit("mail_send", "invites", user_id, invite_id, context)``."""
    anna = player("anna", language="nl")
    bill = player("bill", language="en", mail_invites=False)
    context = {"club": "De Troefkaart", "invited_by": "cor", "url": "https://x.example/j/ab12/"}
    with django_capture_on_commit_callbacks(execute=True):
        jobs.task_on_commit("mail_send", "invites", anna.pk, 7, context)
        jobs.task_on_commit("mail_send", "invites", anna.pk, 7, context)  # the same invite
        jobs.task_on_commit("mail_send", "invites", bill.pk, 7, context)
    (message,) = smtp.messages()
    assert message["To"] == "anna@example.org"
    assert message["Subject"] == "Een uitnodiging voor de club De Troefkaart"
    body = text_of(message)
    assert "cor nodigt je uit om lid te worden van de club De Troefkaart." in body
    assert "Neem de uitnodiging hier aan: https://x.example/j/ab12/" in body
    assert "mail over uitnodigingen van clubs aan staat" in body
    # its link turns off the invites only
    assert Client().post(off_path(message)).status_code == 200
    account = Account.objects.get(user=anna)
    assert (account.mail_invites, account.mail_results, account.mail_series) == (False, True, True)
    assert tasks.mail_send.delay("invites", anna.pk, 8, context).get() is False


def test_a_mail_the_smtp_server_refused_is_not_marked_sent_and_goes_out_on_the_retry(
    smtp: Inbox, settings: Any, mailoutbox: list[Any]
) -> None:
    anna = player("anna")
    t = played_tournament([anna])
    closing_services.tournament_close(tournament_id=t.pk)
    reachable = settings.EMAIL_PORT
    settings.EMAIL_PORT = free_port()  # nothing listens there
    with pytest.raises(Retry) as refused:  # the worker runs it again later
        tasks.tournament_results_mail_batch.apply(args=(t.pk, [anna.pk]), throw=True)
    assert isinstance(refused.value.exc, ConnectionRefusedError)
    assert not MailSent.objects.exists()
    assert smtp.envelopes == []
    settings.EMAIL_PORT = reachable
    assert tasks.tournament_results_mail.delay(t.pk).get() == 1
    (message,) = smtp.messages("anna@example.org")
    assert message["Subject"] == "De uitslag van Najaarstoernooi is definitief"
    assert MailSent.objects.filter(user=anna, kind="results", object_id=t.pk).count() == 1


def test_the_owner_invites_a_player_by_name_who_gets_the_link_by_mail_and_joins(
    smtp: Inbox, django_capture_on_commit_callbacks: Any
) -> None:
    """A club's owner invites a player by name on the club's page: the player receives a
    link of their own in their own language (a real SMTP server); inviting again sends
    again (a new link, the earlier one withdrawn); renewing the club's code leaves the
    personal link working; the player joins with it."""
    owner = factories.make_user("cor")
    club = factories.make_club("De Troefkaart", owner=owner)
    bill = player("bill", language="en")
    page = Client()
    page.force_login(owner)
    invite = reverse("club_invite_player", args=[club.slug])
    for name in ("Bill", "bill"):
        with django_capture_on_commit_callbacks(execute=True):
            assert page.post(invite, {"username": name}).status_code == 302
    first, second = smtp.messages()
    assert first["To"] == second["To"] == "bill@example.org"
    assert second["Subject"] == "An invitation to the club De Troefkaart"
    body = text_of(second)
    assert "cor invites you to join the club De Troefkaart." in body
    assert "Turn this mail off with one click:" in body
    links = [
        urlsplit(re.findall(r"https?://\S+/clubs/invitations/\S+/", text_of(m))[0]).path
        for m in (first, second)
    ]
    assert links[0] != links[1]
    assert page.post(reverse("club_invite_renew", args=[club.slug])).status_code == 302
    joiner = Client()
    joiner.force_login(bill)
    assert joiner.get(links[0]).status_code == 410  # replaced by the second invitation
    assert joiner.get(links[1]).status_code == 200
    response = joiner.post(links[1])
    assert response.status_code == 302
    assert club.memberships.filter(user=bill).exists()
    assert joiner.get(links[1])["Location"] == club.get_absolute_url()
    # a member already, or nobody of that name: refused, no mail
    with django_capture_on_commit_callbacks(execute=True):
        page.post(invite, {"username": "bill"})
        page.post(invite, {"username": "niemand"})
    assert len(smtp.messages()) == 2
