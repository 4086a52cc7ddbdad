"""The web table is served at `/` with its modules and styles (README, The web table), only its own scripts may
run in it, and RULEKEEPER_WEB_TABLE=false leaves an API-only service."""
from __future__ import annotations

import re

import pytest

from service.app import create_app
from service.settings import Settings
from service.web import STATIC


async def test_the_page_and_every_file_it_loads_are_served(client):
    page = await client.get("/")
    assert page.status_code == 200 and page.headers["content-type"].startswith("text/html")
    assert "script-src 'self'" in page.headers["content-security-policy"]
    assert page.headers["referrer-policy"] == "no-referrer"
    loaded = re.findall(r'(?:src|href)="(static/[^"]+)"', page.text)
    imported = {m for f in STATIC.glob("*.js") for m in re.findall(r'from "\./([^"]+)"', f.read_text())}
    assert {"static/app.js", "static/style.css"} <= set(loaded)
    for path in [*loaded, *(f"static/{m}" for m in imported)]:
        r = await client.get(f"/{path}")
        assert r.status_code == 200, path
        assert r.headers["content-type"].split(";")[0] in ("text/javascript", "application/javascript", "text/css")


def test_nothing_the_page_loads_comes_from_another_host():
    for f in STATIC.iterdir():
        text = f.read_text()
        assert not re.search(r'(?:src|href)="(?:https?:)?//', text), f.name
        assert not re.search(r'import[^"\n]*"(?:https?:)?//', text), f.name


def _paths(app) -> set[str]:
    return {getattr(r, "path", None) for r in app.routes}


def test_rulekeeper_web_table_false_serves_only_the_api():
    assert Settings.from_env({}).web_table is True
    off = Settings.from_env({"RULEKEEPER_WEB_TABLE": "false"})
    assert off.web_table is False
    assert "/" not in _paths(create_app(off)) and "/static" not in _paths(create_app(off))
    assert {"/", "/static"} <= _paths(create_app(Settings()))
    with pytest.raises(ValueError, match="RULEKEEPER_WEB_TABLE"):
        Settings.from_env({"RULEKEEPER_WEB_TABLE": "maybe"})


def test_the_page_weighs_little_compressed():
    """Everything the page loads, gzipped as a server would send it (printed; the budget keeps it a page)."""
    import gzip

    sizes = {f.name: len(gzip.compress(f.read_bytes(), 9)) for f in STATIC.iterdir() if f.suffix in (".js", ".css")}
    print(f"web table JS+CSS gzip: {sum(sizes.values())} bytes {sizes}")
    assert sum(sizes.values()) < 40_000
