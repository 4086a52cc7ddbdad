"""`rulekeeper serve --workers 2`: Prometheus multiprocess mode, set up by the command in a temporary directory,
so one scrape of /metrics is the whole server — every worker's requests, whichever worker answers the scrape."""

from __future__ import annotations

import os
import re
import subprocess
import sys
import time
from pathlib import Path

import httpx
import pytest
from prometheus_client.parser import text_string_to_metric_families

from serve_process import answers
from webhook_receiver import free_port

pytestmark = pytest.mark.skipif(not Path("/proc/self/task").exists(), reason="finds the workers through /proc")

ROUTE = "/v1/systems"


def workers_of(pid: int) -> list[int]:
    """The uvicorn workers `pid` spawned (not multiprocessing's resource tracker)."""
    children = []
    for task in Path(f"/proc/{pid}/task").iterdir():
        children += [int(c) for c in (task / "children").read_text().split()]
    return [c for c in children if b"spawn_main" in Path(f"/proc/{c}/cmdline").read_bytes()]


def multiproc_dir(pid: int) -> Path | None:
    for item in Path(f"/proc/{pid}/environ").read_bytes().split(b"\0"):
        if item.startswith(b"PROMETHEUS_MULTIPROC_DIR="):
            return Path(item.split(b"=", 1)[1].decode())
    return None


def requests_counted(text: str) -> float:
    return sum(
        s.value
        for family in text_string_to_metric_families(text)
        for s in family.samples
        if s.name == "rulekeeper_http_requests_total" and s.labels.get("route") == ROUTE
    )


def test_one_scrape_counts_the_requests_every_worker_answered(new_postgres_database, tmp_path):
    env = {k: v for k, v in os.environ.items() if k not in {"REDIS_URL", "PROMETHEUS_MULTIPROC_DIR"}}
    env.update(
        {
            "DATABASE_URL": new_postgres_database.replace("postgresql+asyncpg://", "postgresql://"),
            "RULEKEEPER_WEBHOOKS_SECRETS_KEY": "a key for sealing webhook secrets",
            "RULEKEEPER_LOG_LEVEL": "WARNING",
            "RULEKEEPER_RATE_LIMIT_PER_ADDRESS": "off",
        }
    )
    exe = str(Path(sys.executable).with_name("rulekeeper"))
    port = free_port()
    # On a database nobody migrated, as an operator's first `serve --workers 2` meets it: each worker migrates at its
    # start, in turns (service/store/records/db.py: migrate); when both upgraded at once, one failed on the table the
    # other had just made, and uvicorn stopped the server.
    proc = subprocess.Popen(
        [exe, "serve", "--port", str(port), "--workers", "2"],
        env=env,
        stdout=subprocess.DEVNULL,
        stderr=open(tmp_path / "serve.log", "wb"),
    )  # noqa: SIM115
    base = f"http://127.0.0.1:{port}"
    try:
        started = answers(f"{base}/healthz", time.monotonic() + 60, lambda: proc.poll() is None, every=0.1)
        assert started, (tmp_path / "serve.log").read_text()[-2000:]
        workers = workers_of(proc.pid)
        assert len(workers) == 2
        directory = multiproc_dir(workers[0])
        assert directory is not None and directory == multiproc_dir(workers[1])
        assert multiproc_dir(proc.pid) is None or multiproc_dir(proc.pid) == directory
        # New connections until both workers have answered some (each counts into a file of its own).
        sent = 0
        while {f"counter_{w}.db" for w in workers} - {p.name for p in directory.iterdir()}:
            assert sent < 500, "one worker answered every request"
            assert httpx.get(f"{base}{ROUTE}", timeout=5).status_code == 200  # a client per request
            sent += 1
        for _ in range(10):
            assert httpx.get(f"{base}{ROUTE}", timeout=5).status_code == 200
            sent += 1
        scrape = httpx.get(f"{base}/metrics", timeout=5)
        assert scrape.status_code == 200
        assert requests_counted(scrape.text) == sent
        assert re.search(r"^rulekeeper_subscribers ", scrape.text, re.M)
    finally:
        proc.terminate()
        proc.wait(timeout=30)
    assert not directory.exists()  # the command's own temporary directory goes with it
