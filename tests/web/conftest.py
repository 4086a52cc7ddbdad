"""The web table in a real browser: the distribution's Chromium (/usr/bin/chromium, which .ci/run installs)
driven by Playwright, one browser per test module and a context per page, against `rulekeeper serve`.

The page is also served from a second origin (a plain static file server on another port, the API named by
`?api=`), as a deployment that hosts it elsewhere would. Screenshots are kept under test-artifacts/web/ (or
$RULEKEEPER_TEST_ARTIFACTS/web/)."""

from __future__ import annotations

import functools
import os
import shutil
import threading
from collections.abc import Iterator
from http.server import SimpleHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path

import pytest

from serve_process import Service, free_port
from servers import in_ci
from service.web import STATIC

CHROMIUM = "/usr/bin/chromium"
# No sandbox: CI runs as root. The rest keeps the browser from reaching anything but the servers under test.
ARGS = [
    "--no-sandbox",
    "--headless",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
]
ROOT = Path(__file__).resolve().parents[2]
PHONE = {"width": 375, "height": 812}


@pytest.fixture(scope="session")
def artifacts() -> Path:
    where = Path(os.environ.get("RULEKEEPER_TEST_ARTIFACTS") or ROOT / "test-artifacts") / "web"
    where.mkdir(parents=True, exist_ok=True)
    return where


# One browser per module, not per session: while Playwright's sync API is open its event loop counts as running
# in this thread, and an asyncio test run after it (`pytest tests/web tests/api`) could not start its own.
@pytest.fixture(scope="module")
def browser():
    if not Path(CHROMIUM).exists():
        message = f"{CHROMIUM} not found (apt-get install chromium)"
        if in_ci():
            pytest.fail(f"{message}; CI=true requires it", pytrace=False)
        pytest.skip(message)
    from playwright.sync_api import sync_playwright

    with sync_playwright() as p:
        b = p.chromium.launch(executable_path=CHROMIUM, args=ARGS)
        yield b
        b.close()


class Quiet(SimpleHTTPRequestHandler):
    def log_message(self, *args) -> None:
        pass


@pytest.fixture(scope="session")
def page_origin(tmp_path_factory) -> Iterator[str]:
    """The page's files on an origin of their own: index.html and static/, as the service lays them out."""
    root = tmp_path_factory.mktemp("page")
    shutil.copy(STATIC / "index.html", root / "index.html")
    shutil.copytree(STATIC, root / "static")
    server = ThreadingHTTPServer(("127.0.0.1", free_port()), functools.partial(Quiet, directory=str(root)))
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    yield f"http://127.0.0.1:{server.server_address[1]}"
    server.shutdown()
    server.server_close()


@pytest.fixture(scope="session")
def served(tmp_path_factory, page_origin) -> Iterator[str]:
    """`rulekeeper serve` on the embedded defaults, letting the second origin's pages in."""
    tmp = tmp_path_factory.mktemp("web")
    service = Service(
        {"DATABASE_URL": f"sqlite:///{tmp}/rulekeeper.db", "RULEKEEPER_CORS_ORIGINS": page_origin}, tmp / "serve.log"
    ).ready()
    yield service.url
    service.stop()


@pytest.fixture
def new_page(browser):
    """A page in a context of its own (its own storage: one person at the table), phone-sized unless asked."""
    contexts = []

    def make(viewport: dict | None = None, locale: str = "en-US"):
        context = browser.new_context(viewport=viewport or PHONE, locale=locale)
        context.set_default_timeout(10_000)
        contexts.append(context)
        page = context.new_page()
        errors: list[str] = []
        page.on("pageerror", lambda e: errors.append(str(e)))
        page.errors = errors
        return page

    yield make
    for c in contexts:
        c.close()
