"""Throughput and latency of the main paths, measured against a real server on loopback.

    .venv/bin/python benchmarks/api_bench.py [--requests 400] [--concurrency 16] [--servers]

Starts `rulekeeper` (uvicorn, one worker) in a subprocess on a free port — on the embedded defaults, and
with --servers also on PostgreSQL + Redis (TEST_DATABASE_URL / TEST_REDIS_URL, in a database of its own) —
then drives each scenario with a bounded number of requests from one async client and prints requests/s,
p50 and p99 per scenario, and ratios against the cheapest one. Every figure in one table comes from one run:
these machines are shared and noisy, so compare ratios, not absolute numbers across runs.
"""

from __future__ import annotations

import argparse
import asyncio
import os
import socket
import statistics
import subprocess
import sys
import tempfile
import time
import uuid
from collections.abc import Awaitable, Callable
from pathlib import Path

import httpx

sys.path.insert(0, str(Path(__file__).resolve().parent))
from load import answers  # noqa: E402  (a sibling script, not a package)

ROOT = Path(__file__).resolve().parents[1]
WARRIOR = {
    "name": "Brona",
    "role": "warrior",
    "talents": ["Athlete", "Medic"],
    "equipment": {"weapon": "axe", "protection": None, "items": ["rope", "torch", "whetstone"]},
}


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def start_server(env: dict[str, str]) -> tuple[subprocess.Popen, str]:
    port = free_port()
    proc = subprocess.Popen(
        [sys.executable, "-m", "service.cli", "serve", "--port", str(port)],
        cwd=ROOT,
        # One client and one token at full speed: rate limits would measure themselves.
        env={
            **os.environ,
            "RULEKEEPER_LOG_LEVEL": "WARNING",
            "RULEKEEPER_RATE_LIMIT_PER_TOKEN": "off",
            "RULEKEEPER_RATE_LIMIT_PER_ADDRESS": "off",
            **env,
        },
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
    )
    base = f"http://127.0.0.1:{port}"
    if answers(f"{base}/readyz", time.monotonic() + 30):
        return proc, base
    proc.kill()
    raise SystemExit(f"server did not start: {proc.stderr.read().decode()[-2000:]}")


async def setup(c: httpx.AsyncClient) -> dict[str, str]:
    r = (await c.post("/v1/campaigns", json={"name": "bench", "system": "stepdice", "dice_mode": "server"})).json()
    cid, gm = r["campaign"]["id"], r["gm_token"]
    h = {"Authorization": f"Bearer {gm}"}
    ch = (await c.post(f"/v1/campaigns/{cid}/characters", json={"sheet": WARRIOR}, headers=h)).json()
    return {"campaign": cid, "gm": gm, "character": ch["id"]}


def scenarios(ctx: dict[str, str]) -> dict[str, Callable[[httpx.AsyncClient], Awaitable[httpx.Response]]]:
    cid, h = ctx["campaign"], {"Authorization": f"Bearer {ctx['gm']}"}
    # A move that never leaves a pending choice behind (a test can: an exceptional success waits for the
    # player's benefit), so every request takes the whole path: auth, lock, load, engine, compare-and-set, log.
    note = {"type": "gm_note", "text": "the torches gutter"}
    gql = {
        "query": "mutation($i: ActInput!) { act(input: $i) { version events { type } } }",
        "variables": {"i": {"campaignId": cid, "action": {"stepdice": {"gmNote": {"text": note["text"]}}}}},
    }
    return {
        "GET /healthz (floor)": lambda c: c.get("/healthz"),
        "GET state": lambda c: c.get(f"/v1/campaigns/{cid}/state", headers=h),
        "POST rolls 3d10": lambda c: c.post(f"/v1/campaigns/{cid}/rolls", json={"expression": "3d10"}, headers=h),
        "POST actions (gm_note)": lambda c: c.post(f"/v1/campaigns/{cid}/actions", json={"action": note}, headers=h),
        "GraphQL act (gm_note)": lambda c: c.post("/graphql", json=gql, headers=h),
    }


async def measure(base: str, requests: int, concurrency: int) -> dict[str, tuple[float, float, float]]:
    out = {}
    async with httpx.AsyncClient(base_url=base, timeout=30, limits=httpx.Limits(max_connections=concurrency)) as c:
        ctx = await setup(c)
        for name, fn in scenarios(ctx).items():
            for _ in range(20):  # warm-up: caches, connection pool
                (await fn(c)).raise_for_status()
            latencies: list[float] = []
            todo = iter(range(requests))

            async def worker() -> None:
                for _ in todo:
                    t0 = time.perf_counter()
                    r = await fn(c)
                    latencies.append(time.perf_counter() - t0)
                    r.raise_for_status()

            t0 = time.perf_counter()
            await asyncio.gather(*[worker() for _ in range(concurrency)])
            elapsed = time.perf_counter() - t0
            latencies.sort()
            out[name] = (
                requests / elapsed,
                statistics.median(latencies) * 1000,
                latencies[int(len(latencies) * 0.99) - 1] * 1000,
            )
    return out


def report(title: str, rows: dict[str, tuple[float, float, float]]) -> None:
    floor = rows["GET /healthz (floor)"][0]
    print(f"\n{title}")
    print(f"{'scenario':<24}{'req/s':>9}{'p50 ms':>9}{'p99 ms':>9}{'vs floor':>10}")
    for name, (rps, p50, p99) in rows.items():
        print(f"{name:<24}{rps:>9.0f}{p50:>9.1f}{p99:>9.1f}{rps / floor:>9.2f}x")


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--requests", type=int, default=400, help="requests per scenario (bounded run)")
    ap.add_argument("--concurrency", type=int, default=16)
    ap.add_argument("--servers", action="store_true", help="also run on PostgreSQL + Redis")
    args = ap.parse_args(argv)
    runs = [("embedded (SQLite + SQL live store)", None)]
    if args.servers:
        runs.append(("PostgreSQL + Redis", "servers"))
    results = {}
    for title, kind in runs:
        with tempfile.TemporaryDirectory() as tmp:
            env = {"DATABASE_URL": f"sqlite:///{tmp}/bench.db"}
            dbname = None
            if kind == "servers":
                dbname = f"rk_bench_{uuid.uuid4().hex[:8]}"
                admin = os.environ.get("TEST_DATABASE_URL", "postgresql://postgres@127.0.0.1:5432/test")
                subprocess.run(["psql", admin, "-qc", f'CREATE DATABASE "{dbname}"'], check=True)
                env = {
                    "DATABASE_URL": admin.rsplit("/", 1)[0] + f"/{dbname}",
                    "REDIS_URL": os.environ.get("TEST_REDIS_URL", "redis://127.0.0.1:6379/0"),
                    "RULEKEEPER_WEBHOOKS_SECRETS_KEY": "a benchmark key for sealing webhook secrets",
                }
            proc, base = start_server(env)
            try:
                results[title] = asyncio.run(measure(base, args.requests, args.concurrency))
            finally:
                proc.terminate()
                proc.wait(timeout=10)
                if dbname:
                    subprocess.run(["psql", admin, "-qc", f'DROP DATABASE "{dbname}" WITH (FORCE)'], check=False)
            report(f"{title}: {args.requests} requests per scenario, {args.concurrency} concurrent", results[title])
    if len(results) == 2:
        (a, ra), (b, rb) = results.items()
        print(f"\n{b} vs {a} (req/s ratio, same run):")
        for name in ra:
            print(f"  {name:<24}{rb[name][0] / ra[name][0]:>6.2f}x")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
