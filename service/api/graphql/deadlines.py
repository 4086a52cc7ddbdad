"""GraphQL for turn deadlines, the same operations as REST (service/api/rest/deadlines.py); the shared reply
models (service/api/replies.py) generate the types; the schema's Query and Mutation take these fields in by
inheritance."""

from typing import TYPE_CHECKING, Any, TypeAlias

import strawberry
from strawberry.types import Info

from service.api.graphql.envelope import body as envelope_body, envelope
from service.api.graphql.resolve import ctx, guard, once, run
from service.api.graphql.typed import output
from service.api import replies as r
from service.api.bodies import parse
from service.game.deadlines import admin as deadline_admin
from service.game.deadlines.settings import TurnDeadlines

# Made when the module loads, so mypy has no class to check them against: to it each is Any.
if TYPE_CHECKING:
    TurnDeadlineBoard: TypeAlias = Any
    TurnDeadline: TypeAlias = Any
    SetTurnDeadlinesInput: TypeAlias = Any
    TurnDeadlinesCampaignInput: TypeAlias = Any
    ExtendTurnDeadlineInput: TypeAlias = Any
else:
    TurnDeadlineBoard = output(r.TurnDeadlineBoard)
    TurnDeadline = output(r.TurnDeadline)

    SetTurnDeadlinesInput = envelope("SetTurnDeadlinesInput", TurnDeadlines, ids=("campaign_id",))
    TurnDeadlinesCampaignInput = envelope("TurnDeadlinesCampaignInput", ids=("campaign_id",))
    ExtendTurnDeadlineInput = envelope(
        "ExtendTurnDeadlineInput", deadline_admin.DeadlineExtension, ids=("campaign_id", "deadline_id")
    )


@strawberry.type
class DeadlineQuery:
    @strawberry.field(description="The campaign's turn deadline settings and every deadline now kept.")
    async def turn_deadlines(self, info: Info, campaign_id: strawberry.ID) -> TurnDeadlineBoard:
        svc, token = ctx(info)
        return await run(deadline_admin.board(svc, str(campaign_id), token))


@strawberry.type
class DeadlineMutation:
    @strawberry.mutation(description="Set the time limits for turns and pending choices (GM).")
    async def set_turn_deadlines(self, info: Info, input: SetTurnDeadlinesInput) -> TurnDeadlineBoard:
        svc, token = ctx(info)
        campaign_id = str(input.campaign_id)
        body = guard(lambda: parse(TurnDeadlines, envelope_body(input)))
        return await once(
            info,
            "setTurnDeadlines",
            campaign_id,
            body,
            lambda: deadline_admin.set_settings(svc, campaign_id, token, body),
        )

    @strawberry.mutation(description="Pause every deadline of the campaign (GM); each keeps the time it had left.")
    async def pause_turn_deadlines(self, info: Info, input: TurnDeadlinesCampaignInput) -> TurnDeadlineBoard:
        svc, token = ctx(info)
        campaign_id = str(input.campaign_id)
        return await once(
            info, "pauseTurnDeadlines", campaign_id, None, lambda: deadline_admin.pause(svc, campaign_id, token)
        )

    @strawberry.mutation(description="Resume the paused deadlines (GM).")
    async def resume_turn_deadlines(self, info: Info, input: TurnDeadlinesCampaignInput) -> TurnDeadlineBoard:
        svc, token = ctx(info)
        campaign_id = str(input.campaign_id)
        return await once(
            info, "resumeTurnDeadlines", campaign_id, None, lambda: deadline_admin.resume(svc, campaign_id, token)
        )

    @strawberry.mutation(description="Give one wait more time (GM).")
    async def extend_turn_deadline(self, info: Info, input: ExtendTurnDeadlineInput) -> TurnDeadline:
        svc, token = ctx(info)
        campaign_id = str(input.campaign_id)
        body = guard(lambda: parse(deadline_admin.DeadlineExtension, envelope_body(input)))
        return await once(
            info,
            "extendTurnDeadline",
            campaign_id,
            body,
            lambda: deadline_admin.extend(svc, campaign_id, str(input.deadline_id), token, body),
        )
