"""Payload models of the events the service itself logs (not a rule system's): campaigns, players, characters,
dice and dice sessions, free rolls, undo. Both contracts type `LogEvent.data` / `EventData` with them, next to
the systems' own payloads; tests/api/test_service_events.py plays a campaign and checks every such event, as
the GM and as a player sees it, against these.
"""

from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field


class _Payload(BaseModel):
    model_config = ConfigDict(extra="forbid")


class LoggedDie(_Payload):
    """One die as it was thrown."""

    sides: int
    face: int
    source: Literal["server", "verifiable", "table"]
    seq: int | None = Field(description="Position in the verifiable dice session; null in other modes.")
    purpose: str


class Refusal(_Payload):
    code: str
    status: int
    detail: str


class DiceRolledEvent(_Payload):
    """Dice the service drew. GM-only dice show players only `hidden: "gm"`; sealed dice (a shuffle) show everyone
    only how many (`hidden_dice`) until a later event unseals them."""

    model_config = ConfigDict(extra="forbid", title="DiceRolledEvent")

    purpose: str = Field(description="The move or roll the dice were drawn for.")
    dice_session: int | None = Field(None, description="The verifiable session that produced them.")
    refused: Refusal | None = Field(None, description="Present when the command that drew them was refused.")
    dice: list[LoggedDie] | None = Field(None, description="Absent where the dice are hidden from you.")
    hidden: Literal["gm"] | None = None
    sealed: list[str] | None = Field(None, description="The seals (e.g. `deck_shuffle:3`) that hide these dice.")
    hidden_dice: int | None = Field(None, description="How many sealed dice were thrown.")
    imported: bool | None = Field(
        None, description="true: the dice came with an imported campaign's document; this server did not roll them."
    )


class CampaignCreatedEvent(_Payload):
    name: str
    system: str
    options: dict[str, Any]
    dice_mode: Literal["server", "verifiable", "table"]
    language: Literal["en", "pl", "ru"] | None = Field(None, description="The campaign's default language.")


class DiceSessionOpenedEvent(_Payload):
    number: int
    commitment: str


class DiceSessionClientSeedEvent(_Payload):
    number: int
    client_seed: str


class DiceSessionClosedEvent(_Payload):
    number: int
    seed: str
    commitment: str
    client_seed: str
    rolls: int


class PlayerInvitedEvent(_Payload):
    player_id: str
    name: str


class CharacterCreatedEvent(_Payload):
    character_id: str
    player_id: str | None
    name: str


class CharacterAssignedEvent(_Payload):
    character_id: str
    player_id: str | None


class ExpressionRolledEvent(_Payload):
    expression: str
    label: str | None
    total: int
    text: str
    tree: dict[str, Any] = Field(description="The expression as evaluated (d20's tree).")
    imported: bool | None = Field(None, description="true: rolled before the campaign was imported, not here.")


class UndoneBy(_Payload):
    role: Literal["gm", "player"]
    player_id: str | None


class UndoneEvent(_Payload):
    undone_versions: list[int]
    back_to_version: int
    from_version: int
    by: UndoneBy


class CampaignFinishedEvent(_Payload):
    version: int


class CampaignLanguageChangedEvent(_Payload):
    language: Literal["en", "pl", "ru"]


class DeadlineEvent(_Payload):
    """One timed wait (docs/frontend.md, Turn deadlines)."""

    deadline_id: str
    character_id: str | None
    may: list[str] = Field(description="The moves the wait is for.")
    kind: str = Field(description="`turn` or `choice`.")
    until: str | None = Field(description="When it runs out (ISO 8601, UTC); null while paused or once expired.")


class DeadlineSetEvent(DeadlineEvent):
    seconds: float = Field(description="The time limit it was given.")


class DeadlineWarningEvent(DeadlineEvent):
    seconds_left: float


class DeadlineExtendedEvent(DeadlineEvent):
    seconds: float = Field(description="How much time was added.")


class DeadlineExpiredEvent(DeadlineEvent):
    default_action: dict[str, Any] | None = Field(
        description="The move made for the absent player; null when the wait went to the GM."
    )
    handed_to: Literal["gm", "rules"]
    reason: str | None = Field(None, description="Why the GM takes the wait over (e.g. `no_default`).")


class DeadlineDefaultRefusedEvent(_Payload):
    deadline_id: str
    code: str
    detail: str


class DeadlineSettingsChangedEvent(_Payload):
    turn_seconds: int | None
    choice_seconds: int | None
    warning_seconds: int


class DeadlinesPausedEvent(_Payload):
    deadlines: list[DeadlineWarningEvent] = Field(description="The waits stopped, each with the time it had left.")


class DeadlinesResumedEvent(_Payload):
    deadlines: list[DeadlineEvent]


class WebhookDisabledEvent(_Payload):
    """GM only: the service stopped sending to an endpoint that kept timing out (docs/operator.md, Webhooks)."""

    webhook_id: str
    description: str = Field(description="The webhook's own description, as the GM wrote it.")
    timeouts_in_row: int = Field(description="Attempts in a row that got no answer in time.")
    last_error: str = Field(description="Why the last attempt failed.")


class DeadlinesPausedUnattendedEvent(_Payload):
    """The clock made RULEKEEPER_DEADLINE_MAX_DEFAULTS_IN_ROW default moves in a row with nobody at the table
    moving, and paused the deadlines (docs/frontend.md, Turn deadlines); the GM resumes them."""

    defaults_in_row: int = Field(description="Default moves made in a row before the pause.")
    deadlines: list[DeadlineWarningEvent] = Field(description="The waits stopped, each with the time it had left.")


SERVICE_EVENTS: dict[str, type[BaseModel]] = {
    "campaign_created": CampaignCreatedEvent,
    "dice_session_opened": DiceSessionOpenedEvent,
    "dice_session_client_seed": DiceSessionClientSeedEvent,
    "dice_session_closed": DiceSessionClosedEvent,
    "player_invited": PlayerInvitedEvent,
    "character_created": CharacterCreatedEvent,
    "character_assigned": CharacterAssignedEvent,
    "dice_rolled": DiceRolledEvent,
    "expression_rolled": ExpressionRolledEvent,
    "undone": UndoneEvent,
    "campaign_finished": CampaignFinishedEvent,
    "campaign_language_changed": CampaignLanguageChangedEvent,
    "deadline_set": DeadlineSetEvent,
    "deadline_cleared": DeadlineEvent,
    "deadline_warning": DeadlineWarningEvent,
    "deadline_extended": DeadlineExtendedEvent,
    "deadline_expired": DeadlineExpiredEvent,
    "deadline_default_refused": DeadlineDefaultRefusedEvent,
    "deadline_settings_changed": DeadlineSettingsChangedEvent,
    "deadlines_paused": DeadlinesPausedEvent,
    "deadlines_resumed": DeadlinesResumedEvent,
    "deadlines_paused_unattended": DeadlinesPausedUnattendedEvent,
    "webhook_disabled": WebhookDisabledEvent,
}
