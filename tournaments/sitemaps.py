"""What search engines are offered (docs/rules.md, "Tournaments and the site", rule 24):
``/sitemap.xml`` lists the public pages, Django's sitemap framework with a template of
our own (``templates/sitemap.xml``): the home page and the lists, the rules page of every
preset, every club that is not suspended, and the public tournaments (open, closed) and
series of those clubs, as a visitor may see them (``permissions.visible_tournaments`` and
``visible_series`` of an anonymous user), so a private page is never listed;
``/robots.txt`` keeps crawlers off the pages of one's own (the API, games, the account,
the mail links, invitations) and points at the sitemap."""

from __future__ import annotations

from datetime import datetime
from typing import Any

from django.contrib.auth.models import AnonymousUser
from django.contrib.sitemaps import Sitemap
from django.contrib.sitemaps.views import sitemap
from django.db.models import QuerySet
from django.http import HttpRequest, HttpResponse
from django.urls import reverse
from django.utils import timezone
from django.views.decorators.http import require_GET

from engine.registry import GAMES
from tournaments import permissions
from tournaments.games import available_games
from tournaments.models import Club, Series, Tournament

#: The paths robots are asked to leave alone: pages of one's own or of one visitor.
PRIVATE_PATHS = (
    "/api/",
    "/admin/",
    "/account/",
    "/accounts/",
    "/games/",
    "/my-games/",
    "/practice/",
    "/mail/",
    "/staff/",
    "/clubs/invitations/",
)


class PagesSitemap(Sitemap):  # type: ignore[type-arg]
    """The home page, the lists and the rating lists."""

    changefreq = "daily"

    def items(self) -> list[tuple[str, tuple[str, ...]]]:
        pages: list[tuple[str, tuple[str, ...]]] = [
            ("home", ()),
            ("clubs_list", ()),
            ("series_list", ()),
        ]
        return pages + [("rating_list", (game,)) for game in GAMES]

    def location(self, item: tuple[str, tuple[str, ...]]) -> str:
        return reverse(item[0], args=item[1])


class RulesSitemap(Sitemap):  # type: ignore[type-arg]
    """The rules page of every preset of every game."""

    changefreq = "monthly"

    def items(self) -> list[tuple[str, str]]:
        return [
            (game, preset)
            for game, module in available_games().items()
            for preset in module.PRESETS
        ]

    def location(self, item: tuple[str, str]) -> str:
        return reverse("preset_rules", args=item)


def _listed_clubs() -> QuerySet[Club]:
    return Club.objects.filter(suspended_at__isnull=True)


class ClubsSitemap(Sitemap):  # type: ignore[type-arg]
    changefreq = "weekly"

    def items(self) -> QuerySet[Club]:
        return _listed_clubs().order_by("pk")


class TournamentsSitemap(Sitemap):  # type: ignore[type-arg]
    """The public tournaments that have opened, of clubs that are not suspended."""

    changefreq = "hourly"

    def items(self) -> QuerySet[Tournament]:
        return (
            permissions.visible_tournaments(AnonymousUser())
            .filter(opens_at__lte=timezone.now(), club__in=_listed_clubs())
            .only("pk", "opens_at", "closed_at")
            .order_by("pk")
        )

    def lastmod(self, item: Tournament) -> datetime:
        return item.closed_at or item.opens_at


class SeriesSitemap(Sitemap):  # type: ignore[type-arg]
    changefreq = "daily"

    def items(self) -> QuerySet[Series]:
        return (
            permissions.visible_series(AnonymousUser())
            .filter(club__in=_listed_clubs())
            .order_by("pk")
        )


SITEMAPS: dict[str, Any] = {
    "pages": PagesSitemap,
    "rules": RulesSitemap,
    "clubs": ClubsSitemap,
    "tournaments": TournamentsSitemap,
    "series": SeriesSitemap,
}


@require_GET
def sitemap_xml(request: HttpRequest) -> HttpResponse:
    """``/sitemap.xml``: the public pages (the module's text)."""
    response: HttpResponse = sitemap(request, sitemaps=SITEMAPS, template_name="sitemap.xml")
    return response


@require_GET
def robots_txt(request: HttpRequest) -> HttpResponse:
    """``/robots.txt``: the private paths kept from crawlers, and where the sitemap is."""
    lines = ["User-agent: *", *(f"Disallow: {path}" for path in PRIVATE_PATHS), ""]
    lines.append(f"Sitemap: {request.build_absolute_uri(reverse('sitemap'))}")
    return HttpResponse("\n".join(lines) + "\n", content_type="text/plain; charset=utf-8")
