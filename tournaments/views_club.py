"""HTML pages of clubs (docs/rules.md, "Clubs: members, organizers, who may enter"): the
list, a club's page (its open and recent tournaments as the viewer may see them, its
series with their season rankings, its members' count; to the owner the members and the
invite), joining by the invite link or a typed code, leaving, the owner appointing and
demoting organizers, renewing the invite and inviting a player by name (mailed). Views only
translate HTTP to services."""

from __future__ import annotations

from django import forms
from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.contrib.auth.models import User
from django.core.exceptions import PermissionDenied
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils.http import urlencode
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy
from django.views.decorators.http import require_POST

from engine.registry import GAMES
from tournaments import permissions, views_access
from tournaments.errors import ServiceError
from tournaments.games import module_of
from tournaments.models import Access, Club, JoinMode, Membership, Tournament
from tournaments.permissions import AuthenticatedHttpRequest
from tournaments.selectors import clubs as club_selectors
from tournaments.services import club_invitations
from tournaments.services import clubs as club_services
from tournaments.variant_form import text_of

#: The roles an owner gives on the club's page (an owner is made by staff, in the admin).
OWNER_GIVES = (Membership.Role.ORGANIZER, Membership.Role.MEMBER)


class CodeForm(forms.Form):
    code = forms.CharField(
        label=gettext_lazy("Invite code"),
        max_length=64,
        help_text=gettext_lazy("The code of a club's invite or of a tournament's invite."),
    )


def clubs_list(request: HttpRequest) -> HttpResponse:
    return render(
        request,
        "tournaments/clubs_list.html",
        {
            "clubs": club_selectors.clubs_with_counts(),
            "mine": club_selectors.user_memberships(user=request.user),
            "may_create_club": permissions.may_create_club(request.user),
            "code_form": CodeForm(),
        },
    )


def club_detail(request: HttpRequest, slug: str) -> HttpResponse:
    club = get_object_or_404(Club, slug=slug)
    page = club_selectors.club_page(
        club=club,
        tournaments=permissions.visible_tournaments(request.user),
        series=permissions.visible_series(request.user),
    )
    manages = permissions.may_manage_members(user=request.user, club=club)
    role = permissions.club_role(user=request.user, club=club)
    sees_members = permissions.may_see_members(user=request.user, club=club)
    if not permissions.may_see_club(user=request.user, club=club):
        raise Http404
    return render(
        request,
        "tournaments/club_detail.html",
        {
            "club": club,
            "page": page,
            "role": role,
            "role_label": dict(Membership.Role.choices).get(role, "") if role else "",
            "may_leave": permissions.may_leave_club(user=request.user, club=club),
            "manages": manages,
            "members": club_selectors.club_members(club=club) if sees_members else [],
            "sees_members": sees_members,
            "requests": club_selectors.join_requests(club=club) if manages else [],
            "invites": club_selectors.open_invites(club=club) if manages else [],
            "bans": club_selectors.club_bans(club=club) if manages else [],
            "announcements": club_selectors.announcements(club=club)
            if permissions.may_see_announcements(user=request.user, club=club)
            else [],
            "may_announce": permissions.may_announce(user=request.user, club=club),
            "may_suspend": permissions.may_suspend_club(request.user),
            "has_requested": club_selectors.has_requested(club=club, user=request.user),
            "join_modes": JoinMode.choices,
            "invite_url": request.build_absolute_uri(
                reverse("club_join", args=[club.slug]) + "?" + urlencode({"code": club.invite_code})
            )
            if manages
            else "",
            "may_create": permissions.may_create_in_club(user=request.user, club=club),
            "may_see_ratings": permissions.may_see_club_ratings(user=request.user, club=club),
            "games": [(game, text_of(module_of(game).TITLE)) for game in GAMES],
        },
    )


@login_required
def club_join(request: AuthenticatedHttpRequest, slug: str) -> HttpResponse:
    """The invite link (``?code=``): a page that asks to join; its POST joins."""
    club = get_object_or_404(Club, slug=slug)
    code = str(request.POST.get("code") or request.GET.get("code") or "")[:64]
    if request.method == "POST":
        try:
            club_services.club_join(club=club, user=request.user, code=code)
        except ServiceError as exc:
            messages.error(request, exc.message())
        else:
            messages.success(request, _("Welcome to %(club)s.") % {"club": club.name})
        return redirect(club)
    return render(
        request,
        "tournaments/club_join.html",
        {
            "club": club,
            "code": code,
            "valid": club.join_mode == JoinMode.CODE
            and permissions.code_matches(given=code, expected=club.invite_code),
            "role": permissions.club_role(user=request.user, club=club),
        },
    )


