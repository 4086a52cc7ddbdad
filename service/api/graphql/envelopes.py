"""The mutations' `input` objects, each made from its REST operation's body model (service/api/graphql/envelope.py)
and checked by the same model as REST; the ids are those REST takes in the URL.

What is inside a move, a sheet or a campaign's options is generated per rule system (service/api/graphql/inputs.py).
"""

import typing
from typing import TYPE_CHECKING, Any, TypeAlias

import strawberry

from service.api.graphql.envelope import Typed, envelope
from service.api.graphql.inputs import ActionInput, OptionsInput, SheetInput, action_body, per_system_body
from service.api.graphql.typed import GEN
from service.api import replies as r
from service.game import inputs as i
from service.game.webhooks import endpoints as webhooks

# An export is an archive a client keeps and gives back unchanged, not a shape it reads: one named scalar whose
# format is the REST document's strict CampaignDocument schema (every import is validated against it, 422 naming
# the field). GraphQL has no untyped input, and the document's event payloads and tables are open per system.
CampaignDocument = typing.NewType("CampaignDocument", object)
CAMPAIGN_DOCUMENT = strawberry.scalar(
    name="CampaignDocument",
    serialize=lambda v: v,
    parse_value=lambda v: v,
    description="A campaign as one JSON document (format `rulekeeper-campaign/1`, the REST document's "
    "CampaignDocument): what exportCampaign returns and importCampaign takes back unchanged.",
)

WebhookStatus = GEN.enum(typing.get_args(r.Webhook.model_fields["status"].annotation), "WebhookStatus")
# The enum and the inputs below are made when the module loads, so mypy has no class to check them against: to it
# each is Any (the resolvers in schema.py take them as arguments).
if TYPE_CHECKING:
    DeliveryStatus: TypeAlias = Any
else:
    DeliveryStatus = GEN.enum(
        typing.get_args(r.WebhookDelivery.model_fields["status"].annotation), "WebhookDeliveryStatus"
    )

# Where the body holds an open dict, GraphQL has a `@oneOf` input per rule system; the resolver checks that
# the system chosen is the campaign's.
OPTIONS = Typed(OptionsInput, lambda v: per_system_body(v)[1])
SHEET = Typed(SheetInput, lambda v: per_system_body(v)[1])
# The REST body's `system` is the field of ActionInput that is set: the resolver fills it in.
ACTION = Typed(ActionInput, lambda v: action_body(v)[1])
# The enum clients already send (`disabled` is refused by the body's model, 422, as on REST).
STATUS = Typed(WebhookStatus)
C = ("campaign_id",)
HOOK = ("campaign_id", "webhook_id")

if TYPE_CHECKING:
    CreateCampaignInput: TypeAlias = Any
    SetCampaignLanguageInput: TypeAlias = Any
    SetPlayerLanguageInput: TypeAlias = Any
    InvitePlayerInput: TypeAlias = Any
    CreateCharacterInput: TypeAlias = Any
    ValidateCharacterInput: TypeAlias = Any
    AssignCharacterInput: TypeAlias = Any
    ActInput: TypeAlias = Any
    RollInput: TypeAlias = Any
    SetClientSeedInput: TypeAlias = Any
    CloseDiceSessionInput: TypeAlias = Any
    UndoMovesInput: TypeAlias = Any
    CampaignInput: TypeAlias = Any
    CreateWebhookInput: TypeAlias = Any
    UpdateWebhookInput: TypeAlias = Any
    RotateWebhookSecretInput: TypeAlias = Any
    WebhookInput: TypeAlias = Any
    WebhookDeliveryInput: TypeAlias = Any
else:
    CreateCampaignInput = envelope("CreateCampaignInput", i.CampaignCreate, replace={"options": OPTIONS})
    SetCampaignLanguageInput = envelope("SetCampaignLanguageInput", i.CampaignLanguageUpdate, ids=C)
    SetPlayerLanguageInput = envelope(
        "SetPlayerLanguageInput", i.PlayerLanguageUpdate, ids=("campaign_id", "player_id")
    )
    InvitePlayerInput = envelope("InvitePlayerInput", i.PlayerInvite, ids=C)
    CreateCharacterInput = envelope("CreateCharacterInput", i.CharacterCreate, ids=C, replace={"sheet": SHEET})
    ValidateCharacterInput = envelope(
        "ValidateCharacterInput", i.CharacterValidationRequest, ids=C, replace={"sheet": SHEET}
    )
    AssignCharacterInput = envelope("AssignCharacterInput", i.CharacterAssign, ids=("campaign_id", "character_id"))
    ActInput = envelope(
        "ActInput",
        i.ActionRequest,
        ids=C,
        replace={"action": ACTION},
        skip=("system",),
        extra={
            # REST's If-Match header.
            "if_match": (
                int | None,
                strawberry.field(default=None, description="The table version you last saw; refused when it moved on."),
            )
        },
    )
    RollInput = envelope("RollInput", i.RollRequest, ids=C)
    SetClientSeedInput = envelope("SetClientSeedInput", i.ClientSeed, ids=C)
    CloseDiceSessionInput = envelope("CloseDiceSessionInput", ids=C)
    UndoMovesInput = envelope("UndoMovesInput", i.UndoRequest, ids=C)
    CampaignInput = envelope("CampaignInput", ids=C)
    CreateWebhookInput = envelope("CreateWebhookInput", webhooks.WebhookCreate, ids=C)
    UpdateWebhookInput = envelope("UpdateWebhookInput", webhooks.WebhookUpdate, ids=HOOK, replace={"status": STATUS})
    RotateWebhookSecretInput = envelope("RotateWebhookSecretInput", webhooks.SecretRotation, ids=HOOK)
    WebhookInput = envelope("WebhookInput", ids=HOOK)
    WebhookDeliveryInput = envelope("WebhookDeliveryInput", ids=(*HOOK, "delivery_id"))


# The REST body is the document itself; the scalar stands for the whole of it.
@strawberry.input
class ImportCampaignInput:
    document: CampaignDocument = strawberry.field(description="A document from exportCampaign.")
