"""A real SMTP server for the tests that follow the site's mail (aiosmtpd on a free port
of this machine): the fixture ``smtp`` (one of tests/site_fixtures.py's) points the
site's mail at it and gives its ``Inbox``."""

from __future__ import annotations

import email
import socket
from collections.abc import Iterator
from email.message import EmailMessage
from email.policy import default as default_policy
from typing import Any

import pytest
from aiosmtpd.controller import Controller
from aiosmtpd.smtp import SMTP, Envelope, Session


class Inbox:
    """An aiosmtpd handler that keeps every message it is given."""

    def __init__(self) -> None:
        self.envelopes: list[Envelope] = []
        #: the client's address and port of each message: one per SMTP connection
        self.peers: list[Any] = []

    async def handle_DATA(self, server: SMTP, session: Session, envelope: Envelope) -> str:
        self.envelopes.append(envelope)
        self.peers.append(session.peer)
        return "250 Message accepted for delivery"

    def messages(self, to: str | None = None) -> list[EmailMessage]:
        out = []
        for envelope in self.envelopes:
            if to is not None and to not in envelope.rcpt_tos:
                continue
            content = envelope.content
            assert isinstance(content, bytes)
            message = email.message_from_bytes(content, policy=default_policy)
            assert isinstance(message, EmailMessage)
            out.append(message)
        return out


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port: int = s.getsockname()[1]
        return port


@pytest.fixture
def smtp(settings: Any) -> Iterator[Inbox]:
    """A real SMTP server on a free port of this machine, the site's mail sent to it."""
    inbox = Inbox()
    controller = Controller(inbox, hostname="127.0.0.1", port=free_port())
    controller.start()
    settings.EMAIL_BACKEND = "django.core.mail.backends.smtp.EmailBackend"
    settings.EMAIL_HOST = "127.0.0.1"
    settings.EMAIL_PORT = controller.port
    settings.EMAIL_HOST_USER = ""
    settings.EMAIL_HOST_PASSWORD = ""
    settings.EMAIL_USE_TLS = False
    settings.EMAIL_USE_SSL = False
    settings.SITE_URL = "https://kaarten.example.org"
    try:
        yield inbox
    finally:
        controller.stop()
