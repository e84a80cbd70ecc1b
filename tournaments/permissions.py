"""Who may see or do what: the one module every page, API endpoint and export asks.

One predicate per rule, each citing the rule in docs/rules.md. The viewers: a visitor
(anonymous), an entrant (by the rounds they have finished), a logged-in user who has not
entered, a club's member, an organizer (or the owner) of the tournament's club or of
another club, staff, and a request under ``/api/`` with a personal API token
(``tournaments.tokens``: that token's user, exactly as if they were logged in; a token
opens no page outside ``/api/``).

A page answers 404 where the thing must stay hidden (someone else's game, a replay before
the close, another club's tournament on the organizer's pages, a private tournament),
and 403 where the viewer lacks the role (not an organizer) or, on the API, is not logged
in. ``tests/tournaments/test_club_matrix.py`` holds the answer of every role to every
club action in one table. ``ROUTES`` names the rule of every address
of the site; ``tests/tournaments/test_permissions.py`` fails on an address without one.

**Ownership (docs/rules.md, "Clubs: members, organizers, who may enter", and "Tournaments
and the site", rule 23).** Every tournament and series belongs to a club. The club's
organizers and its owner act (edit, close, see the entries, answer an audit) on every
tournament of their club, staff on every one. Another club's tournament is not found (404)
on those pages; someone who organizes no club gets 403. **Who may enter** (``access``):
anyone (public), the club's members, or the members and whoever has the tournament's
invite code; a private tournament is not found (404) and not listed for anyone else.
"""

from __future__ import annotations

import hmac
from typing import Any, TypeGuard

from allauth.account.models import EmailAddress
from allauth.mfa.models import Authenticator
from django.contrib.auth.models import User
from django.db.models import Exists, OuterRef, Q, QuerySet
from django.http import HttpRequest
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

from tournaments.errors import BotsNotAdmitted, NotAMember
from tournaments.mail_links import mail_off_read
from tournaments.models import (
    Access,
    Account,
    Club,
    Entry,
    Game,
    Membership,
    Series,
    Tournament,
    WhatIf,
)
from tournaments.selectors import clubs as club_selectors
from tournaments.selectors import standings as standings_selectors
from tournaments.selectors.standings import Visibility

#: The group that made an organizer before clubs (migration 0016_clubs made each of its members
#: an organizer of the default club); it grants nothing now.
ORGANIZERS_GROUP = "organizers"
#: The roles that run a club's tournaments and series.
ORGANIZING_ROLES = (Membership.Role.OWNER, Membership.Role.ORGANIZER)


class AuthenticatedHttpRequest(HttpRequest):
    """The request of a view behind ``login_required``: its user is logged in (for the type
    checker only; Django never makes one)."""

    user: User


def _user_id(user: Any) -> int | None:
    """The logged-in user's id, ``None`` for a visitor (or no user)."""
    if user is None or not getattr(user, "is_authenticated", False):
        return None
    pk: int | None = user.pk
    return pk


def is_logged_in(user: Any) -> TypeGuard[User]:
    """A logged-in user (a session, or an API token under ``/api/``): what every page of
    one's own (the table, practice, "My games", the account) and every write asks first
    (docs/rules.md, "Tournaments and the site", rule 23)."""
    return _user_id(user) is not None


def is_staff(user: Any) -> bool:
    """Site staff: they act on every club's tournaments and create clubs (docs/rules.md,
    "Clubs: members, organizers, who may enter", rule 1)."""
    return bool(getattr(user, "is_authenticated", False) and user.is_staff)


def club_role(*, user: Any, club: Club | int) -> str | None:
    """The user's role in ``club`` (``Membership.Role``), ``None`` for a non-member or a
    visitor."""
    uid = _user_id(user)
    if uid is None:
        return None
    club_id = club if isinstance(club, int) else club.pk
    role: str | None = (
        Membership.objects.filter(club_id=club_id, user_id=uid).values_list("role", flat=True)
    ).first()
    return role


def is_club_member(*, user: Any, club: Club | int) -> bool:
    """A member of ``club`` in any role: who sees and enters its members-only tournaments
    (docs/rules.md, "Clubs: members, organizers, who may enter", rule 5)."""
    return club_role(user=user, club=club) is not None


