"""Who plays what, and the results. Data and constraints only: the use cases are in
``services/``, the reads in ``selectors/``.

A ``Tournament`` fixes a game module (``engine.registry``), a variant, the rounds, the
bots' level, a window and a secret. An ``Entry`` is one user in one tournament; each
entry plays one ``Game`` (its rounds one after another, as South against three bots).
A practice ``Game`` has no entry and its own secret. The bots are deterministic, so a game
is fully defined by the secret, the variant, the bots' level and version (``bot_version``:
a released version's choices never change) and the entrant's own actions:
each finished round is one ``GameRound`` row holding those actions (compact JSON), and
everything else (the bots' moves, the replay, the audit) is rebuilt through the engine
(``engine.record.replay_round``). The round being played keeps every seat's actions on the
``Game`` (``round_actions``): its state is rebuilt from them on each move, which is as
quick as reading a snapshot and writes a few hundred bytes instead of the whole state.
"""

from __future__ import annotations

import json
from datetime import UTC, datetime
from typing import Any

from django.conf import settings
from django.core.validators import MaxValueValidator, MinValueValidator
from django.db import models
from django.db.models import F, Q
from django.urls import reverse
from django.utils import timezone
from django.utils.translation import gettext_lazy as _
from django.utils.translation import pgettext_lazy

from engine import dealing
from engine.registry import GAMES, game_module

GAME_CHOICES = [(g, g.capitalize()) for g in GAMES]
MAX_ROUNDS = 32
#: The most entrants a tournament may take (the form, the service and the database agree).
MAX_ENTRANTS = 10_000
#: The most editions a series's season counts (``Series.best_k``): far more than a season
#: holds, well inside its column.
MAX_BEST_K = 1000
#: Opening and closing times lie in [DATES_FROM, DATES_UNTIL] (UTC): a sane range that
#: every database and every time zone can hold (year 1 in Europe/Amsterdam is a date
#: before the year 1 in UTC, which PostgreSQL stores but Python cannot read back).
DATES_FROM = datetime(2000, 1, 1, tzinfo=UTC)
DATES_UNTIL = datetime(2100, 1, 1, tzinfo=UTC)
#: Deal pools (docs/rules.md §5, "Deal pools"): at most this many copies of a round, and
#: by field size one copy per ``POOL_ENTRANTS_PER_COPY`` expected entrants.
POOL_MAX_COPIES = 20
POOL_ENTRANTS_PER_COPY = 50


def pool_copies_for(max_entrants: int) -> int:
    """The copies of each round "by field size": one per 50 expected entrants (the
    maximum), at least 1, at most ``POOL_MAX_COPIES``."""
    return max(1, min(POOL_MAX_COPIES, max_entrants // POOL_ENTRANTS_PER_COPY))


class JoinMode(models.TextChoices):
    """How one becomes a member of a club (docs/rules.md, "Clubs: members, organizers,
    who may enter", rule 7)."""

    CODE = "code", _("with the club's invite code or link")
    REQUEST = "request", _("by request, approved by the owner")
    INVITATION = "invitation", _("by personal invitation only")


class Club(models.Model):
    """A club (a "vereniging"): its members with their roles (``Membership``), its
    tournaments and series. Site staff create clubs (the admin); the owner appoints
    organizers and invites members with ``invite_code`` (the invite link carries it;
    renewing it voids the old link). docs/rules.md, "Clubs: members, organizers, who may
    enter"."""

    name = models.CharField(_("name"), max_length=120)
    slug = models.SlugField(_("address"), max_length=60, unique=True)
    description = models.TextField(_("description"), blank=True)
    #: The club's invite: the link ``/clubs/<slug>/join/?code=...`` or the code typed in.
    invite_code = models.CharField(_("invite code"), max_length=32, unique=True)
    #: The members' rating list for everyone (else for the members only: docs/rules.md,
    #: "Ratings", rule 7).
    ratings_public = models.BooleanField(
        _("rating list public"),
        default=False,
        help_text=_("Anyone may see the rating list of the members, not only the members."),
    )
    join_mode = models.CharField(
        _("how to join"), max_length=12, choices=JoinMode.choices, default=JoinMode.CODE
    )
    #: Set by staff: a suspended club takes no members, invitations, announcements,
    #: tournaments or series, and is not listed (docs/rules.md, "Clubs", rule 7).
    suspended_at = models.DateTimeField(_("suspended at"), null=True, blank=True)
    #: The player who created it on the site (``None``: staff in the admin, or before).
    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name="clubs_created",
    )
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["name", "id"]
        verbose_name = _("club")
        verbose_name_plural = _("clubs")

    def __str__(self) -> str:
        return self.name

    def get_absolute_url(self) -> str:
        return reverse("club_detail", args=[self.slug])


class Membership(models.Model):
    """One user in one club with one role: the owner (appoints organizers, invites), an
    organizer (runs the club's tournaments and series) or a member."""

    class Role(models.TextChoices):
        OWNER = "owner", _("owner")
        ORGANIZER = "organizer", _("organizer")
        MEMBER = "member", _("member")

    club = models.ForeignKey(Club, on_delete=models.CASCADE, related_name="memberships")
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="memberships"
    )
    role = models.CharField(_("role"), max_length=10, choices=Role.choices, default=Role.MEMBER)
    joined_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["club", "joined_at", "id"]
        constraints = [
            models.UniqueConstraint(fields=["club", "user"], name="membership_unique_per_user")
        ]

    def __str__(self) -> str:
        return f"{self.user} @ {self.club} ({self.role})"


