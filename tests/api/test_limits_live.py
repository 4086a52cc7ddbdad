"""The limits against a real server process (`uvicorn service.asgi:app`, configured by environment) over
real sockets: the body limit holds memory flat, GraphQL bombs do not stall /healthz, and rate limits
answer 429 with Retry-After. Client addresses come through X-Forwarded-For from the trusted loopback
proxy, as behind a real one, so each test has a budget of its own."""

from __future__ import annotations

import asyncio
import os
import socket
import subprocess
import sys
import threading
import time
import uuid
from contextlib import contextmanager
from pathlib import Path

import httpx
import pytest
from serve_process import START_SECONDS, answers

ROOT = Path(__file__).resolve().parents[2]
MB = 2**20


@contextmanager
def uvicorn_server(tmp: Path, env: dict[str, str]):
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    environ = {k: v for k, v in os.environ.items() if k not in {"DATABASE_URL", "REDIS_URL"}}
    environ.update({"DATABASE_URL": f"sqlite:///{tmp}/live.db", "RULEKEEPER_LOG_LEVEL": "WARNING", **env})
    proc = subprocess.Popen(
        [
            sys.executable,
            "-m",
            "uvicorn",
            "service.asgi:app",
            "--port",
            str(port),
            "--log-level",
            "warning",
            "--proxy-headers",
            "--forwarded-allow-ips",
            "127.0.0.1",
        ],
        cwd=ROOT,
        env=environ,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
    )
    base = f"http://127.0.0.1:{port}"
    try:
        if not answers(f"{base}/healthz", time.monotonic() + START_SECONDS, lambda: proc.poll() is None, every=0.1):
            # Its stderr ends only when it does: a server still starting would keep the read waiting.
            proc.kill()
            pytest.fail(f"the server did not start: {proc.communicate()[1].decode()[-2000:]}")
        yield base, proc.pid
    finally:
        proc.terminate()
        proc.wait(timeout=10)


@pytest.fixture(scope="module")
def server(tmp_path_factory):
    """The default limits."""
    with uvicorn_server(tmp_path_factory.mktemp("limits"), {}) as running:
        yield running


@pytest.fixture(scope="module")
def throttled(tmp_path_factory):
    env = {
        "RULEKEEPER_RATE_LIMIT_PER_TOKEN": "0.2/3",
        "RULEKEEPER_RATE_LIMIT_PER_ADDRESS": "off",
        "RULEKEEPER_RATE_LIMIT_AUTH_FAILURES": "0.1/3",
    }
    with uvicorn_server(tmp_path_factory.mktemp("throttled"), env) as running:
        yield running[0]


def memory_mb(pid: int, field: str) -> int:
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith(field + ":"):
            return int(line.split()[1]) // 1024
    raise AssertionError(f"no {field} for {pid}")


def hundred_mb():
    chunk = b" " * (64 * 1024)
    for _ in range(100 * MB // len(chunk)):
        yield chunk


@pytest.mark.skipif(not Path("/proc/self/status").exists(), reason="reads the server's memory from /proc")
@pytest.mark.parametrize("declared", [True, False], ids=["content-length", "chunked"])
def test_five_concurrent_100mb_bodies_leave_the_server_memory_flat(server, declared):
    base, pid = server
    before = memory_mb(pid, "VmRSS")
    statuses = []

    def upload() -> None:
        headers = {"content-type": "application/json", **({"content-length": str(100 * MB)} if declared else {})}
        statuses.append(
            httpx.post(f"{base}/v1/campaigns", content=hundred_mb(), headers=headers, timeout=60).status_code
        )

    threads = [threading.Thread(target=upload) for _ in range(5)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert statuses == [413] * 5
    assert memory_mb(pid, "VmHWM") - before < 50  # it grew by 600 MB when bodies were read before the check


def test_a_10mb_graphql_query_is_refused_before_it_is_read(server):
    base, _ = server
    query = "{ " + "systems { id } " * (10 * MB // 16) + "}"
    start = time.monotonic()
    r = httpx.post(f"{base}/graphql", json={"query": query}, timeout=60)
    assert r.status_code == 413 and r.json()["errors"][0]["extensions"]["code"] == "payload_too_large"
    assert time.monotonic() - start < 5


def test_alias_bombs_do_not_stall_healthz(server):
    base, _ = server
    created = httpx.post(f"{base}/v1/campaigns", json={"name": "bomb", "system": "stepdice"}).json()
    cid, gm = created["campaign"]["id"], created["gm_token"]
    bomb = {
        "query": "query($c: ID!) { "
        + " ".join(f"a{i}: events(campaignId:$c,first:500){{edges{{cursor}}}}" for i in range(1000))
        + " }",
        "variables": {"c": cid},
    }

    async def run():
        async with httpx.AsyncClient(base_url=base, timeout=60, headers={"Authorization": f"Bearer {gm}"}) as c:
            bombs = [asyncio.create_task(c.post("/graphql", json=bomb)) for _ in range(4)]
            await asyncio.sleep(0.05)
            start = time.monotonic()
            health = await c.get("/healthz")
            waited = time.monotonic() - start
            return await asyncio.gather(*bombs), health, waited

    answers, health, waited = asyncio.run(run())
    assert health.status_code == 200 and waited < 1  # 13 s before the limits
    for r in answers:
        assert r.json()["errors"][0]["extensions"]["code"] in {
            "query_too_large",
            "too_many_aliases",
            "query_too_costly",
        }


def address() -> dict[str, str]:
    return {"X-Forwarded-For": "10.%d.%d.%d" % tuple(uuid.uuid4().bytes[:3])}


def test_a_token_past_its_budget_gets_429_with_retry_after_over_real_sockets(throttled):
    with httpx.Client(base_url=throttled, headers=address()) as c:
        created = c.post("/v1/campaigns", json={"name": "r", "system": "stepdice"}).json()
        cid, gm = created["campaign"]["id"], created["gm_token"]
        auth = {"Authorization": f"Bearer {gm}"}
        assert [c.get(f"/v1/campaigns/{cid}", headers=auth).status_code for _ in range(3)] == [200, 200, 200]
        r = c.get(f"/v1/campaigns/{cid}", headers=auth)
        assert r.status_code == 429 and r.json()["code"] == "rate_limited"
        assert int(r.headers["Retry-After"]) >= 1
        assert c.get("/healthz").status_code == 200


def test_wrong_tokens_are_throttled_over_real_sockets(throttled):
    with httpx.Client(base_url=throttled, headers=address()) as c:
        created = c.post("/v1/campaigns", json={"name": "r", "system": "stepdice"}).json()
        cid, gm = created["campaign"]["id"], created["gm_token"]
        wrong = [
            c.get(f"/v1/campaigns/{cid}", headers={"Authorization": f"Bearer rk_gm_guess{i}"}).status_code
            for i in range(4)
        ]
        assert wrong == [401, 401, 401, 429]
        r = c.get(f"/v1/campaigns/{cid}", headers={"Authorization": f"Bearer {gm}"})
        assert r.status_code == 429 and int(r.headers["Retry-After"]) >= 1
    with httpx.Client(base_url=throttled, headers=address()) as elsewhere:
        assert elsewhere.get(f"/v1/campaigns/{cid}", headers={"Authorization": f"Bearer {gm}"}).status_code == 200