def is_club_organizer(*, user: Any, club: Club | int) -> bool:
    """An organizer or the owner of ``club``: who runs its tournaments and series
    (docs/rules.md, "Clubs: members, organizers, who may enter", rule 3)."""
    return club_role(user=user, club=club) in ORGANIZING_ROLES


def organizer_clubs(user: Any) -> QuerySet[Club]:
    """The clubs whose tournaments and series ``user`` may create: where they are an
    organizer or the owner; staff every club (docs/rules.md, "Clubs: members, organizers,
    who may enter", rule 3)."""
    if is_staff(user):
        return Club.objects.all()
    uid = _user_id(user)
    if uid is None:
        return Club.objects.none()
    return Club.objects.filter(
        memberships__user_id=uid, memberships__role__in=ORGANIZING_ROLES
    ).distinct()


def is_organizer(user: Any) -> bool:
    """Staff, or an organizer (or owner) of some club: who may see the organizer's pages
    (docs/rules.md, "Clubs: members, organizers, who may enter", rule 3, and "Tournaments
    and the site", rule 23)."""
    if not getattr(user, "is_authenticated", False):
        return False
    if user.is_staff:
        return True
    return Membership.objects.filter(user_id=user.pk, role__in=ORGANIZING_ROLES).exists()


def is_bot(user: Any) -> bool:
    """A logged-in bot account (``Account.is_bot``)."""
    if not getattr(user, "is_authenticated", False):
        return False
    return Account.objects.filter(user_id=user.pk, is_bot=True).exists()


# --- Accounts (docs/rules.md, "Accounts") -----------------------------------------------------


def verified_user_ids() -> Any:
    """The ids of the accounts whose mail address is verified (its primary address, the
    one on the account, allauth's ``EmailAddress``): a query for a ``user_id__in``
    filter."""
    return EmailAddress.objects.filter(primary=True, verified=True).values("user_id")


def has_verified_address(user: Any) -> bool:
    """A logged-in account whose mail address is verified: only it gets mail, and only
    its entries count for the ratings (docs/rules.md, "Accounts", rules 2 and 3)."""
    return club_selectors.has_verified_address(user=user)


def has_second_factor(user: Any) -> bool:
    """A logged-in account with a TOTP authenticator (allauth.mfa; its recovery codes
    come with it)."""
    user_id = _user_id(user)
    return (
        user_id is not None
        and Authenticator.objects.filter(user_id=user_id, type=Authenticator.Type.TOTP).exists()
    )


def needs_second_factor(user: Any) -> bool:
    """Staff and a club's owners and organizers act on a tournament or a club only with
    a second factor: until they have set one up, the organizer's pages send them to set
    it up (docs/rules.md, "Accounts", rule 6)."""
    return is_organizer(user) and not has_second_factor(user)


def plays_unrated(user: Any) -> bool:
    """A logged-in human account whose entries count for no rating because its address
    is not verified (the tournament's page says so; a bot account is never rated)."""
    return is_logged_in(user) and not has_verified_address(user) and not is_bot(user)


def check_admits(*, tournament: Tournament, user: Any) -> None:
    """Refuse a bot account's entry into a tournament that does not admit bots
    (docs/rules.md, "Clubs", rule 4)."""
    if not tournament.admits_bots and is_bot(user):
        raise BotsNotAdmitted.of(_("This tournament does not admit bot accounts."))


# --- Tournaments: the organizer's pages ------------------------------------------------------


def may_create_tournament(user: Any) -> bool:
    """An organizer (or the owner) of a club, or staff, creates tournaments, each in one of
    the clubs they organize (docs/rules.md, "Clubs: members, organizers, who may enter",
    rule 3, and "Tournaments and the site", rule 23)."""
    return is_organizer(user) and organizer_clubs(user).exists()


def may_create_series(user: Any) -> bool:
    """An organizer (or the owner) of a club, or staff, creates series, each in one of the
    clubs they organize (docs/rules.md, "Clubs", rule 1, and "Clubs: members, organizers,
    who may enter", rule 3)."""
    return is_organizer(user) and organizer_clubs(user).exists()


