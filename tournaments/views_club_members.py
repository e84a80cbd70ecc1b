"""HTML pages and forms of a club run by its members (docs/rules.md, "Clubs: members,
organizers, who may enter", rules 7-9): a player creates a club, staff suspend one, the
owner hands it over, removes or bans a member, decides requests to join and withdraws
invitations; a player asks to join; a personal invitation's own link; an announcement to
the members. Views only translate HTTP to services; ``permissions`` decides who may."""

from __future__ import annotations

from django import forms
from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.contrib.auth.models import User
from django.core.exceptions import PermissionDenied
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils.http import urlencode
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy
from django.views.decorators.http import require_POST

from common.forms import RefusesControlCharacters, checks_control_characters
from tournaments import permissions
from tournaments.errors import InvitationGone, ServiceError
from tournaments.models import Club
from tournaments.permissions import AuthenticatedHttpRequest
from tournaments.services import club_announcements, club_invitations
from tournaments.services import clubs as club_services


class ClubForm(RefusesControlCharacters, forms.Form):
    name = forms.CharField(label=gettext_lazy("Name"), max_length=120)
    description = forms.CharField(
        label=gettext_lazy("Description"), max_length=2000, required=False, widget=forms.Textarea
    )


class AnnouncementForm(RefusesControlCharacters, forms.Form):
    subject = forms.CharField(
        label=gettext_lazy("Subject"), max_length=club_announcements.SUBJECT_MAX
    )
    body = forms.CharField(
        label=gettext_lazy("Message"),
        max_length=club_announcements.BODY_MAX,
        widget=forms.Textarea,
    )


def _club(slug: str) -> Club:
    return get_object_or_404(Club, slug=slug)


def _managed(request: HttpRequest, slug: str) -> Club:
    club = _club(slug)
    if not permissions.may_manage_members(user=request.user, club=club):
        raise PermissionDenied
    return club


def _user_of(request: HttpRequest) -> User | None:
    value = str(request.POST.get("user", ""))
    return User.objects.filter(pk=int(value)).first() if value.isdigit() else None


def _done(request: HttpRequest, club: Club, error: ServiceError | None, ok: str) -> HttpResponse:
    if error is not None:
        messages.error(request, error.message())
    else:
        messages.success(request, ok)
    return redirect(club)


@checks_control_characters
@login_required
def club_create(request: AuthenticatedHttpRequest) -> HttpResponse:
    """A player with a verified mail address creates a club and owns it."""
    if not permissions.may_create_club(request.user):
        raise PermissionDenied
    form = ClubForm(request.POST or None)
    status = 200
    if request.method == "POST":
        if form.is_valid():
            try:
                club = club_services.club_create_by_player(
                    name=form.cleaned_data["name"],
                    description=form.cleaned_data["description"],
                    owner=request.user,
                )
            except ServiceError as exc:
                form.add_error(None, exc.message())
            else:
                messages.success(request, _("Your club %(club)s is made.") % {"club": club.name})
                return redirect(club)
        status = 400
    return render(request, "tournaments/club_create.html", {"form": form}, status=status)


@login_required
@require_POST
def club_transfer(request: AuthenticatedHttpRequest, slug: str) -> HttpResponse:
    """The owner hands the club to another member."""
    club = _managed(request, slug)
    to = _user_of(request)
    if to is None:
        messages.error(request, _("Choose a member."))
        return redirect(club)
    owner = request.user
    try:
        club_services.club_transfer(club=club, owner=owner, to=to)
    except ServiceError as exc:
        return _done(request, club, exc, "")
    return _done(
        request, club, None, _("%(name)s owns the club now.") % {"name": to.get_username()}
    )


@login_required
@require_POST
def club_member_remove(request: AuthenticatedHttpRequest, slug: str) -> HttpResponse:
    """The owner removes a member; with ``ban`` they may not come back."""
    club = _managed(request, slug)
    member = _user_of(request)
    if member is None:
        messages.error(request, _("Choose a member."))
        return redirect(club)
    ban = request.POST.get("ban") == "on"
    try:
        club_services.membership_remove(club=club, user=member, ban=ban, by=request.user)
    except ServiceError as exc:
        return _done(request, club, exc, "")
    text = (
        _("%(name)s is removed and barred from the club.")
        if ban
        else _("%(name)s is removed from the club.")
    )
    return _done(request, club, None, text % {"name": member.get_username()})


