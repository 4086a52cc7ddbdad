"""Starlette routes built from the operation table."""
from __future__ import annotations

from starlette.requests import Request
from starlette.responses import JSONResponse, Response
from starlette.routing import Route

from service.game.idempotency import run_once
from service.api.rest.operations import OPERATIONS, Operation
from service.api.rest.request import Call, bearer, parse, read_json

INT_PARAMS = {"number"}


def _starlette_path(path: str) -> str:
    for name in INT_PARAMS:
        path = path.replace("{" + name + "}", "{" + name + ":int}")
    return path


def endpoint(op: Operation):
    async def handle(request: Request) -> JSONResponse:
        svc = request.app.state.services
        token = bearer(request)
        raw = b""
        body = None
        if op.request is not None:
            data = await read_json(request)
            raw = await request.body()
            body = parse(op.request, data)
        call = Call(request=request, svc=svc, token=token, path=dict(request.path_params), body=body)

        async def run():
            return await op.handler(call)

        key = request.headers.get("idempotency-key") if op.idempotent_key else None
        if key:
            fingerprint = b"\n".join([op.method.encode(), request.url.path.encode(), raw])
            status, payload, headers = await run_once(svc, token, key, fingerprint, run)
        else:
            status, payload, headers = await run()
        if status == 204:
            return Response(status_code=204, headers=headers)
        return JSONResponse(payload, status_code=status, headers=headers)

    handle.__name__ = op.operation_id
    return handle


def routes() -> list[Route]:
    return [Route(_starlette_path(op.path), endpoint(op), methods=[op.method], name=op.operation_id)
            for op in OPERATIONS]
