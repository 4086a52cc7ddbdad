"""The GraphQL schema: thin resolvers over the same application layer as REST."""

import functools
from collections.abc import AsyncGenerator
from typing import TYPE_CHECKING, Any, TypeAlias

import strawberry
from graphql import GraphQLError
from strawberry.extensions import AddValidationRules, MaxTokensLimiter
from strawberry.schema.config import StrawberryConfig
from strawberry.types import Info

from service.api.graphql import payloads as p
from service.api.graphql.envelopes import (
    CAMPAIGN_DOCUMENT,
    ActInput,
    CampaignDocument,
    AssignCharacterInput,
    CampaignInput,
    CloseDiceSessionInput,
    CreateCampaignInput,
    CreateCharacterInput,
    CreateWebhookInput,
    DeliveryStatus,
    ImportCampaignInput,
    InvitePlayerInput,
    RotateWebhookSecretInput,
    RollInput,
    SetCampaignLanguageInput,
    SetClientSeedInput,
    SetPlayerLanguageInput,
    UndoMovesInput,
    UpdateWebhookInput,
    ValidateCharacterInput,
    WebhookDeliveryInput,
    WebhookInput,
)
from service.api.graphql.awaitable import ExecutionContext
from service.api.graphql.deadlines import DeadlineMutation, DeadlineQuery
from service.api.graphql.envelope import body as envelope_body
from service.api.graphql.errors import ErrorCodes, ParserCacheReportingErrors
from service.api.graphql.errors import Schema as ErrorSchema
from service.api.graphql.limits import DocumentLimits, document_rule
from service.api.graphql.resolve import ctx, guard, once, run
from service.api.graphql.validated import ValidationCacheByText
from service.game.campaigns import records as campaigns, dicesessions, history, languages
from service.game.log import feed
from service.game.moves import play, rolls
from service.game import systems
from service.game.transfer import commands as transfer
from service.game.webhooks import endpoints as webhooks
from service.game.inputs import (
    ActionRequest,
    CampaignCreate,
    CampaignLanguageUpdate,
    CharacterAssign,
    CharacterCreate,
    CharacterValidationRequest,
    ClientSeed,
    PlayerInvite,
    PlayerLanguageUpdate,
    RollRequest,
    UndoRequest,
)
from service.api.graphql.inputs import chosen_system
from service.game.errorcodes import ERROR_CODES
from service.api.graphql.typed import GEN, T, fast_unions, remember, system_of, typed
from service.api import replies as r
from service.api.bodies import parse
from service.i18n.message import _
from service.settings import Settings


def _bad_query(message: str, field: str) -> GraphQLError:
    return GraphQLError(message, extensions={"code": "invalid_query", "status": 400, "field": field})


def _mismatch(expected: str, sent: str, field: str) -> GraphQLError:
    return GraphQLError(
        _("this campaign plays {expected}, not {sent}", expected=expected, sent=sent),
        extensions={"code": "system_mismatch", "status": 409, "field": field},
    )


def _campaign(data: dict[str, Any]) -> dict[str, Any]:
    remember(data["id"], data["system"])
    return typed(r.CampaignDetail if "you" in data else r.Campaign, data, data["system"])


async def _typed(info: Info, model, data, campaign_id: str):
    svc, token = ctx(info)
    return typed(model, data, await run(system_of(svc, token, str(campaign_id))))


