"""Staff's fair-play pages (docs/rules.md, "Fair play"): the accounts with flags in any
club; one account's flags across clubs, its linked accounts and its bar, which staff may
lift. Anyone else: 404 (the page does not exist for them). Views only translate HTTP."""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.contrib.auth.models import User
from django.http import Http404, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils.http import urlencode
from django.utils.translation import get_language
from django.utils.translation import gettext_lazy as _
from django.views.decorators.http import require_POST

from tournaments import permissions, views_access
from tournaments.errors import ServiceError
from tournaments.permissions import AuthenticatedHttpRequest
from tournaments.selectors import fairplay as fairplay_selectors
from tournaments.services import fairplay as fairplay_services


@login_required
@views_access.second_factor_required
def fairplay_staff(request: AuthenticatedHttpRequest) -> HttpResponse:
    """Without ``?user=``: the flagged accounts; with it, that account's flags, linked
    accounts and bars."""
    if not permissions.may_see_account_flags(request.user):
        raise Http404
    name = request.GET.get("user", "")[:150].strip()
    context: dict[str, object] = {"accounts": fairplay_selectors.flagged_accounts()}
    if name:
        account = get_object_or_404(User, username=name)
        context = {
            "account": account,
            "reviews": fairplay_selectors.account_reviews(
                user=account, language=get_language() or "nl"
            ),
            "linked": fairplay_selectors.linked_accounts(user=account),
            "bars": fairplay_selectors.account_bars(user=account),
            "barred": fairplay_services.play_barred(user=account),
        }
    return render(request, "tournaments/fairplay_staff.html", context)


@login_required
@require_POST
@views_access.second_factor_required
def fairplay_bar_lift(request: AuthenticatedHttpRequest, user_id: int) -> HttpResponse:
    """Staff lift an account's bar from rated play."""
    if not permissions.may_lift_play_bar(request.user):
        raise Http404
    account = get_object_or_404(User, pk=user_id)
    try:
        fairplay_services.play_bar_lift(account=account, by=request.user)
        messages.success(request, _("The bar is lifted: the account may enter tournaments again."))
    except ServiceError as exc:
        messages.error(request, exc.message())
    return redirect(reverse("fairplay_staff") + "?" + urlencode({"user": account.username}))
