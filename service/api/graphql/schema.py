"""The GraphQL schema: thin resolvers over the same application layer as REST."""
from __future__ import annotations

import asyncio
import functools
import json
from collections.abc import AsyncGenerator
from typing import Any

import strawberry
from graphql import GraphQLError
from strawberry.extensions import AddValidationRules, MaxTokensLimiter, ValidationCache
from strawberry.scalars import JSON
from strawberry.types import Info

from service.api.graphql import types as t
from service.api.graphql.deadlines import DeadlineMutation, DeadlineQuery
from service.api.graphql.errors import ErrorCodes, ParserCacheReportingErrors
from service.api.graphql.errors import Schema as ErrorSchema
from service.api.graphql.limits import DocumentLimits, document_rule
from service.game import campaigns, dicesessions, feed, history, languages, play, rolls, systems, transfer, webhooks
from service.game.errors import GameError
from service.game.idempotency import run_once
from service.game.inputs import (ActionRequest, CampaignCreate, CampaignLanguage, CharacterAssign, ClientSeed,
                                 PlayerInvite, PlayerLanguage, RollRequest, UndoRequest)
from service.api.rest.request import parse
from service.i18n.message import _
from service.settings import Settings
from service.i18n.render import render


async def run(coro) -> Any:
    """Application errors become GraphQL errors whose extensions carry the REST problem's code and field."""
    try:
        return await coro
    except GameError as exc:
        raise GraphQLError(render(exc.detail), extensions={"code": exc.code, "status": exc.status,
                                                           "field": exc.field, **exc.extra}) from None


def guard(fn):
    try:
        return fn()
    except GameError as exc:
        raise GraphQLError(render(exc.detail), extensions={"code": exc.code, "status": exc.status,
                                                           "field": exc.field, **exc.extra}) from None


def ctx(info: Info) -> tuple[Any, str | None]:
    return info.context["services"], info.context["token"]


async def once(info: Info, mutation: str, campaign_id: str, body, command, if_match: str | None = None) -> dict[str, Any]:
    """Idempotency-Key on a GraphQL write, as on REST: a retry returns the first result and changes nothing."""
    request = info.context.get("request")
    key = request.headers.get("idempotency-key") if request is not None and hasattr(request, "headers") else None
    if not key:
        return await run(command())
    svc, token = ctx(info)
    fingerprint = json.dumps(["graphql", mutation, campaign_id, body.model_dump(mode="json"), if_match],
                             sort_keys=True).encode()
    return await run(run_once(svc, token, campaign_id, key, fingerprint, command, lambda stored: stored))


@strawberry.input
class CreateCampaignInput:
    name: str
    system: str
    options: JSON | None = None
    dice_mode: str = "server"
    turn_deadlines: JSON | None = None
    language: str = strawberry.field(default="en", description="The campaign's default language: en, pl or ru.")


@strawberry.input
class SetCampaignLanguageInput:
    campaign_id: str
    language: str = strawberry.field(description="en, pl or ru.")


@strawberry.input
class SetPlayerLanguageInput:
    campaign_id: str
    player_id: str
    language: str | None = strawberry.field(description="en, pl or ru; null: the campaign's.")


@strawberry.input
class InvitePlayerInput:
    campaign_id: str
    name: str


@strawberry.input
class CreateCharacterInput:
    campaign_id: str
    sheet: JSON
    player_id: str | None = None


@strawberry.input
class ValidateCharacterInput:
    campaign_id: str
    sheet: JSON


@strawberry.input
class AssignCharacterInput:
    campaign_id: str
    character_id: str
    player_id: str | None


@strawberry.input
class ActInput:
    campaign_id: str
    action: JSON
    dice: list[int] | None = None
    if_match: int | None = strawberry.field(default=None, description="The table version you last saw; refused when it moved on.")


@strawberry.input
class RollInput:
    campaign_id: str
    expression: str
    label: str | None = None
    dice: list[int] | None = None


@strawberry.input
class SetClientSeedInput:
    campaign_id: str
    client_seed: str


@strawberry.input
class CloseDiceSessionInput:
    campaign_id: str


@strawberry.input
class UndoMovesInput:
    campaign_id: str
    count: int = 1


@strawberry.input
class CampaignInput:
    campaign_id: str


@strawberry.input
class ImportCampaignInput:
    document: JSON = strawberry.field(description="A document from exportCampaign.")