# The generated object types (service/api/graphql/typed.py), by the names the schema gives them.
# They are made when the module loads, so mypy has no class to check them against: to it each is Any.
if TYPE_CHECKING:
    ActionPayload: TypeAlias = Any
    Campaign: TypeAlias = Any
    CampaignDetail: TypeAlias = Any
    Player: TypeAlias = Any
    Character: TypeAlias = Any
    CharacterPayload: TypeAlias = Any
    CloseDiceSessionPayload: TypeAlias = Any
    CreateCampaignPayload: TypeAlias = Any
    DiceSession: TypeAlias = Any
    Event: TypeAlias = Any
    EventConnection: TypeAlias = Any
    ImportCampaignPayload: TypeAlias = Any
    InvitePlayerPayload: TypeAlias = Any
    RollPayload: TypeAlias = Any
    SystemSummary: TypeAlias = Any
    TableState: TypeAlias = Any
    ValidateCharacterPayload: TypeAlias = Any
    Verification: TypeAlias = Any
    Webhook: TypeAlias = Any
    WebhookDeliveryDetail: TypeAlias = Any
    WebhookDeliveryPage: TypeAlias = Any
    WebhookSecretPayload: TypeAlias = Any
    ErrorCode: TypeAlias = Any
else:
    ActionPayload = T["ActionPayload"]
    Campaign = T["Campaign"]
    CampaignDetail = T["CampaignDetail"]
    Player = T["Player"]
    Character = T["Character"]
    CharacterPayload = T["CharacterPayload"]
    CloseDiceSessionPayload = T["CloseDiceSessionPayload"]
    CreateCampaignPayload = T["CreateCampaignPayload"]
    DiceSession = T["DiceSession"]
    Event = T["Event"]
    EventConnection = T["EventConnection"]
    ImportCampaignPayload = T["ImportCampaignPayload"]
    InvitePlayerPayload = T["InvitePlayerPayload"]
    RollPayload = T["RollPayload"]
    SystemSummary = T["SystemSummary"]
    TableState = T["TableState"]
    ValidateCharacterPayload = T["ValidateCharacterPayload"]
    Verification = T["Verification"]
    Webhook = T["Webhook"]
    WebhookDeliveryDetail = T["WebhookDeliveryDetail"]
    WebhookDeliveryPage = T["WebhookDeliveryPage"]
    WebhookSecretPayload = T["WebhookSecretPayload"]
    ErrorCode = GEN.enum(ERROR_CODES, "ErrorCode")