class ClubInvite(models.Model):
    """A personal invitation to a club (docs/rules.md, "Clubs: members, organizers, who
    may enter", rule 8): of a user by name or of a mail address, with a link of its own
    (``token``) that works until it expires, is withdrawn or is used, whatever happens
    to the club's invite code. Inviting the same person again makes a new invitation (a
    new mail) and withdraws the earlier one."""

    club = models.ForeignKey(Club, on_delete=models.CASCADE, related_name="invites")
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.CASCADE,
        null=True,
        blank=True,
        related_name="club_invites",
    )
    email = models.EmailField(_("mail address"), blank=True)
    token = models.CharField(max_length=40, unique=True)
    invited_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, related_name="+"
    )
    created_at = models.DateTimeField(auto_now_add=True)
    expires_at = models.DateTimeField(_("expires at"))
    withdrawn_at = models.DateTimeField(null=True, blank=True)
    accepted_at = models.DateTimeField(null=True, blank=True)
    accepted_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name="+",
    )
    #: When the mail to an address without an account went out (once).
    mailed_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        indexes = [models.Index(fields=["club", "created_at"], name="club_invite_club")]

    def __str__(self) -> str:
        return f"{self.club} -> {self.user or self.email}"

    @property
    def works(self) -> bool:
        """Not withdrawn, not used and not expired: its link still lets someone in."""
        return (
            self.withdrawn_at is None
            and self.accepted_at is None
            and self.expires_at > timezone.now()
        )


class JoinRequest(models.Model):
    """A player's request to join a club that takes members by request (``JoinMode``):
    the owner or an organizer approves it (a membership) or declines it (deleted)."""

    club = models.ForeignKey(Club, on_delete=models.CASCADE, related_name="join_requests")
    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="+")
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        constraints = [models.UniqueConstraint(fields=["club", "user"], name="join_request_once")]

    def __str__(self) -> str:
        return f"{self.user} -> {self.club}?"


class ClubBan(models.Model):
    """A player the owner removed from a club and barred from it: they cannot join,
    ask to join or accept an invitation until the owner lifts the ban."""

    club = models.ForeignKey(Club, on_delete=models.CASCADE, related_name="bans")
    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="+")
    banned_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, related_name="+"
    )
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        constraints = [models.UniqueConstraint(fields=["club", "user"], name="club_ban_once")]

    def __str__(self) -> str:
        return f"{self.user} banned from {self.club}"


class ClubAnnouncement(models.Model):
    """A message of the owner or an organizer to a club's members: mailed to each member
    once (``services.mail``, kind ``announcements``) and listed on the club's page for
    the members."""

    club = models.ForeignKey(Club, on_delete=models.CASCADE, related_name="announcements")
    author = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, related_name="+"
    )
    subject = models.CharField(_("subject"), max_length=150)
    body = models.TextField(_("message"), max_length=5000)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["-created_at", "-id"]

    def __str__(self) -> str:
        return f"{self.club}: {self.subject}"


class Access(models.TextChoices):
    """Who may enter a tournament (and see it): anyone, the club's members, or the
    members and whoever has the tournament's invite code."""

    PUBLIC = "public", _("public: anyone")
    MEMBERS = "members", _("club members only")
    INVITE = "invite", _("members and whoever has the invite code")


class ContestSettings(models.Model):
    """What a tournament is played with, which a series gives each of its editions: the
    game, its variant, the rounds, the field's size and the bots."""

    name = models.CharField(_("name"), max_length=120)
    game = models.CharField(_("game"), max_length=20, choices=GAME_CHOICES)
    preset = models.CharField(_("variant"), max_length=40)
    variant = models.JSONField(_("variant settings"))
    rounds = models.PositiveSmallIntegerField(
        _("rounds"), default=8, validators=[MinValueValidator(1), MaxValueValidator(MAX_ROUNDS)]
    )
    max_entrants = models.PositiveIntegerField(
        _("maximum entrants"),
        default=10,
        validators=[MinValueValidator(1), MaxValueValidator(MAX_ENTRANTS)],
    )
    bot_level = models.CharField(_("bot level"), max_length=20)
    #: Bot accounts (``Account.is_bot``) may enter (the organizer's choice).
    admits_bots = models.BooleanField(_("admits bot accounts"), default=True)
    #: Who may enter and see it (``permissions.may_see_tournament``).
    access = models.CharField(
        _("who may enter"), max_length=10, choices=Access.choices, default=Access.PUBLIC
    )

    class Meta:
        abstract = True

    @property
    def result_decimals(self) -> int:
        """The decimals its results are shown with (the game's ``RESULT_DECIMALS``)."""
        return game_module(self.game).RESULT_DECIMALS


