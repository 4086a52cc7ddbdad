"""The ASGI application, composed in one place: routes, middleware, exception handlers, lifespan."""
from __future__ import annotations

import contextlib
import logging
import time
from collections.abc import AsyncIterator

from starlette.applications import Starlette
from starlette.exceptions import HTTPException
from starlette.middleware import Middleware
from starlette.requests import Request
from starlette.responses import JSONResponse
from starlette.routing import Route

from service.api import problems
from service.api.graphql.app import graphql_routes
from service.api.rest.openapi import build as build_openapi
from service.api.rest.routing import routes as rest_routes
from service.game.context import Services
from service.game.delivery import Worker as WebhookWorker
from service.game.errors import GameError
from service.settings import Settings
from service.store.live import open_live_store
from service.store.records.db import make_engine, migrate, sessionmaker

log = logging.getLogger("rulekeeper")


class AccessLog:
    """One line per request: method, path, status, milliseconds."""

    def __init__(self, app) -> None:
        self.app = app

    async def __call__(self, scope, receive, send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        start = time.perf_counter()
        status = {"code": 500}

        async def send_wrapper(message) -> None:
            if message["type"] == "http.response.start":
                status["code"] = message["status"]
            await send(message)

        try:
            await self.app(scope, receive, send_wrapper)
        finally:
            log.info("%s %s %s %.1fms", scope["method"], scope["path"], status["code"],
                     (time.perf_counter() - start) * 1000)


def create_app(settings: Settings | None = None) -> Starlette:
    settings = settings or Settings.from_env()
    openapi_doc = build_openapi()

    @contextlib.asynccontextmanager
    async def lifespan(app: Starlette) -> AsyncIterator[None]:
        engine = make_engine(settings.database_url)
        if settings.auto_migrate:
            await migrate(engine)
        live = open_live_store(settings.redis_url, engine)
        app.state.services = Services(settings=settings, engine=engine, sessions=sessionmaker(engine), live=live)
        webhooks = WebhookWorker(app.state.services)
        webhooks.start()
        log.info("rulekeeper ready: records on %s, live store %s", engine.dialect.name, type(live).__name__)
        try:
            yield
        finally:
            await webhooks.stop()
            await live.close()
            await engine.dispose()

    async def healthz(_: Request) -> JSONResponse:
        return JSONResponse({"status": "ok"})

    async def readyz(request: Request) -> JSONResponse:
        svc: Services = request.app.state.services
        from sqlalchemy import text
        try:
            async with svc.engine.connect() as conn:
                await conn.execute(text("SELECT 1"))
            await svc.live.get("readyz")
        except Exception as exc:  # readiness must answer, not raise: report what is down
            return JSONResponse({"status": "unavailable", "detail": str(exc)}, status_code=503)
        return JSONResponse({"status": "ok"})

    async def openapi(_: Request) -> JSONResponse:
        return JSONResponse(openapi_doc)

    routes = [
        Route("/healthz", healthz, methods=["GET"]),
        Route("/readyz", readyz, methods=["GET"]),
        Route("/openapi.json", openapi, methods=["GET"]),
        *rest_routes(),
        *graphql_routes(),
    ]
    return Starlette(
        routes=routes,
        middleware=[Middleware(AccessLog)],
        exception_handlers={GameError: problems.game_error, HTTPException: problems.http_error,
                            Exception: problems.unexpected},
        lifespan=lifespan,
    )