@strawberry.input
class CreateWebhookInput:
    campaign_id: str
    url: str
    event_types: list[str] | None = strawberry.field(default=None, description="Omitted or empty: every type.")
    view: str = strawberry.field(default="players", description="`players` or `gm`: whose view of the events.")
    description: str = ""


@strawberry.input
class UpdateWebhookInput:
    campaign_id: str
    webhook_id: str
    url: str | None = None
    event_types: list[str] | None = None
    view: str | None = None
    status: str | None = strawberry.field(default=None, description="`active` or `paused`.")
    description: str | None = None


@strawberry.input
class RotateWebhookSecretInput:
    campaign_id: str
    webhook_id: str
    keep_previous_seconds: int = strawberry.field(default=0, description="Keep signing with the old secret too for this long.")


@strawberry.input
class WebhookInput:
    campaign_id: str
    webhook_id: str


@strawberry.input
class WebhookDeliveryInput:
    campaign_id: str
    webhook_id: str
    delivery_id: str


def _bad_query(message: str, field: str) -> GraphQLError:
    return GraphQLError(message, extensions={"code": "invalid_query", "status": 400, "field": field})


@strawberry.type
class Query(DeadlineQuery):
    @strawberry.field(description="The rule systems, their options and actions.")
    def systems(self) -> list[t.SystemSummary]:
        return [t.build(t.SystemSummary, s) for s in systems.summaries()]

    @strawberry.field
    async def campaign(self, info: Info, id: strawberry.ID) -> t.Campaign:
        svc, token = ctx(info)
        return t.campaign(await run(campaigns.get_campaign(svc, str(id), token)))

    @strawberry.field
    async def characters(self, info: Info, campaign_id: str) -> list[t.Character]:
        svc, token = ctx(info)
        return [t.build(t.Character, c) for c in await run(campaigns.list_characters(svc, campaign_id, token))]

    @strawberry.field
    async def character(self, info: Info, campaign_id: str, id: strawberry.ID) -> t.Character:
        svc, token = ctx(info)
        return t.build(t.Character, await run(campaigns.get_character(svc, campaign_id, str(id), token)))

    @strawberry.field(description="The table as you may see it: now, or as it stood at an earlier `version`.")
    async def state(self, info: Info, campaign_id: str, version: int | None = None) -> t.TableState:
        svc, token = ctx(info)
        if version is not None and version < 0:
            raise GraphQLError(_("`version` must be at least 0"),
                               extensions={"code": "invalid_query", "status": 400, "field": "version"})
        return t.build(t.TableState, await run(play.get_state(svc, campaign_id, token, version)))

    @strawberry.field(description="The whole campaign as one document (GM): moves with their dice, events, dice sessions.")
    async def export_campaign(self, info: Info, campaign_id: str) -> JSON:
        svc, token = ctx(info)
        return await run(transfer.export(svc, campaign_id, token))

    @strawberry.field(description="The event log after a sequence number.")
    async def events(self, info: Info, campaign_id: str, after: int = 0, limit: int = 100) -> t.EventPage:
        svc, token = ctx(info)
        if limit < 1 or limit > 500 or after < 0:
            raise GraphQLError(_("`limit` must be 1-500 and `after` at least 0"),
                               extensions={"code": "invalid_query", "status": 400, "field": "limit" if after >= 0 else "after"})
        page = await run(campaigns.read_events(svc, campaign_id, token, after, limit))
        return t.EventPage(items=[t.event(e) for e in page["items"]], next_after=page["next_after"], has_more=page["has_more"])

    @strawberry.field
    async def dice_sessions(self, info: Info, campaign_id: str) -> list[t.DiceSession]:
        svc, token = ctx(info)
        return [t.build(t.DiceSession, d) for d in await run(dicesessions.list_sessions(svc, campaign_id, token))]

    @strawberry.field
    async def dice_session_verification(self, info: Info, campaign_id: str, number: int) -> t.Verification:
        svc, token = ctx(info)
        return t.build(t.Verification, await run(dicesessions.verification(svc, campaign_id, number, token)))

    @strawberry.field(description="The campaign's webhook endpoints (GM).")
    async def webhooks(self, info: Info, campaign_id: str) -> list[t.Webhook]:
        svc, token = ctx(info)
        return [t.build(t.Webhook, w) for w in await run(webhooks.list_webhooks(svc, campaign_id, token))]

    @strawberry.field(description="One webhook endpoint (GM).")
    async def webhook(self, info: Info, campaign_id: str, id: strawberry.ID) -> t.Webhook:
        svc, token = ctx(info)
        return t.build(t.Webhook, await run(webhooks.get(svc, campaign_id, str(id), token)))

    @strawberry.field(description="A webhook's deliveries, newest first, with status, response code and timing (GM).")
    async def webhook_deliveries(self, info: Info, campaign_id: str, webhook_id: str, status: str | None = None,
                                 before: int | None = None, limit: int = 50) -> t.WebhookDeliveryPage:
        svc, token = ctx(info)
        if status is not None and status not in webhooks.DELIVERY_STATUSES:
            raise _bad_query(_("`status` is one of {delivery_statuses}",
                               delivery_statuses=', '.join(webhooks.DELIVERY_STATUSES)), "status")
        if not 1 <= limit <= 100 or (before is not None and before < 1):
            raise _bad_query(_("`limit` must be 1-100 and `before` at least 1"), "limit" if before is None or before >= 1
                             else "before")
        page = await run(webhooks.deliveries(svc, campaign_id, webhook_id, token, status=status, before=before,
                                             limit=limit))
        return t.WebhookDeliveryPage(items=[t.webhook_delivery(d) for d in page["items"]],
                                     next_before=page["next_before"], has_more=page["has_more"])

    @strawberry.field(description="One delivery with its body and every attempt (GM).")
    async def webhook_delivery(self, info: Info, campaign_id: str, webhook_id: str,
                               id: strawberry.ID) -> t.WebhookDelivery:
        svc, token = ctx(info)
        return t.webhook_delivery(await run(webhooks.delivery(svc, campaign_id, webhook_id, str(id), token)))