class Tournament(ContestSettings):
    class Status(models.TextChoices):
        UPCOMING = "upcoming", _("upcoming")
        OPEN = "open", _("open")
        RUNNING = "running", _("running")
        FINISHED = "finished", _("finished")

    #: The bots' version (the game module's ``BOT_VERSION`` when it was created, or when
    #: its game settings last changed before anyone entered): its games are played and
    #: replayed with these bots, also after a newer version is released.
    bot_version = models.PositiveSmallIntegerField(_("bot version"))
    opens_at = models.DateTimeField(_("opens at"))
    closes_at = models.DateTimeField(_("closes at"))
    closed_at = models.DateTimeField(_("closed at"), null=True, blank=True)
    secret = models.BinaryField(max_length=32, editable=False)
    #: Funbridge style: until the close the leaderboard shows only who finished, no scores
    #: (``permissions.results_visibility``).
    hide_results = models.BooleanField(_("results hidden until the close"), default=False)
    #: A members-only tournament whose organizer shows every hand at a round's end while
    #: it runs (``permissions.may_see_round_hands``; docs/rules.md, "The card table").
    show_round_hands = models.BooleanField(
        _("every hand shown at a round's end (members only)"), default=False
    )
    commitment = models.CharField(max_length=64, editable=False)
    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="tournaments_created"
    )
    #: The club it belongs to: its organizers run it (``permissions.may_manage_tournament``).
    club = models.ForeignKey(Club, on_delete=models.PROTECT, related_name="tournaments")
    #: With ``access == "invite"``: the code that lets a non-member see and enter it.
    invite_code = models.CharField(_("invite code"), max_length=32, blank=True, default="")
    #: The series this tournament is an edition of (``tournaments.series``), if any.
    series = models.ForeignKey(
        "Series", on_delete=models.PROTECT, null=True, blank=True, related_name="editions"
    )
    #: Deal pools: each round is dealt in this many copies (1: no pool, every entrant the
    #: same deal); an entry's copy of each round comes from the secret and the entry
    #: (``copy_of``). Fixed once someone has entered (docs/rules.md §5, "Deal pools").
    pool_copies = models.PositiveSmallIntegerField(
        _("copies of each round"),
        default=1,
        validators=[MinValueValidator(1), MaxValueValidator(POOL_MAX_COPIES)],
    )
    #: The organizer chose the copies "by field size" (``pool_copies_for`` the maximum of
    #: entrants, again whenever that changes before anyone entered).
    pool_by_size = models.BooleanField(_("copies by field size"), default=False)
    #: A live club evening (docs/rules.md §7, "Live club evening (clubavond)"): round r is
    #: played by everyone in its slot ``live_slots[r]`` (its opening and closing time, ISO
    #: 8601 in UTC); ``live_slots_closed`` slots have been closed so far (the bot finished
    #: what was left of them, ``services.live.live_slot_close``).
    live = models.BooleanField(_("live club evening"), default=False)
    live_slots = models.JSONField(_("round slots"), default=list, blank=True)
    live_slots_closed = models.PositiveSmallIntegerField(_("slots closed"), default=0)
    #: When the reminder mail before the first round was queued (``services.live``).
    live_reminded_at = models.DateTimeField(_("reminder sent at"), null=True, blank=True)
    created_at = models.DateTimeField(auto_now_add=True)
    updated_at = models.DateTimeField(auto_now=True)

    class Meta:
        ordering = ["-opens_at", "-id"]
        constraints = [
            # A restarted beat never creates an edition twice.
            models.UniqueConstraint(
                fields=["series", "opens_at"], name="tournament_one_edition_per_start"
            ),
            models.UniqueConstraint(
                fields=["invite_code"],
                condition=~Q(invite_code=""),
                name="tournament_invite_code_unique",
            ),
            models.CheckConstraint(
                condition=Q(closes_at__gt=F("opens_at")), name="tournament_window_positive"
            ),
            models.CheckConstraint(
                condition=Q(rounds__gte=1) & Q(rounds__lte=MAX_ROUNDS), name="tournament_rounds"
            ),
            models.CheckConstraint(
                condition=Q(max_entrants__gte=1) & Q(max_entrants__lte=MAX_ENTRANTS),
                name="tournament_max_entrants",
            ),
            models.CheckConstraint(
                condition=Q(pool_copies__gte=1) & Q(pool_copies__lte=POOL_MAX_COPIES),
                name="tournament_pool_copies",
            ),
            # With closes_at > opens_at this bounds both times.
            models.CheckConstraint(
                condition=Q(opens_at__gte=DATES_FROM) & Q(closes_at__lte=DATES_UNTIL),
                name="tournament_dates_in_range",
            ),
        ]
        indexes = [models.Index(fields=["closed_at", "closes_at"])]

    def __str__(self) -> str:
        return self.name

    def get_absolute_url(self) -> str:
        return reverse("tournament_detail", args=[self.pk])

    @property
    def secret_bytes(self) -> bytes:
        return bytes(self.secret)

    @property
    def is_closed(self) -> bool:
        return self.closed_at is not None

    @property
    def pooled(self) -> bool:
        """Each round is dealt in more than one copy (docs/rules.md §5, "Deal pools")."""
        return self.pool_copies > 1

    def copy_of(self, *, entry_id: int, round_index: int) -> int:
        """The copy of round ``round_index`` entry ``entry_id`` plays (0 without a pool):
        from the secret and the entry (``engine.dealing.pool_copy``)."""
        return dealing.pool_copy(
            self.secret_bytes, entry=entry_id, round_index=round_index, copies=self.pool_copies
        )

    def copy_secret(self, copy: int) -> bytes:
        """The secret copy ``copy`` of every round is dealt from (the tournament's own
        for copy 0)."""
        return dealing.copy_secret(self.secret_bytes, copy)

    def live_slot(self, round_index: int) -> tuple[datetime, datetime]:
        """The opening and closing time of round ``round_index``'s slot (a live evening)."""
        opens, closes = self.live_slots[round_index]
        return datetime.fromisoformat(opens), datetime.fromisoformat(closes)

    def live_round_open(self, round_index: int, now: Any = None) -> bool:
        """Round ``round_index`` of a live evening is being played now: its slot has
        opened and has not closed (nor been closed). Always true outside a live evening."""
        if not self.live:
            return True
        if not 0 <= round_index < len(self.live_slots) or round_index < self.live_slots_closed:
            return False
        now = now or timezone.now()
        opens, closes = self.live_slot(round_index)
        return bool(opens <= now < closes)

    def entries_open(self, now: Any = None) -> bool:
        """Entrants may join now: the window is open and, in a live evening, its first
        round has not opened (docs/rules.md §5, "Live club evening", rule 2)."""
        now = now or timezone.now()
        if not self.window_open(now):
            return False
        return not (self.live and self.live_slots and self.live_slot(0)[0] <= now)

    def window_open(self, now: Any = None) -> bool:
        """Entrants may join and play: opened, not yet at the closing time, not closed."""
        now = now or timezone.now()
        return self.closed_at is None and self.opens_at <= now < self.closes_at

    def status(self, now: Any = None, *, entrants: int | None = None) -> str:
        """upcoming (not open yet), open (joinable), running (full, or past closing time
        while the close is being carried out), finished (closed)."""
        now = now or timezone.now()
        if self.closed_at is not None:
            return self.Status.FINISHED
        if now < self.opens_at:
            return self.Status.UPCOMING
        if now >= self.closes_at:
            return self.Status.RUNNING
        count = self.entries.count() if entrants is None else entrants
        return self.Status.OPEN if count < self.max_entrants else self.Status.RUNNING


