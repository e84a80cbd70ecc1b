"""Static files as production serves them (DEBUG off, issue 13 item 10): ``collectstatic``
with the site's manifest storage into a temporary STATIC_ROOT, then pages link hashed
names, whitenoise serves them cached for ten years ("immutable") and compressed (gzip,
Brotli) when the browser accepts it, and the table's ES modules import hashed names."""

from __future__ import annotations

import gzip
import re
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import brotli
import factories
import pytest
from django.conf import settings
from django.contrib.staticfiles.storage import staticfiles_storage
from django.core.management import call_command
from django.test import Client, override_settings

from tournaments.services import entries as entry_services

ROOT = Path(settings.BASE_DIR)
TEN_YEARS = 315_360_000
HASHED = re.compile(r"/static/(?P<name>css/site)\.(?P<hash>[0-9a-f]{12})\.css")


def _production_storage() -> dict[str, Any]:
    """jokeren.settings' STORAGES with DEBUG off (tests load it with DEBUG on)."""
    return {**settings.STORAGES, "staticfiles": {"BACKEND": "jokeren.storage.StaticFilesStorage"}}


@pytest.fixture(scope="module")
def collected(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Path]:
    """The site's own static files collected (not the admin's: hundreds of files that
    take most of a minute to compress on the test machine)."""
    root = tmp_path_factory.mktemp("static")
    with override_settings(STATIC_ROOT=root, STORAGES=_production_storage()):
        call_command("collectstatic", interactive=False, verbosity=0, ignore_patterns=["admin"])
    yield root


@pytest.fixture
def production(collected: Path) -> Iterator[Path]:
    with override_settings(STATIC_ROOT=collected, STORAGES=_production_storage(), DEBUG=False):
        yield collected


def _body(response: Any) -> bytes:
    return b"".join(response.streaming_content)


def test_the_settings_use_the_manifest_storage_when_debug_is_off() -> None:
    code = (
        "import django, os; django.setup(); from django.conf import settings; "
        "print(settings.STORAGES['staticfiles']['BACKEND'])"
    )
    env = {
        "PATH": "/usr/bin:/bin",
        "DJANGO_SETTINGS_MODULE": "jokeren.settings",
        "DEBUG": "false",
        "SECRET_KEY": "a-test-key-" + "x1y2z3" * 9,
    }
    out = subprocess.run(
        [sys.executable, "-c", code], env=env, cwd=ROOT, capture_output=True, text=True, check=True
    )
    assert out.stdout.strip() == "jokeren.storage.StaticFilesStorage"


@pytest.mark.django_db
def test_pages_link_hashed_files_served_immutable_and_compressed(production: Path) -> None:
    client = Client()
    page = client.get("/")
    assert page.status_code == 200
    match = HASHED.search(page.content.decode())
    assert match, "the page links css/site.css under its hashed name"
    url = match.group(0)
    original = (ROOT / "static" / "css" / "site.css").read_bytes()

    plain = client.get(url, HTTP_ACCEPT_ENCODING="identity")
    assert plain.status_code == 200
    assert _body(plain) == original
    cache = [part.strip() for part in plain["Cache-Control"].split(",")]
    assert f"max-age={TEN_YEARS}" in cache and "immutable" in cache
    assert "Content-Encoding" not in plain

    zipped = client.get(url, HTTP_ACCEPT_ENCODING="gzip")
    assert zipped["Content-Encoding"] == "gzip"
    assert "Accept-Encoding" in zipped["Vary"]
    assert gzip.decompress(_body(zipped)) == original

    br = client.get(url, HTTP_ACCEPT_ENCODING="gzip, deflate, br")
    assert br["Content-Encoding"] == "br"
    squeezed = _body(br)
    assert brotli.decompress(squeezed) == original
    assert len(squeezed) < len(original)


@pytest.mark.django_db
def test_an_unhashed_name_is_not_cached_for_long(production: Path) -> None:
    response = Client().get("/static/css/site.css")
    assert response.status_code == 200
    assert "immutable" not in response["Cache-Control"]
    assert f"max-age={TEN_YEARS}" not in response["Cache-Control"]


def test_every_static_file_a_template_links_is_in_the_manifest(production: Path) -> None:
    names = set()
    for template in (ROOT / "templates").rglob("*.html"):
        names.update(re.findall(r"{% static '([^']+)' %}", template.read_text()))
    assert "js/table.js" in names and "css/site.css" in names
    for name in sorted(names):
        url = staticfiles_storage.url(name)  # the manifest storage raises for a missing one
        assert re.search(r"\.[0-9a-f]{12}\.(css|js|svg)$", url), url


def test_the_tables_es_modules_import_hashed_modules(production: Path) -> None:
    for script in ("js/table.js", "js/klaverjas.js"):
        hashed = staticfiles_storage.stored_name(script)
        text = (production / hashed).read_text()
        imports = re.findall(r"""from\s*["']\./([^"']+)["']""", text)
        assert imports, script
        for name in imports:
            assert re.fullmatch(r"[\w-]+\.[0-9a-f]{12}\.js", name), (script, name)
            assert (production / "js" / name).is_file()


@pytest.mark.django_db
def test_the_play_page_works_with_the_manifest_storage(production: Path) -> None:
    user = factories.make_user()
    t = factories.make_tournament()
    game = entry_services.entry_join(tournament_id=t.pk, user=user).game
    client = Client()
    client.force_login(user)
    page = client.get(f"/games/{game.pk}/")
    assert page.status_code == 200
    scripts = re.findall(r'src="(/static/[^"]+)"', page.content.decode())
    assert any(re.search(r"/js/table\.[0-9a-f]{12}\.js$", s) for s in scripts), scripts
    for src in scripts:
        assert client.get(src).status_code == 200