def may_create_in_club(*, user: Any, club: Club) -> bool:
    """A new tournament or series of ``club``: its organizers and owner, and staff
    (docs/rules.md, "Clubs: members, organizers, who may enter", rule 3); none in a
    suspended club (rule 7)."""
    if club.suspended_at is not None:
        return False
    return is_staff(user) or is_club_organizer(user=user, club=club)


def may_manage_tournament(*, user: Any, tournament: Tournament) -> bool:
    """The ownership rule (docs/rules.md, "Clubs: members, organizers, who may enter",
    rule 3, and "Tournaments and the site", rule 23): staff act on every tournament; the
    organizers and the owner of its club on the club's tournaments. Anyone else never (the
    pages answer 403 to someone who organizes no club; 404 for another club's tournament)."""
    if is_staff(user):
        return True
    return is_club_organizer(user=user, club=tournament.club_id)


def may_edit_tournament(*, user: Any, tournament: Tournament) -> bool:
    """Change a tournament's settings (rule 23; rule 4 locks some once anyone entered, a
    closed tournament is not changed): its club's organizers and owner, or staff."""
    return may_manage_tournament(user=user, tournament=tournament)


def may_close_tournament(*, user: Any, tournament: Tournament) -> bool:
    """Close a tournament early (rule 23): its club's organizers and owner, or staff."""
    return may_manage_tournament(user=user, tournament=tournament)


def may_see_entries(*, user: Any, tournament: Tournament) -> bool:
    """The organizer's list of entrants with their audit state (rules 10 and 23): its
    club's organizers and owner, or staff. The results in it follow section 4."""
    return may_manage_tournament(user=user, tournament=tournament)


def entries_visibility(*, user: Any, tournament: Tournament) -> Visibility:
    """The places on the organizer's list of entrants (docs/rules.md section 4, "The
    organizer's list of entrants"): an organizer or staff member who has not entered sees
    every ranked entrant's place over the rounds played so far, as an entrant whose game
    is over would, unless the results are hidden until the close; one who entered sees
    what any entrant sees (``results_visibility``)."""
    seen = results_visibility(user=user, tournament=tournament)
    if seen.final or tournament.hide_results:
        return seen
    if is_logged_in(user) and tournament.entries.filter(user_id=user.pk).exists():
        return seen
    return Visibility(rounds=tournament.rounds)


def may_audit(*, user: Any, tournament: Tournament) -> bool:
    """Audit an entry again or resolve its review (rule 10, rule 23): its club's
    organizers and owner, or staff."""
    return may_manage_tournament(user=user, tournament=tournament)


def may_review_fair_play(*, user: Any, tournament: Tournament) -> bool:
    """See a tournament's fair-play flags with their evidence (the linked accounts, the
    telling decisions) and clear or disqualify a flagged entry (docs/rules.md, "Fair
    play"): its club's organizers and owner, or staff."""
    return may_manage_tournament(user=user, tournament=tournament)


def may_see_account_flags(user: Any) -> bool:
    """See an account's fair-play flags across every club, its linked accounts and its
    bar (docs/rules.md, "Fair play"): staff only."""
    return is_staff(user)


def may_lift_play_bar(user: Any) -> bool:
    """Lift an account's bar from rated play (docs/rules.md, "Fair play"): staff only."""
    return is_staff(user)


# --- Clubs: members, organizers, who may enter -----------------------------------------------


def may_manage_members(*, user: Any, club: Club) -> bool:
    """Appoint and demote organizers, see the invite and renew it, hand the club over,
    remove or ban a member, decide requests to join, invite players and withdraw
    invitations, the club's settings (docs/rules.md, "Clubs: members, organizers, who may
    enter", rules 2, 7 and 8): the club's owner, or staff."""
    return is_staff(user) or club_role(user=user, club=club) == Membership.Role.OWNER


def may_create_club(user: Any) -> bool:
    """Create a club on the site (docs/rules.md, "Clubs: members, organizers, who may
    enter", rule 7): a logged-in player (not a bot account) with a verified mail address,
    up to ``CLUBS_PER_PLAYER`` clubs (the service refuses the one too many); staff too."""
    if is_staff(user):
        return True
    return is_logged_in(user) and not is_bot(user) and has_verified_address(user)