class Entry(models.Model):
    """One user in one tournament. ``audit_*``: the last replay audit of the entry's game
    (``services.audit.game_audit``); an entry whose stored scores the replay contradicts is kept
    out of the ranking until the audit passes or an organizer resolves it."""

    class AuditStatus(models.TextChoices):
        UNCHECKED = "unchecked", _("not audited yet")
        OK = "ok", _("verified by replay")
        MISMATCH = "mismatch", _("under review: the replay differs")
        RESOLVED = "resolved", _("resolved by an organizer")

    class FairPlay(models.TextChoices):
        OK = "ok", _("no flag")
        UNDER_REVIEW = "under_review", _("under review: fair play")
        CLEARED = "cleared", _("cleared by an organizer")
        DISQUALIFIED = "disqualified", _("disqualified")

    tournament = models.ForeignKey(Tournament, on_delete=models.CASCADE, related_name="entries")
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="entries"
    )
    joined_at = models.DateTimeField(auto_now_add=True)
    audit_status = models.CharField(
        _("audit"), max_length=10, choices=AuditStatus.choices, default=AuditStatus.UNCHECKED
    )
    #: What the last audit found, one problem a line (empty when it passed).
    audit_detail = models.TextField(_("audit findings"), blank=True)
    audited_at = models.DateTimeField(_("audited at"), null=True, blank=True)
    audit_resolved_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name="+",
        verbose_name=_("resolved by"),
    )

    #: Fair play (docs/rules.md, "Fair play"): a flag (``EntryFlag``) puts the entry under
    #: review; an organizer clears it (ranked again) or disqualifies it, kept with who
    #: decided and when.
    fair_play = models.CharField(
        _("fair play"), max_length=12, choices=FairPlay.choices, default=FairPlay.OK
    )
    fair_play_decided_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name="+",
        verbose_name=_("decided by"),
    )
    fair_play_decided_at = models.DateTimeField(_("decided at"), null=True, blank=True)

    class Meta:
        ordering = ["joined_at", "id"]
        constraints = [
            models.UniqueConstraint(fields=["tournament", "user"], name="entry_unique_per_user")
        ]
        indexes = [
            # A tournament's entries in the order they joined (the organizer's list, a
            # page at a time): a walk of this index, nothing sorted.
            models.Index(fields=["tournament", "joined_at", "id"], name="entry_joined")
        ]

    def __str__(self) -> str:
        return f"{self.user} @ {self.tournament}"

    @property
    def under_review(self) -> bool:
        """The audit found a mismatch that nobody has resolved, or a fair-play flag that no
        organizer has decided on: not ranked (provisional)."""
        return (
            self.audit_status == self.AuditStatus.MISMATCH
            or self.fair_play == self.FairPlay.UNDER_REVIEW
        )

    @property
    def disqualified(self) -> bool:
        """An organizer disqualified the entry (fair play): out of the standings and the
        ratings."""
        return self.fair_play == self.FairPlay.DISQUALIFIED


class Game(models.Model):
    """One player's game: ``rounds`` rounds as South (seat 0) against bots.

    ``seq`` is the number of moves made so far, every seat's (the next move must quote
    it); ``round_actions`` every action of the current round in order (compact JSON of the
    actions' ``to_json``; once the game is over, those of its last round): with the secret
    and the variant they are the round's state (``current_state``). The entrant's own
    actions of each finished round are its ``GameRound`` row.
    """

    class Status(models.TextChoices):
        PLAYING = "playing", _("playing")
        FINISHED = "finished", _("finished")

    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="games"
    )
    entry = models.OneToOneField(
        Entry, on_delete=models.CASCADE, null=True, blank=True, related_name="game"
    )
    game = models.CharField(max_length=20, choices=GAME_CHOICES)
    preset = models.CharField(max_length=40)
    variant = models.JSONField()
    rounds = models.PositiveSmallIntegerField(validators=[MinValueValidator(1)])
    bot_level = models.CharField(max_length=20)
    #: The bots' version the game is played and replayed with (its tournament's; a
    #: practice game's the current one when it started; a what-if game's its source's).
    bot_version = models.PositiveSmallIntegerField()
    #: Practice games only (a tournament game uses its tournament's secret).
    secret = models.BinaryField(max_length=32, null=True, blank=True, editable=False)
    status = models.CharField(max_length=10, choices=Status.choices, default=Status.PLAYING)
    bot_finished = models.BooleanField(default=False)
    seq = models.PositiveIntegerField(default=0)
    round_index = models.PositiveSmallIntegerField(default=0)
    round_actions = models.TextField(default="[]", blank=True)
    totals = models.JSONField(default=list)
    round_scores = models.JSONField(default=list)
    #: One entry per finished round, in the order of ``round_scores``: how it went, from
    #: the player's observation at its end (Klaverjas: the round's ``result`` fields;
    #: Jokeren: ``winner`` and ``end_reason``); ``None`` for a round finished before
    #: this field existed.
    round_results = models.JSONField(default=list, blank=True)
    created_at = models.DateTimeField(auto_now_add=True)
    updated_at = models.DateTimeField(auto_now=True)
    finished_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["-created_at", "-id"]
        constraints = [
            models.CheckConstraint(
                condition=Q(entry__isnull=False) | Q(secret__isnull=False),
                name="game_practice_has_secret",
            ),
        ]

    def __str__(self) -> str:
        return f"{self.game} #{self.pk} ({self.user})"

    def get_absolute_url(self) -> str:
        return reverse("play", args=[self.pk])

    @property
    def tournament(self) -> Tournament | None:
        return self.entry.tournament if self.entry_id else None  # type: ignore[union-attr]

    @property
    def secret_bytes(self) -> bytes:
        if self.entry_id is not None:
            return self.entry.tournament.secret_bytes  # type: ignore[union-attr]
        return bytes(self.secret)  # type: ignore[arg-type]

    def copy_of(self, round_index: int) -> int:
        """The copy of round ``round_index`` this game plays (0 outside a deal pool)."""
        if self.entry_id is None:
            return 0
        t = self.entry.tournament  # type: ignore[union-attr]
        return t.copy_of(entry_id=self.entry_id, round_index=round_index)

    def deal_secret(self, round_index: int) -> bytes:
        """The secret round ``round_index`` of this game is dealt from: its copy's in a
        pooled tournament (docs/rules.md §5, "Deal pools"), else ``secret_bytes``."""
        if self.entry_id is None:
            return bytes(self.secret)  # type: ignore[arg-type]
        t = self.entry.tournament  # type: ignore[union-attr]
        if not t.pooled:
            return t.secret_bytes
        return t.copy_secret(self.copy_of(round_index))

    @property
    def is_finished(self) -> bool:
        return self.status == self.Status.FINISHED

    @property
    def rounds_played(self) -> int:
        return len(self.round_scores)

    @property
    def result_decimals(self) -> int:
        """The decimals its results are shown with (the game's ``RESULT_DECIMALS``)."""
        return game_module(self.game).RESULT_DECIMALS

    def current_state(self) -> Any:
        """The engine state of the current round (the last one once the game is over):
        dealt from the secret and ``round_actions`` applied in order. Kept on the
        instance until the round or its actions change."""
        key = (self.game, self.round_index, self.round_actions)
        cached = self.__dict__.get("_current_state")
        if cached is not None and cached[0] == key:
            return cached[1]
        module = game_module(self.game)
        variant = module.variant_from_json(self.variant)
        state = module.new_round(
            variant, secret=self.deal_secret(self.round_index), round_index=self.round_index
        )
        for action in json.loads(self.round_actions):
            state = state.apply(module.action_from_json(action))
        self.__dict__["_current_state"] = (key, state)
        return state

    def keep_state(self, state: Any) -> None:
        """``state`` is the current round's state as the actions now stored make it (the
        move that stored them has it already): ``current_state`` need not rebuild it."""
        self.__dict__["_current_state"] = ((self.game, self.round_index, self.round_actions), state)

    @property
    def state(self) -> dict[str, Any]:
        """The current round's state as JSON (the engine's ``to_json``), rebuilt."""
        return dict(json.loads(json.dumps(self.current_state().to_json())))