def _action_payload(out: dict[str, Any]) -> t.ActionPayload:
    return t.ActionPayload(version=out["version"], events=[t.event(e) for e in out["events"]], state=out["state"])


@strawberry.type
class Mutation(DeadlineMutation):
    @strawberry.mutation
    async def create_campaign(self, info: Info, input: CreateCampaignInput) -> t.CreateCampaignPayload:
        svc, token = ctx(info)
        body = guard(lambda: parse(CampaignCreate, {"name": input.name, "system": input.system,
                                                    "options": input.options or {}, "dice_mode": input.dice_mode,
                                                    "language": input.language,
                                                    "turn_deadlines": input.turn_deadlines}))
        out = await run(campaigns.create_campaign(svc, body, token))
        return t.CreateCampaignPayload(campaign=t.campaign(out["campaign"]), gm_token=out["gm_token"])

    @strawberry.mutation(description="Set the campaign's default language (GM).")
    async def set_campaign_language(self, info: Info, input: SetCampaignLanguageInput) -> t.Campaign:
        svc, token = ctx(info)
        body = guard(lambda: parse(CampaignLanguage, {"language": input.language}))
        return t.campaign(await run(languages.set_campaign_language(svc, input.campaign_id, token, body)))

    @strawberry.mutation(description="Set your own language as a player (null: the campaign's).")
    async def set_player_language(self, info: Info, input: SetPlayerLanguageInput) -> t.Player:
        svc, token = ctx(info)
        body = guard(lambda: parse(PlayerLanguage, {"language": input.language}))
        return t.build(t.Player, await run(languages.set_player_language(svc, input.campaign_id, input.player_id,
                                                                          token, body)))

    @strawberry.mutation
    async def invite_player(self, info: Info, input: InvitePlayerInput) -> t.InvitePlayerPayload:
        svc, token = ctx(info)
        body = guard(lambda: parse(PlayerInvite, {"name": input.name}))
        out = await run(campaigns.invite_player(svc, input.campaign_id, token, body))
        return t.InvitePlayerPayload(player=t.build(t.Player, out["player"]), token=out["token"])

    @strawberry.mutation
    async def create_character(self, info: Info, input: CreateCharacterInput) -> t.CharacterPayload:
        svc, token = ctx(info)
        out = await run(campaigns.create_character(svc, input.campaign_id, token, input.sheet, input.player_id))
        return t.CharacterPayload(character=t.build(t.Character, out))

    @strawberry.mutation
    async def validate_character(self, info: Info, input: ValidateCharacterInput) -> t.ValidateCharacterPayload:
        svc, token = ctx(info)
        return t.build(t.ValidateCharacterPayload,
                       await run(campaigns.validate_character(svc, input.campaign_id, token, input.sheet)))

    @strawberry.mutation
    async def assign_character(self, info: Info, input: AssignCharacterInput) -> t.CharacterPayload:
        svc, token = ctx(info)
        body = guard(lambda: parse(CharacterAssign, {"player_id": input.player_id}))
        out = await run(campaigns.assign_character(svc, input.campaign_id, input.character_id, token, body))
        return t.CharacterPayload(character=t.build(t.Character, out))

    @strawberry.mutation(description="Make a move; the service checks it, rolls, and answers with the new state.")
    async def act(self, info: Info, input: ActInput) -> t.ActionPayload:
        svc, token = ctx(info)
        body = guard(lambda: parse(ActionRequest, {"action": input.action, "dice": input.dice}))
        if_match = None if input.if_match is None else f'"{input.if_match}"'
        out = await once(info, "act", input.campaign_id, body,
                         lambda: play.act(svc, input.campaign_id, token, body, if_match), if_match)
        return _action_payload(out)

    @strawberry.mutation
    async def roll_expression(self, info: Info, input: RollInput) -> t.RollPayload:
        svc, token = ctx(info)
        body = guard(lambda: parse(RollRequest, {"expression": input.expression, "label": input.label, "dice": input.dice}))
        out = await once(info, "rollExpression", input.campaign_id, body,
                         lambda: rolls.roll(svc, input.campaign_id, token, body))
        return t.RollPayload(expression=out["expression"], label=out["label"], total=out["total"], text=out["text"],
                             tree=out["tree"], dice=[t.build(t.Die, d) for d in out["dice"]],
                             events=[t.event(e) for e in out["events"]])

    @strawberry.mutation
    async def set_client_seed(self, info: Info, input: SetClientSeedInput) -> t.DiceSession:
        svc, token = ctx(info)
        body = guard(lambda: parse(ClientSeed, {"client_seed": input.client_seed}))
        return t.build(t.DiceSession, await run(dicesessions.set_client_seed(svc, input.campaign_id, token, body)))

    @strawberry.mutation
    async def close_dice_session(self, info: Info, input: CloseDiceSessionInput) -> t.CloseDiceSessionPayload:
        svc, token = ctx(info)
        out = await run(dicesessions.close_session(svc, input.campaign_id, token))
        return t.CloseDiceSessionPayload(closed=t.build(t.DiceSession, out["closed"]), opened=t.build(t.DiceSession, out["opened"]))


    @strawberry.mutation(description="Undo the latest moves (GM); the undone moves and their dice stay in the log.")
    async def undo_moves(self, info: Info, input: UndoMovesInput) -> t.ActionPayload:
        svc, token = ctx(info)
        body = guard(lambda: parse(UndoRequest, {"count": input.count}))
        out = await once(info, "undoMoves", input.campaign_id, body,
                         lambda: history.undo(svc, input.campaign_id, token, body.count))
        return _action_payload(out)

    @strawberry.mutation(description="Finish the campaign (GM): no new moves; everything stays readable.")
    async def finish_campaign(self, info: Info, input: CampaignInput) -> t.Campaign:
        svc, token = ctx(info)
        return t.campaign(await run(history.finish(svc, input.campaign_id, token)))

    @strawberry.mutation(description="Delete a finished campaign and everything in it (GM).")
    async def delete_campaign(self, info: Info, input: CampaignInput) -> bool:
        svc, token = ctx(info)
        await run(history.delete_campaign(svc, input.campaign_id, token))
        return True

    @strawberry.mutation(description="Import a document from exportCampaign as a new campaign; every move is replayed.")
    async def import_campaign(self, info: Info, input: ImportCampaignInput) -> t.ImportCampaignPayload:
        svc, token = ctx(info)
        doc = guard(lambda: parse(transfer.CampaignDocument, input.document))
        out = await run(transfer.import_campaign(svc, doc, token))
        return t.ImportCampaignPayload(campaign=t.campaign(out["campaign"]), gm_token=out["gm_token"],
                                       players=[t.InvitePlayerPayload(player=t.build(t.Player, p["player"]),
                                                                      token=p["token"]) for p in out["players"]])

    @strawberry.mutation(description="Register a webhook endpoint (GM); the payload carries its signing secret once.")
    async def create_webhook(self, info: Info, input: CreateWebhookInput) -> t.WebhookSecretPayload:
        svc, token = ctx(info)
        body = guard(lambda: parse(webhooks.WebhookCreate, {
            "url": input.url, "event_types": input.event_types, "view": input.view, "description": input.description}))
        out = await once(info, "createWebhook", input.campaign_id, body,
                         lambda: webhooks.create(svc, input.campaign_id, token, body))
        return t.webhook_secret(out)

    @strawberry.mutation(description="Change a webhook's URL, event types or view, or pause and resume it (GM).")
    async def update_webhook(self, info: Info, input: UpdateWebhookInput) -> t.Webhook:
        svc, token = ctx(info)
        fields = {k: getattr(input, k) for k in ("url", "event_types", "view", "status", "description")
                  if getattr(input, k) is not None}
        body = guard(lambda: parse(webhooks.WebhookUpdate, fields))
        return t.build(t.Webhook, await run(webhooks.update(svc, input.campaign_id, input.webhook_id, token, body)))

    @strawberry.mutation(description="Replace a webhook's signing secret (GM); the new one is shown only here.")
    async def rotate_webhook_secret(self, info: Info, input: RotateWebhookSecretInput) -> t.WebhookSecretPayload:
        svc, token = ctx(info)
        keep = input.keep_previous_seconds
        if not 0 <= keep <= webhooks.MAX_ROTATION_GRACE:
            raise GraphQLError(_("`keepPreviousSeconds` must be 0-{max_rotation_grace}",
                                 max_rotation_grace=webhooks.MAX_ROTATION_GRACE),
                               extensions={"code": "invalid_input", "status": 422, "field": "keep_previous_seconds"})
        return t.webhook_secret(await run(webhooks.rotate_secret(svc, input.campaign_id, input.webhook_id, token, keep)))

    @strawberry.mutation(description="Delete a webhook endpoint and its deliveries (GM).")
    async def delete_webhook(self, info: Info, input: WebhookInput) -> bool:
        svc, token = ctx(info)
        await run(webhooks.delete(svc, input.campaign_id, input.webhook_id, token))
        return True

    @strawberry.mutation(description="Send a delivery again, with the same webhook-id and a fresh budget of attempts (GM).")
    async def redeliver_webhook_delivery(self, info: Info, input: WebhookDeliveryInput) -> t.WebhookDelivery:
        svc, token = ctx(info)
        return t.webhook_delivery(await run(webhooks.redeliver(svc, input.campaign_id, input.webhook_id,
                                                                input.delivery_id, token)))


