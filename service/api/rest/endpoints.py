"""REST handlers: translate HTTP to application-layer calls. No rules live here."""

from typing import Any

from pydantic import BaseModel

from service.api.rest import deadlines
from service.api.rest.request import Call
from service.game.campaigns import records as campaigns, dicesessions, history, languages
from service.game.moves import play, rolls
from service.game import systems
from service.game.transfer import commands as transfer
from service.game.webhooks import endpoints as webhooks
from service.game.errors import GameError
from service.game.inputs import (
    MAX_SEQ,
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
from service.i18n.message import _

Reply = tuple[int, Any, dict[str, str]]


async def list_systems(c: Call) -> Reply:
    return 200, {"items": systems.summaries()}, {}


async def create_campaign(c: Call) -> Reply:
    return 201, await campaigns.create_campaign(c.svc, c.body, c.token), {}


async def get_campaign(c: Call) -> Reply:
    return 200, await campaigns.get_campaign(c.svc, c.path["campaign_id"], c.token), {}


async def invite_player(c: Call) -> Reply:
    return 201, await campaigns.invite_player(c.svc, c.path["campaign_id"], c.token, c.body), {}


async def set_campaign_language(c: Call) -> Reply:
    return 200, await languages.set_campaign_language(c.svc, c.path["campaign_id"], c.token, c.body), {}


async def set_player_language(c: Call) -> Reply:
    return (
        200,
        await languages.set_player_language(c.svc, c.path["campaign_id"], c.path["player_id"], c.token, c.body),
        {},
    )


async def list_characters(c: Call) -> Reply:
    return 200, {"items": await campaigns.list_characters(c.svc, c.path["campaign_id"], c.token)}, {}


async def create_character(c: Call) -> Reply:
    body: CharacterCreate = c.body
    return 201, await campaigns.create_character(c.svc, c.path["campaign_id"], c.token, body.sheet, body.player_id), {}


async def validate_character(c: Call) -> Reply:
    return 200, await campaigns.validate_character(c.svc, c.path["campaign_id"], c.token, c.body.sheet), {}


async def get_character(c: Call) -> Reply:
    return 200, await campaigns.get_character(c.svc, c.path["campaign_id"], c.path["character_id"], c.token), {}


async def assign_character(c: Call) -> Reply:
    return (
        200,
        await campaigns.assign_character(c.svc, c.path["campaign_id"], c.path["character_id"], c.token, c.body),
        {},
    )


async def get_state(c: Call) -> Reply:
    version = c.query_int("version", -1, minimum=0, maximum=MAX_SEQ)
    out = await play.get_state(c.svc, c.path["campaign_id"], c.token, None if version < 0 else version, spliced=True)
    return 200, out, {"ETag": play.etag(out["version"])}


async def undo_moves(c: Call) -> Reply:
    out = await history.undo(c.svc, c.path["campaign_id"], c.token, c.body.count)
    return 200, out, {"ETag": play.etag(out["version"])}


async def finish_campaign(c: Call) -> Reply:
    return 200, await history.finish(c.svc, c.path["campaign_id"], c.token), {}


async def delete_campaign(c: Call) -> Reply:
    await history.delete_campaign(c.svc, c.path["campaign_id"], c.token)
    return 204, None, {}


async def export_campaign(c: Call) -> Reply:
    return 200, await transfer.export(c.svc, c.path["campaign_id"], c.token), {}


async def import_campaign(c: Call) -> Reply:
    client = c.request.client
    return 201, await transfer.import_campaign(c.svc, c.body, c.token, client.host if client else ""), {}


async def post_action(c: Call) -> Reply:
    out = await play.act(c.svc, c.path["campaign_id"], c.token, c.body, c.request.headers.get("if-match"))
    return 200, out, {"ETag": play.etag(out["version"])}


def system_action(system_id: str):
    async def post_system_action(c: Call) -> Reply:
        body = ActionRequest(
            system=system_id, action=c.body.action.model_dump(mode="json", exclude_unset=True), dice=c.body.dice
        )
        out = await play.act(c.svc, c.path["campaign_id"], c.token, body, c.request.headers.get("if-match"))
        return 200, out, {"ETag": play.etag(out["version"])}

    post_system_action.__name__ = f"post_{system_id}_action"
    return post_system_action


async def post_roll(c: Call) -> Reply:
    return 200, await rolls.roll(c.svc, c.path["campaign_id"], c.token, c.body), {}


async def read_events(c: Call) -> Reply:
    after = c.query_int("after", 0, maximum=MAX_SEQ)
    limit = c.query_int("limit", 100, minimum=1, maximum=500)
    return 200, await campaigns.read_events(c.svc, c.path["campaign_id"], c.token, after, limit), {}


async def list_dice_sessions(c: Call) -> Reply:
    return 200, {"items": await dicesessions.list_sessions(c.svc, c.path["campaign_id"], c.token)}, {}


async def set_client_seed(c: Call) -> Reply:
    return 200, await dicesessions.set_client_seed(c.svc, c.path["campaign_id"], c.token, c.body), {}


async def close_dice_session(c: Call) -> Reply:
    return 200, await dicesessions.close_session(c.svc, c.path["campaign_id"], c.token), {}


async def verify_dice_session(c: Call) -> Reply:
    return 200, await dicesessions.verification(c.svc, c.path["campaign_id"], c.path["number"], c.token), {}


async def create_webhook(c: Call) -> Reply:
    return 201, await webhooks.create(c.svc, c.path["campaign_id"], c.token, c.body), {}


async def list_webhooks(c: Call) -> Reply:
    return 200, {"items": await webhooks.list_webhooks(c.svc, c.path["campaign_id"], c.token)}, {}


async def get_webhook(c: Call) -> Reply:
    return 200, await webhooks.get(c.svc, c.path["campaign_id"], c.path["webhook_id"], c.token), {}


async def update_webhook(c: Call) -> Reply:
    return 200, await webhooks.update(c.svc, c.path["campaign_id"], c.path["webhook_id"], c.token, c.body), {}


async def rotate_webhook_secret(c: Call) -> Reply:
    keep = c.query_int("keep_previous_seconds", 0, maximum=webhooks.MAX_ROTATION_GRACE)
    return 200, await webhooks.rotate_secret(c.svc, c.path["campaign_id"], c.path["webhook_id"], c.token, keep), {}


async def delete_webhook(c: Call) -> Reply:
    await webhooks.delete(c.svc, c.path["campaign_id"], c.path["webhook_id"], c.token)
    return 204, None, {}


async def list_webhook_deliveries(c: Call) -> Reply:
    status = c.request.query_params.get("status")
    if status is not None and status not in webhooks.DELIVERY_STATUSES:
        raise GameError(
            400,
            "invalid_query",
            _("`status` is one of {delivery_statuses}", delivery_statuses=", ".join(webhooks.DELIVERY_STATUSES)),
            field="status",
        )
    before = c.query_int("before", -1, minimum=1, maximum=MAX_SEQ)
    limit = c.query_int("limit", 50, minimum=1, maximum=100)
    return (
        200,
        await webhooks.deliveries(
            c.svc,
            c.path["campaign_id"],
            c.path["webhook_id"],
            c.token,
            status=status,
            before=None if before < 0 else before,
            limit=limit,
        ),
        {},
    )


async def get_webhook_delivery(c: Call) -> Reply:
    return (
        200,
        await webhooks.delivery(c.svc, c.path["campaign_id"], c.path["webhook_id"], c.path["delivery_id"], c.token),
        {},
    )


async def redeliver_webhook_delivery(c: Call) -> Reply:
    return (
        200,
        await webhooks.redeliver(c.svc, c.path["campaign_id"], c.path["webhook_id"], c.path["delivery_id"], c.token),
        {},
    )


INPUTS: dict[str, type[BaseModel]] = {
    "createCampaign": CampaignCreate,
    "invitePlayer": PlayerInvite,
    "createCharacter": CharacterCreate,
    "validateCharacter": CharacterValidationRequest,
    "assignCharacter": CharacterAssign,
    "postAction": ActionRequest,
    "rollExpression": RollRequest,
    "setClientSeed": ClientSeed,
    "undoMoves": UndoRequest,
    "importCampaign": transfer.CampaignDocument,
    "createWebhook": webhooks.WebhookCreate,
    "updateWebhook": webhooks.WebhookUpdate,
    "setCampaignLanguage": CampaignLanguageUpdate,
    "setPlayerLanguage": PlayerLanguageUpdate,
}
INPUTS.update(deadlines.INPUTS)
