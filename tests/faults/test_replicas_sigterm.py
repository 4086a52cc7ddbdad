"""Replicas: three `rulekeeper serve` processes on one PostgreSQL and one Redis, as a Deployment runs them.
Clients play on several campaigns at once through all three, retrying a dropped connection on another
replica with the same Idempotency-Key, while one replica is stopped with SIGTERM mid-load (a rollout, a
scale-down) and then replaced.

A move whose body is still arriving at that replica when SIGTERM comes is answered all the same.
Afterwards: the stopped replica shut down by itself once its requests in flight were answered; no client saw anything but answers and refused connections (no 5xx, and no 409 for a request a
dying replica abandoned); every acknowledged move is in the log exactly once; and every replica, the
replacement included, serves the same table and log. Each replica's log is JSON lines with request ids.
"""

from __future__ import annotations

import asyncio
import json
import os
import signal
import socket
import subprocess
import sys
import time
import uuid
from pathlib import Path

import httpx

from processes import ServiceProcess
from serve_process import LOOPBACK_TLS

CAMPAIGNS = 3
WORKERS_PER_CAMPAIGN = 3
MOVES_PER_WORKER = 8
STOP_AFTER_ACKS = 20


class Clients:
    """What the clients saw: acknowledged moves, refused connections, and anything else (which is a bug)."""

    def __init__(self) -> None:
        self.acked: dict[str, dict] = {}
        self.dropped = 0
        self.unexpected: list[str] = []


async def play_one(
    replicas: list[ServiceProcess], first: int, campaign: dict, label: str, seen: Clients, deadline: float
) -> None:
    """One move, sent to replica `first` and on a dropped connection to the next, with one Idempotency-Key."""
    key = str(uuid.uuid4())
    body = {"action": {"type": "create_clock", "label": label, "consequence": "the keep falls"}}
    headers = {"Authorization": f"Bearer {campaign['gm']}", "Idempotency-Key": key, "X-Request-ID": f"move-{label}"}
    attempt = 0
    while time.monotonic() < deadline:
        replica = replicas[(first + attempt) % len(replicas)]
        attempt += 1
        try:
            async with httpx.AsyncClient(base_url=replica.url, timeout=15, verify=LOOPBACK_TLS) as c:
                r = await c.post(f"/v1/campaigns/{campaign['id']}/actions", json=body, headers=headers)
        except httpx.TransportError:
            seen.dropped += 1
            await asyncio.sleep(0.05)
            continue
        if r.status_code == 200:
            assert r.headers["x-request-id"] == f"move-{label}"
            seen.acked[key] = {"campaign": campaign["id"], "label": label, "version": r.json()["version"]}
        else:
            seen.unexpected.append(f"{r.status_code} from {replica.url}: {r.text[:200]}")
        return
    seen.unexpected.append(f"{label}: no replica answered before the deadline")


