"""Helpers for the card tables' end-to-end tests: waiting for a table to settle, reading
its state attributes, the play API from the browser's session, signing up and logging in.

Every table page marks its root ``[data-testid=table]`` with ``data-busy`` (a request or
moves being shown), ``data-phase``, ``data-seq``, ``data-status``, ``data-round`` and
``data-your-turn``, and shows round ends in ``[data-testid=dialog]``."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any
from urllib.parse import urljoin

import factories
from django.contrib.auth import get_user_model
from django.core.cache import cache
from playwright.sync_api import Page

TABLE = "[data-testid=table]"
#: The table is idle (no request, no moves being shown) or shows the round-over dialog.
SETTLED = """() => {
  const t = document.querySelector('[data-testid=table]');
  const d = document.querySelector('[data-testid=dialog]');
  return (t && t.dataset.busy === 'false') || (d && d.open);
}"""
PASSWORD = factories.PASSWORD
#: Screenshots (git-ignored); the README's screenshots are picked from here.
ARTIFACTS = Path(__file__).resolve().parents[2] / "test-artifacts"


def settle(page: Page) -> None:
    """Wait until the table is idle or shows the round-over dialog."""
    page.wait_for_function(SETTLED)


def table(page: Page, name: str) -> str:
    """A state attribute of the table: ``table(page, "phase")`` reads ``data-phase``."""
    return page.get_attribute(TABLE, f"data-{name}") or ""


def dialog_open(page: Page) -> bool:
    return bool(page.eval_on_selector("[data-testid=dialog]", "d => d.open"))


def screenshot(page: Page, name: str) -> None:
    ARTIFACTS.mkdir(exist_ok=True)
    page.screenshot(path=str(ARTIFACTS / name))


def api_get(page: Page, game_id: int) -> dict[str, Any]:
    """GET /api/games/<id>/ with the page's session."""
    response = page.request.get(urljoin(page.url, f"/api/games/{game_id}/"))
    assert response.ok
    data: dict[str, Any] = response.json()
    return data


def api_post(page: Page, game_id: int, body: dict[str, Any]) -> tuple[int, dict[str, Any]]:
    """POST a move as another tab would: with the page's session and CSRF token."""
    token = next(c["value"] for c in page.context.cookies() if c["name"] == "csrftoken")
    response = page.request.post(
        urljoin(page.url, f"/api/games/{game_id}/moves/"),
        data=json.dumps(body),
        headers={"Content-Type": "application/json", "X-CSRFToken": token},
    )
    return response.status, response.json()


def sign_up(page: Page, base_url: str, username: str) -> None:
    """Create an account through the sign-up form (the site logs the new user in)."""
    page.goto(f"{base_url}/accounts/signup/")
    page.fill("input[name=username]", username)
    page.fill("input[name=email]", f"{username}@example.org")
    page.fill("input[name=password1]", PASSWORD)
    page.fill("input[name=password2]", PASSWORD)
    page.click("form.stacked button[type=submit]")
    page.wait_for_url(f"{base_url}/")


def log_in(page: Page, base_url: str, username: str) -> None:
    """Log in through the log-in form (the user has ``factories.PASSWORD``), with the
    code of ``factories.TOTP_SECRET`` when the account has a second factor."""
    page.goto(f"{base_url}/accounts/login/")
    page.fill("input[name=login]", username)
    page.fill("input[name=password]", PASSWORD)
    page.click("main form button[type=submit]")
    page.wait_for_url(lambda url: "/accounts/login/" not in url)
    if "/accounts/2fa/authenticate/" in page.url:
        enter_second_factor(page, username)
    page.wait_for_url(f"{base_url}/")


def enter_second_factor(page: Page, username: str, code: str | None = None) -> None:
    """Type the second factor's code (now's TOTP code of ``factories.TOTP_SECRET`` unless
    given) on the log-in's second step. A TOTP code works once: the site's mark that it
    was used is cleared first, so that a test may log the same account in twice within
    the code's 30 seconds."""
    code = code or factories.totp_code()
    user_id = get_user_model().objects.get(username=username).pk
    cache.delete(f"allauth.mfa.totp.used?user={user_id}&code={code}")
    page.fill("input[name=code]", code)
    page.press("input[name=code]", "Enter")


def join(page: Page, base_url: str, tournament_id: int) -> int:
    """Join a tournament with its page's button; returns the game's id (its table opens)."""
    page.goto(f"{base_url}/tournaments/{tournament_id}/")
    page.click(f"form[action='/tournaments/{tournament_id}/join/'] button[type=submit]")
    page.wait_for_url("**/games/*/")
    settle(page)
    return int(page.url.rstrip("/").split("/")[-1])


def deal_position(monkeypatch: Any, game: Any, state: dict[str, Any]) -> None:
    """Make ``state`` (a state JSON the engine accepts) the game's current round as dealt:
    the site keeps no state snapshot, it deals the round from the secret and applies the
    round's actions, so the game module's ``new_round`` hands out ``state`` for this
    game's secret and round (the live server runs in this process), the deals the site
    keeps (``games.dealt_round``, in the modules that deal) are not used while the test
    runs, and the round's stored actions are emptied. Other rounds are dealt as usual."""
    from tournaments import games
    from tournaments.games import module_of
    from tournaments.models import Game
    from tournaments.services import play, runner

    module = module_of(game.game)
    deal = module.state_from_json(state)
    real = module.new_round
    arranged = (game.secret_bytes, game.round_index)

    def new_round(variant: Any, *, secret: bytes, round_index: int) -> Any:
        if (secret, round_index) == arranged:
            return deal
        return real(variant, secret=secret, round_index=round_index)

    monkeypatch.setattr(module, "new_round", new_round)
    for dealing_module in (games, runner, play):
        monkeypatch.setattr(dealing_module, "dealt_round", dealing_module.dealt_round.__wrapped__)
    Game.objects.filter(pk=game.pk).update(round_actions="[]")
