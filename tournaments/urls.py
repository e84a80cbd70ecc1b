"""URLs of tournaments, games and the play API."""

from django.urls import path, re_path

from tournaments import api, views

urlpatterns = [
    path("tournaments/new/", views.tournament_create, name="tournament_create"),
    path("tournaments/<int:pk>/", views.tournament_detail, name="tournament_detail"),
    path("tournaments/<int:pk>/join/", views.tournament_join, name="tournament_join"),
    path("tournaments/<int:pk>/rules/", views.tournament_rules, name="tournament_rules"),
    path("tournaments/<int:pk>/verify/", views.tournament_verify, name="tournament_verify"),
    path("tournaments/<int:pk>/edit/", views.tournament_edit, name="tournament_edit"),
    path("tournaments/<int:pk>/entries/", views.tournament_entries, name="tournament_entries"),
    path("tournaments/<int:pk>/close/", views.tournament_close, name="tournament_close"),
    path(
        "tournaments/<int:pk>/entries/<int:entry_id>/audit/",
        views.entry_audit,
        name="entry_audit",
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
    path("api/games/<int:game_id>/", api.game_detail, name="api_game"),
    path("api/games/<int:game_id>/moves/", api.game_move, name="api_game_move"),
    path(
        "api/tournaments/<int:tournament_id>/standings/",
        api.tournament_standings,
        name="api_tournament_standings",
    ),
    # Last: any other address under api/ is a 404 with the API's error body.
    re_path(r"^api/", api.not_found, name="api_not_found"),
]