def compact_json(value: Any) -> str:
    """JSON without spaces (how ``GameRound.actions`` and ``Game.round_actions`` are kept)."""
    return json.dumps(value, separators=(",", ":"), ensure_ascii=False)


class GameRound(models.Model):
    """One finished round of a game, as little as rebuilds it: the entrant's own actions in
    order (``actions``, compact JSON of the actions' ``to_json``; the bots' are recomputed,
    they are deterministic), ``moves`` the number of actions of every seat (the round's
    share of the game's ``seq``), and ``bot_from``: when the bot took over the entrant's
    seat at the close (``game_bot_finish``), how many of the round's seat-0 actions the
    entrant had made before (the rest are the bot's); ``None`` when the entrant played the
    whole round. Written once when the round ends; the round's scores and outcome are the
    game's ``round_scores`` and ``round_results``."""

    #: No index of its own: the unique (game, round_index) index serves the lookups.
    game = models.ForeignKey(
        Game, on_delete=models.CASCADE, related_name="played_rounds", db_index=False
    )
    round_index = models.PositiveSmallIntegerField()
    moves = models.PositiveSmallIntegerField()
    bot_from = models.PositiveSmallIntegerField(null=True, blank=True)
    actions = models.TextField(default="[]")

    class Meta:
        ordering = ["game", "round_index"]
        constraints = [
            models.UniqueConstraint(
                fields=["game", "round_index"], name="gameround_unique_per_game"
            )
        ]

    def __str__(self) -> str:
        return f"{self.game_id}/{self.round_index}"

    @property
    def action_list(self) -> list[dict[str, Any]]:
        return list(json.loads(self.actions))


class EntryResult(models.Model):
    """One entry's figures as a viewer who may see rounds ``0 .. upto - 1`` sees them
    (``permissions.results_visibility``): one row per entry and ``upto`` from 0 to the
    tournament's rounds, kept as the entry's rounds finish
    (``services.results.entry_results_update``).

    The board a viewer with ``upto`` visible rounds sees is one indexed query over
    ``(tournament, upto)`` in the order of the index: the ranked rows by ``tier`` and
    ``sort_result`` (competition rank over those two), then the unranked ones; ties by
    progress and name. ``upto == rounds`` is also the final board after the close, the only
    one read from then on (every viewer sees every round): the close's rebuild writes only
    it, and the boards of fewer rounds stay as the window left them."""

    tournament = models.ForeignKey(
        Tournament, on_delete=models.CASCADE, related_name="+", db_index=False
    )
    #: No index of its own: the unique (entry, upto) leads with it (a rebuild writes one
    #: index less per row).
    entry = models.ForeignKey(
        Entry, on_delete=models.CASCADE, related_name="results", db_index=False
    )
    upto = models.PositiveSmallIntegerField()
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="+", db_index=False
    )
    game = models.ForeignKey(Game, on_delete=models.CASCADE, related_name="+", db_index=False)
    name = models.CharField(max_length=150)
    #: ``name`` in lower case: the order of equal ranks and the name search.
    name_key = models.CharField(max_length=150)
    #: Not ranked: no round of its own in the view, or under review.
    unranked = models.BooleanField()
    #: 0: complete in the view; else ``MAX_ROUNDS + 1 - rounds of its own`` (more first).
    tier = models.PositiveSmallIntegerField()
    #: The result signed so that ascending is better (``None`` when unranked).
    sort_result = models.FloatField(null=True)
    total = models.IntegerField(null=True)
    opponents_average = models.FloatField(null=True)
    result = models.FloatField(null=True)
    rounds_played = models.PositiveSmallIntegerField()
    rounds_counted = models.PositiveSmallIntegerField()
    bot_rounds = models.JSONField(default=list)
    parts = models.JSONField(default=list)
    finished = models.BooleanField()
    bot_finished = models.BooleanField()
    under_review = models.BooleanField()

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["entry", "upto"], name="entry_result_unique_upto")
        ]
        indexes = [
            models.Index(
                "tournament",
                "upto",
                "unranked",
                "tier",
                "sort_result",
                models.F("rounds_played").desc(),
                "name_key",
                "entry",
                name="entry_result_board",
            )
        ]


