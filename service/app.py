"""The ASGI application, composed in one place: routes, middleware, exception handlers, lifespan."""

from __future__ import annotations

import contextlib
import functools
import logging
import os
from collections.abc import AsyncIterator, Callable
from typing import Any

from starlette.applications import Starlette
from starlette.concurrency import run_in_threadpool
from starlette.exceptions import HTTPException
from starlette.middleware import Middleware
from starlette.middleware.cors import CORSMiddleware
from starlette.middleware.gzip import DEFAULT_EXCLUDED_CONTENT_TYPES, GZipMiddleware
from starlette.requests import Request
from starlette.responses import Response
from starlette.routing import Route

from service import metrics
from service.api import httpmetrics, problems
from service.api.graphql.app import graphql_routes
from service.api.edge import Edge
from service.api.guard import RequestGuard
from service.api.ratelimit import RateLimit
from service.api.rest import openapi as openapi_document
from service.api.rest.routing import routes as rest_routes
from service.game.log import feed
from service.game.webhooks import sealkey
from service.game.context import Services
from service.game.deadlines.worker import DeadlineWorker
from service.game.webhooks.delivery import Worker as WebhookWorker
from service.game.errors import GameError
from service.health import Schema, healthz, readiness
from service.notify import open_notifier
from service.settings import Settings
from service.store.buckets import open_buckets
from service.store.live import open_live_store
from service.store.records.db import JSON_CODEC, make_engine, migrate, sessionmaker
from service.store.records.litedirect import reader_engine
from service.web import web_routes

log = logging.getLogger("rulekeeper")
# Below this a gzip header and a deflate block save next to nothing; /openapi.json (700 KB) shrinks sevenfold.
GZIP_MINIMUM_BYTES = 1024
# zlib's default level, not Starlette's 9: on the service's JSON (records of one shape, over and over) level 9 searches
# long chains of matches for bodies 0-2% smaller: a 15 KB page of events cost about a quarter more of its whole
# request's CPU than at level 6 (508 against 402 us in process).
GZIP_LEVEL = 6
# A stream's parts must reach the client as they are written, not when a compressor's buffer fills.
NOT_COMPRESSED = (*DEFAULT_EXCLUDED_CONTENT_TYPES, "multipart/mixed")


# Starlette types every handler as taking any Exception; each of these takes the class it is registered for.
EXCEPTION_HANDLERS: dict[Any, Callable[..., Any]] = {
    GameError: problems.game_error,
    HTTPException: problems.http_error,
    Exception: problems.unexpected,
}


def create_app(settings: Settings | None = None) -> Starlette:
    settings = settings or Settings.from_env()
    schema = Schema()

    @contextlib.asynccontextmanager
    async def lifespan(app: Starlette) -> AsyncIterator[None]:
        sealed = sealkey.resolve(settings)  # before anything opens: PostgreSQL without the key does not start
        engine = make_engine(settings.database_url)
        if settings.auto_migrate:
            await migrate(engine)
        live = open_live_store(settings.redis_url, engine)
        notifier = open_notifier(settings.redis_url, database_url=settings.database_url)
        services = Services(
            settings=sealed,
            engine=engine,
            sessions=sessionmaker(engine),
            live=live,
            notifier=notifier,
            reader=reader_engine(settings.database_url, JSON_CODEC),
        )
        await sealkey.seal_plain(services.sessions, sealed)
        await notifier.start(functools.partial(feed.latest_seqs, services))
        app.state.services = services
        webhooks = WebhookWorker(services)
        webhooks.start()
        deadlines = DeadlineWorker(services)
        deadlines.start()
        app.state.deadlines = deadlines
        limited = any((settings.rate_per_token, settings.rate_per_address, settings.rate_auth_failures))
        app.state.rate_buckets = open_buckets(settings.redis_url) if limited else None
        log.info(
            "rulekeeper ready: records on %s, live store %s, notifier %s",
            engine.dialect.name,
            type(live).__name__,
            type(notifier).__name__,
        )
        try:
            yield
        finally:
            await deadlines.stop()
            await webhooks.stop()
            await notifier.close()
            if app.state.rate_buckets is not None:
                await app.state.rate_buckets.close()
            await live.close()
            await services.close()
            await engine.dispose()
            if services.reader is not None:
                services.reader.dispose()
            metrics.process_exited(os.getpid())
            log.info("rulekeeper stopped")

    async def openapi(_: Request) -> Response:
        # Built on first asking, not at start-up: it depends on code alone, and building it (~0.6 s of CPU, nearly all
        # pydantic JSON Schema) would be paid again by every worker and restart that never serves it. CI builds it
        # on every run (tests/contracts/test_contracts_in_sync.py), so a document that cannot be built never ships.
        # Off the event loop, so other requests go on while the first asker waits.
        return Response(await run_in_threadpool(openapi_document.served), media_type="application/json")

    routes = [
        Route("/healthz", healthz, methods=["GET"]),
        Route("/readyz", readiness(schema), methods=["GET"]),
        Route("/metrics", httpmetrics.endpoint(settings.metrics_token), methods=["GET"]),
        Route("/openapi.json", openapi, methods=["GET"]),
        *rest_routes(),
        *graphql_routes(settings),
        *(web_routes() if settings.web_table else []),
    ]
    return Starlette(
        routes=routes,
        # Outermost first: every request gets its id and its language, is measured and logged (the edge), compressed
        # when it asks for gzip (WebSockets pass by), answered with CORS headers (429s and 413s too), then rate
        # limited, then checked for size and characters.
        middleware=[
            Middleware(Edge, routes=routes),
            Middleware(
                GZipMiddleware,
                minimum_size=GZIP_MINIMUM_BYTES,
                compresslevel=GZIP_LEVEL,
                exclude_content_types=NOT_COMPRESSED,
            ),
            # Bearer tokens, never cookies: no credentials mode, and any request header may be sent
            # (GraphQL clients add their own). The same list decides which pages may open a WebSocket.
            Middleware(
                CORSMiddleware,
                allow_origins=settings.cors_origins,
                allow_headers=["*"],
                allow_methods=["GET", "POST", "PUT", "PATCH", "DELETE"],
                expose_headers=["ETag", "Retry-After", "Idempotent-Replayed", "X-Request-ID"],
                max_age=600,
            ),
            Middleware(RateLimit, settings=settings),
            Middleware(
                RequestGuard,
                max_body_bytes=settings.max_body_bytes,
                larger={"/v1/campaigns/import": settings.max_import_bytes},
            ),
        ],
        exception_handlers=EXCEPTION_HANDLERS,
        lifespan=lifespan,
    )
