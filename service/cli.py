"""The `rulekeeper` command: serve, migrate, verify, and export the API contracts."""

from __future__ import annotations

import argparse
import contextlib
import logging
import os
import shutil
import sys
import tempfile
from pathlib import Path


# How `rulekeeper serve` tells its workers (which import the app afresh) what to announce once they are ready.
_ANNOUNCE = "RULEKEEPER_SERVE_ANNOUNCE"
# service.metrics.MULTIPROC_ENV, named here so this process imports no metric before its workers start.
_MULTIPROC_ENV = "PROMETHEUS_MULTIPROC_DIR"


class _SaysWhenReady:
    """Logs "serving on" once the application's startup has completed (on PostgreSQL the migrations take
    seconds): a line that says the service answers, not that it is about to start."""

    def __init__(self, app, message: str) -> None:
        self.app, self.message = app, message

    async def __call__(self, scope, receive, send) -> None:
        if scope["type"] != "lifespan":
            await self.app(scope, receive, send)
            return

        async def tell(message) -> None:
            await send(message)
            if message["type"] == "lifespan.startup.complete":
                logging.getLogger("rulekeeper").info("%s", self.message)

        await self.app(scope, receive, tell)


def serving_app():
    """The ASGI app `rulekeeper serve` runs (an application factory, so every worker process makes its own)."""
    from service.asgi import app

    return _SaysWhenReady(app, os.environ.get(_ANNOUNCE, "serving"))


def _serve(args) -> int:
    import uvicorn

    from service.logs import configure
    from service.settings import Settings

    configure()
    settings = Settings.from_env()
    os.environ[_ANNOUNCE] = (
        f"serving on http://{args.host}:{args.port} (REST /v1, GraphQL /graphql, contract /openapi.json)"
    )
    # uvicorn buffers a whole WebSocket message (16 MiB by default) before the application sees it.
    # log_config=None: uvicorn's loggers go through ours (service/logs.py), one format for every line; the
    # access log is the service's own, which carries the request id.
    with _metrics_shared_by(args.workers):
        uvicorn.run(
            "service.cli:serving_app",
            factory=True,
            host=args.host,
            port=args.port,
            workers=args.workers,
            ws_max_size=settings.max_body_bytes,
            timeout_graceful_shutdown=settings.graceful_shutdown_seconds,
            **server_options(),
        )
    return 0


@contextlib.contextmanager
def _metrics_shared_by(workers: int):
    """With several workers, Prometheus's multiprocess mode: each worker (a process started after this, so its
    metrics are made in this mode) writes its numbers to files in one directory, and /metrics adds them up. An
    operator's own PROMETHEUS_MULTIPROC_DIR is used as it is; ours is a fresh temporary one, removed at exit."""
    if workers <= 1 or os.environ.get(_MULTIPROC_ENV):
        yield
        return
    directory = tempfile.mkdtemp(prefix="rulekeeper-metrics-")
    os.environ[_MULTIPROC_ENV] = directory
    try:
        yield
    finally:
        os.environ.pop(_MULTIPROC_ENV, None)
        shutil.rmtree(directory, ignore_errors=True)


def server_options() -> dict:
    """How uvicorn serves: shared with the benchmark, whose ceiling endpoint must be served the same way.

    uvloop and httptools (both installed with the service) more than double what one worker answers; a
    platform without them (uvloop has no Windows build) falls back to asyncio and h11.

    X-Forwarded-For is read only when FORWARDED_ALLOW_IPS names the proxies to trust (uvicorn reads it itself):
    uvicorn's own default trusts loopback, so any process on the host could pick the address it is
    rate-limited as."""
    return {
        "log_level": "warning",
        "proxy_headers": bool(os.environ.get("FORWARDED_ALLOW_IPS", "").strip()),
        "log_config": None,
        "access_log": False,
        "loop": "uvloop" if _installed("uvloop") else "asyncio",
        "http": "httptools" if _installed("httptools") else "h11",
    }


def _installed(module: str) -> bool:
    import importlib.util

    return importlib.util.find_spec(module) is not None


def _migrate(_args) -> int:
    from service.logs import configure
    from service.settings import Settings
    from service.store.records.db import migrate_sync

    configure()
    settings = Settings.from_env()
    migrate_sync(settings.database_url)
    print(f"database at head ({settings.database_url.split('@')[-1]})")
    return 0


def _export(args) -> int:
    from service.contracts import write_contracts

    for path in write_contracts(Path(args.root)):
        print(f"wrote {path}")
    return 0


def main(argv: list[str] | None = None) -> int:
    argv = list(sys.argv[1:] if argv is None else argv)
    if argv[:1] == ["verify"]:
        from service.dice.verify_cli import run_verify

        return run_verify(argv[1:])
    parser = argparse.ArgumentParser(
        prog="rulekeeper", description="Authoritative game-state service for tabletop RPGs."
    )
    sub = parser.add_subparsers(dest="command", required=True)
    serve = sub.add_parser("serve", help="run the HTTP service (migrates the database first)")
    serve.add_argument("--host", default="127.0.0.1")
    serve.add_argument("--port", type=int, default=8000)
    serve.add_argument("--workers", type=int, default=1)
    serve.set_defaults(func=_serve)
    mig = sub.add_parser("migrate", help="upgrade the database in DATABASE_URL to the latest schema")
    mig.set_defaults(func=_migrate)
    sub.add_parser(
        "verify", help="check a closed verifiable dice session without trusting the service (rulekeeper verify --help)"
    )
    exp = sub.add_parser(
        "export-contracts",
        help="write openapi/openapi.yaml, schema/schema.graphql and the web table's GraphQL fragments from the code",
    )
    exp.add_argument("--root", default=".")
    exp.set_defaults(func=_export)
    args = parser.parse_args(argv)
    return args.func(args)


if __name__ == "__main__":
    raise SystemExit(main())
