"""The test apps' engines share compiled statements (tests/engines.py): an app compiles none of the statements
an earlier one compiled."""

from __future__ import annotations

import httpx
from sqlalchemy import event

from service.app import create_app
from service.settings import Settings


async def test_a_second_apps_engine_compiles_none_of_the_statements_the_first_compiled(tmp_path):
    seen = []
    for name in ("first", "second"):
        app = create_app(Settings(database_url=f"sqlite+aiosqlite:///{tmp_path}/{name}.db"))
        async with app.router.lifespan_context(app):
            engine = app.state.services.engine.sync_engine
            before, sent = len(engine._compiled_cache), []
            event.listen(engine, "before_cursor_execute", lambda *args, sent=sent: sent.append(args[2]))
            async with httpx.AsyncClient(transport=httpx.ASGITransport(app=app), base_url="http://t") as c:
                r = await c.post("/v1/campaigns", json={"name": name, "system": "stepdice"})
                assert r.status_code == 201, r.text
            seen.append((engine, len(engine._compiled_cache) - before, len(sent)))
    (first, _, _), (second, compiled, statements) = seen
    assert second.dialect is first.dialect and second._compiled_cache is first._compiled_cache
    assert statements > 0 and compiled == 0