@login_required
def code_enter(request: AuthenticatedHttpRequest) -> HttpResponse:
    """A typed invite code: a club's leads to joining it, a tournament's to its page."""
    form = CodeForm(request.POST or None)
    if request.method == "POST" and form.is_valid():
        code = form.cleaned_data["code"].strip()
        club = club_services.club_by_invite_code(code=code)
        if club is not None:
            return redirect(
                reverse("club_join", args=[club.slug]) + "?" + urlencode({"code": code})
            )
        tournament = Tournament.objects.filter(access=Access.INVITE, invite_code=code).first()
        if tournament is not None:
            return redirect(tournament.get_absolute_url() + "?" + urlencode({"code": code}))
        form.add_error("code", _("No club or tournament has this invite code."))
    return render(request, "tournaments/code_enter.html", {"form": form})


@login_required
@require_POST
def club_leave(request: AuthenticatedHttpRequest, slug: str) -> HttpResponse:
    club = get_object_or_404(Club, slug=slug)
    if permissions.club_role(user=request.user, club=club) is None:
        raise Http404
    try:
        club_services.membership_leave(club=club, user=request.user)
    except ServiceError as exc:
        messages.error(request, exc.message())
    else:
        messages.success(request, _("You have left %(club)s.") % {"club": club.name})
    return redirect(club)


def _managed_club(request: HttpRequest, slug: str) -> Club:
    club = get_object_or_404(Club, slug=slug)
    if not permissions.may_manage_members(user=request.user, club=club):
        raise PermissionDenied
    return club


@login_required
@require_POST
@views_access.second_factor_required
def club_member_role(request: AuthenticatedHttpRequest, slug: str) -> HttpResponse:
    """The owner appoints a member organizer or makes an organizer a member again."""
    club = _managed_club(request, slug)
    role = request.POST.get("role", "")
    user_id = request.POST.get("user", "")
    member = User.objects.filter(pk=int(user_id)).first() if user_id.isdigit() else None
    if member is None or role not in OWNER_GIVES:
        messages.error(request, _("Choose a member and a role."))
        return redirect(club)
    if permissions.club_role(user=member, club=club) == Membership.Role.OWNER:
        messages.error(request, _("An owner's role is changed by the site's staff."))
        return redirect(club)
    try:
        club_services.membership_set_role(club=club, user=member, role=role)
    except ServiceError as exc:
        messages.error(request, exc.message())
    return redirect(club)


@login_required
@require_POST
@views_access.second_factor_required
def club_invite_player(request: AuthenticatedHttpRequest, slug: str) -> HttpResponse:
    """The owner invites a player by name or a mail address: a link of their own goes to
    them by mail."""
    club = _managed_club(request, slug)
    who = str(request.POST.get("username", "")).strip()[:254]
    named = "@" not in who
    try:
        invite = club_invitations.invitation_create(
            club=club,
            invited_by=request.user,
            username=who if named else "",
            email="" if named else who,
        )
    except ServiceError as exc:
        messages.error(request, exc.message())
        return redirect(club)
    if invite.user is None:
        messages.success(
            request, _("%(name)s is invited: the invitation goes by mail.") % {"name": who}
        )
    elif invite.user.email:
        name = invite.user.get_username()
        messages.success(
            request, _("%(name)s is invited: the invitation goes by mail.") % {"name": name}
        )
    else:
        messages.warning(
            request,
            _(
                "%(name)s is invited, but the site has no mail address of theirs:"
                " send them the invitation link yourself."
            )
            % {"name": invite.user.get_username()},
        )
    return redirect(club)


@login_required
@require_POST
@views_access.second_factor_required
def club_invite_renew(request: AuthenticatedHttpRequest, slug: str) -> HttpResponse:
    club = _managed_club(request, slug)
    club_services.club_invite_renew(club=club)
    messages.success(request, _("A new invite link: the old one no longer works."))
    return redirect(club)


@login_required
@require_POST
@views_access.second_factor_required
def club_settings(request: AuthenticatedHttpRequest, slug: str) -> HttpResponse:
    """The owner's settings of the club: whether the members' rating list is public, how
    people join."""
    club = _managed_club(request, slug)
    join_mode = str(request.POST.get("join_mode", "")) or None
    try:
        club_services.club_settings_set(
            club=club,
            ratings_public=request.POST.get("ratings_public") == "on",
            join_mode=join_mode,
        )
    except ServiceError as exc:
        messages.error(request, exc.message())
    else:
        messages.success(request, _("The club's settings are saved."))
    return redirect(club)
