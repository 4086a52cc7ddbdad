"""What every resolver does around its command: the caller from the context, an application error as a GraphQL
error (the REST problem's code, status and field in `extensions`), and Idempotency-Key on a write."""

from typing import Any

from graphql import GraphQLError
from strawberry.types import Info

from service.api.problems import extensions
from service.game.errors import GameError
from service.game.idempotency import fingerprint, run_once
from service.i18n.render import render


def as_graphql(exc: GameError) -> GraphQLError:
    return GraphQLError(render(exc.detail), extensions=extensions(exc.status, exc.code, exc.field, exc.extra))


async def run(coro) -> Any:
    """Application errors become GraphQL errors whose extensions carry the REST problem's code and field."""
    try:
        return await coro
    except GameError as exc:
        raise as_graphql(exc) from None


def guard(fn):
    try:
        return fn()
    except GameError as exc:
        raise as_graphql(exc) from None


def ctx(info: Info) -> tuple[Any, str | None]:
    return info.context["services"], info.context["token"]


async def once(
    info: Info,
    mutation: str,
    campaign_id: str | None,
    body,
    command,
    if_match: str | None = None,
    *,
    key_in_command: bool = False,
) -> dict[str, Any]:
    """Idempotency-Key on a GraphQL write, as on REST: a retry returns the first result and changes nothing.
    `key_in_command`: the command claims the key in its own transaction (a move, as REST's postAction)."""
    request = info.context.get("request")
    key = request.headers.get("idempotency-key") if request is not None and hasattr(request, "headers") else None
    if not key:
        return await run(command())
    svc, token = ctx(info)
    data = None if body is None else body.model_dump(mode="json")
    stands_for = fingerprint("graphql", mutation, campaign_id, data, if_match)
    return await run(
        run_once(svc, token, campaign_id, key, stands_for, command, lambda stored: stored, in_command=key_in_command)
    )
