"""The ceiling the benchmark measures against: a bare Starlette JSON endpoint, nothing else.

    python benchmarks/ceiling.py PORT [plain]

Served by uvicorn with the options `rulekeeper serve` uses (service.cli.server_options), so the ratio of a
Rulekeeper endpoint to this one is what the service itself costs on top of the server stack. `plain`: on
asyncio and h11 instead, what uvicorn serves with when uvloop and httptools are missing."""

from __future__ import annotations

import sys

from starlette.applications import Starlette
from starlette.requests import Request
from starlette.responses import JSONResponse
from starlette.routing import Route


async def ok(request: Request) -> JSONResponse:
    if request.method == "POST":
        await request.json()
    return JSONResponse({"ok": True})


app = Starlette(routes=[Route("/", ok, methods=["GET", "POST"]), Route("/readyz", ok)])

if __name__ == "__main__":
    import uvicorn

    from service.cli import server_options

    options = server_options()
    if sys.argv[2:] == ["plain"]:
        options.update(loop="asyncio", http="h11")
    uvicorn.run(app, host="127.0.0.1", port=int(sys.argv[1]), **options)
