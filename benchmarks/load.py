"""Closed-loop HTTP load: N connections, each sending its own cycle of requests one after another.

With `wrk` installed (Debian/Ubuntu: `apt-get install wrk`; macOS: `brew install wrk`) it drives the load:
written in C, it leaves the server nearly all of the machine. Each wrk thread owns one connection, so a
connection's Lua state holds its own table and its place in the cycle. Without wrk, an asyncio client in this
process stands in; it takes a core of its own, so its figures are lower and only good for a smoke run.
"""

from __future__ import annotations

import asyncio
import json
import re
import shutil
import ssl
import statistics
import subprocess
import tempfile
import time
import uuid
from dataclasses import dataclass, replace
from urllib.parse import urlsplit

import httpx

# One TLS context for every client made here (see `answers`).
_LOOPBACK_TLS = ssl.create_default_context()
WRK_INSTALL = "install wrk for real figures: apt-get install wrk (Debian/Ubuntu) or brew install wrk (macOS)"


def answers(url: str, deadline: float) -> bool:
    """Whether `url` answers 200 before `deadline` (time.monotonic()), asked every 0.1 s on one client: httpx reads
    the CA bundle for every client it makes (about 29 ms of CPU here), which `httpx.get` would do at each asking,
    beside the start it waits for."""
    with httpx.Client(timeout=1, verify=_LOOPBACK_TLS) as client:
        while True:
            try:
                if client.get(url).status_code == 200:
                    return True
            except httpx.HTTPError:
                pass
            if time.monotonic() >= deadline:
                return False
            time.sleep(0.1)


@dataclass(frozen=True)
class Req:
    method: str
    path: str
    headers: dict[str, str]
    body: bytes | None = None
    # Sent with an Idempotency-Key of its own each time (as a client that retries safely sends every write).
    keyed: bool = False

    def with_key(self) -> Req:
        return replace(self, keyed=True)

    @staticmethod
    def json(method: str, path: str, body: object | None = None, token: str | None = None) -> Req:
        headers = {"Authorization": f"Bearer {token}"} if token else {}
        if body is None:
            return Req(method, path, headers)
        return Req(method, path, {**headers, "Content-Type": "application/json"}, json.dumps(body).encode())


@dataclass(frozen=True)
class Result:
    rps: float
    p50_ms: float
    p99_ms: float
    requests: int
    failed: int


def have_wrk() -> bool:
    return shutil.which("wrk") is not None


def run(base: str, cycles: list[list[Req]], connections: int, seconds: float, *, use_wrk: bool) -> Result:
    """Connection i plays cycles[i % len(cycles)] over and over for `seconds`."""
    if use_wrk:
        return _wrk(base, cycles, connections, seconds)
    return asyncio.run(_python(base, cycles, connections, seconds))


def _lua_str(b: bytes | str) -> str:
    raw = b.encode() if isinstance(b, str) else b
    return '"' + "".join(f"\\{c}" for c in raw) + '"'


def _lua_script(cycles: list[list[Req]]) -> str:
    def req(r: Req) -> str:
        headers = "{" + ",".join(f"[{_lua_str(k)}]={_lua_str(v)}" for k, v in r.headers.items()) + "}"
        body = "nil" if r.body is None else _lua_str(r.body)
        keyed = "true" if r.keyed else "false"
        return f"{{{_lua_str(r.method)},{_lua_str(r.path)},{headers},{body},{keyed}}}"

    seqs = ",\n".join("{" + ",".join(req(r) for r in c) + "}" for c in cycles)
    # Keys unique to this run: a table used by an earlier scenario or run must not answer a replay.
    return f"""
local run_id = "{uuid.uuid4().hex}"
local seqs = {{
{seqs}
}}
local made = 0
local threads = {{}}
function setup(thread)
  thread:set("slot", made)
  thread:set("failed", 0)
  made = made + 1
  table.insert(threads, thread)
end
function init(args)
  cycle = seqs[(slot % #seqs) + 1]
  reqs = {{}}
  for k, r in ipairs(cycle) do reqs[k] = wrk.format(r[1], r[2], r[3], r[4]) end
  at = 0
  keys = 0
end
-- The cycle moves on when an answer arrives, not when a request is asked for: wrk may ask once more than it
-- sends, which would put a connection's moves out of step with its table.
function request()
  local r = cycle[at + 1]
  if r[5] then
    keys = keys + 1
    r[3]["Idempotency-Key"] = string.format("%s-%d-%d", run_id, slot, keys)
    return wrk.format(r[1], r[2], r[3], r[4])
  end
  return reqs[at + 1]
end
-- A GraphQL error comes with status 200: only the body tells.
function response(status, headers, body)
  at = (at + 1) % #reqs
  if status >= 400 or string.find(body, '"errors"', 1, true) then
    failed = failed + 1
  end
end
function done(summary, latency, requests)
  local failed = 0
  for _, t in ipairs(threads) do failed = failed + t:get("failed") end
  io.write(string.format("RESULT %d %d %d %d %d %d\\n", summary.requests, summary.duration,
    failed + summary.errors.connect + summary.errors.read + summary.errors.write + summary.errors.timeout,
    latency:percentile(50), latency:percentile(99), latency.max))
end
"""


