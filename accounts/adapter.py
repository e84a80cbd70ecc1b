"""The site's allauth adapter: the client IP as the log-in throttle reads it, and an
account without a mail address sent to add one after its log-in."""

from __future__ import annotations

from typing import Any

from allauth.account.adapter import DefaultAccountAdapter
from django.http import HttpRequest
from django.urls import reverse

from accounts import preferences
from jokeren import throttle

#: allauth's messages the site does not show.
SILENT = frozenset({"account/messages/logged_in.txt"})


class AccountAdapter(DefaultAccountAdapter):  # type: ignore[misc]
    def get_client_ip(self, request: HttpRequest) -> str:
        """The client as every throttle of the site sees it (``X-Forwarded-For`` only
        from a trusted proxy: ``jokeren.throttle.client_ip``)."""
        return throttle.client_ip(request)

    def get_login_redirect_url(self, request: HttpRequest) -> str:
        """Home, or the page to add a mail address for an account that has none (when
        the log-in named no page to go back to)."""
        user: Any = request.user
        if preferences.asks_for_address(user):
            return reverse("account_email")
        return str(super().get_login_redirect_url(request))

    def add_message(
        self,
        request: HttpRequest,
        level: int,
        message_template: str | None = None,
        message_context: dict[str, Any] | None = None,
        extra_tags: str = "",
        message: str | None = None,
    ) -> None:
        """allauth's messages, less "logged in as": the page's header says who is logged
        in (and a new account has its welcome)."""
        if message_template in SILENT:
            return
        super().add_message(
            request,
            level,
            message_template=message_template,
            message_context=message_context,
            extra_tags=extra_tags,
            message=message,
        )