def may_see_club(*, user: Any, club: Club) -> bool:
    """A club's page and its API answer (rule 7): anyone's, but a suspended club's only
    its members' and staff's (to anyone else it is not found)."""
    if club.suspended_at is None:
        return True
    return is_staff(user) or is_club_member(user=user, club=club)


def may_see_members(*, user: Any, club: Club) -> bool:
    """The member list of ``club`` (rule 7): its owner and organizers, and staff."""
    return is_staff(user) or is_club_organizer(user=user, club=club)


def may_announce(*, user: Any, club: Club) -> bool:
    """Mail an announcement to ``club``'s members (rule 9): its owner and organizers;
    not in a suspended club."""
    return club.suspended_at is None and is_club_organizer(user=user, club=club)


def may_see_announcements(*, user: Any, club: Club) -> bool:
    """The announcements on ``club``'s page (rule 9): its members and staff."""
    return is_staff(user) or is_club_member(user=user, club=club)


def may_suspend_club(user: Any) -> bool:
    """Suspend a club or lift its suspension (rule 7): staff only."""
    return is_staff(user)


def may_leave_club(*, user: Any, club: Club) -> bool:
    """Leave a club (docs/rules.md, "Clubs: members, organizers, who may enter", rule 2):
    a member in any role, except the club's last owner."""
    role = club_role(user=user, club=club)
    if role is None:
        return False
    if role != Membership.Role.OWNER:
        return True
    return Membership.objects.filter(club=club, role=Membership.Role.OWNER).count() > 1


def code_matches(*, given: str, expected: str) -> bool:
    """An invite code typed or in a link, against the one stored (an empty one never
    matches), compared in constant time."""
    return bool(expected) and hmac.compare_digest(given.strip().encode(), expected.encode())


def _has_entered(*, user: Any, tournament_id: int) -> bool:
    uid = _user_id(user)
    return (
        uid is not None and Entry.objects.filter(tournament_id=tournament_id, user_id=uid).exists()
    )


def may_see_tournament(*, user: Any, tournament: Tournament, code: str = "") -> bool:
    """Who sees a tournament, its pages, exports, games and API (docs/rules.md, "Clubs:
    members, organizers, who may enter", rule 5): a public one anyone; a members-only or
    invite one its club's members (any role), staff, whoever entered it, and for an
    invite one whoever brings its invite code. Anyone else: not found (404), not listed."""
    if tournament.access == Access.PUBLIC or is_staff(user):
        return True
    if is_club_member(user=user, club=tournament.club_id):
        return True
    if _has_entered(user=user, tournament_id=tournament.pk):
        return True
    return tournament.access == Access.INVITE and code_matches(
        given=code, expected=tournament.invite_code
    )


def may_enter_tournament(*, user: Any, tournament: Tournament, code: str = "") -> bool:
    """Who may enter (docs/rules.md, "Clubs: members, organizers, who may enter", rule 5):
    anyone logged in a public one; a members-only one the club's members; an invite one
    the members and whoever brings its invite code."""
    if not is_logged_in(user):
        return False
    if tournament.access == Access.PUBLIC:
        return True
    if is_club_member(user=user, club=tournament.club_id):
        return True
    return tournament.access == Access.INVITE and code_matches(
        given=code, expected=tournament.invite_code
    )


def check_may_enter(*, tournament: Tournament, user: Any, code: str = "") -> None:
    """Refuse an entry that ``may_enter_tournament`` does not allow (``403 not_a_member``;
    docs/rules.md, "Clubs: members, organizers, who may enter", rule 5)."""
    if not may_enter_tournament(user=user, tournament=tournament, code=code):
        raise NotAMember.of(_("Only the club's members (or who has its invite code) may enter."))


def listed_tournaments(user: Any) -> Q:
    """The tournaments a list, an export or the API lists for ``user`` (docs/rules.md,
    "Clubs: members, organizers, who may enter", rule 6): the public ones, and the
    private ones ``may_see_tournament`` shows them without a code (their clubs', the ones
    they entered; staff every one)."""
    if is_staff(user):
        return Q()
    uid = _user_id(user)
    public = Q(access=Access.PUBLIC)
    if uid is None:
        return public
    # EXISTS, not joins: a row once, however many members and entries it has.
    member = Membership.objects.filter(club_id=OuterRef("club_id"), user_id=uid)
    entered = Entry.objects.filter(tournament_id=OuterRef("pk"), user_id=uid)
    return public | Q(Exists(member)) | Q(Exists(entered))


