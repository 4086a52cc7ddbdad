"""The mutations' `input` objects: ids, the per-system `@oneOf` inputs and the few scalars around them.

What is inside a move, a sheet or a campaign's options is generated (service/api/graphql/inputs.py); the
bodies are checked by the same request models as REST (service/game/inputs.py).
"""

from __future__ import annotations

import typing

import strawberry

from service.api.graphql.deadlines import TurnDeadlinesInput
from service.api.graphql.inputs import ActionInput, OptionsInput, SheetInput
from service.api.graphql.typed import GEN
from service.api import replies as r
from service.dice.types import DiceMode
from service.rules.registry import SYSTEMS

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

System = GEN.enum(tuple(SYSTEMS), "System")
DiceModeEnum = GEN.enum(typing.get_args(DiceMode), "DiceMode")
WebhookView = GEN.enum(typing.get_args(r.Webhook.model_fields["view"].annotation), "WebhookView")
WebhookStatus = GEN.enum(typing.get_args(r.Webhook.model_fields["status"].annotation), "WebhookStatus")
Language = GEN.enum(typing.get_args(r.Campaign.model_fields["language"].annotation), "Language")
DeliveryStatus = GEN.enum(typing.get_args(r.WebhookDelivery.model_fields["status"].annotation), "WebhookDeliveryStatus")


@strawberry.input
class CreateCampaignInput:
    name: str
    system: System  # type: ignore[valid-type]
    options: OptionsInput | None = strawberry.field(
        default=None, description="The options of `system`; omitted ones take the spec's default."
    )
    dice_mode: DiceModeEnum = DiceModeEnum("server")  # type: ignore[valid-type]
    turn_deadlines: TurnDeadlinesInput | None = strawberry.field(  # type: ignore[valid-type]
        default=None, description="Time limits for players' turns and pending choices; omitted: none."
    )
    language: Language = strawberry.field(  # type: ignore[valid-type]
        default=Language("en"), description="The campaign's default language."
    )


@strawberry.input
class SetCampaignLanguageInput:
    campaign_id: strawberry.ID
    language: Language  # type: ignore[valid-type]


@strawberry.input
class SetPlayerLanguageInput:
    campaign_id: strawberry.ID
    player_id: strawberry.ID
    language: Language | None = strawberry.field(  # type: ignore[valid-type]
        description="Null: the campaign's language."
    )


@strawberry.input
class InvitePlayerInput:
    campaign_id: strawberry.ID
    name: str


@strawberry.input
class CreateCharacterInput:
    campaign_id: strawberry.ID
    sheet: SheetInput
    player_id: strawberry.ID | None = strawberry.field(
        default=None, description="GM only: the player who controls the character."
    )


@strawberry.input
class ValidateCharacterInput:
    campaign_id: strawberry.ID
    sheet: SheetInput


@strawberry.input
class AssignCharacterInput:
    campaign_id: strawberry.ID
    character_id: strawberry.ID
    player_id: strawberry.ID | None


@strawberry.input
class ActInput:
    campaign_id: strawberry.ID
    action: ActionInput
    dice: list[int] | None = strawberry.field(
        default=None, description="Table mode only: the physical faces, in the order the move rolls them."
    )
    if_match: int | None = strawberry.field(
        default=None, description="The table version you last saw; refused when it moved on."
    )


@strawberry.input
class RollInput:
    campaign_id: strawberry.ID
    expression: str
    label: str | None = None
    dice: list[int] | None = None


@strawberry.input
class SetClientSeedInput:
    campaign_id: strawberry.ID
    client_seed: str


@strawberry.input
class CloseDiceSessionInput:
    campaign_id: strawberry.ID


@strawberry.input
class UndoMovesInput:
    campaign_id: strawberry.ID
    count: int = 1


@strawberry.input
class CampaignInput:
    campaign_id: strawberry.ID


@strawberry.input
class ImportCampaignInput:
    document: CampaignDocument = strawberry.field(  # type: ignore[valid-type]
        description="A document from exportCampaign."
    )


@strawberry.input
class CreateWebhookInput:
    campaign_id: strawberry.ID
    url: str
    event_types: list[str] | None = strawberry.field(default=None, description="Omitted or empty: every type.")
    view: WebhookView = strawberry.field(
        default=WebhookView("players"),  # type: ignore[valid-type]
        description="Whose view of the events.",
    )
    description: str = ""


@strawberry.input
class UpdateWebhookInput:
    campaign_id: strawberry.ID
    webhook_id: strawberry.ID
    url: str | None = None
    event_types: list[str] | None = None
    view: WebhookView | None = None  # type: ignore[valid-type]
    status: WebhookStatus | None = None  # type: ignore[valid-type]
    description: str | None = None


@strawberry.input
class RotateWebhookSecretInput:
    campaign_id: strawberry.ID
    webhook_id: strawberry.ID
    keep_previous_seconds: int = strawberry.field(
        default=0, description="Keep signing with the old secret too for this long."
    )


@strawberry.input
class WebhookInput:
    campaign_id: strawberry.ID
    webhook_id: strawberry.ID


@strawberry.input
class WebhookDeliveryInput:
    campaign_id: strawberry.ID
    webhook_id: strawberry.ID
    delivery_id: strawberry.ID
