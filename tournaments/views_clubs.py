"""HTML pages and downloads of clubs and programs: series and seasons, CSV exports, the
zip of a tournament's game records (the account page is the accounts app's).

Exports (docs/api.md, Exports): CSV in UTF-8 with a BOM (Excel then reads Dutch names
right), ``,`` as separator or ``;`` with ``?sep=semicolon`` (Dutch Excel's list
separator, and then a decimal comma: ``-17,7``). A tournament's standings CSV is the
leaderboard as the requester may see it (``standings_for_viewer``: during the window the
same figures as the page, after the close the final ``standings``). The records zip
exists once the tournament has closed.
"""

from __future__ import annotations

import csv
import functools
import io
import json
import zipfile
from collections.abc import Iterable, Iterator, Sequence
from typing import Any

from django.contrib.auth.decorators import login_required
from django.core.cache import cache
from django.core.exceptions import PermissionDenied
from django.http import Http404, HttpRequest, HttpResponse, StreamingHttpResponse
from django.shortcuts import redirect, render
from django.utils import timezone, translation
from django.utils.translation import gettext as _

from common.forms import checks_control_characters, form_status
from tournaments import permissions, views_access
from tournaments import series as series_services
from tournaments.errors import ServiceError
from tournaments.forms import SeriesForm
from tournaments.models import Game
from tournaments.numbers import result_csv
from tournaments.permissions import AuthenticatedHttpRequest
from tournaments.presentation.cells import safe_cell
from tournaments.selectors import replay as replay_selectors
from tournaments.selectors import standings as standing_selectors
from tournaments.views_organizer import keep_fields

BOM = "\ufeff"


def _csv_delimiter(request: HttpRequest) -> str:
    return ";" if request.GET.get("sep") in ("semicolon", ";") else ","


def csv_response(
    request: HttpRequest, *, filename: str, header: Sequence[str], rows: Iterable[Sequence[Any]]
) -> HttpResponse:
    """A CSV download: UTF-8 with BOM; ``?sep=semicolon`` for ``;``. Every cell, the
    header's too, through ``safe_cell`` (no text a spreadsheet runs as a formula)."""
    out = io.StringIO()
    out.write(BOM)
    writer = csv.writer(out, delimiter=_csv_delimiter(request), lineterminator="\r\n")
    writer.writerow([safe_cell(cell) for cell in header])
    writer.writerows([safe_cell(cell) for cell in row] for row in rows)
    response = HttpResponse(out.getvalue().encode("utf-8"), content_type="text/csv; charset=utf-8")
    response["Content-Disposition"] = f'attachment; filename="{filename}"'
    return response


#: Rows of a streamed CSV download sent in one piece.
CSV_STREAM_ROWS = 500


#: How long a streamed download is kept whole in the cache (``csv_stream``'s ``cache_key``).
CSV_CACHE_SECONDS = 600


def csv_stream(
    request: HttpRequest,
    *,
    filename: str,
    header: Sequence[str],
    rows: Iterable[Sequence[Any]],
    cache_key: str | None = None,
) -> StreamingHttpResponse:
    """``csv_response`` sent as the rows are read (a piece every ``CSV_STREAM_ROWS``
    rows): the same bytes, the BOM and ``safe_cell`` included. With ``cache_key`` (a key
    that names the rows' state), the pieces sent are kept in the cache once all are sent,
    and the next request with that key gets them from there (``rows`` not read)."""
    delimiter = _csv_delimiter(request)
    key = f"{cache_key}:{delimiter}:{translation.get_language()}" if cache_key else None
    kept = cache.get(key) if key is not None else None
    if kept is not None:
        response = StreamingHttpResponse(iter(kept), content_type="text/csv; charset=utf-8")
        response["Content-Disposition"] = f'attachment; filename="{filename}"'
        return response

    def keeping(source: Iterator[bytes]) -> Iterator[bytes]:
        sent = []
        for piece in source:
            sent.append(piece)
            yield piece
        if key is not None:
            cache.set(key, sent, CSV_CACHE_SECONDS)

    def pieces() -> Iterator[bytes]:
        out = io.StringIO()
        out.write(BOM)
        writer = csv.writer(out, delimiter=delimiter, lineterminator="\r\n")
        writer.writerow([safe_cell(cell) for cell in header])
        for i, row in enumerate(rows, start=1):
            # only text can read as a formula (``safe_cell`` leaves anything else as it is)
            writer.writerow([safe_cell(c) if c.__class__ is str and c else c for c in row])
            if i % CSV_STREAM_ROWS == 0:
                yield out.getvalue().encode("utf-8")
                out.seek(0)
                out.truncate()
        yield out.getvalue().encode("utf-8")

    response = StreamingHttpResponse(keeping(pieces()), content_type="text/csv; charset=utf-8")
    response["Content-Disposition"] = f'attachment; filename="{filename}"'
    return response