@strawberry.type
class Query(DeadlineQuery):
    @strawberry.field(description="Every code an error's `extensions.code` may carry (REST: the problem's `code`).")
    def error_codes(self) -> list[ErrorCode]:
        return [ErrorCode(code) for code in ERROR_CODES]

    @strawberry.field(description="The rule systems, their options and actions.")
    def systems(self) -> list[SystemSummary]:
        return [typed(r.SystemSummary, s, s["id"]) for s in systems.summaries()]

    @strawberry.field
    async def campaign(self, info: Info, id: strawberry.ID) -> CampaignDetail:
        svc, token = ctx(info)
        return _campaign(await run(campaigns.get_campaign(svc, str(id), token, info.context.get("glances"))))

    @strawberry.field
    async def characters(self, info: Info, campaign_id: strawberry.ID) -> list[Character]:
        svc, token = ctx(info)
        rows = await run(campaigns.list_characters(svc, str(campaign_id), token, info.context.get("glances")))
        return [await _typed(info, r.Character, c, campaign_id) for c in rows]

    @strawberry.field
    async def character(self, info: Info, campaign_id: strawberry.ID, id: strawberry.ID) -> Character:
        svc, token = ctx(info)
        return await _typed(
            info,
            r.Character,
            await run(campaigns.get_character(svc, str(campaign_id), str(id), token, info.context.get("glances"))),
            campaign_id,
        )

    @strawberry.field(description="The table as you may see it: now, or as it stood at an earlier `version`.")
    async def state(self, info: Info, campaign_id: strawberry.ID, version: int | None = None) -> TableState:
        svc, token = ctx(info)
        if version is not None and version < 0:
            raise GraphQLError(
                _("`version` must be at least 0"),
                extensions={"code": "invalid_query", "status": 400, "field": "version"},
            )
        return await _typed(
            info,
            r.TableState,
            await run(play.get_state(svc, str(campaign_id), token, version, glances=info.context.get("glances"))),
            campaign_id,
        )

    @strawberry.field(
        description="The whole campaign as one document (GM): moves with their dice, events, dice "
        "sessions; what importCampaign takes back."
    )
    async def export_campaign(self, info: Info, campaign_id: strawberry.ID) -> CampaignDocument:
        svc, token = ctx(info)
        return await run(transfer.export(svc, str(campaign_id), token))

    @strawberry.field(
        description="The event log in sequence order, as a Relay connection: `after` is the "
        "`endCursor` (or an edge's `cursor`) of the page you read, `first` at most 500."
    )
    async def events(
        self, info: Info, campaign_id: strawberry.ID, after: str | None = None, first: int = 100
    ) -> EventConnection:
        svc, token = ctx(info)
        seq = p.seq_of(after)
        if seq is None:
            raise _bad_query(_("`after` is a cursor this service returned"), "after")
        if first < 1 or first > 500:
            raise _bad_query(_("`first` must be 1-500"), "first")
        page = await run(campaigns.read_events(svc, str(campaign_id), token, seq, first))
        return await _typed(info, p.EventConnection, p.event_connection(page, seq), campaign_id)

    @strawberry.field
    async def dice_sessions(self, info: Info, campaign_id: strawberry.ID) -> list[DiceSession]:
        svc, token = ctx(info)
        return await run(dicesessions.list_sessions(svc, str(campaign_id), token))

    @strawberry.field
    async def dice_session_verification(self, info: Info, campaign_id: strawberry.ID, number: int) -> Verification:
        svc, token = ctx(info)
        return await run(dicesessions.verification(svc, str(campaign_id), number, token))

    @strawberry.field(description="The campaign's webhook endpoints (GM).")
    async def webhooks(self, info: Info, campaign_id: strawberry.ID) -> list[Webhook]:
        svc, token = ctx(info)
        return await run(webhooks.list_webhooks(svc, str(campaign_id), token))

    @strawberry.field(description="One webhook endpoint (GM).")
    async def webhook(self, info: Info, campaign_id: strawberry.ID, id: strawberry.ID) -> Webhook:
        svc, token = ctx(info)
        return await run(webhooks.get(svc, str(campaign_id), str(id), token))

    @strawberry.field(description="A webhook's deliveries, newest first, with status, response code and timing (GM).")
    async def webhook_deliveries(
        self,
        info: Info,
        campaign_id: strawberry.ID,
        webhook_id: strawberry.ID,
        status: DeliveryStatus | None = None,
        before: int | None = None,
        limit: int = 50,
    ) -> WebhookDeliveryPage:
        svc, token = ctx(info)
        if not 1 <= limit <= 100 or (before is not None and before < 1):
            raise _bad_query(
                _("`limit` must be 1-100 and `before` at least 1"),
                "limit" if before is None or before >= 1 else "before",
            )
        return await run(
            webhooks.deliveries(
                svc,
                str(campaign_id),
                str(webhook_id),
                token,
                status=None if status is None else status.value,
                before=before,
                limit=limit,
            )
        )

    @strawberry.field(description="One delivery with its body and every attempt (GM).")
    async def webhook_delivery(
        self, info: Info, campaign_id: strawberry.ID, webhook_id: strawberry.ID, id: strawberry.ID
    ) -> WebhookDeliveryDetail:
        svc, token = ctx(info)
        out = await run(webhooks.delivery(svc, str(campaign_id), str(webhook_id), str(id), token))
        return await _typed(info, r.WebhookDeliveryDetail, out, campaign_id)


async def _action_payload(info: Info, out: dict[str, Any], campaign_id) -> dict[str, Any]:
    return await _typed(info, r.ActionResult, out, campaign_id)