class DealResult(models.Model):
    """How one entry did on one deal (round) of its tournament: a row of the per-deal
    table of that round, kept as the entry's rounds finish. ``by_bot``: the bot played the
    entrant's seat in this round (unranked, left out of the field's figures)."""

    tournament = models.ForeignKey(
        Tournament, on_delete=models.CASCADE, related_name="+", db_index=False
    )
    #: No index of its own: the unique (entry, round_index) leads with it.
    entry = models.ForeignKey(
        Entry, on_delete=models.CASCADE, related_name="deal_results", db_index=False
    )
    round_index = models.PositiveSmallIntegerField()
    #: The copy of the round the entry played (0 outside a deal pool): its per-deal table
    #: is that copy's field only.
    copy = models.PositiveSmallIntegerField(default=0)
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="+", db_index=False
    )
    game = models.ForeignKey(Game, on_delete=models.CASCADE, related_name="+", db_index=False)
    name = models.CharField(max_length=150)
    name_key = models.CharField(max_length=150)
    score = models.IntegerField()
    opponents_average = models.FloatField()
    result = models.FloatField()
    sort_result = models.FloatField()
    by_bot = models.BooleanField()

    class Meta:
        constraints = [
            models.UniqueConstraint(
                fields=["entry", "round_index"], name="deal_result_unique_round"
            )
        ]
        indexes = [
            models.Index(
                fields=[
                    "tournament",
                    "round_index",
                    "copy",
                    "by_bot",
                    "sort_result",
                    "name_key",
                    "entry",
                ],
                name="deal_result_copy_table",
            )
        ]


class ParRound(models.Model):
    """Par of one round of a tournament: the same deal with the tournament's bot level
    and version in every seat, South's too (``tournaments.services.tournament_par_compute``).
    ``key`` names what it was computed from (the commitment, the variant and the bot
    level) and ``bot_version`` the bots' version: a row whose key or version is not the
    tournament's current one is stale and never read."""

    tournament = models.ForeignKey(Tournament, on_delete=models.CASCADE, related_name="par")
    round_index = models.PositiveSmallIntegerField()
    #: The copy of the round (0 outside a deal pool: docs/rules.md §5, "Deal pools").
    copy = models.PositiveSmallIntegerField(default=0)
    key = models.CharField(max_length=64)
    bot_version = models.PositiveSmallIntegerField()
    scores = models.JSONField()
    #: Seat 0's duplicate result of the round (the game module's ``results``).
    result = models.FloatField()
    #: How the round went, as in ``Game.round_results``.
    outcome = models.JSONField(default=dict)

    class Meta:
        ordering = ["tournament", "round_index", "copy"]
        constraints = [
            models.UniqueConstraint(
                fields=["tournament", "round_index", "copy"],
                name="par_unique_round_copy_per_tournament",
            )
        ]

    def __str__(self) -> str:
        return f"par {self.tournament_id}#{self.round_index}"


class WhatIf(models.Model):
    """A practice ``Game`` started from a position of a finished game ("speel vanaf hier"):
    the source game's round ``round_index`` after its first ``start`` actions. It plays
    that one round; it never touches the source's tournament. Its deal comes from the
    tournament's secret, so its record is not downloadable before that tournament closes."""

    game = models.OneToOneField(Game, on_delete=models.CASCADE, related_name="what_if")
    source = models.ForeignKey(Game, on_delete=models.CASCADE, related_name="what_ifs")
    round_index = models.PositiveSmallIntegerField()
    start = models.PositiveIntegerField()
    created_at = models.DateTimeField(auto_now_add=True)

    def __str__(self) -> str:
        return f"what-if {self.game_id} from {self.source_id}@{self.round_index}:{self.start}"


class Series(ContestSettings):
    """A recurring tournament: every setting of a tournament plus a schedule, in
    ``SERIES_TIMEZONE`` (Europe/Amsterdam): daily at ``time_of_day``, or weekly on
    ``weekdays`` (0 Monday .. 6 Sunday) at that time; each edition is open for
    ``window_minutes``. A series is one season: its ranking sums each entrant's best
    ``best_k`` edition results (``tournaments.series.season_standings``)."""

    class Kind(models.TextChoices):
        DAILY = "daily", _("daily")
        WEEKLY = "weekly", _("weekly")

    kind = models.CharField(_("schedule"), max_length=10, choices=Kind.choices)
    weekdays = models.JSONField(_("weekdays"), default=list, blank=True)
    time_of_day = models.TimeField(_("starts at (Amsterdam time)"))
    window_minutes = models.PositiveIntegerField(
        _("open for (minutes)"), validators=[MinValueValidator(1)]
    )
    starts_on = models.DateField(_("first day"))
    ends_on = models.DateField(_("last day"), null=True, blank=True)
    best_k = models.PositiveSmallIntegerField(
        _("editions counted in the season"),
        default=10,
        validators=[MinValueValidator(1), MaxValueValidator(MAX_BEST_K)],
    )
    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="series_created"
    )
    #: The club it belongs to; its editions are the club's too, with its access.
    club = models.ForeignKey(Club, on_delete=models.PROTECT, related_name="series")
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["name", "id"]
        verbose_name_plural = "series"
        constraints = [
            models.CheckConstraint(condition=Q(window_minutes__gte=1), name="series_window"),
            models.CheckConstraint(
                condition=Q(best_k__gte=1) & Q(best_k__lte=MAX_BEST_K), name="series_best_k"
            ),
        ]

    def __str__(self) -> str:
        return self.name

    def get_absolute_url(self) -> str:
        return reverse("series_detail", args=[self.pk])


#: The languages of the site and of its mail (``settings.LANGUAGES``), Dutch first.
LANGUAGE_CHOICES = [("nl", _("Dutch")), ("en", _("English"))]


class Pace(models.TextChoices):
    """How fast the card table shows the bots' moves (docs/rules.md, "The card table"):
    ``slow`` the pause of old, ``normal`` about half of it, ``fast`` a fifth, ``instant``
    none (every move at once, in the list of moves and for screen readers)."""

    SLOW = "slow", pgettext_lazy("the bots' pace", "slow")
    NORMAL = "normal", pgettext_lazy("the bots' pace", "normal")
    FAST = "fast", pgettext_lazy("the bots' pace", "fast")
    INSTANT = "instant", pgettext_lazy("the bots' pace", "instant")


