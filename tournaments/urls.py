"""URLs of tournaments, games and the play API."""

from django.urls import path, re_path

from tournaments import api, api_clubs, views, views_club, views_clubs, views_organizer

urlpatterns = [
    path("tournaments/new/", views_organizer.tournament_create, name="tournament_create"),
    path("tournaments/<int:pk>/", views.tournament_detail, name="tournament_detail"),
    path(
        "tournaments/<int:pk>/leaderboard/",
        views.tournament_leaderboard,
        name="tournament_leaderboard",
    ),
    path("tournaments/<int:pk>/join/", views.tournament_join, name="tournament_join"),
    path("tournaments/<int:pk>/rules/", views.tournament_rules, name="tournament_rules"),
    path("tournaments/<int:pk>/verify/", views.tournament_verify, name="tournament_verify"),
    path("tournaments/<int:pk>/edit/", views_organizer.tournament_edit, name="tournament_edit"),
    path(
        "tournaments/<int:pk>/entries/",
        views_organizer.tournament_entries,
        name="tournament_entries",
    ),
    path("tournaments/<int:pk>/close/", views_organizer.tournament_close, name="tournament_close"),
    path(
        "tournaments/<int:pk>/entries/<int:entry_id>/audit/",
        views_organizer.entry_audit,
        name="entry_audit",
    ),
    path(
        "tournaments/<int:pk>/rounds/<int:round_index>/play-again/",
        views.tournament_deal_again,
        name="tournament_deal_again",
    ),
    path("rules/<str:game>/<str:preset>/", views.preset_rules, name="preset_rules"),
    path("practice/", views.practice, name="practice"),
    path("my-games/", views.my_games, name="my_games"),
    path("games/<int:pk>/", views.play, name="play"),
    path("games/<int:pk>/replay/", views.game_replay, name="game_replay"),
    path("games/<int:pk>/record.json", views.game_record, name="game_record"),
    path("games/<int:pk>/sheet/", views.game_sheet, name="game_sheet"),
    path("games/<int:pk>/split/", views.game_split, name="game_split"),
    path("games/<int:pk>/what-if/", views.game_what_if, name="game_what_if"),
    path("games/<int:pk>/review/", views.game_review, name="game_review"),
    path(
        "tournaments/<int:pk>/standings.csv",
        views_clubs.tournament_standings_csv,
        name="tournament_standings_csv",
    ),
    path(
        "tournaments/<int:pk>/records.zip",
        views_clubs.tournament_records_zip,
        name="tournament_records_zip",
    ),
    path("series/", views_clubs.series_list, name="series_list"),
    path("series/new/", views_clubs.series_create, name="series_create"),
    path("series/<int:pk>/", views_clubs.series_detail, name="series_detail"),
    path("series/<int:pk>/season.csv", views_clubs.series_season_csv, name="series_season_csv"),
    path("account/", views_clubs.account, name="account"),
    path("clubs/", views_club.clubs_list, name="clubs_list"),
    path("clubs/code/", views_club.code_enter, name="code_enter"),
    path("clubs/<slug:slug>/", views_club.club_detail, name="club_detail"),
    path("clubs/<slug:slug>/join/", views_club.club_join, name="club_join"),
    path("clubs/<slug:slug>/leave/", views_club.club_leave, name="club_leave"),
    path("clubs/<slug:slug>/members/", views_club.club_member_role, name="club_member_role"),
    path("clubs/<slug:slug>/invite/", views_club.club_invite_renew, name="club_invite_renew"),
    path("api/openapi.json", api_clubs.openapi, name="api_openapi"),
    path("api/docs/", api_clubs.api_docs, name="api_docs"),
    path("api/tournaments/", api_clubs.tournament_list, name="api_tournaments"),
    path(
        "api/tournaments/<int:tournament_id>/",
        api_clubs.tournament_detail,
        name="api_tournament",
    ),
    path(
        "api/tournaments/<int:tournament_id>/join/",
        api_clubs.tournament_join,
        name="api_tournament_join",
    ),
    path("api/series/<int:series_id>/", api_clubs.series_detail, name="api_series"),
    path("api/series/<int:series_id>/season/", api_clubs.series_season, name="api_series_season"),
    path("api/games/<int:game_id>/", api.game_detail, name="api_game"),
    path("api/games/<int:game_id>/hint/", api.game_hint, name="api_game_hint"),
    path("api/games/<int:game_id>/undo/", api.game_undo, name="api_game_undo"),
    path(
        "api/games/<int:game_id>/meld-readings/",
        api.game_meld_readings,
        name="api_game_meld_readings",
    ),
    path(
        "api/tournaments/<int:tournament_id>/standings/",
        api.tournament_standings,
        name="api_tournament_standings",
    ),
    # Last: any other address under api/ is a 404 with the API's error body.
    re_path(r"^api/", api.not_found, name="api_not_found"),
]
