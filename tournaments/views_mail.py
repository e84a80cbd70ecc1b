"""The page of the link at the end of every mail (docs/rules.md, "Mail", rule 2): it
turns that kind of mail off for its addressee without logging in.

GET shows what the link turns off and one button; only the POST turns it off (a link
checker or a mail client's preview that follows the link changes nothing). The POST is
also the one-click unsubscribe of RFC 8058 that a mail client sends on its own from the
``List-Unsubscribe`` header (body ``List-Unsubscribe=One-Click``, no cookie, no CSRF
token): the signed link is the proof, so it needs no CSRF check. A link the site did not
sign: 404, nothing changes.
"""

from __future__ import annotations

from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import render
from django.views.decorators.csrf import csrf_exempt
from django.views.decorators.http import require_http_methods

from tournaments import permissions
from tournaments.mail_links import mail_off_read
from tournaments.services import mail as mail_services


@csrf_exempt
@require_http_methods(["GET", "HEAD", "POST"])
def mail_off(request: HttpRequest, token: str) -> HttpResponse:
    off = mail_off_read(token)
    if off is None or not permissions.may_turn_mail_off(token=token):
        raise Http404
    if request.method != "POST":
        return render(request, "tournaments/mail_off.html", {"kind": off.kind, "done": False})
    try:
        _user, kind = mail_services.mail_turn_off(token=token)
    except mail_services.BadMailLink as exc:
        raise Http404 from exc
    return render(request, "tournaments/mail_off.html", {"kind": kind, "done": True})
