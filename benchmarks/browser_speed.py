"""Speed a player feels, in the real browser (issue 13, item 10).

Run from the repository root (Debian's chromium at /usr/bin/chromium, Playwright):

    .venv/bin/python benchmarks/browser_speed.py --samples 20 [--out DIR]

The figures go to ``browser_speed.json`` and gunicorn's log to ``browser-speed-gunicorn.log``
in the run's output folder (``--out``, default a new
``benchmarks/out/<UTC time>-browser_speed/``).

It starts the site as production runs it: DEBUG off, ``collectstatic`` into a temporary
STATIC_ROOT (hashed, gzip and Brotli copies, jokeren/storage.py), gunicorn with
deploy/gunicorn.conf.py (2 workers, whitenoise serving the static files), on a fresh
SQLite file (or ``--database-url``), and measures with the Performance API:

1. the play page's first render (a Jokeren 7 table): navigation start to the first
   contentful paint, and to the table drawn (the first card of the hand in the DOM, seen by
   a MutationObserver installed before the page's scripts), with the bytes transferred:
   "cold" in a new browser context (empty cache, new connection), "warm" the next visit in
   the same context (the hashed files come from the cache). The yardstick, measured in
   alternation with it: the log-in page (server-rendered, site.css only), cold and warm.
2. a move: the click on "discard" to the first bot move starting to show (a new line of
   a bot in the table's log), and to the POST's answer (Resource Timing); the table waits
   ``JK_TABLE_DELAY`` (the page's default, 550 ms) before it shows each move after the
   player's own, so the felt time is the answer's time plus that pause. The draw (the click
   on the stock to the new card in the hand) is timed too. The yardstick, alternating with
   each move: a ``fetch("/api/ping/")`` from the same page.

p50/p95 of each, the machine (cores, CPU model) and the load average before and after.
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import secrets
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path[:0] = [str(ROOT), str(ROOT / "tests"), str(ROOT / "benchmarks")]

from load import (  # noqa: E402  (benchmarks/load.py: the site's other benchmark)
    VENV_BIN,
    free_port,
    load_average,
    log,
    percentile,
    port_open,
    process,
    session_headers,
    wait_for,
)
from run_output import add_out_option, out_dir, write_json  # noqa: E402

CHROMIUM = "/usr/bin/chromium"
#: What the table's page records before its own scripts run: when the first card of the
#: hand is in the DOM, and, once armed by a click, when the log first gets a line that is
#: not the player's own (a bot's move) and when the hand gets a new card.
INIT_SCRIPT = """
window.__jk = {table: null, armed: null, botAt: null, drawAt: null};
new MutationObserver(() => {
  const now = performance.now();
  const jk = window.__jk;
  if (jk.table === null && document.querySelector('[data-testid=hand-card]')) jk.table = now;
  if (jk.armed === 'discard' && jk.botAt === null) {
    const lines = document.querySelectorAll('[data-testid=log] li');
    for (let i = jk.logBefore; i < lines.length; i++) {
      if (!lines[i].classList.contains('is-yours')) { jk.botAt = now; break; }
    }
  }
  if (jk.armed === 'draw' && jk.drawAt === null
      && document.querySelectorAll('[data-testid=hand-card]').length > jk.handBefore) {
    jk.drawAt = now;
  }
}).observe(document, {childList: true, subtree: true});
document.addEventListener('click', () => { window.__jk.clickAt = performance.now(); }, true);
"""
RENDER = """() => {
  const nav = performance.getEntriesByType('navigation')[0];
  const fcp = performance.getEntriesByName('first-contentful-paint')[0];
  const resources = performance.getEntriesByType('resource');
  return {
    fcp: fcp ? fcp.startTime : null,
    table: window.__jk ? window.__jk.table : null,
    response_end: nav.responseEnd,
    dom_content_loaded: nav.domContentLoadedEventEnd,
    load: nav.loadEventEnd,
    bytes: nav.transferSize + resources.reduce((n, r) => n + r.transferSize, 0),
    requests: 1 + resources.filter((r) => r.transferSize > 0).length,
  };
}"""
SETTLED = """() => {
  const t = document.querySelector('[data-testid=table]');
  const d = document.querySelector('[data-testid=dialog]');
  return (t && t.dataset.busy === 'false') || (d && d.open);
}"""
PING = """async () => {
  const t0 = performance.now();
  const r = await fetch('/api/ping/', {cache: 'no-store'});
  await r.text();
  return performance.now() - t0;
}"""


def stats(values: list[float]) -> dict[str, Any]:
    return {
        "n": len(values),
        "p50_ms": round(percentile(values, 50), 1),
        "p95_ms": round(percentile(values, 95), 1),
        "min_ms": round(min(values), 1) if values else None,
    }


def machine() -> dict[str, Any]:
    model = ""
    try:
        for line in Path("/proc/cpuinfo").read_text().splitlines():
            if line.startswith("model name"):
                model = line.split(":", 1)[1].strip()
                break
    except OSError:
        pass
    return {"cpus": os.cpu_count(), "cpu": model, "python": platform.python_version()}


def setup_site(args: argparse.Namespace, workdir: Path) -> dict[str, str]:
    """Environment of a production-like site; the database migrated and the static files
    collected in this process."""
    env = {
        **os.environ,
        "DJANGO_SETTINGS_MODULE": "jokeren.settings",
        "DATABASE_URL": args.database_url or f"sqlite:///{workdir / 'bench.sqlite3'}",
        "DEBUG": "false",
        "SECRET_KEY": secrets.token_urlsafe(50),
        "ALLOWED_HOSTS": "127.0.0.1,localhost",
        "SESSION_COOKIE_SECURE": "false",
        "CSRF_COOKIE_SECURE": "false",
        "SECURE_SSL_REDIRECT": "false",
        "SECURE_HSTS_SECONDS": "0",
        "MOVE_RATE_LIMIT": "",
        "LOG_LEVEL": "WARNING",
        "STATIC_ROOT": str(workdir / "static"),
        "GUNICORN_WORKERS": str(args.workers),
    }
    env.pop("REDIS_URL", None)
    os.environ.update(env)
    import django

    django.setup()
    from django.core.management import call_command

    call_command("migrate", verbosity=0)
    started = time.monotonic()
    call_command("collectstatic", interactive=False, verbosity=0)
    log(f"collectstatic: {time.monotonic() - started:.1f} s")
    return env


def make_games(count: int) -> list[tuple[int, dict[str, str]]]:
    """``count`` Jokeren 7 games of one tournament (South has a turn in round 0), each
    with its player's session cookies."""
    import factories

    from tournaments.services import entries as entry_services

    t = factories.make_tournament(
        name="Browser speed", preset="jokeren7", rounds=1, max_entrants=count + 1
    )
    games = []
    for _ in range(count):
        user = factories.make_user()
        game = entry_services.entry_join(tournament_id=t.pk, user=user).game
        cookie = session_headers(user)["Cookie"]
        games.append((game.pk, dict(p.split("=", 1) for p in cookie.split("; "))))
    return games


