"""The `rulekeeper` command: serve, migrate, verify, and export the API contracts."""
from __future__ import annotations

import argparse
import logging
import sys
from pathlib import Path


def _serve(args) -> int:
    import uvicorn

    from service.logs import configure
    from service.settings import Settings

    configure()
    settings = Settings.from_env()
    logging.getLogger("rulekeeper").info("serving on http://%s:%d (REST /v1, GraphQL /graphql, contract /openapi.json)",
                                         args.host, args.port)
    # uvicorn buffers a whole WebSocket message (16 MiB by default) before the application sees it.
    # log_config=None: uvicorn's loggers go through ours (service/logs.py), one format for every line; the
    # access log is the service's own, which carries the request id.
    uvicorn.run("service.asgi:app", host=args.host, port=args.port, workers=args.workers,
                ws_max_size=settings.max_body_bytes, timeout_graceful_shutdown=settings.graceful_shutdown_seconds,
                **server_options())
    return 0


def server_options() -> dict:
    """How uvicorn serves: shared with the benchmark, whose ceiling endpoint must be served the same way.

    uvloop and httptools (both installed with the service) more than double what one worker answers; a
    platform without them (uvloop has no Windows build) falls back to asyncio and h11."""
    return {"log_level": "warning", "proxy_headers": True, "log_config": None, "access_log": False,
            "loop": "uvloop" if _installed("uvloop") else "asyncio",
            "http": "httptools" if _installed("httptools") else "h11"}


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
    parser = argparse.ArgumentParser(prog="rulekeeper", description="Authoritative game-state service for tabletop RPGs.")
    sub = parser.add_subparsers(dest="command", required=True)
    serve = sub.add_parser("serve", help="run the HTTP service (migrates the database first)")
    serve.add_argument("--host", default="127.0.0.1")
    serve.add_argument("--port", type=int, default=8000)
    serve.add_argument("--workers", type=int, default=1)
    serve.set_defaults(func=_serve)
    mig = sub.add_parser("migrate", help="upgrade the database in DATABASE_URL to the latest schema")
    mig.set_defaults(func=_migrate)
    sub.add_parser("verify", help="check a closed verifiable dice session without trusting the service "
                                  "(rulekeeper verify --help)")
    exp = sub.add_parser("export-contracts", help="write openapi/openapi.yaml and schema/schema.graphql from the code")
    exp.add_argument("--root", default=".")
    exp.set_defaults(func=_export)
    args = parser.parse_args(argv)
    return args.func(args)


if __name__ == "__main__":
    raise SystemExit(main())