def visible_tournaments(user: Any) -> QuerySet[Tournament]:
    """``Tournament.objects`` filtered by ``listed_tournaments``."""
    return Tournament.objects.filter(listed_tournaments(user))


def rating_tournaments(user: Any) -> QuerySet[Tournament]:
    """The tournaments whose share of a player's rating ``user`` may see (docs/rules.md,
    "Ratings", rule 7): on a player's page and in the API, in the rating history and on the
    rating lists, the counts of tournaments, the moment a rating last moved and each change
    come only from these: the ones ``user`` may see (public; their clubs'; the ones they
    entered; staff every one)."""
    return visible_tournaments(user)


def may_see_club_ratings(*, user: Any, club: Club) -> bool:
    """The rating list of a club's members (docs/rules.md, "Ratings", rule 7): its
    members and staff; anyone when the club made it public (``Club.ratings_public``)."""
    return club.ratings_public or is_staff(user) or is_club_member(user=user, club=club)


def may_see_series(*, user: Any, series: Series) -> bool:
    """A series, its page, its season and their exports (docs/rules.md, "Clubs: members,
    organizers, who may enter", rule 5): a public one anyone; a private one its club's
    members, staff and whoever entered one of its editions."""
    if series.access == Access.PUBLIC or is_staff(user):
        return True
    if is_club_member(user=user, club=series.club_id):
        return True
    uid = _user_id(user)
    return uid is not None and Entry.objects.filter(tournament__series=series, user_id=uid).exists()


def visible_series(user: Any) -> QuerySet[Series]:
    """The series a list shows ``user`` (the same rule as ``may_see_series``, docs/rules.md,
    "Clubs: members, organizers, who may enter", rule 6)."""
    if is_staff(user):
        return Series.objects.all()
    uid = _user_id(user)
    rule = Q(access=Access.PUBLIC)
    if uid is not None:
        member = Membership.objects.filter(club_id=OuterRef("club_id"), user_id=uid)
        entered = Entry.objects.filter(tournament__series_id=OuterRef("pk"), user_id=uid)
        rule |= Q(Exists(member)) | Q(Exists(entered))
    return Series.objects.filter(rule)


# --- Tournaments: what everyone sees ---------------------------------------------------------


def results_visibility(*, user: Any, tournament: Tournament) -> Visibility:
    """Which rounds' results ``user`` may see of ``tournament`` (docs/rules.md section 4,
    "you see only the rounds you have played", and rule 20): after the close everything;
    during the window an entrant who has finished k rounds the results of rounds 1..k
    (every round once their game is over); a visitor, a non-entrant and an entrant with
    no finished round (or any viewer while the organizer hides the results) who entered
    and how far they are, no scores. The organizer and staff see what anyone sees. The
    rule reads the kept results where they are (``selectors.standings``); the
    leaderboard, the per-deal tables, the standings API and CSV, the entries page and
    "My games" all read it through the standings selectors."""
    return standings_selectors.results_visibility(tournament=tournament, user=user)


def may_see_verification(*, tournament: Tournament) -> bool:
    """The secret and every round's deal (docs/rules.md section 5, rule 7): once the
    tournament has closed, for anyone; before, the page shows the commitment only."""
    return tournament.is_closed


def may_download_records(*, tournament: Tournament) -> bool:
    """The zip of every finished game's record (docs/rules.md, "Clubs", rule 3, and rule
    11): once the tournament has closed, for anyone; not found before."""
    return tournament.is_closed


def may_play_deal_again(*, user: Any, tournament: Tournament) -> bool:
    """ "Opnieuw spelen", a round of a tournament from its start (rule 18): anyone logged
    in who may see the tournament, once it has closed (refused with the reason before)."""
    return (
        is_logged_in(user)
        and tournament.is_closed
        and may_see_tournament(user=user, tournament=tournament)
    )


# --- Games -----------------------------------------------------------------------------------


