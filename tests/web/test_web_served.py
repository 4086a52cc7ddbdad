"""The web table is served at `/` with its modules and styles (docs/frontend.md, The web table), only its own scripts may
run in it, and RULEKEEPER_WEB_TABLE=false leaves an API-only service."""

from __future__ import annotations

import re

import pytest

from service.app import GZIP_LEVEL, create_app
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
    for f in (f for f in STATIC.rglob("*") if f.is_file()):
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
    """Everything the page loads, gzipped as a server would send it: its modules and styles, and the GraphQL
    documents it sends (printed; the budget keeps it a page). The forms' input types come by introspection as a
    form needs them, a few KB each. Each of the five systems' boards (table.js, with its own words in three languages)
    weighs about 6 KB of it."""
    import gzip

    sizes = {
        f.relative_to(STATIC).as_posix(): len(gzip.compress(f.read_bytes(), GZIP_LEVEL))
        for f in STATIC.rglob("*")
        if f.suffix in (".js", ".mjs", ".css", ".graphql")
    }
    # A page loads the forms' words of its own language only (static/labels/): the heaviest language counts.
    words = {name: n for name, n in sizes.items() if name.startswith("labels/")}
    page = sum(n for name, n in sizes.items() if name not in words) + max(words.values())
    code = page - sum(n for name, n in sizes.items() if name.endswith(".graphql"))
    print(
        f"web table gzip, a page in its heaviest language: JS+CSS {code} bytes, with the GraphQL documents "
        f"{page} bytes {sizes}"
    )
    assert page < 60_000


async def _raw(client, path: str, **headers) -> tuple[object, bytes]:
    async with client.stream("GET", path, headers=headers) as r:
        return r, b"".join([chunk async for chunk in r.aiter_raw()])


async def test_the_openapi_document_and_the_page_s_files_come_gzipped_when_asked(client):
    import gzip

    for path in ("/openapi.json", "/static/app.js", "/static/forms.js", "/static/graphql/tables.graphql"):
        r, body = await _raw(client, path, **{"Accept-Encoding": "gzip"})
        assert r.status_code == 200 and r.headers["content-encoding"] == "gzip", path
        assert "accept-encoding" in r.headers["vary"].lower(), path
        plain, identity = await _raw(client, path, **{"Accept-Encoding": "identity"})
        assert "content-encoding" not in plain.headers and gzip.decompress(body) == identity, path
        if path == "/openapi.json":
            print(f"/openapi.json: {len(identity)} bytes, {len(body)} gzipped")
            assert len(body) < len(identity) / 4


async def test_a_small_answer_is_not_compressed(client):
    r, _ = await _raw(client, "/healthz", **{"Accept-Encoding": "gzip"})
    assert r.status_code == 200 and "content-encoding" not in r.headers


async def test_a_gzipped_file_keeps_its_etag_and_a_revalidation_is_still_304(client):
    r, _ = await _raw(client, "/static/app.js", **{"Accept-Encoding": "gzip"})
    plain, _ = await _raw(client, "/static/app.js", **{"Accept-Encoding": "identity"})
    assert r.headers["etag"] == plain.headers["etag"]
    again, body = await _raw(
        client, "/static/app.js", **{"Accept-Encoding": "gzip", "If-None-Match": r.headers["etag"]}
    )
    assert again.status_code == 304 and body == b"" and "content-encoding" not in again.headers