class Account(models.Model):
    """Per-user settings of the site: ``is_bot`` marks a bot account (a program plays it
    through the API; flagged BOT on every leaderboard, lichess's BOT title); ``language``
    is the language of the user's mail (the one last chosen on the site); ``mail_<kind>``
    whether the user gets that kind of mail (``MailKind``; off by the signed link in every
    such mail); ``pace`` the bots' pace at the card table (``Pace``; ``""``: never chosen,
    the browser's choice holds). A user without a row has the defaults."""

    user = models.OneToOneField(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="account"
    )
    is_bot = models.BooleanField(_("bot account"), default=False)
    language = models.CharField(
        _("language of my mail"), max_length=8, choices=LANGUAGE_CHOICES, default="nl"
    )
    mail_results = models.BooleanField(_("mail when the results are final"), default=True)
    mail_series = models.BooleanField(
        _("mail when a new edition of a series I play opens"), default=True
    )
    mail_invites = models.BooleanField(_("mail with club invites"), default=True)
    mail_announcements = models.BooleanField(_("mail with my clubs' announcements"), default=True)
    mail_fairplay = models.BooleanField(
        _("mail when an organizer decides on a fair-play review of my entry"), default=True
    )
    mail_reminders = models.BooleanField(
        _("mail a reminder before a live club evening I entered"), default=True
    )
    pace = models.CharField(
        _("bots' pace at the table"), max_length=8, choices=Pace.choices, blank=True, default=""
    )

    def __str__(self) -> str:
        return f"{self.user} ({'bot' if self.is_bot else 'human'})"


class ApiToken(models.Model):
    """A personal API token: only its SHA-256 is stored (the token is shown once, at
    creation); ``prefix`` (its first characters) names it on the tokens page."""

    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="api_tokens"
    )
    name = models.CharField(_("name"), max_length=60)
    prefix = models.CharField(max_length=12)
    key_hash = models.CharField(max_length=64, unique=True)
    created_at = models.DateTimeField(auto_now_add=True)
    last_used_at = models.DateTimeField(null=True, blank=True)
    revoked_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["-created_at", "-id"]

    def __str__(self) -> str:
        return f"{self.user} {self.prefix}…"


class MailKind(models.TextChoices):
    """The kinds of mail the site sends; each is turned off by ``Account.mail_<kind>``
    and has its text in ``templates/mail/<kind>.txt`` (``services.mail``)."""

    RESULTS = "results", _("final results")
    SERIES = "series", _("new editions of your series")
    INVITES = "invites", _("club invites")
    ANNOUNCEMENTS = "announcements", _("club announcements")
    FAIRPLAY = "fairplay", _("fair-play decisions")
    REMINDERS = "reminders", _("reminders before a live club evening")


class MailSent(models.Model):
    """A mail of one kind about one thing (a tournament, an invite) sent to one user: at
    most once (the unique constraint), so a task that runs again sends nothing twice."""

    kind = models.CharField(max_length=20, choices=MailKind.choices)
    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="+")
    object_id = models.PositiveBigIntegerField()
    sent_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["kind", "object_id", "user"], name="mail_sent_once")
        ]

    def __str__(self) -> str:
        return f"{self.kind} {self.object_id} -> {self.user_id}"


class Rating(models.Model):
    """A player's rating in one game (docs/rules.md, "Ratings"): the Plackett–Luce model's
    belief about their skill, a mean ``mu`` and its uncertainty ``sigma``
    (``services.ratings``). ``ordinal`` is ``mu - 3 * sigma``, kept for the rating list's
    order (an index); what a page shows is ``shown``. ``tournaments``: the tournaments
    that counted."""

    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="ratings"
    )
    game = models.CharField(_("game"), max_length=20, choices=GAME_CHOICES)
    mu = models.FloatField()
    sigma = models.FloatField()
    ordinal = models.FloatField()
    tournaments = models.PositiveIntegerField(_("tournaments"), default=0)
    updated_at = models.DateTimeField(_("updated at"))

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["user", "game"], name="rating_unique_per_game")
        ]
        indexes = [models.Index("game", models.F("ordinal").desc(), "user", name="rating_list")]

    def __str__(self) -> str:
        return f"{self.user} {self.game} {self.shown}"

    @property
    def shown(self) -> int:
        """The rating a page shows (docs/rules.md, "Ratings")."""
        return shown_rating(self.ordinal)


#: The shown rating: ``RATING_BASE + RATING_SCALE * (mu - 3 * sigma)``, rounded; a new
#: player (mu 25, sigma 25/3) shows ``RATING_BASE`` (docs/rules.md, "Ratings").
RATING_BASE = 1000
RATING_SCALE = 40


def shown_rating(ordinal: float) -> int:
    """The rating shown for ``mu - 3 * sigma`` (docs/rules.md, "Ratings")."""
    return round(RATING_BASE + RATING_SCALE * ordinal)


class RatingChange(models.Model):
    """What one tournament did to one player's rating: before and after, and the place
    the player had among the rated entrants (ties share it). One row per tournament and
    player: a tournament is applied once (``services.ratings``), and every rating can be
    traced to the tournaments that made it."""

    tournament = models.ForeignKey(
        Tournament, on_delete=models.CASCADE, related_name="rating_changes"
    )
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="rating_changes"
    )
    game = models.CharField(max_length=20, choices=GAME_CHOICES)
    mu_before = models.FloatField()
    sigma_before = models.FloatField()
    mu_after = models.FloatField()
    sigma_after = models.FloatField()
    rank = models.PositiveIntegerField()

    class Meta:
        ordering = ["tournament", "rank", "user"]
        constraints = [
            models.UniqueConstraint(
                fields=["tournament", "user"], name="rating_change_unique_per_tournament"
            )
        ]
        indexes = [
            models.Index(fields=["user", "game"], name="rating_change_user"),
            # a game's changes: whether a later tournament counted already, the replay
            models.Index(fields=["game", "tournament"], name="rating_change_game"),
        ]

    def __str__(self) -> str:
        return f"{self.user} @ {self.tournament_id}: {self.mu_before:.2f} → {self.mu_after:.2f}"

    @property
    def shown_before(self) -> int:
        return shown_rating(self.mu_before - 3 * self.sigma_before)

    @property
    def shown_after(self) -> int:
        return shown_rating(self.mu_after - 3 * self.sigma_after)


