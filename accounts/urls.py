"""URLs of the accounts app: the site's names for sign-up, log-in and log-out (allauth's
views, throttled), allauth's pages (the mail address, the password and its reset, the
second factor) and the account page."""

from allauth.account import views as allauth_views
from django.urls import include, path

from accounts import views

urlpatterns = [
    path("accounts/signup/", views.signup, name="signup"),
    path("accounts/login/", views.login_view, name="login"),
    path("accounts/logout/", allauth_views.logout, name="logout"),
    path("accounts/", include("allauth.urls")),
    path("account/", views.account, name="account"),
    path("account/delete/", views.account_delete, name="account_delete"),
    path("account/export/", views.account_export, name="account_export"),
    path("privacy/", views.privacy, name="privacy"),
]