def deal_tournament(*, game: Game) -> Tournament | None:
    """The tournament whose deal ``game`` plays: its own, or, for a practice game started
    from a position of another game (``WhatIf``, "speel vanaf hier", "opnieuw spelen"),
    its source's, followed back to the first game. ``None``: a practice game on its own
    deals. Whatever shows a hidden card of such a deal waits for that tournament's close
    (docs/rules.md rule 18)."""
    seen: set[int] = set()
    while game.entry_id is None and game.pk not in seen:
        seen.add(game.pk)
        origin = (
            WhatIf.objects.filter(game_id=game.pk)
            .select_related("source__entry__tournament")
            .first()
        )
        if origin is None:
            return None
        game = origin.source
    return game.tournament


def may_view_game(*, user: Any, game: Game) -> bool:
    """The table and the play API of a game (docs/rules.md section 4, each entrant at
    their own table, and rule 23; docs/api.md): its own player only, at any time; anyone
    else's game is not found (404; a logged-out API call 403)."""
    uid = _user_id(user)
    return uid is not None and game.user_id == uid


def may_review(*, user: Any, game: Game) -> bool:
    """The review of a game (rule 19: the log as the table showed it and the strong bot's
    view of the player's decisions, no hidden card): its own player, once it is finished,
    before the close too."""
    return may_view_game(user=user, game=game) and game.is_finished


def may_replay(*, user: Any, game: Game) -> bool:
    """Every hand, step by step, and the strong bot's view of them (rules 7 and 18): a
    tournament's game once the tournament has closed, for anyone; a practice game once it
    is finished, for its player, and when it plays a tournament's deal (started from a
    position of one of its games) not before that tournament has closed either."""
    if game.entry_id is not None:
        t = game.tournament
        return t is not None and t.is_closed and may_see_tournament(user=user, tournament=t)
    if not game.is_finished or game.user_id != _user_id(user):
        return False
    tournament = deal_tournament(game=game)
    return tournament is None or tournament.is_closed


def may_see_sheet(*, user: Any, game: Game) -> bool:
    """The score sheet (rule 13): whoever may replay the game, and its own player at any
    time (their finished rounds, which their table's score panel shows too). Nobody else
    sees a tournament game's sheet before the close."""
    return may_replay(user=user, game=game) or game.user_id == _user_id(user)


def may_download_record(*, user: Any, game: Game) -> bool:
    """The game record as a JSON download (rule 11): a finished game whose replay the user
    may see, never a what-if game's (rule 18: it holds its source's secret)."""
    if not game.is_finished or not may_replay(user=user, game=game):
        return False
    return not WhatIf.objects.filter(game=game).exists()


def may_start_what_if(*, user: Any, game: Game) -> bool:
    """ "Speel vanaf hier" from a finished game (rule 18): its own player at any time,
    anyone logged in once its tournament has closed."""
    uid = _user_id(user)
    if not game.is_finished or uid is None:
        return False
    if game.user_id == uid:
        return True
    t = game.tournament
    return t is not None and t.is_closed and may_see_tournament(user=user, tournament=t)


def may_split(*, user: Any, game: Game) -> bool:
    """Where two games split (rule 17): games of a closed tournament, for anyone who may
    see the tournament (the other game of the same tournament); nothing before the close,
    no practice game."""
    t = game.tournament
    return t is not None and t.is_closed and may_see_tournament(user=user, tournament=t)


# --- The card table ---------------------------------------------------------------------------


def may_see_round_cards(*, game: Game, now: Any = None) -> bool:
    """The cards of the round a game is in (the table, the play API): always, but in a
    live club evening only once that round's slot has opened, for everyone at once
    (docs/rules.md §7, "Live club evening (clubavond)"): an entrant who finished a round
    early waits, and nobody sees a round's cards before it opens. A finished game, and
    any game once its tournament has closed, shows its last round."""
    t = game.tournament
    if t is None or not t.live or t.is_closed or game.is_finished:
        return True
    if game.round_index >= len(t.live_slots):
        return False
    return bool(t.live_slot(game.round_index)[0] <= (now or timezone.now()))


def may_see_live_board(*, tournament: Tournament) -> bool:
    """The lobby of a live evening and what it polls (its countdown, where the evening
    is, the board of the rounds whose slot has closed): whoever may see the tournament
    (docs/rules.md §7, "Live club evening (clubavond)")."""
    return tournament.live