@login_required
@require_POST
def club_unban(request: AuthenticatedHttpRequest, slug: str) -> HttpResponse:
    club = _managed(request, slug)
    member = _user_of(request)
    if member is not None:
        club_services.club_unban(club=club, user=member)
    return _done(request, club, None, _("The ban is lifted."))


@login_required
@require_POST
def club_join_request(request: AuthenticatedHttpRequest, slug: str) -> HttpResponse:
    """A player asks to join a club that takes members by request."""
    club = _club(slug)
    try:
        club_services.club_join_request(club=club, user=request.user)
    except ServiceError as exc:
        return _done(request, club, exc, "")
    return _done(request, club, None, _("Your request is sent to the club's owner."))


@login_required
@require_POST
def club_request_decide(request: AuthenticatedHttpRequest, slug: str) -> HttpResponse:
    """The owner approves or declines a request to join."""
    club = _managed(request, slug)
    value = str(request.POST.get("request", ""))
    approve = request.POST.get("action") == "approve"
    if not value.isdigit():
        messages.error(request, _("Choose a request."))
        return redirect(club)
    try:
        club_services.club_join_request_decide(club=club, request_id=int(value), approve=approve)
    except ServiceError as exc:
        return _done(request, club, exc, "")
    return _done(request, club, None, _("Approved.") if approve else _("Declined."))


@login_required
@require_POST
def club_invite_withdraw(request: AuthenticatedHttpRequest, slug: str) -> HttpResponse:
    club = _managed(request, slug)
    value = str(request.POST.get("invite", ""))
    try:
        if not value.isdigit():
            raise InvitationGone.of(gettext_lazy("This invitation no longer works."))
        club_invitations.invitation_withdraw(club=club, invite_id=int(value))
    except ServiceError as exc:
        return _done(request, club, exc, "")
    return _done(request, club, None, _("The invitation is withdrawn."))


@login_required
@require_POST
def club_suspend(request: AuthenticatedHttpRequest, slug: str) -> HttpResponse:
    """Staff suspend a club (``suspend=on``) or lift the suspension."""
    if not permissions.may_suspend_club(request.user):
        raise PermissionDenied
    club = _club(slug)
    suspended = request.POST.get("suspend") == "on"
    club_services.club_suspend(club=club, suspended=suspended)
    return _done(
        request,
        club,
        None,
        _("The club is suspended.") if suspended else _("The club's suspension is lifted."),
    )


@checks_control_characters
@login_required
@require_POST
def club_announce(request: AuthenticatedHttpRequest, slug: str) -> HttpResponse:
    """The owner or an organizer mails an announcement to the members."""
    club = _club(slug)
    if not permissions.may_announce(user=request.user, club=club):
        raise PermissionDenied
    form = AnnouncementForm(request.POST)
    if not form.is_valid():
        messages.error(request, _("An announcement needs a subject and a message."))
        return redirect(club)
    try:
        club_announcements.announcement_create(
            club=club,
            author=request.user,
            subject=form.cleaned_data["subject"],
            body=form.cleaned_data["body"],
        )
    except ServiceError as exc:
        return _done(request, club, exc, "")
    return _done(request, club, None, _("The announcement goes to the members by mail."))


def club_invitation(request: HttpRequest, token: str) -> HttpResponse:
    """A personal invitation's own link. A visitor sees whose club it is and signs up or
    logs in through it (the link is kept in the session: they are a member at once,
    ``tournaments/signals.py``); a logged-in player accepts with a button (POST)."""
    invite = club_invitations.invitation_by_token(token=token)
    if invite is None:
        return render(request, "tournaments/club_invitation.html", {"invite": None}, status=404)
    if request.user.is_authenticated and invite.accepted_by_id == request.user.pk:
        return redirect(invite.club)
    works = invite.works
    if request.method == "POST" and request.user.is_authenticated:
        try:
            club_invitations.invitation_accept(token=token, user=request.user)
        except ServiceError as exc:
            messages.error(request, exc.message())
            return redirect(reverse("club_invitation", args=[token]))
        messages.success(request, _("Welcome to %(club)s.") % {"club": invite.club.name})
        return redirect(invite.club)
    if works and not request.user.is_authenticated:
        request.session[club_invitations.SESSION_KEY] = invite.token
    here = reverse("club_invitation", args=[token])
    return render(
        request,
        "tournaments/club_invitation.html",
        {
            "invite": invite,
            "works": works,
            "signup_url": reverse("signup") + "?" + urlencode({"next": here}),
            "login_url": reverse("login") + "?" + urlencode({"next": here}),
        },
        status=200 if works else 410,
    )
