"""Every REST operation, declared once: routing and the OpenAPI document are both built from this list."""

from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from typing import Any

from pydantic import BaseModel

from service.api.rest import deadlines as dl
from service.api.rest import endpoints as ep
from service.api import replies as r
from service.api.rest.systemschemas import action_request
from service.api.systemmodels import MODELS
from service.game.webhooks.endpoints import MAX_ROTATION_GRACE, SecretRotation


@dataclass(frozen=True)
class Operation:
    operation_id: str
    method: str
    path: str
    handler: Callable[..., Awaitable[Any]]
    summary: str
    response: type[BaseModel]
    status: int = 200
    tag: str = "campaigns"
    auth: str = "token"  # "token", "operator" (campaign creation) or "none"
    errors: tuple[int, ...] = ()
    etag: bool = False
    if_match: bool = False
    idempotent_key: bool = False
    # The command claims the key in its own write transaction (service/game/idempotency.py claim_in_command).
    key_in_command: bool = False
    query: tuple[tuple[str, str, dict], ...] = ()
    description: str = ""
    extra: dict = field(default_factory=dict)
    body: type[BaseModel] | None = None
    system: str | None = None  # an operation of one rule system's campaigns only

    @property
    def request(self) -> type[BaseModel] | None:
        return self.body or ep.INPUTS.get(self.operation_id)


# The GraphQL mutation takes the same field in its input (service/api/graphql/envelopes.py).
ROTATION = SecretRotation.model_fields["keep_previous_seconds"]
C = "/v1/campaigns/{campaign_id}"
READ = (401, 404, 503)
WRITE = (400, 401, 403, 404, 409, 413, 415, 422, 503)