def tournament_standings_csv(request: HttpRequest, pk: int) -> StreamingHttpResponse:
    """The leaderboard as the requester may see it, streamed from one query
    (``standings_export``)."""
    tournament = views_access.tournament_or_404(request, pk)
    header = [
        _("Rank"),
        _("Player"),
        _("Bot account"),
        _("Result"),
        _("Own total"),
        _("Opponents"),
        _("Rounds played"),
        _("Rounds counted"),
        _("Finished by the bot"),
        _("Under review"),
        _("Provisional"),
    ]
    # Results repeat across a big field: each distinct one written once.
    result_cell = functools.lru_cache(maxsize=4096)(
        functools.partial(
            result_csv,
            decimals=tournament.result_decimals,
            decimal_comma=_csv_delimiter(request) == ";",
        )
    )
    rows = (
        [
            s.rank or "",
            s.username,
            "BOT" if s.is_bot else "",
            result_cell(s.result),
            "" if s.total is None else s.total,
            result_cell(s.opponents_average),
            s.rounds_played,
            s.rounds_counted,
            "1" if s.bot_finished else "",
            "1" if s.under_review else "",
            "1" if s.provisional else "",
        ]
        for s in standing_selectors.standings_export(tournament=tournament, user=request.user)
    )
    upto = standing_selectors.results_visibility(tournament=tournament, user=request.user).rounds
    return csv_stream(
        request,
        filename=f"tournament-{tournament.pk}-standings.csv",
        header=header,
        rows=rows,
        # the same rows for every viewer who sees as many rounds, until the results change
        # (an account marked a bot since shows so within CSV_CACHE_SECONDS)
        cache_key=standing_selectors.stamped_key(tournament, f"standings-csv-{upto}"),
    )


def tournament_records_zip(request: HttpRequest, pk: int) -> HttpResponse:
    """Every finished game's record (docs/game-record.md) as ``game-<id>.json`` in one zip,
    once the tournament has closed (404 before)."""
    tournament = views_access.tournament_or_404(request, pk)
    if not permissions.may_download_records(tournament=tournament):
        raise Http404
    games = Game.objects.filter(
        entry__tournament=tournament, status=Game.Status.FINISHED
    ).select_related("entry__tournament", "user")
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w", zipfile.ZIP_DEFLATED) as archive:
        for game in games.order_by("pk"):
            record = replay_selectors.game_record(game=game).to_json()
            archive.writestr(f"game-{game.pk}.json", json.dumps(record, indent=1))
    response = HttpResponse(buffer.getvalue(), content_type="application/zip")
    response["Content-Disposition"] = (
        f'attachment; filename="tournament-{tournament.pk}-records.zip"'
    )
    return response


def series_list(request: HttpRequest) -> HttpResponse:
    return render(
        request,
        "tournaments/series_list.html",
        {
            "series": permissions.visible_series(request.user).select_related("club"),
            "is_organizer": permissions.may_create_series(request.user),
        },
    )


def series_detail(request: HttpRequest, pk: int) -> HttpResponse:
    series = views_access.series_or_404(request, pk)
    now = timezone.now()
    editions = list(series.editions.order_by("-opens_at"))
    return render(
        request,
        "tournaments/series_detail.html",
        {
            "series": series,
            "current": [t for t in editions if t.closed_at is None],
            "past": [t for t in editions if t.closed_at is not None],
            "coming": series_services.coming(series, now=now),
            "season": series_services.season_standings(series=series),
            "timezone": series_services.SERIES_TIMEZONE,
        },
    )


def series_season_csv(request: HttpRequest, pk: int) -> HttpResponse:
    series = views_access.series_or_404(request, pk)
    season = series_services.season_standings(series=series)
    header = [
        _("Rank"),
        _("Player"),
        _("Bot account"),
        _("Season total"),
        _("Editions played"),
        _("Editions counted"),
        _("Poedel"),
        *[t.name for t in season.editions],
    ]
    cell = functools.partial(
        result_csv, decimals=series.result_decimals, decimal_comma=_csv_delimiter(request) == ";"
    )
    rows = []
    for r in season.rows:
        by_edition = {e.tournament_id: e for e in r.editions}
        rows.append(
            [
                r.rank or "",
                r.username,
                "BOT" if r.is_bot else "",
                cell(r.total),
                r.played,
                r.counted,
                "1" if r.poedel else "",
                *[
                    cell(by_edition[t.pk].result) if t.pk in by_edition else ""
                    for t in season.editions
                ],
            ]
        )
    return csv_response(
        request, filename=f"series-{series.pk}-season.csv", header=header, rows=rows
    )


@checks_control_characters
@login_required
@views_access.second_factor_required
def series_create(request: AuthenticatedHttpRequest) -> HttpResponse:
    if not permissions.may_create_series(request.user):
        raise PermissionDenied
    if request.method == "POST" and "load_preset" in request.POST:
        data = request.POST.copy()
        form = SeriesForm(
            preset=data.get("preset", ""), initial=keep_fields(data), user=request.user
        )
    elif request.method == "POST":
        form = SeriesForm(request.POST, user=request.user)
        if form.is_valid():
            club = form.chosen_club()
            if club is None or not permissions.may_create_in_club(user=request.user, club=club):
                raise PermissionDenied
            try:
                series = series_services.series_create(
                    created_by=request.user, club=club, **form.service_kwargs()
                )
            except ServiceError as exc:
                form.add_error(None, exc.message())
            else:
                return redirect(series)
    else:
        form = SeriesForm(user=request.user)
    return render(request, "tournaments/series_form.html", {"form": form}, status=form_status(form))
