"""What the site keeps in step with a model it does not own: an account renamed (in the
admin, or anywhere else that saves the user) is renamed on its entries' standings rows;
an entry deleted (by the staff, in the admin) leaves its tournament's cached figures; a
log-in is seen from its browser's device (fair play: linked accounts); a log-in (a
sign-up logs in too) after following a personal club invitation's link accepts it: a
member at once (docs/rules.md, "Clubs: members, organizers, who may enter", rule 8)."""

from __future__ import annotations

from typing import Any

from django.conf import settings
from django.contrib import messages
from django.contrib.auth.signals import user_logged_in
from django.db.models.signals import post_delete, post_save
from django.dispatch import receiver
from django.utils.translation import gettext as _

from common.device import device_of
from tournaments.errors import ServiceError
from tournaments.models import Entry, Sighting, Tournament
from tournaments.services import club_invitations
from tournaments.services import fairplay as fairplay_services
from tournaments.services import results as result_services


@receiver(post_save, sender=settings.AUTH_USER_MODEL, dispatch_uid="tournaments.user_renamed")
def _user_saved(
    sender: Any, instance: Any, created: bool, update_fields: Any = None, **kwargs: Any
) -> None:
    # A new account has no rows yet; a save of other fields (the log-in's last_login) keeps
    # the name.
    if created or (update_fields is not None and "username" not in update_fields):
        return
    result_services.user_results_rename(user=instance)


@receiver(post_delete, sender=Entry, dispatch_uid="tournaments.entry_deleted")
def _entry_deleted(sender: Any, instance: Entry, **kwargs: Any) -> None:
    # Its result rows went with it (a cascade): the field's cached figures are stale
    # (none to keep when the tournament itself is being deleted).
    tournament = Tournament.objects.filter(pk=instance.tournament_id).first()
    if tournament is not None:
        result_services.results_changed(tournament=tournament)


@receiver(user_logged_in, dispatch_uid="tournaments.login_seen")
def _logged_in(sender: Any, request: Any, user: Any, **kwargs: Any) -> None:
    fairplay_services.sighting_record(
        user=user, device=device_of(request), kind=Sighting.Kind.LOGIN
    )


@receiver(user_logged_in, dispatch_uid="tournaments.invitation_followed")
def _invitation_followed(sender: Any, request: Any, user: Any, **kwargs: Any) -> None:
    session = getattr(request, "session", None)
    token = session.pop(club_invitations.SESSION_KEY, None) if session is not None else None
    if not token:
        return
    try:
        membership = club_invitations.invitation_accept(token=str(token), user=user)
    except ServiceError as exc:
        messages.error(request, exc.message())
    else:
        messages.success(request, _("Welcome to %(club)s.") % {"club": membership.club.name})