def measure(base: str, games: list[tuple[int, dict[str, str]]], args: argparse.Namespace) -> Any:
    from playwright.sync_api import sync_playwright

    found: dict[str, list[float]] = {
        k: []
        for k in (
            "play_cold_fcp", "play_cold_table", "play_warm_fcp", "play_warm_table",
            "play_cold_html", "play_warm_html", "play_cold_dcl", "play_warm_dcl",
            "login_cold_fcp", "login_warm_fcp",
            "move_bot_reply", "move_answer", "draw_card", "ping",
        )
    }  # fmt: skip
    sizes: dict[str, list[float]] = {"play_cold": [], "play_warm": [], "login_cold": []}
    viewport = dict(zip(("width", "height"), map(int, args.viewport.split("x")), strict=True))
    with sync_playwright() as p:
        browser = p.chromium.launch(
            executable_path=CHROMIUM,
            headless=True,
            args=["--no-sandbox", "--disable-gpu", "--no-first-run", "--disable-sync"],
        )

        def context(cookies: dict[str, str] | None) -> Any:
            ctx = browser.new_context(viewport=viewport, locale="nl-NL")
            ctx.add_init_script(INIT_SCRIPT)
            ctx.set_default_timeout(30_000)
            if cookies:
                ctx.add_cookies([{"name": k, "value": v, "url": base} for k, v in cookies.items()])
            return ctx

        def visit(page: Any, url: str, table: bool) -> dict[str, Any]:
            page.goto(url, wait_until="load")
            if table:
                page.wait_for_function(SETTLED)
                page.wait_for_function("() => window.__jk.table !== null")
            else:
                page.wait_for_function(
                    "() => performance.getEntriesByName('first-contentful-paint').length"
                )
            result: dict[str, Any] = page.evaluate(RENDER)
            return result

        moves = 0
        for game_id, cookies in games:
            # (a) first render: the play page and the yardstick, alternating, cold then warm.
            ctx = context(cookies)
            page = ctx.new_page()
            play = f"{base}/games/{game_id}/"
            cold = visit(page, play, True)
            warm = visit(page, play, True)
            found["play_cold_fcp"].append(cold["fcp"])
            found["play_cold_table"].append(cold["table"])
            found["play_warm_fcp"].append(warm["fcp"])
            found["play_warm_table"].append(warm["table"])
            for name, run in (("cold", cold), ("warm", warm)):
                found[f"play_{name}_html"].append(run["response_end"])
                found[f"play_{name}_dcl"].append(run["dom_content_loaded"])
            sizes["play_cold"].append(cold["bytes"])
            sizes["play_warm"].append(warm["bytes"])
            yard = context(None)
            yard_page = yard.new_page()
            login_cold = visit(yard_page, f"{base}/accounts/login/", False)
            login_warm = visit(yard_page, f"{base}/accounts/login/", False)
            found["login_cold_fcp"].append(login_cold["fcp"])
            found["login_warm_fcp"].append(login_warm["fcp"])
            sizes["login_cold"].append(login_cold["bytes"])
            yard.close()

            # (b) moves on this table until the round ends or enough were timed.
            for _turn in range(args.turns_per_game):
                if moves >= args.samples:
                    break
                state = page.evaluate(
                    "() => ({...document.querySelector('[data-testid=table]').dataset,"
                    " dialog: !!document.querySelector('[data-testid=dialog]')?.open})"
                )
                if state["dialog"] or state["status"] != "playing" or state["phase"] != "draw":
                    break
                found["ping"].append(page.evaluate(PING))
                page.evaluate(
                    "() => Object.assign(window.__jk, {armed: 'draw', drawAt: null,"
                    " handBefore: document.querySelectorAll('[data-testid=hand-card]').length})"
                )
                page.click("[data-testid=stock]")
                page.wait_for_function("() => window.__jk.drawAt !== null")
                found["draw_card"].append(page.evaluate("() => __jk.drawAt - __jk.clickAt"))
                page.wait_for_function(SETTLED)
                page.locator("[data-testid=hand-card]").last.click()
                page.evaluate(
                    "() => { performance.clearResourceTimings();"
                    " Object.assign(window.__jk, {armed: 'discard', botAt: null,"
                    " logBefore: document.querySelectorAll('[data-testid=log] li').length}); }"
                )
                page.click("[data-testid=btn-discard]")
                try:
                    page.wait_for_function(
                        "() => window.__jk.botAt !== null"
                        " || document.querySelector('[data-testid=dialog]')?.open",
                        timeout=15_000,
                    )
                except Exception:
                    break
                timing = page.evaluate(
                    """() => {
                      const r = performance.getEntriesByType('resource')
                        .filter((e) => e.name.includes('/moves/')).pop();
                      return {bot: __jk.botAt === null ? null : __jk.botAt - __jk.clickAt,
                              answer: r ? r.responseEnd - __jk.clickAt : null};
                    }"""
                )
                if timing["bot"] is None:
                    break  # South went out: the dialog, no bot reply
                found["move_bot_reply"].append(timing["bot"])
                if timing["answer"] is not None:
                    found["move_answer"].append(timing["answer"])
                moves += 1
                page.wait_for_function(SETTLED)
            ctx.close()
            log(f"game {game_id}: {moves} moves timed so far")
            if moves >= args.samples and len(found["play_cold_fcp"]) >= args.renders:
                break
        browser.close()
    return found, sizes


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--samples", type=int, default=20, help="moves to time")
    parser.add_argument("--renders", type=int, default=10, help="play-page loads (at least)")
    parser.add_argument("--turns-per-game", type=int, default=3)
    parser.add_argument("--games", type=int, default=30, help="games made (at most used)")
    parser.add_argument("--workers", type=int, default=2, help="gunicorn workers")
    parser.add_argument("--viewport", default="1280x900")
    parser.add_argument("--database-url", default="", help="default: a fresh SQLite file")
    add_out_option(parser)
    args = parser.parse_args()
    out = out_dir(args.out, "browser_speed")

    report: dict[str, Any] = {
        "started": time.strftime("%Y-%m-%d %H:%M:%S UTC", time.gmtime()),
        "command": " ".join(sys.argv),
        "machine": machine(),
        "load_average_start": load_average(),
    }
    with tempfile.TemporaryDirectory(prefix="browser-speed-") as tmp:
        workdir = Path(tmp)
        env = setup_site(args, workdir)
        games = make_games(args.games)
        port = free_port()
        env["GUNICORN_BIND"] = f"127.0.0.1:{port}"
        gunicorn = [str(VENV_BIN / "gunicorn"), "-c", "deploy/gunicorn.conf.py", "jokeren.wsgi"]
        with process(gunicorn, env, "browser-speed-gunicorn", out):
            wait_for(lambda: port_open("127.0.0.1", port), "gunicorn")
            log(f"gunicorn on port {port}, load average {load_average()}")
            found, sizes = measure(f"http://127.0.0.1:{port}", games, args)
    report["load_average_end"] = load_average()
    report["figures"] = {k: stats([v for v in vs if v is not None]) for k, vs in found.items()}
    report["bytes"] = {k: round(percentile(v, 50)) for k, v in sizes.items() if v}
    fig = report["figures"]
    if fig["login_cold_fcp"]["p50_ms"]:
        report["ratios"] = {
            "play_cold_fcp / login_cold_fcp": round(
                fig["play_cold_fcp"]["p50_ms"] / fig["login_cold_fcp"]["p50_ms"], 2
            ),
            "play_warm_fcp / login_warm_fcp": round(
                fig["play_warm_fcp"]["p50_ms"] / fig["login_warm_fcp"]["p50_ms"], 2
            ),
            "move_answer / ping": round(
                fig["move_answer"]["p50_ms"] / max(fig["ping"]["p50_ms"], 0.1), 1
            ),
        }
    print(json.dumps(report, indent=2))
    write_json(out, "browser_speed.json", report)


if __name__ == "__main__":
    main()
