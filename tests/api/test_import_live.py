"""The largest document an import allows, against a real `uvicorn service.asgi:app` process: /healthz and a
move on another campaign stay responsive while it replays (the replay runs off the event loop), and the
figures are printed (`pytest -s tests/api/test_import_live.py`). The bound asserted is generous: the 100 ms
the issue asks for is measured and printed, not asserted on a shared test machine."""

from __future__ import annotations

import json
import statistics
import threading
import time

import httpx
import pytest
from test_limits_live import uvicorn_server

from import_documents import lengthened
from service.settings import Settings

MAX_MOVES = Settings.import_max_moves


@pytest.fixture(params=["sqlite", "postgres"])
def importing(request, tmp_path_factory):
    env = {
        "RULEKEEPER_IMPORT": "anyone",
        "RULEKEEPER_RATE_LIMIT_PER_TOKEN": "off",
        "RULEKEEPER_RATE_LIMIT_PER_ADDRESS": "off",
        "RULEKEEPER_RATE_LIMIT_AUTH_FAILURES": "off",
    }
    if request.param == "postgres":
        env["DATABASE_URL"] = request.getfixturevalue("postgres_database")
        env["RULEKEEPER_WEBHOOKS_SECRETS_KEY"] = "a key for sealing webhook secrets"
    with uvicorn_server(tmp_path_factory.mktemp("import"), env) as (base, _pid):
        yield base, request.param


def _table(c: httpx.Client) -> tuple[str, str]:
    r = c.post("/v1/campaigns", json={"name": "Bystander", "system": "stepdice", "dice_mode": "server"})
    base, gm = f"/v1/campaigns/{r.json()['campaign']['id']}", r.json()["gm_token"]
    assert (
        c.post(
            f"{base}/actions",
            json={"action": {"type": "start_scene", "kind": "narrative"}},
            headers={"Authorization": f"Bearer {gm}"},
        ).status_code
        == 200
    )
    return base, gm


def test_healthz_and_other_campaigns_stay_responsive_while_the_largest_document_imports(importing):
    base_url, backend = importing
    with httpx.Client(base_url=base_url, timeout=120) as c:
        source, source_gm = _table(c)
        doc = lengthened(c.get(f"{source}/export", headers={"Authorization": f"Bearer {source_gm}"}).json(), MAX_MOVES)
        body = json.dumps(doc).encode()
        other, other_gm = _table(c)
        result: dict = {}

        def send() -> None:
            with httpx.Client(base_url=base_url, timeout=300) as importer:
                started = time.monotonic()
                r = importer.post("/v1/campaigns/import", content=body, headers={"Content-Type": "application/json"})
                result.update(status=r.status_code, text=r.text[:500], seconds=time.monotonic() - started)

        thread = threading.Thread(target=send)
        thread.start()
        health, moves = [], []
        k = 0
        while thread.is_alive():
            t0 = time.monotonic()
            assert c.get("/healthz").status_code == 200
            health.append(time.monotonic() - t0)
            k += 1
            if k % 5 == 0:
                t0 = time.monotonic()
                r = c.post(
                    f"{other}/actions",
                    json={"action": {"type": "gm_note", "text": f"meanwhile {k}"}},
                    headers={"Authorization": f"Bearer {other_gm}"},
                )
                assert r.status_code == 200, r.text
                moves.append(time.monotonic() - t0)
            time.sleep(0.02)
        thread.join()
    assert result["status"] == 201, result
    ms = lambda xs: f"median {statistics.median(xs) * 1000:.0f} ms, max {max(xs) * 1000:.0f} ms (n={len(xs)})"  # noqa: E731
    print(
        f"\n{backend}: import of {MAX_MOVES} moves ({len(body) / 2**20:.1f} MB): {result['seconds']:.1f} s; "
        f"/healthz {ms(health)}; a move on another campaign {ms(moves or [0.0])}"
    )
    assert health and max(health) < 2.0
    assert not moves or max(moves) < 3.0