class EntryFlag(models.Model):
    """Why an entry went under review (docs/rules.md, "Fair play"): ``kind`` linked (an
    account that shares a device with this one entered the same tournament or series) or
    play (its decisions knew too much). ``reason`` is the reason in words as data, a
    ``[nl, en]`` pair shown in the page's language; ``evidence`` what it rests on (JSON).
    ``key`` tells one flag from another of the same kind on the same entry (the linked
    entry, a statistic's version): flagging again with the same key adds nothing."""

    class Kind(models.TextChoices):
        LINKED = "linked", _("linked accounts")
        PLAY = "play", _("play that knows too much")

    entry = models.ForeignKey(Entry, on_delete=models.CASCADE, related_name="flags")
    kind = models.CharField(_("kind"), max_length=10, choices=Kind.choices)
    key = models.CharField(max_length=80, default="", blank=True)
    reason = models.JSONField(_("reason"))
    evidence = models.JSONField(_("evidence"), default=dict, blank=True)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["created_at", "id"]
        constraints = [
            models.UniqueConstraint(fields=["entry", "kind", "key"], name="entry_flag_once")
        ]

    def __str__(self) -> str:
        return f"{self.kind} flag on entry {self.entry_id}"

    def reason_in(self, language: str) -> str:
        """The reason in ``language`` (``nl`` or ``en``; Dutch for any other)."""
        nl, en = self.reason
        return str(en if language.startswith("en") else nl)


class Sighting(models.Model):
    """A log-in or an entry seen from a browser (docs/rules.md, "Fair play"): the
    browser's device identifier (a signed random cookie), the address's network prefix
    (``/24`` of IPv4, ``/48`` of IPv6, never the full address) and the user agent. Kept
    for ``services.fairplay.SIGHTINGS_KEPT_DAYS`` days (a beat task purges older rows).
    Two accounts seen on one device are linked; a shared network alone links nobody."""

    class Kind(models.TextChoices):
        LOGIN = "login", _("log-in")
        ENTRY = "entry", _("entry")

    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="+")
    kind = models.CharField(max_length=8, choices=Kind.choices)
    entry = models.ForeignKey(
        Entry, on_delete=models.CASCADE, null=True, blank=True, related_name="+"
    )
    device = models.CharField(max_length=64)
    network = models.CharField(max_length=50, blank=True)
    user_agent = models.CharField(max_length=300, blank=True)
    created_at = models.DateTimeField(default=timezone.now)

    class Meta:
        indexes = [
            models.Index(fields=["device", "user"], name="sighting_device"),
            models.Index(fields=["user", "device"], name="sighting_user"),
            models.Index(fields=["created_at"], name="sighting_created"),
        ]

    def __str__(self) -> str:
        return f"{self.kind} of {self.user_id} on {self.device[:8]}"


class PlayBar(models.Model):
    """An account disqualified twice (since any earlier bar was lifted) may not enter a
    tournament, all of which are rated, until staff lift the bar (docs/rules.md, "Fair
    play"). Active while ``lifted_at`` is empty; at most one active bar per account."""

    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="play_bars"
    )
    #: The disqualified entries that brought it (ids).
    entries = models.JSONField(default=list)
    created_at = models.DateTimeField(default=timezone.now)
    lifted_at = models.DateTimeField(null=True, blank=True)
    lifted_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, blank=True, related_name="+"
    )

    class Meta:
        ordering = ["-created_at", "-id"]
        constraints = [
            models.UniqueConstraint(
                fields=["user"], condition=Q(lifted_at__isnull=True), name="play_bar_one_active"
            )
        ]

    def __str__(self) -> str:
        return f"bar of {self.user_id}{' (lifted)' if self.lifted_at else ''}"


class PlayCheck(models.Model):
    """The check of an entry's play for knowledge of the deal (docs/rules.md, "Fair play";
    ``engine.fairplay``), made after the close for the entries the close's screen chose
    (``services.playcheck``): pending until the check has run; ``late`` when the deeper
    check's time after the close (``settings.PLAY_CHECK_SECONDS``) ran out before it had
    checked every round of the entry (the rounds it did check are counted, none may be;
    the entry keeps what the close's screen found). ``evidence`` is the
    entry's ``engine.fairplay.Evidence`` as JSON (the honest rate at each opportunity and
    the number of telling decisions), ``figure`` its figure, ``account_figure`` the
    figure of the account's recent checked entries of the same game together (this one
    included); ``telling`` the telling decisions in words, ``[[nl, en], ...]``."""

    class Status(models.TextChoices):
        PENDING = "pending", _("to be checked")
        DONE = "done", _("checked")
        LATE = "late", _("not checked in full in time")

    entry = models.OneToOneField(Entry, on_delete=models.CASCADE, related_name="play_check")
    #: Denormalised from the entry: an account's recent checks in one indexed query.
    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="+")
    game = models.CharField(max_length=20, choices=GAME_CHOICES)
    status = models.CharField(max_length=8, choices=Status.choices, default=Status.PENDING)
    #: Why the screen chose it: "leading", "flagged", "watched".
    reasons = models.JSONField(default=list)
    #: The method's version (``services.playcheck.CHECK_VERSION``).
    version = models.PositiveSmallIntegerField(default=1)
    decisions = models.PositiveIntegerField(default=0)
    opportunities = models.PositiveIntegerField(default=0)
    telling_count = models.PositiveIntegerField(default=0)
    expected = models.FloatField(default=0.0)
    figure = models.FloatField(null=True, blank=True)
    account_figure = models.FloatField(null=True, blank=True)
    flagged = models.BooleanField(default=False)
    evidence = models.JSONField(default=dict)
    telling = models.JSONField(default=list)
    created_at = models.DateTimeField(auto_now_add=True)
    checked_at = models.DateTimeField(null=True, blank=True)
    seconds = models.FloatField(null=True, blank=True)

    class Meta:
        indexes = [models.Index(fields=["user", "game", "checked_at"], name="play_check_user")]

    def __str__(self) -> str:
        return f"play check of entry {self.entry_id} ({self.status})"