def test_a_replica_stopped_with_sigterm_mid_load_loses_and_doubles_nothing(postgres_database, redis_server, tmp_path):
    env = {
        **os.environ,
        "DATABASE_URL": postgres_database,
        "REDIS_URL": redis_server,
        "RULEKEEPER_WEBHOOKS_SECRETS_KEY": "a key for sealing webhook secrets",
        "RULEKEEPER_AUTO_MIGRATE": "false",
        "RULEKEEPER_LOG_LEVEL": "INFO",
        "RULEKEEPER_LOG_FORMAT": "json",
        "RULEKEEPER_GRACEFUL_SHUTDOWN_SECONDS": "20",
        # Nine clients on three GM tokens from one address, far faster than a table plays.
        "RULEKEEPER_RATE_LIMIT_PER_TOKEN": "off",
        "RULEKEEPER_RATE_LIMIT_PER_ADDRESS": "off",
    }
    migrate = subprocess.run(
        [str(Path(sys.executable).with_name("rulekeeper")), "migrate"],
        env=env,
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert migrate.returncode == 0, migrate.stderr
    replicas = [ServiceProcess(env, log=tmp_path / f"replica-{i}.log") for i in range(3)]
    seen = Clients()
    try:
        for r in replicas:
            r.spawn()
        for r in replicas:
            r.wait_ready("/readyz")
        with socket.create_connection(("127.0.0.1", replicas[1].port), timeout=5) as raw:
            raw.sendall(b"NOT HTTP\r\n\r\n")  # uvicorn's own warning, in the service's format
            raw.recv(1024)
        campaigns = []
        for i in range(CAMPAIGNS):
            base = replicas[i % 3].url
            r = httpx.post(
                f"{base}/v1/campaigns",
                json={
                    "name": f"Keep {i}",
                    "system": "stepdice",
                    "dice_mode": "server",
                    "options": {"use_time_pressure_clocks": True},
                },
            )
            assert r.status_code == 201, r.text
            c = {"id": r.json()["campaign"]["id"], "gm": r.json()["gm_token"]}
            r = httpx.post(
                f"{base}/v1/campaigns/{c['id']}/actions",
                headers={"Authorization": f"Bearer {c['gm']}"},
                json={"action": {"type": "start_scene", "kind": "narrative"}},
            )
            assert r.status_code == 200, r.text
            campaigns.append(c)

        victim = replicas[0]
        stopped: dict[str, int] = {}

        async def worker(campaign: dict, w: int, deadline: float) -> None:
            for n in range(MOVES_PER_WORKER):
                await play_one(replicas, w + n, campaign, f"c{campaign['id'][:8]}-w{w}-m{n}", seen, deadline)

        async def straggler(campaign: dict, sending: asyncio.Event, sigterm_sent: asyncio.Event) -> None:
            """A move whose body is still arriving at the stopping replica when SIGTERM comes: it is answered."""
            key, label = str(uuid.uuid4()), "straggler"
            body = json.dumps(
                {"action": {"type": "create_clock", "label": label, "consequence": "the keep falls"}}
            ).encode()

            async def slowly():
                yield body[:10]
                sending.set()
                await sigterm_sent.wait()
                await asyncio.sleep(0.5)
                yield body[10:]

            async with httpx.AsyncClient(base_url=victim.url, timeout=30, verify=LOOPBACK_TLS) as c:
                r = await c.post(
                    f"/v1/campaigns/{campaign['id']}/actions",
                    content=slowly(),
                    headers={
                        "Authorization": f"Bearer {campaign['gm']}",
                        "Idempotency-Key": key,
                        "Content-Type": "application/json",
                        "X-Request-ID": f"move-{label}",
                    },
                )
            assert r.status_code == 200, r.text
            seen.acked[key] = {"campaign": campaign["id"], "label": label, "version": r.json()["version"]}

        async def stop_one_mid_load() -> None:
            while len(seen.acked) < STOP_AFTER_ACKS:
                await asyncio.sleep(0.01)
            sending, sigterm_sent = asyncio.Event(), asyncio.Event()
            late = asyncio.create_task(straggler(campaigns[0], sending, sigterm_sent))
            await sending.wait()
            await asyncio.sleep(0.2)  # the replica has the request's head and waits for its body
            victim.proc.send_signal(signal.SIGTERM)
            sigterm_sent.set()
            stopped["code"] = await asyncio.to_thread(victim.proc.wait, 30)
            await late

        async def run() -> None:
            deadline = time.monotonic() + 60
            await asyncio.gather(
                stop_one_mid_load(), *(worker(c, w, deadline) for c in campaigns for w in range(WORKERS_PER_CAMPAIGN))
            )

        asyncio.run(run())
        # uvicorn answers what is in flight, runs the shutdown, then lets SIGTERM end the process as usual.
        assert stopped["code"] in (0, -signal.SIGTERM), stopped
        last = json.loads(victim.log.read_text().splitlines()[-1])
        assert last["message"] == "rulekeeper stopped", "the replica was cut short, not stopped"
        assert seen.unexpected == [], seen.unexpected
        assert len(seen.acked) == CAMPAIGNS * WORKERS_PER_CAMPAIGN * MOVES_PER_WORKER + 1

        victim.spawn()  # its replacement, as a Deployment would start
        victim.wait_ready("/readyz")
        for c in campaigns:
            gm = {"Authorization": f"Bearer {c['gm']}"}
            acked = sorted(a["label"] for a in seen.acked.values() if a["campaign"] == c["id"])
            versions = [a["version"] for a in seen.acked.values() if a["campaign"] == c["id"]]
            assert sorted(versions) == list(range(2, len(acked) + 2)), "each move its own version, none lost"
            views = []
            for replica in replicas:
                state = httpx.get(f"{replica.url}/v1/campaigns/{c['id']}/state", headers=gm).json()
                events = httpx.get(
                    f"{replica.url}/v1/campaigns/{c['id']}/events", params={"limit": 500}, headers=gm
                ).json()["items"]
                logged = sorted(e["data"]["label"] for e in events if e["type"] == "clock_created")
                assert logged == acked, f"{replica.url}: the log and the acknowledgements disagree"
                views.append((state, events))
            assert all(v == views[0] for v in views), "replicas serve different tables"
            assert views[0][0]["version"] == len(acked) + 1
        print(f"{len(seen.acked)} moves acknowledged; {seen.dropped} dropped connections retried elsewhere")
    finally:
        for r in replicas:
            r.kill()

    uvicorn_lines = [json.loads(line) for line in replicas[1].log.read_text().splitlines() if "uvicorn" in line]
    assert [line["logger"] for line in uvicorn_lines] == ["uvicorn.error"], uvicorn_lines
    for r in replicas:
        lines = [json.loads(line) for line in r.log.read_text().splitlines()]
        access = [line for line in lines if "status" in line]
        assert access and all(line["request_id"] for line in access), r.log
        assert {line["request_id"] for line in access if line["method"] == "POST"} & {
            f"move-{a['label']}" for a in seen.acked.values()
        }
