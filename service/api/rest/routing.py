"""Starlette routes built from the operation table."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from starlette.requests import Request
from starlette.responses import Response
from starlette.routing import Route

from service.game.idempotency import fingerprint, run_once
from service.game.moves.play import etag
from service.api.rest.jsonresponse import FastJSONResponse
from service.api.rest.operations import OPERATIONS, Operation
from service.api.rest.request import Call, bearer, read_and_parse

INT_PARAMS = {"number"}


def _starlette_path(path: str) -> str:
    for name in INT_PARAMS:
        path = path.replace("{" + name + "}", "{" + name + ":int}")
    return path


def _fingerprint(op: Operation, request: Request, data: Any) -> bytes:
    """What one key may stand for: this operation on this path with this body (and precondition)."""
    if_match = request.headers.get("if-match") if op.if_match else None
    return fingerprint("rest", op.operation_id, request.url.path, data, if_match)


def _replayed(op: Operation, body: Any) -> tuple[int, Any, dict[str, str]]:
    """The first reply again: status and headers follow from the operation and the stored body."""
    headers = {"Idempotent-Replayed": "true"}
    if op.etag:
        headers["ETag"] = etag(body["version"])
    return op.status, body, headers


def endpoint(op: Operation):
    async def handle(request: Request) -> Response:
        svc = request.app.state.services
        token = bearer(request)
        data = body = None
        if op.request is not None:
            data, body = await read_and_parse(request, op.request)
        call = Call(request=request, svc=svc, token=token, path=dict(request.path_params), body=body)

        async def run():
            return await op.handler(call)

        key = request.headers.get("idempotency-key") if op.idempotent_key else None
        # An empty key means none, except where the contract asks for 32 characters (creating a campaign).
        if key or (key is not None and op.auth == "operator"):
            status, payload, headers = await run_once(
                svc,
                token,
                call.path.get("campaign_id"),
                key,
                _fingerprint(op, request, data),
                run,
                lambda stored: _replayed(op, stored),
                in_command=op.key_in_command,
            )
        else:
            status, payload, headers = await run()
        if status == 204:
            return Response(status_code=204, headers=headers)
        return FastJSONResponse(payload, status_code=status, headers=headers)

    handle.__name__ = op.operation_id
    return handle


def path_endpoint(handlers: dict[str, Callable]) -> Callable:
    """One endpoint for every operation of a path, chosen by method (HEAD is answered as GET)."""

    async def handle(request: Request):
        method = "GET" if request.method == "HEAD" else request.method
        return await handlers[method](request)

    return handle


def routes() -> list[Route]:
    """One Route per path, not per operation: Starlette's 405 lists the methods of the route it matched, so a
    path with GET and POST operations in two Routes would answer a PUT with `Allow: GET` alone."""
    by_path: dict[str, dict[str, Callable]] = {}
    for op in OPERATIONS:
        by_path.setdefault(op.path, {})[op.method] = endpoint(op)
    return [
        Route(_starlette_path(path), path_endpoint(handlers), methods=sorted(handlers))
        for path, handlers in by_path.items()
    ]