@strawberry.type
class Mutation(DeadlineMutation):
    @strawberry.mutation
    async def create_campaign(self, info: Info, input: CreateCampaignInput) -> CreateCampaignPayload:
        svc, token = ctx(info)
        if input.options is not None and chosen_system(input.options) != input.system.value:
            raise _mismatch(input.system.value, chosen_system(input.options), "options")
        body = guard(lambda: parse(CampaignCreate, envelope_body(input)))
        out = await once(info, "createCampaign", None, body, lambda: campaigns.create_campaign(svc, body, token))
        return {**out, "campaign": _campaign(out["campaign"])}

    @strawberry.mutation(description="Set the campaign's default language (GM).")
    async def set_campaign_language(self, info: Info, input: SetCampaignLanguageInput) -> Campaign:
        svc, token = ctx(info)
        body = guard(lambda: parse(CampaignLanguageUpdate, envelope_body(input)))
        return _campaign(await run(languages.set_campaign_language(svc, str(input.campaign_id), token, body)))

    @strawberry.mutation(description="Set your own language as a player (null: the campaign's).")
    async def set_player_language(self, info: Info, input: SetPlayerLanguageInput) -> Player:
        svc, token = ctx(info)
        body = guard(lambda: parse(PlayerLanguageUpdate, envelope_body(input)))
        return await run(languages.set_player_language(svc, str(input.campaign_id), str(input.player_id), token, body))

    @strawberry.mutation
    async def invite_player(self, info: Info, input: InvitePlayerInput) -> InvitePlayerPayload:
        svc, token = ctx(info)
        body = guard(lambda: parse(PlayerInvite, envelope_body(input)))
        campaign_id = str(input.campaign_id)
        return await once(
            info, "invitePlayer", campaign_id, body, lambda: campaigns.invite_player(svc, campaign_id, token, body)
        )

    @strawberry.mutation
    async def create_character(self, info: Info, input: CreateCharacterInput) -> CharacterPayload:
        svc, token = ctx(info)
        await _check_sheet(info, input.campaign_id, input.sheet)
        body = guard(lambda: parse(CharacterCreate, envelope_body(input)))
        campaign_id = str(input.campaign_id)
        out = await once(
            info,
            "createCharacter",
            campaign_id,
            body,
            lambda: campaigns.create_character(svc, campaign_id, token, body.sheet, body.player_id),
        )
        return await _typed(info, p.CharacterPayload, {"character": out}, input.campaign_id)

    @strawberry.mutation
    async def validate_character(self, info: Info, input: ValidateCharacterInput) -> ValidateCharacterPayload:
        svc, token = ctx(info)
        await _check_sheet(info, input.campaign_id, input.sheet)
        body = guard(lambda: parse(CharacterValidationRequest, envelope_body(input)))
        out = await run(campaigns.validate_character(svc, str(input.campaign_id), token, body.sheet))
        return await _typed(info, r.CharacterValidation, out, input.campaign_id)

    @strawberry.mutation
    async def assign_character(self, info: Info, input: AssignCharacterInput) -> CharacterPayload:
        svc, token = ctx(info)
        body = guard(lambda: parse(CharacterAssign, envelope_body(input)))
        out = await run(campaigns.assign_character(svc, str(input.campaign_id), str(input.character_id), token, body))
        return await _typed(info, p.CharacterPayload, {"character": out}, input.campaign_id)

    @strawberry.mutation(description="Make a move; the service checks it, rolls, and answers with the new state.")
    async def act(self, info: Info, input: ActInput) -> ActionPayload:
        svc, token = ctx(info)
        body = guard(lambda: parse(ActionRequest, {**envelope_body(input), "system": chosen_system(input.action)}))
        if_match = None if input.if_match is None else f'"{input.if_match}"'
        campaign_id = str(input.campaign_id)
        out = await once(
            info,
            "act",
            campaign_id,
            body,
            lambda: play.act(svc, campaign_id, token, body, if_match),
            if_match,
            key_in_command=True,
        )
        return await _action_payload(info, out, campaign_id)

    @strawberry.mutation
    async def roll_expression(self, info: Info, input: RollInput) -> RollPayload:
        svc, token = ctx(info)
        body = guard(lambda: parse(RollRequest, envelope_body(input)))
        campaign_id = str(input.campaign_id)
        out = await once(info, "rollExpression", campaign_id, body, lambda: rolls.roll(svc, campaign_id, token, body))
        return await _typed(info, r.RollResult, out, campaign_id)

    @strawberry.mutation
    async def set_client_seed(self, info: Info, input: SetClientSeedInput) -> DiceSession:
        svc, token = ctx(info)
        body = guard(lambda: parse(ClientSeed, envelope_body(input)))
        return await run(dicesessions.set_client_seed(svc, str(input.campaign_id), token, body))

    @strawberry.mutation
    async def close_dice_session(self, info: Info, input: CloseDiceSessionInput) -> CloseDiceSessionPayload:
        svc, token = ctx(info)
        campaign_id = str(input.campaign_id)
        return await once(
            info, "closeDiceSession", campaign_id, None, lambda: dicesessions.close_session(svc, campaign_id, token)
        )

    @strawberry.mutation(description="Undo the latest moves (GM); the undone moves and their dice stay in the log.")
    async def undo_moves(self, info: Info, input: UndoMovesInput) -> ActionPayload:
        svc, token = ctx(info)
        body = guard(lambda: parse(UndoRequest, envelope_body(input)))
        campaign_id = str(input.campaign_id)
        out = await once(
            info, "undoMoves", campaign_id, body, lambda: history.undo(svc, campaign_id, token, body.count)
        )
        return await _action_payload(info, out, campaign_id)

    @strawberry.mutation(description="Finish the campaign (GM): no new moves; everything stays readable.")
    async def finish_campaign(self, info: Info, input: CampaignInput) -> Campaign:
        svc, token = ctx(info)
        campaign_id = str(input.campaign_id)
        return _campaign(
            await once(info, "finishCampaign", campaign_id, None, lambda: history.finish(svc, campaign_id, token))
        )

    @strawberry.mutation(description="Delete a finished campaign and everything in it (GM).")
    async def delete_campaign(self, info: Info, input: CampaignInput) -> bool:
        svc, token = ctx(info)
        await run(history.delete_campaign(svc, str(input.campaign_id), token))
        return True

    @strawberry.mutation(description="Import a document from exportCampaign as a new campaign; every move is replayed.")
    async def import_campaign(self, info: Info, input: ImportCampaignInput) -> ImportCampaignPayload:
        svc, token = ctx(info)
        doc = guard(lambda: parse(transfer.CampaignDocument, input.document))
        request = info.context.get("request")
        client = getattr(request, "client", None)
        out = await once(
            info,
            "importCampaign",
            None,
            doc,
            lambda: transfer.import_campaign(svc, doc, token, client.host if client else ""),
        )
        return {**out, "campaign": _campaign(out["campaign"])}

    @strawberry.mutation(description="Register a webhook endpoint (GM); the payload carries its signing secret once.")
    async def create_webhook(self, info: Info, input: CreateWebhookInput) -> WebhookSecretPayload:
        svc, token = ctx(info)
        body = guard(lambda: parse(webhooks.WebhookCreate, envelope_body(input)))
        campaign_id = str(input.campaign_id)
        out = await once(
            info, "createWebhook", campaign_id, body, lambda: webhooks.create(svc, campaign_id, token, body)
        )
        return {"webhook": out, "secret": out["secret"]}

    @strawberry.mutation(description="Change a webhook's URL, event types or view, or pause and resume it (GM).")
    async def update_webhook(self, info: Info, input: UpdateWebhookInput) -> Webhook:
        svc, token = ctx(info)
        body = guard(lambda: parse(webhooks.WebhookUpdate, envelope_body(input)))
        return await run(webhooks.update(svc, str(input.campaign_id), str(input.webhook_id), token, body))

    @strawberry.mutation(description="Replace a webhook's signing secret (GM); the new one is shown only here.")
    async def rotate_webhook_secret(self, info: Info, input: RotateWebhookSecretInput) -> WebhookSecretPayload:
        svc, token = ctx(info)
        body = guard(lambda: parse(webhooks.SecretRotation, envelope_body(input)))
        keep = body.keep_previous_seconds
        campaign_id, webhook_id = str(input.campaign_id), str(input.webhook_id)
        out = await once(
            info,
            f"rotateWebhookSecret {webhook_id}",  # a key stands for one webhook's rotation
            campaign_id,
            body,
            lambda: webhooks.rotate_secret(svc, campaign_id, webhook_id, token, keep),
        )
        return {"webhook": out, "secret": out["secret"]}

    @strawberry.mutation(description="Delete a webhook endpoint and its deliveries (GM).")
    async def delete_webhook(self, info: Info, input: WebhookInput) -> bool:
        svc, token = ctx(info)
        await run(webhooks.delete(svc, str(input.campaign_id), str(input.webhook_id), token))
        return True

    @strawberry.mutation(
        description="Send a delivery again, with the same webhook-id and a fresh budget of attempts (GM)."
    )
    async def redeliver_webhook_delivery(self, info: Info, input: WebhookDeliveryInput) -> WebhookDeliveryDetail:
        svc, token = ctx(info)
        out = await run(
            webhooks.redeliver(svc, str(input.campaign_id), str(input.webhook_id), str(input.delivery_id), token)
        )
        return await _typed(info, r.WebhookDeliveryDetail, out, input.campaign_id)