@strawberry.type
class Subscription:
    @strawberry.subscription(description="The campaign's events as they happen, filtered by your role exactly as the "
                                         "events query: every event after `after`, then each one as it is committed. "
                                         "Resume with the last seq you received.")
    async def campaign_events(self, info: Info, campaign_id: str, after: int = 0) -> AsyncGenerator[t.Event, None]:
        svc, token = ctx(info)
        stream = feed.follow(svc, campaign_id, token, after)
        try:
            while True:
                try:
                    event = await run(anext(stream))
                except StopAsyncIteration:
                    return
                yield t.event(event)
        finally:
            await stream.aclose()


@functools.lru_cache(maxsize=8)
def make_schema(max_depth: int, max_aliases: int, max_tokens: int, max_cost: int) -> strawberry.Schema:
    """The schema with its limits (one per set of limits: see graphql/limits.py on the ValidationCache)."""
    rule = document_rule(DocumentLimits(max_depth=max_depth, max_aliases=max_aliases, max_cost=max_cost))
    return ErrorSchema(query=Query, mutation=Mutation, subscription=Subscription, extensions=[
        # Factories: a fresh extension per request; the caches themselves live at module level.
        lambda: MaxTokensLimiter(max_token_count=max_tokens),
        lambda: AddValidationRules([rule]),
        lambda: ParserCacheReportingErrors(maxsize=256),
        lambda: ValidationCache(maxsize=256),
        ErrorCodes,
    ])


def schema_for(settings: Settings) -> strawberry.Schema:
    return make_schema(settings.graphql_max_depth, settings.graphql_max_aliases, settings.graphql_max_tokens,
                       settings.graphql_max_cost)


schema = schema_for(Settings())