def _wrk(base: str, cycles: list[list[Req]], connections: int, seconds: float) -> Result:
    with tempfile.NamedTemporaryFile("w", suffix=".lua") as script:
        script.write(_lua_script(cycles))
        script.flush()
        out = subprocess.run(
            [
                "wrk",
                f"-t{connections}",
                f"-c{connections}",
                f"-d{max(1, round(seconds))}s",
                "--timeout",
                "10s",
                "-s",
                script.name,
                base,
            ],
            capture_output=True,
            text=True,
            timeout=seconds + 60,
        )
    m = re.search(r"RESULT (\d+) (\d+) (\d+) (\d+) (\d+) (\d+)", out.stdout)
    if m is None:
        raise RuntimeError(f"wrk gave no result: {out.stdout[-1000:]} {out.stderr[-1000:]}")
    n, duration_us, failed, p50, p99, _ = (int(x) for x in m.groups())
    return Result(n / (duration_us / 1e6), p50 / 1000, p99 / 1000, n, failed)


async def _python(base: str, cycles: list[list[Req]], connections: int, seconds: float) -> Result:
    url = urlsplit(base)
    latencies: list[float] = []
    failed = 0
    stop = time.perf_counter() + seconds

    def encode(r: Req) -> bytes:
        head = [f"{r.method} {r.path} HTTP/1.1", f"Host: {url.netloc}"]
        head += [f"{k}: {v}" for k, v in r.headers.items()]
        if r.keyed:
            head.append(f"Idempotency-Key: {uuid.uuid4()}")
        head.append(f"Content-Length: {len(r.body or b'')}")
        return ("\r\n".join(head) + "\r\n\r\n").encode() + (r.body or b"")

    async def connection(i: int) -> None:
        nonlocal failed
        cycle = cycles[i % len(cycles)]
        wire = [encode(r) for r in cycle]
        reader, writer = await asyncio.open_connection(url.hostname, url.port)
        at = 0
        try:
            while time.perf_counter() < stop:
                t0 = time.perf_counter()
                writer.write(encode(cycle[at]) if cycle[at].keyed else wire[at])
                at = (at + 1) % len(wire)
                head = await reader.readuntil(b"\r\n\r\n")
                status = int(head.split(b" ", 2)[1])
                length = int(re.search(rb"(?i)content-length: *(\d+)", head).group(1))
                body = await reader.readexactly(length)
                latencies.append(time.perf_counter() - t0)
                if status >= 400 or b'"errors"' in body:
                    failed += 1
        finally:
            writer.close()

    t0 = time.perf_counter()
    await asyncio.gather(*(connection(i) for i in range(connections)))
    elapsed = time.perf_counter() - t0
    latencies.sort()
    if not latencies:
        return Result(0.0, 0.0, 0.0, 0, failed)
    return Result(
        len(latencies) / elapsed,
        statistics.median(latencies) * 1000,
        latencies[max(0, int(len(latencies) * 0.99) - 1)] * 1000,
        len(latencies),
        failed,
    )