async def _check_sheet(info: Info, campaign_id, sheet) -> None:
    svc, token = ctx(info)
    expected = await run(system_of(svc, token, str(campaign_id)))
    if chosen_system(sheet) != expected:
        raise _mismatch(expected, chosen_system(sheet), "sheet")


@strawberry.type
class Subscription:
    @strawberry.subscription(
        description="The campaign's events as they happen, filtered by your role exactly as the "
        "events query: every event after the sequence number `after`, then each "
        "one as it is committed. Resume with the last seq you received."
    )
    async def campaign_events(
        self, info: Info, campaign_id: strawberry.ID, after: int = 0
    ) -> AsyncGenerator[Event, None]:
        svc, token = ctx(info)
        stream = feed.follow(svc, str(campaign_id), token, after)
        system = None
        try:
            while True:
                try:
                    event = await run(anext(stream))
                except StopAsyncIteration:
                    return
                system = system or await run(system_of(svc, token, str(campaign_id)))
                yield typed(r.LogEvent, event, system)
        finally:
            await stream.aclose()


def _field(root: Any, name: str) -> Any:
    """Results are the application layer's dicts (or model instances where a system's model applies)."""
    return root[name] if isinstance(root, dict) else getattr(root, name)


CONFIG = StrawberryConfig(default_resolver=_field, scalar_map={CampaignDocument: CAMPAIGN_DOCUMENT})


@functools.lru_cache(maxsize=8)
def make_schema(max_depth: int, max_aliases: int, max_tokens: int, max_cost: int) -> strawberry.Schema:
    """The schema with its limits (one per set of limits: see graphql/limits.py on the validation cache)."""
    rule = document_rule(DocumentLimits(max_depth=max_depth, max_aliases=max_aliases, max_cost=max_cost))
    built = ErrorSchema(
        query=Query,
        mutation=Mutation,
        subscription=Subscription,
        config=CONFIG,
        execution_context_class=ExecutionContext,
        extensions=[
            # Factories: a fresh extension per request; the caches themselves live at module level.
            lambda: MaxTokensLimiter(max_token_count=max_tokens),
            lambda: AddValidationRules([rule]),
            lambda: ParserCacheReportingErrors(maxsize=256),
            lambda: ValidationCacheByText(maxsize=256),
            ErrorCodes,
        ],
    )
    fast_unions(built._schema)
    return built


def schema_for(settings: Settings) -> strawberry.Schema:
    return make_schema(
        settings.graphql_max_depth, settings.graphql_max_aliases, settings.graphql_max_tokens, settings.graphql_max_cost
    )


schema = schema_for(Settings())