OPERATIONS: list[Operation] = [
    Operation(
        "listSystems",
        "GET",
        "/v1/systems",
        ep.list_systems,
        "The rule systems, their options and actions",
        r.SystemList,
        tag="systems",
        auth="none",
    ),
    Operation(
        "createCampaign",
        "POST",
        "/v1/campaigns",
        ep.create_campaign,
        "Create a campaign and receive its GM token",
        r.CampaignCreated,
        201,
        auth="operator",
        errors=(400, 401, 413, 415, 422, 503),
        idempotent_key=True,
        description="When the deployment sets RULEKEEPER_OPERATOR_KEY, send it as the bearer token. "
        "Without one, an Idempotency-Key is the only secret that ties a retry to its first "
        "request (and its GM token): it must then be at least 32 random characters, e.g. a UUID.",
    ),
    Operation(
        "importCampaign",
        "POST",
        "/v1/campaigns/import",
        ep.import_campaign,
        "Import a campaign document (from exportCampaign) as a new campaign",
        r.CampaignImported,
        201,
        auth="operator",
        errors=(400, 401, 403, 409, 413, 415, 422, 429, 503),
        idempotent_key=True,
        description="Off unless the operator allows it (RULEKEEPER_IMPORT; with RULEKEEPER_OPERATOR_KEY set, "
        "send the key as the bearer token). The table at version 0 is built from the options, every "
        "sheet is rebuilt by the rule system, every move replayed with its recorded dice, and each "
        "move's events compared with the replay's: the first that differs refuses the document "
        "(422, naming it). Ids, tokens and webhook secrets are new; the campaign's `imported` says "
        "where it came from, and its dice events carry `imported: true`. One import at a time "
        "per caller (429 `import_in_progress`).",
    ),
    Operation(
        "getCampaign",
        "GET",
        C,
        ep.get_campaign,
        "A campaign, its players, and who you are in it",
        r.CampaignDetail,
        errors=READ,
    ),
    Operation(
        "invitePlayer",
        "POST",
        f"{C}/players",
        ep.invite_player,
        "Invite a player and receive their token",
        r.PlayerCreated,
        201,
        errors=WRITE,
        idempotent_key=True,
    ),
    Operation(
        "setCampaignLanguage",
        "PUT",
        f"{C}/language",
        ep.set_campaign_language,
        "Set the campaign's default language (GM)",
        r.Campaign,
        errors=WRITE,
        description="Replies use, in order: the request's Accept-Language, the player's own language, this "
        "default, English. See docs/frontend.md, Languages.",
    ),
    Operation(
        "setPlayerLanguage",
        "PUT",
        f"{C}/players/{{player_id}}/language",
        ep.set_player_language,
        "Set your own language as a player (null: the campaign's)",
        r.Player,
        errors=WRITE,
        description="Only the player the token belongs to may set it. A request's Accept-Language still comes first.",
    ),
    Operation(
        "listCharacters",
        "GET",
        f"{C}/characters",
        ep.list_characters,
        "The campaign's characters",
        r.CharacterList,
        tag="characters",
        errors=READ,
    ),
    Operation(
        "createCharacter",
        "POST",
        f"{C}/characters",
        ep.create_character,
        "Create a character from a sheet the rule system validates",
        r.Character,
        201,
        tag="characters",
        errors=WRITE,
        idempotent_key=True,
    ),
    Operation(
        "validateCharacter",
        "POST",
        f"{C}/characters/validate",
        ep.validate_character,
        "Check a sheet without saving it; returns the completed sheet",
        r.CharacterValidation,
        tag="characters",
        errors=WRITE,
    ),
    Operation(
        "getCharacter",
        "GET",
        f"{C}/characters/{{character_id}}",
        ep.get_character,
        "One character",
        r.Character,
        tag="characters",
        errors=READ,
    ),
    Operation(
        "assignCharacter",
        "PUT",
        f"{C}/characters/{{character_id}}/player",
        ep.assign_character,
        "Assign a character to a player (GM)",
        r.Character,
        tag="characters",
        errors=WRITE,
    ),
    Operation(
        "getState",
        "GET",
        f"{C}/state",
        ep.get_state,
        "The table as you may see it: characters, scene, encounter, pending choices",
        r.TableState,
        tag="play",
        errors=(400,) + READ,
        etag=True,
        query=(
            (
                "version",
                "The table as it stood at this earlier version (time travel); omit for now.",
                {"type": "integer", "minimum": 0, "maximum": 2**31 - 1},
            ),
        ),
    ),
    Operation(
        "undoMoves",
        "POST",
        f"{C}/undo",
        ep.undo_moves,
        "Undo the latest moves (GM); the undone moves and their dice stay in the log",
        r.ActionResult,
        tag="play",
        errors=WRITE,
        etag=True,
        idempotent_key=True,
    ),
    Operation(
        "finishCampaign",
        "POST",
        f"{C}/finish",
        ep.finish_campaign,
        "Finish the campaign (GM): no new moves; everything stays readable",
        r.Campaign,
        errors=WRITE,
        idempotent_key=True,
    ),
    Operation(
        "exportCampaign",
        "GET",
        f"{C}/export",
        ep.export_campaign,
        "The whole campaign as one document: moves with their dice, events, dice sessions (GM)",
        r.CampaignDocument,
        errors=READ + (403,),
    ),
    Operation(
        "deleteCampaign",
        "DELETE",
        C,
        ep.delete_campaign,
        "Delete a finished campaign and everything in it (GM)",
        r.Empty,
        204,
        errors=(401, 403, 404, 409, 503),
    ),
    Operation(
        "postAction",
        "POST",
        f"{C}/actions",
        ep.post_action,
        "Make a move: the service checks it against the rules, rolls, and answers with the new state",
        r.ActionResult,
        tag="play",
        errors=WRITE + (412,),
        etag=True,
        if_match=True,
        idempotent_key=True,
        key_in_command=True,
        description="`action` is a move of the campaign's rule system; `system`, when sent, must be the "
        "campaign's (409 `system_mismatch` otherwise). The per-system operations below take "
        "only their own system's moves, so a typed client can offer exactly those.",
    ),
    *[
        Operation(
            f"post{m.prefix}Action",
            "POST",
            f"{C}/actions/{m.id}",
            ep.system_action(m.id),
            f"Make a move in a {m.id} campaign (the campaign's system must be {m.id})",
            r.ActionResult,
            tag="play",
            errors=WRITE + (412,),
            etag=True,
            if_match=True,
            idempotent_key=True,
            key_in_command=True,
            body=action_request(m),
            system=m.id,
            description=f"As postAction, with the move checked against {m.id}'s actions only; a campaign of "
            "another system answers 409 `system_mismatch`.",
        )
        for m in MODELS.values()
    ],
    Operation(
        "rollExpression",
        "POST",
        f"{C}/rolls",
        ep.post_roll,
        "Roll a free dice expression, logged",
        r.RollResult,
        tag="play",
        errors=WRITE,
        idempotent_key=True,
    ),
    Operation(
        "listEvents",
        "GET",
        f"{C}/events",
        ep.read_events,
        "The event log after a sequence number",
        r.EventPage,
        tag="events",
        errors=(400,) + READ,
        query=(
            (
                "after",
                "Return events with a sequence number above this.",
                {"type": "integer", "minimum": 0, "maximum": 2**31 - 1},
            ),
            ("limit", "At most this many events (1-500).", {"type": "integer", "minimum": 1, "maximum": 500}),
        ),
    ),
    Operation(
        "listDiceSessions",
        "GET",
        f"{C}/dice-sessions",
        ep.list_dice_sessions,
        "Verifiable mode: every dice session with its commitment (and seed once closed)",
        r.DiceSessionList,
        tag="dice",
        errors=READ + (409,),
    ),
    Operation(
        "setClientSeed",
        "PUT",
        f"{C}/dice-sessions/current/client-seed",
        ep.set_client_seed,
        "Verifiable mode: add the table's own seed before the session's first die",
        r.DiceSession,
        tag="dice",
        errors=WRITE,
    ),
    Operation(
        "closeDiceSession",
        "POST",
        f"{C}/dice-sessions/current/close",
        ep.close_dice_session,
        "Verifiable mode: reveal the seed and open the next session (GM)",
        r.DiceSessionClosed,
        tag="dice",
        errors=WRITE,
        idempotent_key=True,
    ),
    Operation(
        "verifyDiceSession",
        "GET",
        f"{C}/dice-sessions/{{number}}/verification",
        ep.verify_dice_session,
        "Verifiable mode: a closed session's seed and every die it produced, with the service's check",
        r.Verification,
        tag="dice",
        errors=READ + (409,),
    ),
    Operation(
        "createWebhook",
        "POST",
        f"{C}/webhooks",
        ep.create_webhook,
        "Register a webhook endpoint (GM); the response carries its signing secret, shown only here",
        r.WebhookCreated,
        201,
        tag="webhooks",
        errors=WRITE,
        idempotent_key=True,
        description="The URL must reach a public address (private, loopback, link-local and reserved ones "
        "are refused). Deliveries are signed per Standard Webhooks; see the `webhooks` section.",
    ),
    Operation(
        "listWebhooks",
        "GET",
        f"{C}/webhooks",
        ep.list_webhooks,
        "The campaign's webhook endpoints (GM)",
        r.WebhookList,
        tag="webhooks",
        errors=READ + (403,),
    ),
    Operation(
        "getWebhook",
        "GET",
        f"{C}/webhooks/{{webhook_id}}",
        ep.get_webhook,
        "One webhook endpoint (GM)",
        r.Webhook,
        tag="webhooks",
        errors=READ + (403,),
    ),
    Operation(
        "updateWebhook",
        "PATCH",
        f"{C}/webhooks/{{webhook_id}}",
        ep.update_webhook,
        "Change a webhook's URL, event types or view, or pause and resume it (GM)",
        r.Webhook,
        tag="webhooks",
        errors=WRITE,
    ),
    Operation(
        "rotateWebhookSecret",
        "POST",
        f"{C}/webhooks/{{webhook_id}}/rotate-secret",
        ep.rotate_webhook_secret,
        "Replace a webhook's signing secret (GM); the new one is shown only here",
        r.WebhookCreated,
        tag="webhooks",
        errors=(400,) + WRITE,
        idempotent_key=True,
        query=(
            (
                "keep_previous_seconds",
                ROTATION.description or "",
                {"type": "integer", "minimum": 0, "maximum": MAX_ROTATION_GRACE},
            ),
        ),
    ),
    Operation(
        "deleteWebhook",
        "DELETE",
        f"{C}/webhooks/{{webhook_id}}",
        ep.delete_webhook,
        "Delete a webhook endpoint and its deliveries (GM)",
        r.Empty,
        204,
        tag="webhooks",
        errors=(401, 403, 404, 503),
    ),
    Operation(
        "listWebhookDeliveries",
        "GET",
        f"{C}/webhooks/{{webhook_id}}/deliveries",
        ep.list_webhook_deliveries,
        "A webhook's deliveries, newest first, with status, response code and timing (GM)",
        r.WebhookDeliveryPage,
        tag="webhooks",
        errors=(400, 403) + READ,
        query=(
            (
                "status",
                "Only deliveries in this status.",
                {"type": "string", "enum": ["pending", "delivered", "failed"]},
            ),
            (
                "before",
                "Only deliveries of events with a sequence number below this.",
                {"type": "integer", "minimum": 1, "maximum": 2**31 - 1},
            ),
            ("limit", "At most this many (1-100).", {"type": "integer", "minimum": 1, "maximum": 100}),
        ),
    ),
    Operation(
        "getWebhookDelivery",
        "GET",
        f"{C}/webhooks/{{webhook_id}}/deliveries/{{delivery_id}}",
        ep.get_webhook_delivery,
        "One delivery with its body and every attempt (GM)",
        r.WebhookDeliveryDetail,
        tag="webhooks",
        errors=READ + (403,),
    ),
    Operation(
        "redeliverWebhookDelivery",
        "POST",
        f"{C}/webhooks/{{webhook_id}}/deliveries/{{delivery_id}}/redeliver",
        ep.redeliver_webhook_delivery,
        "Send a delivery again, with the same webhook-id and a fresh budget of attempts (GM)",
        r.WebhookDeliveryDetail,
        tag="webhooks",
        errors=(401, 403, 404, 503),
    ),
]
OPERATIONS += dl.operations(Operation, C, READ, WRITE)


def operations_for(systems: list[str]) -> list[Operation]:
    """The operations a document for these rule systems lists (the per-system ones of those systems only)."""
    return [op for op in OPERATIONS if op.system is None or op.system in systems]
