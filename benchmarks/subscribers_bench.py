"""What idle GraphQL subscribers cost the server, and how soon a move reaches them.

    .venv/bin/python benchmarks/subscribers_bench.py [--subscribers 100] [--seconds 5] [--moves 20] [--servers]

Starts `rulekeeper serve` (one worker) in a subprocess on a free port — on the embedded defaults, and with
--servers also on PostgreSQL + Redis (TEST_DATABASE_URL / TEST_REDIS_URL, in a database of its own) — opens
N `campaignEvents` subscriptions over graphql-transport-ws (the `websockets` client), then:

- idle: the server process's CPU time (user + system, from /proc) over a few seconds while nobody moves,
  as a percentage of one core;
- delivery: M moves made one after another over REST, and for each the time from the REST reply to the
  moment every subscriber has the move's event (p50 and max).

Figures only, never asserted: the machine is shared and noisy.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time
import uuid
from pathlib import Path

import httpx
import websockets

sys.path.insert(0, str(Path(__file__).resolve().parent))
from api_bench import start_server  # noqa: E402  (a sibling script, not a package)

SUBSCRIPTION = "subscription($c: ID!, $a: Int!) { campaignEvents(campaignId: $c, after: $a) { seq type } }"


def cpu_seconds(pid: int) -> float:
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


async def subscriber(
    ws_url: str, token: str, campaign: str, after: int, ready: asyncio.Event, seen: dict[int, float]
) -> None:
    async with websockets.connect(ws_url, subprotocols=["graphql-transport-ws"]) as ws:
        await ws.send(json.dumps({"type": "connection_init", "payload": {"authorization": f"Bearer {token}"}}))
        assert json.loads(await ws.recv())["type"] == "connection_ack"
        await ws.send(
            json.dumps(
                {
                    "id": "1",
                    "type": "subscribe",
                    "payload": {"query": SUBSCRIPTION, "variables": {"c": campaign, "a": after}},
                }
            )
        )
        ready.set()
        async for raw in ws:
            msg = json.loads(raw)
            if msg["type"] == "next":
                seq = msg["payload"]["data"]["campaignEvents"]["seq"]
                seen[seq] = max(seen.get(seq, 0.0), time.perf_counter())
            elif msg["type"] == "ping":
                await ws.send(json.dumps({"type": "pong"}))


async def run(base: str, pid: int, subscribers: int, seconds: float, moves: int) -> dict[str, float]:
    async with httpx.AsyncClient(base_url=base, timeout=30) as c:
        r = (await c.post("/v1/campaigns", json={"name": "subs", "system": "stepdice"})).json()
        cid, gm = r["campaign"]["id"], r["gm_token"]
        h = {"Authorization": f"Bearer {gm}"}
        after = (await c.get(f"/v1/campaigns/{cid}/events?after=0&limit=500", headers=h)).json()["next_after"]
        ws_url = base.replace("http://", "ws://") + "/graphql"
        seen: list[dict[int, float]] = [{} for _ in range(subscribers)]
        readies = [asyncio.Event() for _ in range(subscribers)]
        tasks = [
            asyncio.create_task(subscriber(ws_url, gm, cid, after, readies[i], seen[i])) for i in range(subscribers)
        ]
        await asyncio.wait_for(asyncio.gather(*(e.wait() for e in readies)), 60)
        await asyncio.sleep(1.0)  # let every subscription reach its first wait
        t0, c0 = time.perf_counter(), cpu_seconds(pid)
        await asyncio.sleep(seconds)
        idle = (cpu_seconds(pid) - c0) / (time.perf_counter() - t0) * 100
        lags = []
        for i in range(moves):
            reply = (
                await c.post(
                    f"/v1/campaigns/{cid}/actions", headers=h, json={"action": {"type": "gm_note", "text": f"note {i}"}}
                )
            ).json()
            sent = time.perf_counter()
            seq = reply["events"][-1]["seq"]
            deadline = sent + 30
            while not all(seq in s for s in seen) and time.perf_counter() < deadline:
                await asyncio.sleep(0.001)
            lags.append((max(s.get(seq, deadline) for s in seen) - sent) * 1000)
        for t in tasks:
            t.cancel()
        await asyncio.gather(*tasks, return_exceptions=True)
    return {"idle": idle, "p50": statistics.median(lags) if lags else 0.0, "max": max(lags, default=0.0)}


def main() -> int:
    ap = argparse.ArgumentParser()
    ap.add_argument("--subscribers", type=int, default=100)
    ap.add_argument("--seconds", type=float, default=5.0)
    ap.add_argument("--moves", type=int, default=20)
    ap.add_argument("--servers", action="store_true", help="also measure on PostgreSQL + Redis")
    args = ap.parse_args()
    runs = [("embedded", None)] + ([("postgres+redis", "servers")] if args.servers else [])
    print(f"{'backend':<16}{'subscribers':>12}{'idle CPU % of a core':>22}{'delivery p50 ms':>17}{'max ms':>9}")
    for title, kind in runs:
        with tempfile.TemporaryDirectory() as tmp:
            env = {"DATABASE_URL": f"sqlite:///{tmp}/bench.db"}
            dbname = admin = None
            if kind == "servers":
                dbname = f"rk_bench_{uuid.uuid4().hex[:8]}"
                admin = os.environ.get("TEST_DATABASE_URL", "postgresql://postgres@127.0.0.1:5432/test")
                admin = admin.replace("postgresql+asyncpg://", "postgresql://")
                subprocess.run(["psql", admin, "-qc", f'CREATE DATABASE "{dbname}"'], check=True)
                env = {
                    "DATABASE_URL": admin.rsplit("/", 1)[0] + f"/{dbname}",
                    "REDIS_URL": os.environ.get("TEST_REDIS_URL", "redis://127.0.0.1:6379/0"),
                    "RULEKEEPER_WEBHOOKS_SECRETS_KEY": "a benchmark key for sealing webhook secrets",
                }
            proc, base = start_server(env)
            try:
                out = asyncio.run(run(base, proc.pid, args.subscribers, args.seconds, args.moves))
            finally:
                proc.terminate()
                proc.wait(timeout=10)
                if dbname:
                    subprocess.run(["psql", admin, "-qc", f'DROP DATABASE "{dbname}" WITH (FORCE)'], check=False)
        print(f"{title:<16}{args.subscribers:>12}{out['idle']:>22.1f}{out['p50']:>17.1f}{out['max']:>9.1f}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
