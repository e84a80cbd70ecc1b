"""URLs of the site."""

from django.contrib import admin
from django.urls import include, path

from jokeren import views
from tournaments import api

urlpatterns = [
    path("", views.home, name="home"),
    path("api/ping/", views.ping, name="api_ping"),
    # The move POST, the site's busiest address, first: Django tries the patterns in order
    # (behind the ~60 of tournaments.urls it took 25 us to resolve, 9 us here).
    path("api/games/<int:game_id>/moves/", api.game_move, name="api_game_move"),
    path("favicon.ico", views.favicon, name="favicon"),
    # Django's language switch, remembered on the account for the mail (jokeren/views.py)
    path("i18n/setlang/", views.set_language, name="set_language"),
    path("jsi18n/", views.JavaScriptCatalog.as_view(), name="javascript-catalog"),
    # before admin.site.urls: the admin's log-in page behind the same throttle
    path("admin/login/", views.admin_login_view),
    path("admin/", admin.site.urls),
    path("", include("accounts.urls")),
    path("", include("tournaments.urls")),
]

# A request Django cannot parse (before any view runs): the API's error body under /api/.
handler400 = "jokeren.views.bad_request"
# A failure nothing caught: 503 for a broken database, the API's error body under /api/.
handler500 = "jokeren.resilience.server_error"