def may_see_round_hands(*, game: Game, round_index: int | None = None) -> bool:
    """Every seat's remaining cards at a round's end (docs/rules.md, "The card table",
    rule 2): shown only where no second account can still use them to know a deal before
    playing it. A tournament's game: once the tournament has closed (or its closing time
    has passed: nobody plays it any more), in a deal pool (``pool_copies`` > 1), or anyway
    in a members-only tournament whose organizer chose to show them
    (``Tournament.show_round_hands``). A practice game:
    always, unless it is a "play from here" game on the deal of a tournament that still
    runs (the hands would be that tournament's). Otherwise the round's end shows the
    points and how many cards each seat has left, and the hands come with the close (the
    replay). A live club evening: round ``round_index`` (the round that ended) once its
    slot has closed for everyone (nobody plays that deal any more)."""
    tournament = game.tournament
    if tournament is None:
        what_if = (
            WhatIf.objects.filter(game_id=game.pk)
            .select_related("source__entry__tournament")
            .first()
        )
        tournament = what_if.source.tournament if what_if is not None else None
    if tournament is None:
        return True
    if tournament.is_closed or timezone.now() >= tournament.closes_at:
        return True
    # A live evening: the slot of that round has closed for everyone (docs/rules.md §7).
    if tournament.live and round_index is not None:
        if round_index < tournament.live_slots_closed:
            return True
        if round_index < len(tournament.live_slots):
            return bool(timezone.now() >= tournament.live_slot(round_index)[1])
    # A deal pool: each round in k copies, an entrant's drawn when they start it; another
    # account gets the same copy in only 1/k of the cases (docs/rules.md §5).
    if tournament.pool_copies > 1:
        return True
    return tournament.show_round_hands and tournament.access == Access.MEMBERS


# --- Mail -------------------------------------------------------------------------------------


def may_turn_mail_off(*, token: str) -> bool:
    """The link at the end of every mail turns that kind of mail off for its addressee,
    for whoever holds it, logged in or not: the site signed it (docs/rules.md, "Mail",
    rule 2). A token it did not sign is not found (404)."""
    return mail_off_read(token) is not None


# --- Every address and its rule --------------------------------------------------------------

#: Marker rules of ``ROUTES`` that are no predicate of this module.
PUBLIC = "public"
#: A page of the project itself (log-in, sign-up, the language switch, the catalogue).
SITE = "site"

