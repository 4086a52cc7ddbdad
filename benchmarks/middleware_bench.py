"""What the service's middleware costs a request, in process, with no server, socket or database in the way.

A stand-in route answers a JSON body the size of a table's state (`--body-bytes`), the way a read does, so the
request is logged (the access line at INFO, as `rulekeeper serve` logs it, JSON to a discarded stream) and the
answer gzipped for a client that accepts it. The same request goes through the whole composed app (every
middleware layer, Starlette's error and exception handlers, the router) and to the router alone; the
difference is what the layers cost. GET /healthz, which is neither logged at INFO nor compressed, is measured
the same way.

    .venv/bin/python benchmarks/middleware_bench.py [--requests 3000] [--repeats 7] [--body-bytes 6000]

Set the difference against a request's whole cost (bench.py's CPU ms/req column: about 1 ms for GET state on
the embedded defaults)."""

from __future__ import annotations

import argparse
import asyncio
import os
import statistics
import time

from starlette.requests import Request
from starlette.routing import Route

from service.api.rest.jsonresponse import FastJSONResponse
from service.app import create_app
from service.logs import configure
from service.settings import Settings


def scope(path: str) -> dict:
    return {
        "type": "http",
        "asgi": {"version": "3.0"},
        "http_version": "1.1",
        "method": "GET",
        "scheme": "http",
        "path": path,
        "raw_path": path.encode(),
        "query_string": b"",
        "root_path": "",
        "headers": [
            (b"host", b"bench"),
            (b"accept-encoding", b"gzip, deflate, br"),
            (b"accept-language", b"en"),
            (b"origin", b"http://elsewhere.example"),
            (b"authorization", b"Bearer not-a-real-token"),
        ],
        "client": ("127.0.0.1", 50000),
        "server": ("127.0.0.1", 8000),
    }


async def _receive() -> dict:
    return {"type": "http.request", "body": b"", "more_body": False}


async def _send(message: dict) -> None:
    pass


async def per_request(target, app, path: str, requests: int) -> float:
    """Microseconds per request, one request after another."""
    base = scope(path)
    start = time.perf_counter()
    for _ in range(requests):
        await target({**base, "app": app, "state": {}}, _receive, _send)
    return (time.perf_counter() - start) / requests * 1e6


async def main(requests: int, repeats: int, body_bytes: int) -> None:
    configure("INFO", "json", open(os.devnull, "w"))  # noqa: SIM115 - the process's own, as serve's stderr
    app = create_app(Settings.from_env())
    # A table's state is mostly short keys and values: a body of such entries, about `body_bytes` long.
    body = {"state": {f"key{i}": {"name": f"value {i}", "n": i, "flag": i % 2 == 0} for i in range(body_bytes // 45)}}

    async def state_like(_: Request) -> FastJSONResponse:
        return FastJSONResponse(body)

    app.router.routes.append(Route("/bench/state", state_like, methods=["GET"]))
    stack = app.build_middleware_stack()
    print(f"in process, {requests} requests x {repeats} repeats, medians; the layers' cost is whole app - router")
    for path, label in (
        ("/bench/state", f"a read (~{body_bytes:,} B JSON, logged, gzipped)"),
        ("/healthz", "/healthz"),
    ):
        for target in (stack, app.router):  # warm-up: caches, the first log lines
            await per_request(target, app, path, 300)
        whole, router = [], []
        for _ in range(repeats):  # interleaved, so a busy moment on a shared machine touches both
            whole.append(await per_request(stack, app, path, requests))
            router.append(await per_request(app.router, app, path, requests))
        w, r = statistics.median(whole), statistics.median(router)
        print(f"  {label:<44} whole app {w:7.1f} us   router alone {r:7.1f} us   layers {w - r:7.1f} us")


if __name__ == "__main__":
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--requests", type=int, default=3000)
    ap.add_argument("--repeats", type=int, default=7)
    ap.add_argument("--body-bytes", type=int, default=6000)
    args = ap.parse_args()
    asyncio.run(main(args.requests, args.repeats, args.body_bytes))
