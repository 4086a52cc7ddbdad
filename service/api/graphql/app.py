"""GraphQL over HTTP and WebSocket (graphql-transport-ws), routed at the exact path /graphql."""
from __future__ import annotations

from typing import Any

from starlette.routing import Route, WebSocketRoute
from strawberry.asgi import GraphQL
from strawberry.subscriptions import GRAPHQL_TRANSPORT_WS_PROTOCOL

from service.api.graphql.schema import schema


class RulekeeperGraphQL(GraphQL):
    async def get_context(self, request, response=None) -> dict[str, Any]:
        token = None
        auth = request.headers.get("authorization", "") if hasattr(request, "headers") else ""
        scheme, _, value = auth.partition(" ")
        if scheme.lower() == "bearer" and value.strip():
            token = value.strip()
        return {"request": request, "response": response, "services": request.app.state.services, "token": token}

    async def on_ws_connect(self, context: dict[str, Any]):
        # Browsers cannot set headers on a WebSocket: take the token from the connection_init payload.
        params = context.get("connection_params") or {}
        auth = params.get("authorization") or params.get("Authorization") if isinstance(params, dict) else None
        if isinstance(auth, str):
            context["token"] = auth.partition(" ")[2].strip() if auth.lower().startswith("bearer ") else auth
        return None


def graphql_routes() -> list:
    app = RulekeeperGraphQL(schema, subscription_protocols=[GRAPHQL_TRANSPORT_WS_PROTOCOL])
    return [Route("/graphql", app, methods=["GET", "POST"]), WebSocketRoute("/graphql", app)]