#: The rule of every named address of the site (``jokeren/urls.py`` with
#: ``tournaments/urls.py``; the admin is Django's, staff only), by URL name: the name of
#: the predicate of this module the view asks, ``is_logged_in`` for a page of one's own,
#: or ``PUBLIC``. A view may ask more than one (a replay page asks ``may_download_record``
#: for its download link; a tournament's page shows the results ``results_visibility``
#: allows, the verification what ``may_see_verification`` allows); the one named here
#: decides whether the address answers at all.
ROUTES: dict[str, str] = {
    # the project
    "home": PUBLIC,
    "api_ping": PUBLIC,
    "favicon": PUBLIC,
    "signup": SITE,
    "login": SITE,
    "logout": SITE,
    "set_language": SITE,
    "javascript-catalog": SITE,
    # tournaments
    "tournament_create": "may_create_tournament",
    "tournament_detail": "may_see_tournament",
    "tournament_leaderboard": "may_see_tournament",
    "tournament_join": "may_enter_tournament",
    "tournament_rules": "may_see_tournament",
    "tournament_verify": "may_see_tournament",
    "tournament_edit": "may_edit_tournament",
    "tournament_entries": "may_see_entries",
    "tournament_close": "may_close_tournament",
    "entry_audit": "may_audit",
    "entry_fair_play": "may_review_fair_play",
    "fairplay_staff": "may_see_account_flags",
    "fairplay_bar_lift": "may_lift_play_bar",
    "tournament_deal_again": "may_play_deal_again",
    "tournament_live": "may_see_live_board",
    "tournament_live_board": "may_see_live_board",
    "api_tournament_live": "may_see_live_board",
    "preset_rules": PUBLIC,
    "practice": "is_logged_in",
    "my_games": "is_logged_in",
    "play": "may_view_game",
    "game_replay": "may_replay",
    "game_record": "may_download_record",
    "game_sheet": "may_see_sheet",
    "game_split": "may_split",
    "game_what_if": "may_start_what_if",
    "game_review": "may_review",
    "tournament_standings_csv": "may_see_tournament",
    "tournament_records_zip": "may_download_records",
    "series_list": PUBLIC,
    "series_create": "may_create_series",
    "series_detail": "may_see_series",
    "series_season_csv": "may_see_series",
    "account": "is_logged_in",
    "account_delete": "is_logged_in",
    "account_export": "is_logged_in",
    "privacy": PUBLIC,
    # the accounts app (allauth's pages: docs/rules.md, "Accounts"): the way in for
    # anyone, the rest one's own
    "account_login": SITE,
    "account_logout": SITE,
    "account_signup": SITE,
    "account_inactive": SITE,
    "account_reset_password": SITE,
    "account_reset_password_done": SITE,
    "account_reset_password_from_key": SITE,
    "account_reset_password_from_key_done": SITE,
    "account_confirm_email": SITE,
    "account_email_verification_sent": SITE,
    "account_confirm_login_code": SITE,
    "mfa_authenticate": SITE,
    "account_email": "is_logged_in",
    "account_change_password": "is_logged_in",
    "account_set_password": "is_logged_in",
    "account_reauthenticate": "is_logged_in",
    "account_request_reauthentication_code": "is_logged_in",
    "account_confirm_reauthentication_code": "is_logged_in",
    "mfa_index": "is_logged_in",
    "mfa_reauthenticate": "is_logged_in",
    "mfa_activate_totp": "is_logged_in",
    "mfa_deactivate_totp": "is_logged_in",
    "mfa_view_recovery_codes": "is_logged_in",
    "mfa_generate_recovery_codes": "is_logged_in",
    "mfa_download_recovery_codes": "is_logged_in",
    # clubs (docs/rules.md, "Clubs: members, organizers, who may enter")
    "clubs_list": PUBLIC,
    "club_detail": "may_see_club",
    "club_join": "is_logged_in",
    "code_enter": "is_logged_in",
    "club_leave": "may_leave_club",
    "club_member_role": "may_manage_members",
    "club_invite_renew": "may_manage_members",
    "club_settings": "may_manage_members",
    "club_create": "may_create_club",
    "club_transfer": "may_manage_members",
    "club_member_remove": "may_manage_members",
    "club_unban": "may_manage_members",
    "club_request_decide": "may_manage_members",
    "club_invite_withdraw": "may_manage_members",
    "club_join_request": "is_logged_in",
    "club_suspend": "may_suspend_club",
    "club_announce": "may_announce",
    "club_invitation": PUBLIC,
    # lists only what a visitor may see (visible_tournaments, visible_series)
    "sitemap": PUBLIC,
    "robots_txt": PUBLIC,
    "club_invite_player": "may_manage_members",
    "mail_off": "may_turn_mail_off",
    # the ratings are public, as the final standings they come from (docs/rules.md,
    # "Ratings")
    "rating_list": "may_see_club_ratings",
    "player_profile": PUBLIC,
    # the API (a token's user is a logged-in user here)
    "api_openapi": PUBLIC,
    "api_docs": PUBLIC,
    "api_tournaments": PUBLIC,
    "api_clubs": PUBLIC,
    "api_club": "may_see_club",
    "api_tournament": "may_see_tournament",
    "api_tournament_join": "may_enter_tournament",
    "api_series": "may_see_series",
    "api_series_season": "may_see_series",
    "api_ratings": "may_see_club_ratings",
    "api_player": PUBLIC,
    "api_game": "may_view_game",
    # the move and the undo: the same rule in the service's one locked read of the game
    # (``services.play``: the user's game by id, else ``Game.DoesNotExist``, 404)
    "api_game_move": "may_view_game",
    "api_game_hint": "may_view_game",
    "api_game_undo": "may_view_game",
    "api_game_meld_readings": "may_view_game",
    "api_tournament_standings": "may_see_tournament",
    # the bots' pace at one's own tables (docs/rules.md, "The card table")
    "api_account_pace": "is_logged_in",
    "api_not_found": PUBLIC,
}
