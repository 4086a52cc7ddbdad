"""GraphQL for turn deadlines, the same operations as REST (service/api/rest/deadlines.py); the schema's
Query and Mutation take these fields in by inheritance."""
from __future__ import annotations

from typing import Any

import strawberry
from strawberry.types import Info

from service.api.graphql import types as t
from service.api.rest.request import parse
from service.game import deadline_admin
from service.game.deadline_settings import TurnDeadlines


@strawberry.type
class TurnDeadlineSettings:
    turn_seconds: int | None
    choice_seconds: int | None
    warning_seconds: int


@strawberry.type
class TurnDeadline:
    id: str
    character_id: str | None
    may: list[str]
    kind: str
    status: str = strawberry.field(description="running, paused, or expired (the default was applied or the GM "
                                               "was handed the wait).")
    seconds: float
    until: str | None
    seconds_left: float | None


@strawberry.type
class TurnDeadlineBoard:
    settings: TurnDeadlineSettings
    paused: bool
    deadlines: list[TurnDeadline]


def _board(data: dict[str, Any]) -> TurnDeadlineBoard:
    return TurnDeadlineBoard(settings=t.build(TurnDeadlineSettings, data["settings"]), paused=data["paused"],
                             deadlines=[t.build(TurnDeadline, d) for d in data["deadlines"]])


@strawberry.input
class SetTurnDeadlinesInput:
    campaign_id: str
    turn_seconds: int | None = None
    choice_seconds: int | None = None
    warning_seconds: int = 60


@strawberry.input
class TurnDeadlinesCampaignInput:
    campaign_id: str


@strawberry.input
class ExtendTurnDeadlineInput:
    campaign_id: str
    deadline_id: str
    seconds: int


def _api():
    # The schema module imports this one; its functions are looked up when a resolver runs.
    from service.api.graphql import schema
    return schema


@strawberry.type
class DeadlineQuery:
    @strawberry.field(description="The campaign's turn deadline settings and every deadline now kept.")
    async def turn_deadlines(self, info: Info, campaign_id: str) -> TurnDeadlineBoard:
        api = _api()
        svc, token = api.ctx(info)
        return _board(await api.run(deadline_admin.board(svc, campaign_id, token)))


@strawberry.type
class DeadlineMutation:
    @strawberry.mutation(description="Set the time limits for turns and pending choices (GM).")
    async def set_turn_deadlines(self, info: Info, input: SetTurnDeadlinesInput) -> TurnDeadlineBoard:
        api = _api()
        svc, token = api.ctx(info)
        body = api.guard(lambda: parse(TurnDeadlines, {"turn_seconds": input.turn_seconds,
                                                       "choice_seconds": input.choice_seconds,
                                                       "warning_seconds": input.warning_seconds}))
        return _board(await api.once(info, "setTurnDeadlines", input.campaign_id, body,
                                     lambda: deadline_admin.set_settings(svc, input.campaign_id, token, body)))

    @strawberry.mutation(description="Pause every deadline of the campaign (GM); each keeps the time it had left.")
    async def pause_turn_deadlines(self, info: Info, input: TurnDeadlinesCampaignInput) -> TurnDeadlineBoard:
        svc, token = _api().ctx(info)
        return _board(await _api().run(deadline_admin.pause(svc, input.campaign_id, token)))

    @strawberry.mutation(description="Resume the paused deadlines (GM).")
    async def resume_turn_deadlines(self, info: Info, input: TurnDeadlinesCampaignInput) -> TurnDeadlineBoard:
        svc, token = _api().ctx(info)
        return _board(await _api().run(deadline_admin.resume(svc, input.campaign_id, token)))

    @strawberry.mutation(description="Give one wait more time (GM).")
    async def extend_turn_deadline(self, info: Info, input: ExtendTurnDeadlineInput) -> TurnDeadline:
        api = _api()
        svc, token = api.ctx(info)
        body = api.guard(lambda: parse(deadline_admin.DeadlineExtension, {"seconds": input.seconds}))
        out = await api.once(info, "extendTurnDeadline", input.campaign_id, body,
                             lambda: deadline_admin.extend(svc, input.campaign_id, input.deadline_id, token, body))
        return t.build(TurnDeadline, out)
